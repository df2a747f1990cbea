//! Named scenarios that teach, each a share link plus what to look at and
//! what to change next. The page opens on the first.

use crate::config::Config;

/// One preset.
#[derive(Debug)]
pub struct Preset {
    pub key: &'static str,
    pub title: &'static str,
    pub lesson: &'static str,
    /// The link's query string; only what differs from the defaults.
    pub link: &'static str,
}

impl Preset {
    pub fn config(&self) -> Config {
        Config::from_link(self.link).0
    }
}

/// A crowd that failed together during an outage: A retries without
/// jitter, B with full jitter.
const HERD: &str = "v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd\
&clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&B.jitter=full";

pub static PRESETS: &[Preset] = &[
    Preset {
        key: "herd",
        title: "The thundering herd after an outage",
        lesson: "2000 clients fail together while the server is down. Policy A (solid) retries without jitter: \
                 every retry wave arrives at the same instant, far above what the server can take, and the queue \
                 turns most of it into 503s. Policy B (dashed) is the same with full jitter: the spikes melt into a \
                 hump the server absorbs, and more users succeed.",
        link: HERD,
    },
    Preset {
        key: "shared-seed",
        title: "The shared-seed trap",
        lesson: "The same herd with full jitter, but every client seeded its generator with the same constant: \
                 they all draw the same 'random' pause, so the spikes are back. Turn Shared seed off.",
        link: "v=1&attempts=8&base=0.2&cap=10&timeout=0&workload=crowd&clients=2000&horizon=30&buckets=300\
&failure=0&outage_at=0&outage_for=5&workers=100&queue=200&shared=on",
    },
    Preset {
        key: "storm",
        title: "The retry storm that never ends",
        lesson: "40 requests per second, a 5 s spike to 80, a server that slows as work piles up and keeps \
                 working for clients that gave up. Policy A (solid) retries at once after a 3 s timeout and keeps \
                 the server collapsed long after the spike: goodput stays a fraction of the 40/s offered. Policy B \
                 (dashed) backs off exponentially from 20 s with full jitter, and the system recovers.",
        link: "v=1&compare=on&attempts=3&shape=constant&base=0.001&jitter=none&timeout=3&rate=40&spike=80\
&spike_for=5&horizon=80&buckets=160&failure=0&workers=0&service=constant&service_t=1&slope=0.01&hop_mean=0.1\
&B.shape=exponential&B.base=20&B.cap=1000&B.jitter=full",
    },
    Preset {
        key: "budget",
        title: "The budget that saves the day",
        lesson: "The same storm. Policy A (solid) has no budget; policy B (dashed) may retry at most 20 % of \
                 the requests of the last 10 s. B's extra load stays near 1.2x and the spike passes. Try the \
                 token bucket for B.",
        link: "v=1&compare=on&attempts=3&shape=constant&base=0.001&jitter=none&timeout=3&rate=40&spike=80\
&spike_for=5&horizon=80&buckets=160&failure=0&workers=0&service=constant&service_t=1&slope=0.01&hop_mean=0.1\
&B.budget=ratio&B.b_floor=1&B.b_basis=requests",
    },
    Preset {
        key: "layers",
        title: "3 x 3 x 3 = 27",
        lesson: "Three services in a chain, each making up to 3 attempts, in front of a dependency that always \
                 fails. With policy A (solid) every layer retries: one user request becomes 27 calls at the \
                 bottom. With policy B (dashed) only the top layer retries: 3.",
        link: "v=1&compare=on&attempts=3&rate=10&horizon=20&buckets=80&failure=1&workers=0&layers=3&B.top_only=on",
    },
    Preset {
        key: "lost-response",
        title: "The lost response without an idempotency key",
        lesson: "The server does the work but 20 % of its answers are lost; the client times out and retries. \
                 Without an idempotency key every such retry creates a second shipment: see Duplicates. Turn the \
                 key on and they vanish while nothing else changes.",
        link: "v=1&timeout=0.5&idem=off&rate=50&horizon=30&buckets=120&failure=0&workers=0&lost=0.2",
    },
    Preset {
        key: "deadline",
        title: "The deadline that eats the retries",
        lesson: "The user waits 2 s; the client allows 4 attempts of 2 s each against a server that hangs. The \
                 first attempt uses the whole budget, so no retry ever starts and nothing lasts past 2 s. Lower \
                 Attempt timeout to 0.4 s to see retries fit in the budget.",
        link: "v=1&timeout=2&deadline=2&rate=20&horizon=20&buckets=80&failure=0&outage_at=0&outage_for=20&outage=hang",
    },
    Preset {
        key: "contention",
        title: "Contention, as in the AWS 2015 post",
        lesson: "50 clients update one row by optimistic concurrency, each network hop |N(10 ms, 2 ms)|. Compare \
                 Jitter none, full, equal and decorrelated, and Backoff shape constant with a tiny base: full \
                 jitter makes the fewest calls, exponential without jitter takes by far the longest.",
        link: "v=1&attempts=50&base=0.01&cap=2&workload=contention&clients=50&horizon=10&buckets=200&hop=normal\
&hop_mean=0.01",
    },
    Preset {
        key: "classic",
        title: "Token bucket or circuit breaker? Success against load",
        lesson: "The sweep chart at the bottom reruns this world at failure rates from 0 to 100 % for four \
                 strategies: no retries, 3 retries, 3 retries under a gRPC token bucket, and 3 retries behind a \
                 breaker that breaks only retries. Retries buy success while failures are rare; when the \
                 dependency is down, plain retries quadruple the load while the bucket and the breaker stay near \
                 one call per operation.",
        link: "v=1&timeout=0&rate=200&horizon=20&sweep=classic&buckets=80&workers=0",
    },
    Preset {
        key: "aws-sdk",
        title: "What production defaults do: AWS SDK standard mode",
        lesson: "3 attempts, full jitter from 100 ms up to 20 s, and a shared retry quota of 500 tokens (5 per \
                 retry, 10 after a timeout). During the 20 s outage the quota runs dry after about 100 retries \
                 and the client fails fast instead of piling on.",
        link: "v=1&attempts=3&cap=20&budget=aws-quota&failure=0.01&outage_at=20&outage_for=20",
    },
    Preset {
        key: "grpc",
        title: "What production defaults do: gRPC retry throttling",
        lesson: "gRPC's token bucket: 10 tokens, a failure takes one, a success returns 0.1, retries only above \
                 half. In the outage retries stop after 5 failures; after it, successes slowly earn them back.",
        link: "v=1&attempts=5&cap=5&budget=token-bucket&failure=0.01&outage_at=20&outage_for=20",
    },
];

