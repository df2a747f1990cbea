//! The work behind the charts: the runs of a configuration, the sweep
//! computed a few points per frame, and the contention grid or why the
//! page refuses it.

use crate::chart;
use crate::config::{Config, P};
use crate::policy::PauseBounds;
use crate::report;
use crate::sim::{Report, Scenario};
use crate::sweep;

/// The runs of one configuration and what the charts need of them.
#[derive(Debug)]
pub struct Runs {
    /// The scenario as the simulator ran it, for the server's capacity line.
    pub scenario: Scenario,
    pub a: Report,
    /// Policy B's run in compare mode.
    pub b: Option<Report>,
    bounds: [Vec<PauseBounds>; 2],
    deadlines: [Option<f64>; 2],
}

/// Runs a configuration: policy A, and B when comparing.
pub fn run(config: &Config) -> Runs {
    let b_config = config.policy_b_config();
    let (a, b) = report::run_both(config);
    Runs {
        scenario: config.scenario().sanitized(),
        a,
        b,
        bounds: [
            report::pause_bounds(config),
            report::pause_bounds(&b_config),
        ],
        deadlines: [config.policy().deadline, b_config.policy().deadline],
    }
}

impl Runs {
    /// The runs as the charts draw them, named "A" and "B" in compare mode.
    pub fn charts(&self) -> Vec<chart::Run<'_>> {
        let mut runs = vec![chart::Run {
            name: if self.b.is_some() { "A" } else { "" },
            report: &self.a,
            bounds: &self.bounds[0],
            deadline: self.deadlines[0],
        }];
        if let Some(b) = &self.b {
            runs.push(chart::Run {
                name: "B",
                report: b,
                bounds: &self.bounds[1],
                deadline: self.deadlines[1],
            });
        }
        runs
    }
}

/// Seeds the contention chart runs each backoff over: it shows what holds
/// on average, as the AWS 2015 post averaged many runs.
pub const CONTENTION_SEEDS: u64 = 20;

/// Most server calls the contention chart's runs may make together, by
/// their estimate: about a fifth of a second in the page.
const CONTENTION_WORK: f64 = 1.5e6;

/// Estimated calls of one contention run of `clients` with unlimited
/// attempts: each client conflicts with a fair share of the others.
fn contention_calls(clients: u32) -> f64 {
    let n = f64::from(clients);
    n * (1.0 + n / 2.0)
}

/// The contention chart's runs: every backoff of the AWS 2015 post over
/// [`CONTENTION_SEEDS`] seeds, or why the page does not run them (too many
/// clients for the page to run a hundred worlds at once).
pub fn contention_grid(config: &Config) -> Result<crate::contention::ContentionGrid, String> {
    let clients = config.get(P::Clients) as u32;
    let runs = 5.0 * CONTENTION_SEEDS as f64;
    if runs * contention_calls(clients) > CONTENTION_WORK {
        let most = (1..clients)
            .rev()
            .find(|&n| runs * contention_calls(n) <= CONTENTION_WORK)
            .unwrap_or(1);
        return Err(format!(
            "Averaging every backoff over {CONTENTION_SEEDS} seeds runs 100 worlds: at {clients} \
             clients that is more than the page can run at once. Lower Clients to {most} or fewer."
        ));
    }
    Ok(crate::contention::contention_grid(config, CONTENTION_SEEDS))
}

/// A sweep being computed a few points at a time between frames.
#[derive(Debug)]
pub struct SweepJob {
    /// The state it belongs to: a newer state replaces the job.
    link: String,
    curves: Vec<sweep::SweepCurve>,
    points: Vec<Vec<sweep::Point>>,
}

