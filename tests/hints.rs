//! A server's hint and the herd it makes: a rate limit whose fixed window
//! resets at one instant for every client answers each held request "come
//! back after the reset"; the clients' rules for that hint decide whether
//! they all come back at once. The closed forms: with no jitter every held
//! request retries at the reset (the busiest 100 ms after it holds them
//! all); with positive jitter of share `j` on a wait `h` the retries spread
//! uniformly over `[h, h (1 + j)]`, and the busiest 100 ms holds about
//! `0.1 / (j h)` of them.

use retry_sim::config::Config;
use retry_sim::sim::{self, Report, ResetHerd};
use retry_sim::simulate;

/// A crowd of 10 000 clients at once against a rate limit of 100 a
/// window, each allowed three attempts with a 1 ms backoff (so that the
/// hint, not the backoff, sets the pause), on a network hop of a constant
/// 5 ms each way, a server that never fails.
const CROWD: &str = "v=1&workload=crowd&clients=10000&horizon=30&failure=0&workers=0&attempts=3&base=0.001&cap=0.001&jitter=none&timeout=0&hop=constant&hop_mean=0.005&rate_limit=100";

fn run(link: &str) -> Report {
    let (config, notices) = Config::from_link(&format!("{CROWD}&{link}"));
    assert_eq!(notices, [], "{link}");
    sim::run(&simulate::scenario(&config))
}

fn herd(report: &Report) -> ResetHerd {
    report
        .summary
        .reset_herd
        .expect("the rate limit answered 429")
}

/// The first window lets 100 through; the other 9 900 are told to come
/// back at the reset. Told by a date, or by the exact time left, they all
/// retry within the 5 ms hop of it: the busiest 100 ms holds every one.
#[test]
fn without_jitter_every_held_request_retries_at_the_reset() {
    for form in ["date", "exact"] {
        let report = run(&format!("rate_window=1&rate_hint={form}"));
        let herd = herd(&report);
        assert_eq!(herd.at, 1.0, "{form}: the first reset");
        assert_eq!(herd.retries, 9_900, "{form}: every held request, once");
        assert_eq!(herd.busiest, herd.retries, "{form}: all in 100 ms");
    }
}

/// Told in whole seconds, a client waits a whole second from when it reads
/// the answer: on a 1 s window the crowd's held requests come back at
/// 1.01 s (sent at 0, answered at 10 ms), still together; the rounding
/// spreads only answers read at different instants.
#[test]
fn a_delay_in_whole_seconds_is_counted_from_the_reading() {
    let report = run("rate_window=1&rate_hint=seconds");
    let herd = herd(&report);
    assert_eq!(herd.retries, 9_900);
    assert_eq!(herd.busiest, herd.retries);
}

/// Positive jitter of share j on the hint h (the exact time to the reset,
/// 1 s less the 10 ms round trip): the retries are uniform over
/// [h, h (1 + j)], so a 100 ms stretch holds p = 0.1 / (j h) of them. The
/// busiest of the 10 ms-step stretches is at least about p and above it
/// by the largest of about j h / 0.01 binomial deviations: we allow 3 of
/// its standard deviations below and 5 above.
#[test]
fn positive_jitter_spreads_the_herd_over_its_share_of_the_hint() {
    let h = 1.0 - 0.01;
    for j in [0.25, 0.5, 1.0] {
        let herd = herd(&run(&format!(
            "rate_window=1&rate_hint=exact&hint_jitter={j}"
        )));
        let n = herd.retries as f64;
        assert!(n > 9_000.0, "j={j}: {n} retries after the reset");
        let p: f64 = 0.1 / (j * h);
        let sd = (p * (1.0 - p) / n).sqrt();
        let share = herd.share();
        assert!(
            share > p - 3.0 * sd && share < p + 5.0 * sd,
            "j={j}: busiest share {share:.4}, closed form {p:.4} (sd {sd:.4})"
        );
    }
}

