//! The law of a random duration, a network hop's or a service's: its
//! parameters worked out once from the scenario, a draw on the hot path,
//! and its mean and quantiles in closed form for the words, the capacity
//! the charts draw and the marks on the latency chart.

use super::{Scenario, ServiceShape, Spread};
use retry_core::random::Stream;
use retry_core::range;

/// The standard normal's 0.99 quantile: a log-normal's p99 is its median
/// times `exp(Z99 σ)`.
pub const Z99: f64 = 2.326_347_874_040_841;

/// A random duration's law.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Law {
    Constant(f64),
    Exponential(f64),
    /// `|Normal(mean, sd)|`.
    Normal {
        mean: f64,
        sd: f64,
    },
    /// `exp(Normal(mu, sigma))`: the median `e^mu`.
    LogNormal {
        mu: f64,
        sigma: f64,
    },
    /// Exponential with mean `fast`, or, for a `share` of the draws, with
    /// mean `slow`: a service with a slow mode.
    Mixture {
        fast: f64,
        share: f64,
        slow: f64,
    },
}

impl Law {
    /// A spread with its mean and sd, as the hop and the three plain
    /// service shapes give them. A zero mean (and sd) is no draw at all,
    /// so that such a world's streams stay as they always were.
    fn plain(spread: Spread, mean: f64, sd: f64) -> Law {
        match spread {
            Spread::Constant => Law::Constant(mean),
            Spread::Exponential if mean > 0.0 => Law::Exponential(mean),
            Spread::Normal if mean > 0.0 || sd > 0.0 => Law::Normal { mean, sd },
            Spread::Exponential | Spread::Normal => Law::Constant(0.0),
        }
    }

    /// One network hop's law.
    pub fn hop(s: &Scenario) -> Law {
        Law::plain(s.hop, s.hop_mean, s.hop_sd)
    }

    /// The law of one request's service, before any slowdown.
    pub fn service(s: &Scenario) -> Law {
        match s.service {
            ServiceShape::Constant => Law::plain(Spread::Constant, s.service_time, s.service_sd),
            ServiceShape::Exponential => {
                Law::plain(Spread::Exponential, s.service_time, s.service_sd)
            }
            ServiceShape::Normal => Law::plain(Spread::Normal, s.service_time, s.service_sd),
            ServiceShape::LogNormal => Law::log_normal(s.service_p50, s.service_p99),
            ServiceShape::Mixture if s.service_time > 0.0 => Law::Mixture {
                fast: s.service_time,
                share: s.tail_share,
                slow: s.service_time * s.tail_factor,
            },
            ServiceShape::Mixture => Law::Constant(0.0),
        }
    }

    /// The log-normal of median `p50` whose 99th percentile is `p99`. A
    /// p99 below the median is no tail (the time is then the median); one
    /// beyond a hundred times it would stand draws of days for a tail of
    /// seconds, and is read as a hundred times it.
    pub fn log_normal(p50: f64, p99: f64) -> Law {
        Law::LogNormal {
            mu: libm::log(p50),
            sigma: libm::log(p99 / p50).clamp(0.0, libm::log(range::SERVICE_SPAN)) / Z99,
        }
    }

    /// One draw.
    #[inline(always)] // speed: hot
    pub fn draw(self, stream: &mut Stream) -> f64 {
        match self {
            Law::Constant(value) => value,
            Law::Exponential(mean) => stream.exponential_ziggurat(mean),
            Law::Normal { mean, sd } => stream.normal(mean, sd).abs(),
            Law::LogNormal { mu, sigma } => libm::exp(stream.normal(mu, sigma)),
            Law::Mixture { fast, share, slow } => {
                let mean = if stream.uniform() < share { slow } else { fast };
                stream.exponential_ziggurat(mean)
            }
        }
    }

    /// The mean. A normal's is that of its draws folded at zero, `|X|`:
    /// `sd √(2/π) e^(-m²/2sd²) + m (1 - 2Φ(-m/sd))`, which is `m` to a
    /// part in a thousand while the sd is under a third of the mean, and
    /// far above it past that (|Normal(0.3, 10)| averages 7.98 s).
    pub fn mean(self) -> f64 {
        match self {
            Law::Normal { mean, sd } if sd > 0.0 => {
                let z = mean / sd;
                sd * (2.0 / std::f64::consts::PI).sqrt() * libm::exp(-z * z / 2.0)
                    + mean * (1.0 - 2.0 * normal_cdf(-z))
            }
            Law::Constant(mean) | Law::Exponential(mean) | Law::Normal { mean, .. } => mean,
            Law::LogNormal { mu, sigma } => libm::exp(mu + sigma * sigma / 2.0),
            Law::Mixture { fast, share, slow } => (1.0 - share) * fast + share * slow,
        }
    }

    /// The duration a share `q` (in `(0, 1)`) of the draws stay within.
    /// A normal's is its fold's: the `t` at which
    /// `Φ((t - m)/sd) - Φ((-t - m)/sd)` reaches `q`.
    pub fn quantile(self, q: f64) -> f64 {
        match self {
            Law::Constant(value) => value,
            Law::Exponential(mean) => -mean * libm::log(1.0 - q),
            Law::Normal { mean, sd } if sd > 0.0 => {
                let folded = |t: f64| normal_cdf((t - mean) / sd) - normal_cdf((-t - mean) / sd);
                // P(|X| > t) <= P(|X - m| > t - |m|): the fold's quantile
                // is at most |m| + sd z((1 + q) / 2), which bounds the
                // halving from above.
                invert(
                    folded,
                    q,
                    mean.abs() + sd * normal_quantile((1.0 + q) / 2.0),
                )
            }
            Law::Normal { mean, .. } => mean.abs(),
            Law::LogNormal { mu, sigma } => libm::exp(mu + sigma * normal_quantile(q)),
            Law::Mixture { fast, share, slow } => {
                // The CDF rises from 0 to 1: halve the interval between
                // the two modes' own quantiles, which bracket the mixture's.
                let cdf = |t: f64| {
                    1.0 - (1.0 - share) * libm::exp(-t / fast) - share * libm::exp(-t / slow)
                };
                invert(cdf, q, -slow * libm::log(1.0 - q))
            }
        }
    }
}

