//! Numbers pinned from a native run, checked natively (tests/determinism.rs)
//! and in the browser (tests/web.rs): if wasm drew different bits, or a
//! dependency bump changed the generator, a share link would change meaning.

/// A small run that reads every kind of random draw: exponential hops and
/// service times (ln), jittered pauses, failures, lost responses.
pub const LINK: &str = "v=1&attempts=5&jitter=decorrelated&base=0.05&cap=2&timeout=0.3&rate=200\
&horizon=5&buckets=50&failure=0.3&mix_429=0.5&retry_after=0.2&lost=0.05&service=normal&seed=7";

/// The same kinds of draws with unlimited workers, two layers and an outage:
/// operations that cannot meet run one at a time (`sim::world`), a path of
/// its own to pin.
pub const ALONE_LINK: &str = "v=1&attempts=4&jitter=full&base=0.05&cap=1&timeout=0.3&deadline=2\
&rate=200&horizon=5&buckets=50&failure=0.3&mix_429=0.5&retry_after=0.2&lost=0.05&service=normal\
&hop=exponential&hop_mean=0.01&workers=0&layers=2&outage_at=2&outage_for=0.5&outage=hang&seed=7";

/// [`ALONE_LINK`] with one layer: natively it runs on the plain world's
/// own copy of the engine, in the browser on the general one.
pub const PLAIN_LINK: &str = "v=1&attempts=4&jitter=full&base=0.05&cap=1&timeout=0.3&deadline=2\
&rate=200&horizon=5&buckets=50&failure=0.3&mix_429=0.5&retry_after=0.2&lost=0.05&service=normal\
&hop=exponential&hop_mean=0.01&workers=0&layers=1&outage_at=2&outage_for=0.5&outage=hang&seed=7";

/// FNV-1a over the bytes of a report's JSON: cheap to pin, and any changed
/// bit of any number changes it.
pub fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Each pinned link with the fingerprint of its report.
pub const REPORTS: [(&str, u64); 3] = [
    (LINK, 2662466820237466184),
    (ALONE_LINK, 6279318550589883802),
    (PLAIN_LINK, 18172609887090168244),
];

/// The first pauses of client 3 under [`LINK`]'s policy with seed 7.
pub const CLIENT3_PAUSES: [f64; 4] = [
    0.10948885693198808,
    0.1831116064633342,
    0.3962881299471206,
    0.5023392143254056,
];
