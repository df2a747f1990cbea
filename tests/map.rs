//! The map of metastability (`crates/analyses/src/map.rs`) on a world that has a boundary:
//! 65 requests a second at 10 workers of 0.1 s (100 a second) with a deep
//! queue and a 1 s timeout, so that a capacity loss that lets the queue
//! grow past the timeout leaves the clients timing out and retrying on a
//! server busy with work nobody waits for. A retries at once, up to 5
//! attempts; B backs off exponentially with full jitter under a retry
//! budget.

use retry_analyses::map::{self, Missing, Outcome};
use retry_sim::config::Config;
use retry_sim::metrics::Side;

const WORLD: &str = "v=1&compare=on&attempts=5&shape=constant&base=0.001&jitter=none&timeout=1\
    &rate=65&failure=0&workers=10&queue=1000&service_t=0.1&B.shape=exponential&B.base=0.1\
    &B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1&B.b_basis=requests";

/// An outcome's rank: recovered 0, late 1, broken 2.
fn rank(outcome: Outcome) -> f64 {
    match outcome {
        Outcome::Recovered => 0.0,
        Outcome::RecoveredLate => 1.0,
        Outcome::StaysBroken | Outcome::NoGoodputBefore => 2.0,
    }
}

/// On average over the seeds, a longer or deeper trigger is never easier
/// to recover from: each cell's mean rank is at least its shorter and its
/// shallower neighbour's, less one seed's worth (1/3 of a rank, the noise
/// of three seeds at the boundary). Backoff with jitter and a budget
/// shrink the stuck region: B stays broken in no cell, A in more than a
/// quarter of them, and wherever A recovers B does.
#[test]
fn the_map_is_monotone_and_backoff_shrinks_the_stuck_region() {
    let (config, notices) = Config::from_link(WORLD);
    assert!(notices.is_empty(), "{notices:?}");
    let map = map::map(&config, map::Rows::Size);
    assert_eq!(map.sides, [Side::A, Side::B]);
    assert!(map.cells.iter().all(|c| c.missing.is_none()));
    let (lengths, sizes) = (map.lengths.len(), map.row_values.len());
    let at = |side: Side, size: usize, length: usize| {
        let cell = map
            .cells
            .iter()
            .find(|c| {
                c.side == side && c.size == map.row_values[size] && c.length == map.lengths[length]
            })
            .expect("every cell");
        let ranks: Vec<f64> = cell.seeds.iter().map(|s| rank(s.outcome)).collect();
        (
            ranks.iter().sum::<f64>() / ranks.len() as f64,
            cell.outcome.expect("an outcome"),
        )
    };
    for side in [Side::A, Side::B] {
        for size in 0..sizes {
            for length in 0..lengths {
                let (here, _) = at(side, size, length);
                if length > 0 {
                    assert!(
                        here >= at(side, size, length - 1).0 - 0.34,
                        "{side:?} {size} {length}"
                    );
                }
                if size > 0 {
                    assert!(
                        here >= at(side, size - 1, length).0 - 0.34,
                        "{side:?} {size} {length}"
                    );
                }
            }
        }
    }
    let broken = |side| {
        (0..sizes)
            .flat_map(|s| (0..lengths).map(move |l| (s, l)))
            .filter(|&(s, l)| at(side, s, l).1 == Outcome::StaysBroken)
            .count()
    };
    assert_eq!(broken(Side::B), 0);
    assert!(
        broken(Side::A) * 4 > sizes * lengths,
        "A broken in {}",
        broken(Side::A)
    );
    for size in 0..sizes {
        for length in 0..lengths {
            if at(Side::A, size, length).1 == Outcome::Recovered {
                assert_eq!(at(Side::B, size, length).1, Outcome::Recovered);
            }
        }
    }
    // The CSV holds a row per cell and policy, the JSON the same cells.
    assert_eq!(map.to_csv().lines().count(), 1 + map.cells.len());
    let json: serde_json::Value = serde_json::from_str(&map.to_json()).expect("JSON");
    assert_eq!(
        json["cells"].as_array().map(Vec::len),
        Some(map.cells.len())
    );
}

