//! Reproducible randomness.
//!
//! A share link must mean the same thing next year, natively and in the
//! browser. So the generator is one whose output is specified (PCG's
//! `Pcg64Mcg`, written out here and checked against `rand_pcg`'s), and
//! every distribution is computed here from its uniform draws with
//! pure-Rust `libm`, never with the platform's maths library (glibc and
//! the wasm runtime may differ in the last bit of `ln`).
//!
//! Each client gets its own stream derived from `(seed, client id)`, so adding
//! a client does not change what the others draw (the simulator gives each
//! operation a second one, for what the server does to its requests). A
//! "shared seed" is simply every client asking for stream 0: jitter with a
//! shared seed is no jitter at all, a trap the page's shared-seed preset
//! shows.

/// One independent stream of random numbers.
#[derive(Debug, Clone)]
pub struct Stream {
    generator: Mcg128,
}

/// PCG XSL RR 128/64 with a multiplicative congruential step: `rand_pcg`'s
/// `Pcg64Mcg`, output for output (a test draws from both). Written here
/// for its multiply: in WebAssembly, which has no 64 x 64 -> 128-bit
/// product, Rust's `u128` multiply is a call that returns through memory,
/// and the simulator draws a few times for every event.
#[derive(Debug, Clone, Copy)]
struct Mcg128 {
    state: u128,
}

/// `Pcg64Mcg`'s multiplier.
const MULTIPLIER: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

impl Mcg128 {
    /// The generator of `state` (made odd, as `Pcg64Mcg::new` does).
    fn new(state: u128) -> Self {
        Self { state: state | 1 }
    }

    #[inline(always)] // speed: hot
    fn next_u64(&mut self) -> u64 {
        self.state = times_multiplier(self.state);
        // XSL RR: the halves xor-ed, rotated by the top 6 bits.
        let rotate = (self.state >> 122) as u32;
        (((self.state >> 64) as u64) ^ (self.state as u64)).rotate_right(rotate)
    }
}

/// `state * MULTIPLIER` modulo 2^128.
#[cfg(not(target_arch = "wasm32"))]
#[inline(always)] // speed: hot
fn times_multiplier(state: u128) -> u128 {
    state.wrapping_mul(MULTIPLIER)
}

/// `state * MULTIPLIER` modulo 2^128, in 64-bit pieces (see [`Mcg128`]).
#[cfg(target_arch = "wasm32")]
#[inline(always)] // speed: hot
fn times_multiplier(state: u128) -> u128 {
    multiply_by_halves(state, MULTIPLIER)
}

/// `a * b` modulo 2^128 from 64-bit products: the low halves' full
/// product, from 32-bit pieces, plus the cross products' low halves
/// shifted up. What [`times_multiplier`] computes in WebAssembly; natively
/// the tests compare it with `u128` multiplication.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
#[inline(always)] // speed: hot
fn multiply_by_halves(a: u128, b: u128) -> u128 {
    const LOW: u64 = 0xffff_ffff;
    let (a_low, a_high) = (a as u64, (a >> 64) as u64);
    let (b_low, b_high) = (b as u64, (b >> 64) as u64);
    let (a0, a1) = (a_low & LOW, a_low >> 32);
    let (b0, b1) = (b_low & LOW, b_low >> 32);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    let middle = (p00 >> 32) + (p01 & LOW) + (p10 & LOW);
    let carry = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
    let high = carry
        .wrapping_add(a_low.wrapping_mul(b_high))
        .wrapping_add(a_high.wrapping_mul(b_low));
    (u128::from(high) << 64) | u128::from(a_low.wrapping_mul(b_low))
}

/// SplitMix64 finaliser: spreads nearby seeds and ids over the whole state.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The streams of one seed. A simulation seeds a stream or two for every
/// operation, so the seed's share of the work is done once, here, and a
/// stream costs one SplitMix round: the high half of its 128-bit state is
/// `mix(key ^ id)` and the low half `key ^ id`, where `key = mix(seed)`.
/// Distinct ids get distinct high halves (the round is a bijection), and
/// the generator's multiply spreads that well-mixed half over every output
/// bit from the first draw on; a test checks that neighbouring streams do
/// not correlate.
#[derive(Debug, Clone, Copy)]
pub struct Streams {
    key: u64,
}

