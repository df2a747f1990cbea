//! Numbers pinned from a native run, checked natively (tests/determinism.rs)
//! and in the browser (tests/web.rs): if wasm drew different bits, or a
//! dependency bump changed the generator, a share link would change meaning.

/// A link with jitter that reads every random draw the pause chain makes.
pub const LINK: &str =
    "v=1&attempts=6&jitter=decorrelated&base=0.05&cap=2&seed=7&samples=500&timeout=0.3";

/// FNV-1a over the bytes of the study's JSON for [`LINK`]: cheap to pin,
/// and any changed bit of any number changes it.
pub fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

pub const STUDY_FINGERPRINT: u64 = 8181237532946994632;

/// The first pauses of client 3 under [`LINK`]'s policy with seed 7.
pub const CLIENT3_PAUSES: [f64; 5] = [
    0.0751340869074455,
    0.1866671985987779,
    0.270574526469332,
    0.0963571770825864,
    0.09780758513594559,
];