/// One budget for the whole map: a world too big for it keeps the cells
/// it computed and names the rest missing, and why. Here a budget of 2.5
/// runs at the page's limit: 20 000 requests a second reach a run's limit
/// in the first cell (a run cut), and the budget is spent within the next
/// two.
#[test]
fn a_map_too_big_for_its_budget_keeps_what_it_computed() {
    let (config, _) = Config::from_link("v=1&rate=20000&workers=10000&failure=0.5");
    assert_eq!(map::refusal(&config), None);
    assert!(map::refusal(&Config::from_link("v=1&workers=0").0).is_some());
    let budget = 5 * retry_sim::simulate::WORK_LIMIT / 2;
    let map = map::map_within(&config, map::Rows::Size, budget);
    assert_eq!(map.cells.len(), map.lengths.len() * map.row_values.len());
    assert!(
        map.work <= budget + retry_sim::simulate::WORK_LIMIT,
        "{}",
        map.work
    );
    assert_eq!(map.cells[0].missing, Some(Missing::RunCut));
    let spent = map
        .cells
        .iter()
        .filter(|c| c.missing == Some(Missing::BudgetSpent))
        .count();
    assert!(spent > 60, "{spent} cells past the budget");
    // A small world within the same budget is whole.
    let (small, _) = Config::from_link("v=1&rate=5&workers=2&service_t=0.1");
    let whole = map::map_within(&small, map::Rows::Size, budget);
    assert!(
        whole.cells.iter().all(|c| c.outcome.is_some()),
        "{:?}",
        whole.work
    );
}

/// Against load: the same trigger (60 % of the workers lost) at loads from
/// 30 % to 100 % of what the workers serve. A lighter load is never harder
/// to recover from (on average over the seeds, as above), and the retries
/// at once break at a lighter load than backoff with a budget.
#[test]
fn against_load_a_heavier_load_is_never_easier() {
    let (config, _) = Config::from_link(WORLD);
    let map = map::map(&config, map::Rows::Load);
    assert_eq!(map.rows, map::Rows::Load);
    let rank_at = |side: Side, row: usize, length: usize| {
        let cell = map
            .cells
            .iter()
            .find(|c| {
                c.side == side
                    && c.rate == map.row_values[row] * 100.0
                    && c.length == map.lengths[length]
            })
            .expect("every cell");
        cell.seeds.iter().map(|s| rank(s.outcome)).sum::<f64>() / cell.seeds.len() as f64
    };
    let lightest_broken = |side: Side| {
        (0..map.row_values.len()).find(|&row| rank_at(side, row, map.lengths.len() - 1) >= 2.0)
    };
    for side in [Side::A, Side::B] {
        for row in 1..map.row_values.len() {
            for length in 0..map.lengths.len() {
                assert!(
                    rank_at(side, row, length) >= rank_at(side, row - 1, length) - 0.34,
                    "{side:?} row {row} length {length}"
                );
            }
        }
    }
    let (a, b) = (lightest_broken(Side::A), lightest_broken(Side::B));
    assert!(
        a.is_some() && (b.is_none() || b > a),
        "A from {a:?}, B from {b:?}"
    );
}

/// An analysis that does not fit the world says so in words: the herd, a
/// crowd of one-shot clients, has no steady goodput to lose and win back,
/// so the map refuses it (it drew 64 of 64 cells "stays broken" for a
/// policy that recovers); the same world with steady arrivals is mapped.
#[test]
fn the_map_refuses_a_crowd_in_words() {
    let herd = retry_teach::presets::PRESETS
        .iter()
        .find(|p| p.key == "herd")
        .expect("the herd preset");
    let why = map::refusal(&herd.config()).expect("a crowd has no map");
    assert!(why.contains("steady"), "{why}");
    let (steady, _) = Config::from_link(&format!("{}&workload=poisson", herd.link));
    assert_eq!(map::refusal(&steady), None);
}