impl Streams {
    pub fn new(seed: u64) -> Self {
        Self { key: mix(seed) }
    }

    /// The stream numbered `id`: the same as `Stream::new(seed, id)`.
    #[inline]
    pub fn stream(&self, id: u64) -> Stream {
        let low = self.key ^ id;
        let state = (u128::from(mix(low)) << 64) | u128::from(low);
        Stream {
            generator: Mcg128::new(state),
        }
    }
}

impl Stream {
    /// The stream numbered `id` of the run seeded with `seed`.
    pub fn new(seed: u64, id: u64) -> Self {
        Streams::new(seed).stream(id)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.generator.next_u64()
    }

    /// Uniform on `[0, 1)` with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform on `0..n` (`n > 0`): the high bits of a 64-bit draw scaled
    /// to `n` (Lemire's multiply), with a bias below `n / 2^64`.
    pub fn below(&mut self, n: u32) -> u32 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u32
    }

    /// Uniform on `[low, high)`.
    pub fn between(&mut self, low: f64, high: f64) -> f64 {
        low + (high - low) * self.uniform()
    }

    /// Exponential with the given mean (inverse CDF).
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * libm::log(1.0 - self.uniform())
    }

    /// Exponential with the given mean by the ziggurat method (Marsaglia and
    /// Tsang 2000, 256 layers): about 99 % of draws cost one `u64`, a table
    /// look-up and a multiply, against a `ln` for [`Stream::exponential`].
    /// The tables are computed once with `libm` and the draw uses only IEEE
    /// arithmetic on them, so it gives the same bits natively and in wasm.
    /// Its values differ from [`Stream::exponential`]'s (same distribution).
    #[inline(always)]
    pub fn exponential_ziggurat(&mut self, mean: f64) -> f64 {
        // The common case, inline: one `u64`, and the point falls inside
        // its layer's box.
        let table = ziggurat::table();
        let bits = self.next_u64();
        // Low byte picks the layer; the top 53 bits make the uniform, so
        // the two are independent.
        let layer = (bits & 0xff) as usize;
        let u = (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        let x = u * table.x[layer];
        if x < table.x[layer + 1] {
            return mean * x;
        }
        self.exponential_ziggurat_edge(mean, layer, x)
    }

    /// The rest of [`Stream::exponential_ziggurat`] once a draw fell outside
    /// its layer's box (about 1 % of draws).
    #[cold]
    fn exponential_ziggurat_edge(&mut self, mean: f64, mut layer: usize, mut x: f64) -> f64 {
        let table = ziggurat::table();
        loop {
            if layer == 0 {
                // The tail beyond R is R + Exp(1): memorylessness.
                return mean * (ziggurat::R - libm::log(1.0 - self.uniform()));
            }
            let f = table.f[layer + 1] + (table.f[layer] - table.f[layer + 1]) * self.uniform();
            if f < libm::exp(-x) {
                return mean * x;
            }
            let bits = self.next_u64();
            layer = (bits & 0xff) as usize;
            let u = (bits >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
            x = u * table.x[layer];
            if x < table.x[layer + 1] {
                return mean * x;
            }
        }
    }

    /// Normal by Box-Muller; one draw per call keeps the stream simple to reason about.
    pub fn normal(&mut self, mean: f64, sd: f64) -> f64 {
        let u1 = 1.0 - self.uniform(); // (0, 1]: ln is finite
        let u2 = self.uniform();
        let radius = (-2.0 * libm::log(u1)).sqrt();
        mean + sd * radius * libm::cos(std::f64::consts::TAU * u2)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.uniform() < p
    }
}

/// Tables of the exponential ziggurat.
mod ziggurat {
    use std::sync::LazyLock;

    /// Start of the tail: the 256 layers (255 boxes and the base strip with
    /// the tail) each have area `V`.
    pub const R: f64 = 7.697_117_470_131_05;
    pub const V: f64 = 0.003_949_659_822_581_557;

    #[derive(Debug)]
    pub struct Table {
        /// Right edges of the layers, from the base strip's `V / f(R)` down
        /// to 0 at the top.
        pub x: [f64; 257],
        /// `exp(-x)` at those edges.
        pub f: [f64; 257],
    }

    static TABLE: LazyLock<Table> = LazyLock::new(|| {
        let mut x = [0.0; 257];
        x[0] = V / libm::exp(-R);
        x[1] = R;
        for i in 1..255 {
            x[i + 1] = -libm::log(V / x[i] + libm::exp(-x[i]));
        }
        x[256] = 0.0;
        let f = x.map(|edge| libm::exp(-edge));
        Table { x, f }
    });

    pub fn table() -> &'static Table {
        &TABLE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_and_id_give_the_same_stream() {
        let mut a = Stream::new(42, 7);
        let mut b = Stream::new(42, 7);
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn neighbouring_ids_give_different_streams() {
        let first: Vec<u64> = (0..8).map(|id| Stream::new(1, id).next_u64()).collect();
        for i in 0..first.len() {
            for j in i + 1..first.len() {
                assert_ne!(first[i], first[j], "streams {i} and {j} collide");
            }
        }
    }

    /// The generator written out is `rand_pcg`'s `Pcg64Mcg`, output for
    /// output, from states spread over the whole range and from the edges.
    #[test]
    fn the_generator_is_pcg64mcg() {
        use rand_core::{RngCore, SeedableRng};
        let spread = (0..200u64).map(|i| (u128::from(mix(i)) << 64) | u128::from(mix(!i)));
        for state in spread.chain([0, 1, u128::MAX, u128::from(u64::MAX), 1 << 64]) {
            let mut ours = Mcg128::new(state);
            let mut theirs = rand_pcg::Pcg64Mcg::from_seed(state.to_le_bytes());
            for _ in 0..1_000 {
                assert_eq!(ours.next_u64(), theirs.next_u64(), "state {state:#x}");
            }
        }
    }

    /// The multiply WebAssembly uses is `u128` multiplication, for factors
    /// spread over the range and for the edges, where the carries are.
    #[test]
    fn multiplying_by_halves_is_u128_multiplication() {
        let spread =
            (0..2_000u64).map(|i| (u128::from(mix(i)) << 64) | u128::from(mix(i ^ 1 << 63)));
        let edges = [
            0,
            1,
            u128::MAX,
            u128::from(u64::MAX),
            1 << 64,
            u128::MAX >> 1,
            MULTIPLIER,
        ];
        let factors: Vec<u128> = spread.chain(edges).collect();
        for (&a, &b) in factors.iter().zip(factors.iter().rev()) {
            assert_eq!(
                multiply_by_halves(a, b),
                a.wrapping_mul(b),
                "{a:#x} x {b:#x}"
            );
        }
        for &a in &edges {
            for &b in &edges {
                assert_eq!(
                    multiply_by_halves(a, b),
                    a.wrapping_mul(b),
                    "{a:#x} x {b:#x}"
                );
            }
        }
    }

    /// The first outputs are pinned: if a dependency bump changed them, every
    /// share link would silently change meaning.
    #[test]
    fn output_is_pinned() {
        let mut stream = Stream::new(1, 0);
        let got: Vec<u64> = (0..3).map(|_| stream.next_u64()).collect();
        assert_eq!(got, PINNED_SEED1_STREAM0);
    }

    const PINNED_SEED1_STREAM0: [u64; 3] = [
        11457823803899489000,
        17084081694548386918,
        11803590762428422715,
    ];

    /// The first draws of streams `id` and `id + 1`, and of the same id
    /// under two seeds (a client's stream and its operation's server
    /// stream), over n ids: uncorrelated, so their sample correlation has
    /// standard error 1/sqrt(n); 5 sigma. So is each stream's first draw
    /// with its second.
    #[test]
    fn neighbouring_streams_do_not_correlate() {
        let n = 100_000;
        let first = |seed: u64, id: u64, draw: usize| {
            let mut stream = Stream::new(seed, id);
            (0..draw).for_each(|_| {
                stream.uniform();
            });
            stream.uniform()
        };
        let correlation = |pairs: &[(f64, f64)]| {
            let n = pairs.len() as f64;
            let (mx, my) = pairs
                .iter()
                .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
            let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
            for (x, y) in pairs {
                sxy += (x - mx) * (y - my);
                sxx += (x - mx) * (x - mx);
                syy += (y - my) * (y - my);
            }
            sxy / (sxx * syy).sqrt()
        };
        let tolerance = 5.0 / (n as f64).sqrt();
        let salt = 0x9E37_79B9_7F4A_7C15;
        // Against stream (7, id)'s first draw: (seed, id offset, draw).
        let cases = [
            ("ids", 7, 1, 0),
            ("seeds", 8, 0, 0),
            ("salted", 7 ^ salt, 0, 0),
            ("draws", 7, 0, 1),
        ];
        for (name, seed, offset, draw) in cases {
            let pairs: Vec<(f64, f64)> = (0..n)
                .map(|id| (first(7, id, 0), first(seed, id + offset, draw)))
                .collect();
            let r = correlation(&pairs);
            assert!(r.abs() < tolerance, "{name}: correlation {r}");
        }
    }

    /// Mean of U[0,1) over n draws has standard error 1/sqrt(12 n); 5 sigma.
    #[test]
    fn uniform_mean_is_one_half() {
        let n = 100_000;
        let mut stream = Stream::new(3, 0);
        let mean = (0..n).map(|_| stream.uniform()).sum::<f64>() / n as f64;
        let tolerance = 5.0 / (12.0 * n as f64).sqrt();
        assert!((mean - 0.5).abs() < tolerance, "mean {mean}");
    }

    /// Exp(mean m) has sd m, so the sample mean is within 5 m / sqrt(n).
    #[test]
    fn exponential_has_its_mean() {
        let n = 100_000;
        let mut stream = Stream::new(4, 0);
        let mean = (0..n).map(|_| stream.exponential(0.05)).sum::<f64>() / n as f64;
        assert!(
            (mean - 0.05).abs() < 5.0 * 0.05 / (n as f64).sqrt(),
            "mean {mean}"
        );
    }

    /// Same bound as for the inverse-CDF sampler, plus the tail: P(X > 3 m)
    /// is e^-3, with binomial sd sqrt(p (1 - p) / n), and the draws past
    /// R (the ziggurat's tail branch) keep the right share, e^-R scaled.
    #[test]
    fn ziggurat_exponential_has_its_mean_and_tail() {
        let n = 1_000_000;
        let mut stream = Stream::new(4, 0);
        let draws: Vec<f64> = (0..n).map(|_| stream.exponential_ziggurat(0.05)).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        assert!(
            (mean - 0.05).abs() < 5.0 * 0.05 / (n as f64).sqrt(),
            "mean {mean}"
        );
        for (threshold, p) in [(0.15, (-3.0f64).exp()), (0.01, (-0.2f64).exp())] {
            let share = draws.iter().filter(|&&x| x > threshold).count() as f64 / n as f64;
            let sd = (p * (1.0 - p) / n as f64).sqrt();
            assert!((share - p).abs() < 5.0 * sd, "P(X > {threshold}) {share}");
        }
        assert!(draws.iter().all(|&x| x >= 0.0 && x.is_finite()));
        // The recursion for the edges must close: the top box, from 0 to
        // x[255] and from f(x[255]) to 1, has the same area as every layer.
        let table = ziggurat::table();
        let top = table.x[255] * (1.0 - table.f[255]);
        assert!((top - ziggurat::V).abs() < 1e-9, "top layer area {top}");
    }

    #[test]
    fn normal_has_its_mean_and_sd() {
        let n = 100_000;
        let mut stream = Stream::new(5, 0);
        let draws: Vec<f64> = (0..n).map(|_| stream.normal(10.0, 2.0)).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let var = draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
        // sd of the sample mean is 2/sqrt(n); of the sample variance about 4*sqrt(2/n).
        assert!(
            (mean - 10.0).abs() < 5.0 * 2.0 / (n as f64).sqrt(),
            "mean {mean}"
        );
        assert!(
            (var - 4.0).abs() < 5.0 * 4.0 * (2.0 / n as f64).sqrt(),
            "var {var}"
        );
    }
}