impl SweepJob {
    /// The sweep of a configuration, or why the page does not sweep it.
    pub fn new(config: &Config) -> Result<SweepJob, &'static str> {
        if let Some(why) = sweep::refusal(config) {
            return Err(why);
        }
        let curves = sweep::curves(config);
        let points = vec![Vec::with_capacity(sweep::POINTS); curves.len()];
        Ok(SweepJob {
            link: config.to_link(),
            curves,
            points,
        })
    }

    /// The link of the state being swept.
    pub fn link(&self) -> &str {
        &self.link
    }

    /// Computes the next point of the curve that has fewest, so all
    /// curves grow together and "computing k of n points" is true of each;
    /// false once all are done.
    pub fn step(&mut self) -> bool {
        let next = self
            .points
            .iter_mut()
            .zip(&self.curves)
            .filter(|(points, _)| points.len() < sweep::POINTS)
            .min_by_key(|(points, _)| points.len());
        let Some((points, curve)) = next else {
            return false;
        };
        points.push(sweep::point(&curve.config, points.len(), sweep::POINTS));
        true
    }

    pub fn done(&self) -> bool {
        self.points.iter().all(|p| p.len() == sweep::POINTS)
    }

    /// The curves as far as they are computed.
    pub fn curves(&self) -> Vec<chart::Curve<'_>> {
        self.curves
            .iter()
            .zip(&self.points)
            .map(|(curve, points)| chart::Curve {
                name: curve.label,
                points,
                colour: curve.colour,
                dashed: curve.dashed,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lesson;
    use crate::presets::PRESETS;
    use crate::view::fixtures::config;

    #[test]
    fn runs_are_named_for_the_charts_only_when_comparing() {
        let one = run(&config("v=1&rate=10&horizon=2&deadline=3"));
        let names: Vec<(&str, Option<f64>)> =
            one.charts().iter().map(|r| (r.name, r.deadline)).collect();
        assert_eq!(names, [("", Some(3.0))]);
        let both = run(&config(
            "v=1&compare=on&rate=10&horizon=2&attempts=3&B.attempts=5&B.deadline=2",
        ));
        let charts = both.charts();
        let names: Vec<(&str, Option<f64>, usize)> = charts
            .iter()
            .map(|r| (r.name, r.deadline, r.bounds.len()))
            .collect();
        assert_eq!(names, [("A", None, 2), ("B", Some(2.0), 4)]);
    }

    #[test]
    fn a_sweep_job_computes_the_whole_sweep_point_by_point() {
        let config = config("v=1&compare=on&rate=20&horizon=2&B.attempts=1");
        let mut job = SweepJob::new(&config).expect("small enough to sweep");
        assert_eq!(job.link(), config.to_link());
        let mut steps = 0;
        while job.step() {
            steps += 1;
            assert_eq!(job.done(), steps == 2 * sweep::POINTS);
            // Both curves grow together, so "k of n points" holds for each.
            let counts: Vec<usize> = job.curves().iter().map(|c| c.points.len()).collect();
            assert_eq!(
                counts,
                [steps - steps / 2, steps / 2],
                "after {steps} steps"
            );
        }
        assert_eq!(steps, 2 * sweep::POINTS);
        let curves = job.curves();
        assert_eq!(
            curves
                .iter()
                .map(|c| (c.name, c.colour, c.dashed))
                .collect::<Vec<_>>(),
            [("A", 0, false), ("B", 4, true)]
        );
        assert_eq!(curves[0].points, sweep::sweep(&config, sweep::POINTS));
        assert_eq!(
            curves[1].points,
            sweep::sweep(&config.policy_b_config(), sweep::POINTS)
        );
    }

    #[test]
    fn a_sweep_the_page_cannot_do_says_why() {
        let contention = config("v=1&workload=contention");
        assert_eq!(
            SweepJob::new(&contention).map(|_| ()),
            Err("The contention model has no failure rate to sweep: conflicts are its failures.")
        );
    }

    #[test]
    fn the_contention_chart_runs_a_hundred_small_worlds_and_refuses_big_ones() {
        let contention = PRESETS
            .iter()
            .find(|p| p.key == "contention")
            .expect("the contention preset");
        let grid = contention_grid(&contention.config()).expect("50 clients fit");
        assert_eq!(grid.variants.len(), 5);
        assert!(
            grid.variants
                .iter()
                .all(|v| v.calls.len() == CONTENTION_SEEDS as usize)
        );
        let big = lesson::apply(&contention.config(), "clients=5000");
        let why = contention_grid(&big).expect_err("5000 clients are too many");
        assert!(why.contains("Lower Clients to 172 or fewer"), "{why}");
        let edge = lesson::apply(&contention.config(), "clients=172");
        assert!(contention_grid(&edge).is_ok());
    }
}