/// What an address opens: a bare address the first preset, a link what it
/// says. The page, the command line and `report_json` all go through here,
/// so they agree on every address.
pub fn open(query: &str) -> (Config, Vec<crate::config::Notice>) {
    let query = query.split('#').next().unwrap_or("");
    if query.trim_start_matches('?').is_empty() {
        (PRESETS[0].config(), Vec::new())
    } else {
        Config::from_link(query)
    }
}

/// The preset whose configuration equals `config`, if any.
pub fn matching(config: &Config) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.config() == *config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_link_is_clean_and_canonical() {
        for preset in PRESETS {
            assert_eq!(Config::from_link(preset.link).1, [], "{}", preset.key);
            // Written exactly as the page would write it, so opening a preset
            // and copying the link gives the preset's own link back.
            assert_eq!(preset.config().to_link(), preset.link, "{}", preset.key);
        }
    }

    #[test]
    fn a_bare_address_opens_the_first_preset_and_fragments_are_dropped() {
        assert_eq!(open("").0, PRESETS[0].config());
        assert_eq!(open("?").0, PRESETS[0].config());
        let (config, notices) = open("?v=1&seed=5#x");
        assert_eq!(notices, []);
        assert_eq!(config.seed(), 5);
    }

    #[test]
    fn presets_are_distinct() {
        for (i, a) in PRESETS.iter().enumerate() {
            for b in &PRESETS[i + 1..] {
                assert_ne!(a.config(), b.config(), "{} and {}", a.key, b.key);
                assert_ne!(a.key, b.key);
            }
        }
    }
}
