//! Hostile share links, generated from a seed: what anyone could send to a
//! whole team. Shared by the fuzz test (`tests/fuzz.rs`) and the long
//! campaign (`examples/fuzz.rs`), so both meet the same links for a seed.
//!
//! Most links are built from the parameter table, because values that parse
//! reach the simulator and random bytes mostly do not: every key of
//! [`PARAMS`], often with policy B's prefix, takes its range's edges, values
//! just outside them, huge and tiny numbers, non-numbers and words, or a
//! random value spread over its range on a log scale (rates and horizons at
//! their largest are what makes a run expensive). The rest are preset links
//! with a few values changed, raw garbage (bytes, escapes, separators,
//! non-ASCII text), and links longer than the reader's pair limit.

use retry_sim::config::{Kind, PARAMS, Param};
use retry_teach::course::CHAPTERS;
use retry_teach::presets::PRESETS;

/// SplitMix64: small, fast and fully determined by its seed, which is all a
/// generator of test input needs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn chance(&mut self, probability: f64) -> bool {
        self.unit() < probability
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The link of generator seed `seed` and index `index`: the same pair
/// gives the same link on every machine.
pub fn hostile_link(seed: u64, index: u64) -> String {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xd134_2543_de82_ef95));
    match rng.below(20) {
        0..=13 => structured(&mut rng),
        14..=16 => mutated_preset(&mut rng),
        17..=18 => garbage(&mut rng),
        _ => too_many_pairs(&mut rng),
    }
}

/// Pairs drawn from the parameter table; the version first, mostly.
fn structured(rng: &mut Rng) -> String {
    let mut link = String::new();
    if rng.chance(0.9) {
        link.push_str("v=1");
    }
    let pairs = 1 + rng.below(14);
    for _ in 0..pairs {
        if !link.is_empty() {
            link.push('&');
        }
        link.push_str(&pair(rng));
    }
    link
}

/// One `key=value` pair, mostly of a known key.
fn pair(rng: &mut Rng) -> String {
    if rng.chance(0.03) {
        return format!("{}={}", garbage_text(rng, 6), garbage_text(rng, 6));
    }
    // The course's keys: a chapter (known, in another case, or not), the
    // presenting layout.
    if rng.chance(0.03) {
        let chapter = rng.pick(CHAPTERS).key;
        let word = match rng.below(4) {
            0 => chapter.to_uppercase(),
            1 => "monday".to_string(),
            2 => rng
                .pick(&[
                    "nope",
                    "<b>x</b>",
                    "herd2",
                    "",
                    "0",
                    "\u{433}\u{43b}\u{430}\u{432}\u{430}",
                ])
                .to_string(),
            _ => chapter.to_string(),
        };
        return format!("chapter={word}");
    }
    if rng.chance(0.01) {
        return format!(
            "present={}",
            rng.pick(&[
                "on", "off", "ON", "", "<b>", "notes", "guide", "exercise", "EXERCISE"
            ])
        );
    }
    // A preset's short link: known, in another case, or not.
    if rng.chance(0.02) {
        let preset = rng.pick(PRESETS).key;
        let word = match rng.below(3) {
            0 => preset.to_uppercase(),
            1 => rng.pick(&["nope", "<b>x</b>", "", "custom"]).to_string(),
            _ => preset.to_string(),
        };
        return format!("preset={word}");
    }
    // The language: one the page speaks, or a word it does not.
    if rng.chance(0.02) {
        let words = [
            "ru",
            "en",
            "RU",
            "de",
            "",
            "ru-RU",
            "<b>ru</b>",
            "%D1%80%D1%83",
        ];
        return format!("lang={}", rng.pick(&words));
    }
    let param = rng.pick(PARAMS);
    let prefix = if rng.chance(0.15) { "B." } else { "" };
    format!("{prefix}{}={}", param.key, value(rng, param))
}

/// A value for `param` as a link would write it: valid, at an edge, just
/// outside, extreme or not a number at all.
pub fn value(rng: &mut Rng, param: &Param) -> String {
    let (min, max) = match param.kind {
        Kind::Number { min, max, .. } | Kind::Integer { min, max } => (min, max),
        Kind::Choice(options, _) => {
            return match rng.below(6) {
                0..=3 => rng.pick(options).to_string(),
                4 => rng.pick(options).to_uppercase(),
                _ => format!("{}", rng.below(options.len() + 2)),
            };
        }
    };
    match rng.below(16) {
        0 => format!("{min}"),
        1..=3 => format!("{max}"),
        4 => format!("{}", param.default),
        5 => format!("{}", min - 1.0),
        6 => format!("{}", max * 10.0 + 1.0),
        7 => rng
            .pick(&[
                "NaN", "inf", "-inf", "1e308", "-1e308", "1e-320", "-0", "0x10", "", " 3 ",
            ])
            .to_string(),
        8 => rng
            .pick(&["abc", "1,5", "1.5.5", "--1", "+2", "1e", "½"])
            .to_string(),
        9 => format!("{}", min + (max - min) * rng.unit()),
        _ => {
            // Log-uniform over the range: most of it, by orders of
            // magnitude, is where runs are large.
            let low = min.max(1e-3);
            let high = max.max(low);
            let x = low * (high / low).powf(rng.unit());
            if matches!(param.kind, Kind::Integer { .. }) || rng.chance(0.5) {
                format!("{}", x.round())
            } else {
                format!("{x}")
            }
        }
    }
}

/// A preset's link with a few pairs added or replaced (later pairs win).
fn mutated_preset(rng: &mut Rng) -> String {
    let mut link = rng.pick(PRESETS).link.to_string();
    for _ in 0..1 + rng.below(4) {
        link.push('&');
        link.push_str(&pair(rng));
    }
    link
}

/// Characters that mean something to the link reader, or to a page that
/// might show them.
const NASTY: &[&str] = &[
    "&", "=", "%", "%2", "%zz", "%26", "%3D", "+", "?", "#", "B.", "v=1", "<script>", "\"", "'",
    "\\", "\u{0}", "\u{7f}", "é", "\u{202e}", "😀", "%F0%9F", "%FF%FE", " ", "\n", "..", "1e9",
];

fn garbage_text(rng: &mut Rng, pieces: usize) -> String {
    let mut text = String::new();
    for _ in 0..1 + rng.below(pieces) {
        if rng.chance(0.5) {
            let piece: &str = rng.pick::<&str>(NASTY);
            text.push_str(piece);
        } else {
            // Any character, including ones that are not printable.
            let c = char::from_u32(rng.next_u64() as u32 % 0x11_0000).unwrap_or('?');
            text.push(c);
        }
    }
    text
}

/// Raw garbage, sometimes after a valid start.
fn garbage(rng: &mut Rng) -> String {
    let start = if rng.chance(0.5) { "v=1&" } else { "" };
    format!("{start}{}", garbage_text(rng, 60))
}

/// More pairs than the reader takes, with real settings past the limit.
fn too_many_pairs(rng: &mut Rng) -> String {
    let filler = rng.pick(&["v=1", "x", "v=1&", "seed=2"]).to_string();
    let mut link = String::new();
    for _ in 0..150 + rng.below(200) {
        link.push_str(&filler);
        link.push('&');
    }
    link.push_str(&pair(rng));
    link
}