/// The `t` in `[0, high]` at which the rising `cdf` reaches `q`, by
/// halving the interval a hundred times.
fn invert(cdf: impl Fn(f64) -> f64, q: f64, high: f64) -> f64 {
    let (mut low, mut high) = (0.0, high);
    for _ in 0..100 {
        let middle = (low + high) / 2.0;
        if cdf(middle) < q {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low + high) / 2.0
}

/// The standard normal's distribution function: `Φ(x) = erfc(-x/√2) / 2`.
pub fn normal_cdf(x: f64) -> f64 {
    libm::erfc(-x / std::f64::consts::SQRT_2) / 2.0
}

/// The standard normal's quantile at `q` in `(0, 1)`, by Acklam's rational
/// approximation (relative error below 1.2e-9), good enough for any figure
/// the page prints.
pub fn normal_quantile(q: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let tail = |p: f64| {
        let r = (-2.0 * libm::log(p)).sqrt();
        (((((C[0] * r + C[1]) * r + C[2]) * r + C[3]) * r + C[4]) * r + C[5])
            / ((((D[0] * r + D[1]) * r + D[2]) * r + D[3]) * r + 1.0)
    };
    let q = q.clamp(1e-300, 1.0 - 1e-16);
    if q < 0.02425 {
        tail(q)
    } else if q > 1.0 - 0.02425 {
        -tail(1.0 - q)
    } else {
        let x = q - 0.5;
        let r = x * x;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * x
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The folded normal's mean and quantiles are those of its draws:
    /// |Normal(0, 1)|'s median is the normal's 0.75 quantile, its mean
    /// √(2/π); and |Normal(0.3, 10)|, whose fold is most of it, averages
    /// 7.98 over a million draws within 4 standard errors (0.6/√1e6 ×
    /// 4 = 0.0024 of its sd of about 6.0), and a share `q` of them fall
    /// under its `q` quantile within 4 binomial standard errors.
    #[test]
    fn a_folded_normal_has_its_folds_mean_and_quantiles() {
        let half = Law::Normal { mean: 0.0, sd: 1.0 };
        assert!((half.quantile(0.5) - 0.674_489_750_196).abs() < 1e-6);
        assert!((half.mean() - (2.0 / std::f64::consts::PI).sqrt()).abs() < 1e-12);
        let wide = Law::Normal {
            mean: 0.3,
            sd: 10.0,
        };
        let mut stream = Stream::new(7, 0);
        let n = 1_000_000;
        let draws: Vec<f64> = (0..n).map(|_| wide.draw(&mut stream)).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        assert!(
            (mean - wide.mean()).abs() < 4.0 * 6.03 / (n as f64).sqrt(),
            "{mean}"
        );
        assert!((wide.mean() - 7.98).abs() < 0.005, "{}", wide.mean());
        for q in [0.5, 0.95, 0.99] {
            let at = wide.quantile(q);
            let under = draws.iter().filter(|&&d| d <= at).count() as f64;
            let error = 4.0 * (q * (1.0 - q) / n as f64).sqrt();
            assert!((under / n as f64 - q).abs() < error, "{q}: {under}");
        }
        // A narrow one is the unfolded normal to a part in a thousand.
        let narrow = Law::Normal { mean: 0.3, sd: 0.1 };
        assert!((narrow.mean() / 0.3 - 1.0).abs() < 1e-3);
        assert!((narrow.quantile(0.99) / (0.3 + 0.1 * Z99) - 1.0).abs() < 1e-3);
    }

    #[test]
    fn the_normal_quantile_inverts_the_tables() {
        for (q, z) in [
            (0.5, 0.0),
            (0.95, 1.644_853_626_951),
            (0.99, Z99),
            (0.01, -Z99),
        ] {
            assert!(
                (normal_quantile(q) - z).abs() < 1e-8,
                "{q}: {}",
                normal_quantile(q)
            );
        }
    }

    /// A log-normal set by its p50 and p99 gives them back; a mixture's
    /// quantile is where its CDF reaches the share.
    #[test]
    fn quantiles_are_the_ones_set() {
        let s = Scenario {
            service: ServiceShape::LogNormal,
            service_p50: 0.04,
            service_p99: 0.2,
            ..Scenario::DEFAULT
        };
        let law = Law::service(&s);
        assert!((law.quantile(0.5) - 0.04).abs() < 1e-12);
        assert!((law.quantile(0.99) - 0.2).abs() < 1e-9);
        let law = Law::Mixture {
            fast: 0.01,
            share: 0.01,
            slow: 0.1,
        };
        let t = law.quantile(0.99);
        let cdf = 1.0 - 0.99 * libm::exp(-t / 0.01) - 0.01 * libm::exp(-t / 0.1);
        assert!((cdf - 0.99).abs() < 1e-12, "{t}: {cdf}");
    }
}