/// A cap below the hint (a 10 s window, a cap of 5 s): jitter added after
/// the cap spreads the capped waits over [5 s, 5 s (1 + j)]; added before
/// it, the cap erases it, and every client comes back at the cap at once.
#[test]
fn jitter_before_the_cap_is_erased_by_it() {
    let base = "rate_window=10&rate_hint=exact&hint_cap=5&hint_jitter=0.2";
    let after = herd(&run(&format!("{base}&hint_jitter_at=after")));
    let before = herd(&run(&format!("{base}&hint_jitter_at=before")));
    // A 5 s cap sends the retries back before the 10 s reset: the herd
    // watched from the reset sees none of the first wave.
    assert_eq!((after.at, before.at), (10.0, 10.0));
    let report = run(&format!("{base}&hint_jitter_at=before"));
    let retries = &report.series.retries;
    let width = report.series.width;
    let at_cap = |series: &[u64]| {
        let bucket = |t: f64| (t / width) as usize;
        series[bucket(5.0)..=bucket(5.0 + 0.1)].iter().sum::<u64>()
    };
    assert_eq!(at_cap(retries), 9_900, "before the cap: all at 5 s");
    let spread = run(&format!("{base}&hint_jitter_at=after"));
    let p = 0.1 / (0.2 * 5.0);
    let share = at_cap(&spread.series.retries) as f64 / 9_900.0;
    assert!(
        share < 2.0 * p,
        "after the cap: {share:.3} of them by 5.1 s, about {p}"
    );
}

/// A client that ignores the hint retries on its own backoff, 1 ms: it
/// comes back at once, is refused again, and spends its attempts within
/// the first window.
#[test]
fn a_client_that_ignores_the_hint_spends_its_attempts_in_the_window() {
    let report = run("rate_window=1&rate_hint=exact&honour=off");
    assert_eq!(report.summary.reset_herd.map(|h| h.retries), Some(0));
    assert_eq!(report.summary.succeeded, 100, "only the first window's");
    assert_eq!(report.summary.retries, 2 * 9_900);
}

/// No rate limit, no watch: a world without one reports as before.
#[test]
fn without_a_rate_limit_nothing_is_watched() {
    let (config, _) = Config::from_link(CROWD.replace("&rate_limit=100", "").as_str());
    let report = sim::run(&simulate::scenario(&config));
    assert_eq!(report.summary.reset_herd, None);
    assert!(
        !serde_json::to_string(&report.summary)
            .expect("the summary as JSON")
            .contains("reset_herd")
    );
}

/// A hint past what is left of the operation's deadline ends the
/// operation at once, as it asks a wait the deadline forbids (one .NET
/// handler instead slept through a 60 s Retry-After inside a 30 s total
/// timeout). A 60 s window and a 30 s deadline: the 9 900 held requests
/// give up as their 429 arrives, a 10 ms round trip after they were sent,
/// and retry nothing; the run is over once the 100 let through are served
/// (the slowest of 100 exponential services of 50 ms, well under a
/// second). Capped at 20 s, the hint is waited for once; the second 429,
/// at 20 s, asks for 40 s more, past the deadline: they give up then.
#[test]
fn a_hint_past_the_deadline_ends_the_operation_at_once() {
    let report = run("rate_window=60&rate_hint=exact&deadline=30");
    let s = &report.summary;
    assert_eq!(s.deadline_exceeded, 9_900);
    assert_eq!((s.succeeded, s.retries), (100, 0));
    assert!(s.finished_at < 1.0, "all over by {} s", s.finished_at);
    let capped = run("rate_window=60&rate_hint=exact&deadline=30&hint_cap=20");
    let s = &capped.summary;
    assert_eq!(s.deadline_exceeded, 9_900);
    assert_eq!(s.retries, 9_900, "one retry each, at 20 s");
    assert!(
        (20.0..20.1).contains(&s.finished_at),
        "over at {} s",
        s.finished_at
    );
}
