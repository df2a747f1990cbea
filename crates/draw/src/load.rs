//! The load chart: first tries and retries stacked over time against the
//! server's capacity, the outage shaded, the herd's waves labelled, and,
//! where an action ran twice, the duplicates as they add up.
//!
//! On a log axis heights do not add: retries stacked on first tries read as
//! a sliver even where they are most of the calls (72 % of A's on the
//! metastable preset), and a fill drawn as a share of a bar's height
//! reads on the axis as a rate it is not (65-80 first tries a second
//! read as 2-10). There nothing is stacked: each bar stands at its true
//! load (all calls, light) and the first tries fill up to their own true
//! rate in front of it, so every fill's top reads on the axis.

use plotters::coord::Shift;
use plotters::prelude::*;
use retry_core::tf;
use retry_core::words::tr;

use retry_sim::sim::{Fault, FaultOn, OutageMode, Report, Scenario};

use super::{
    Axes, Before, DrawResult, Entry, Frame, Labels, LogScale, Plotted, Sample, Theme, along_axis,
    axes, blend, calls_within, count, deep, dotted, ghost, header, kept_top, light, path,
    run_colour, shade_unsimulated, shade_windows, simulated_until, tick,
};

/// Above this many times its capacity, the load axis is logarithmic.
const OVERLOAD: f64 = 3.0;

/// The load axis a fresh chart takes for load reaching `needed` calls a
/// second against `capacity`: linear while the load stays within a few
/// times capacity, so that stacked tries and retries add up as areas do;
/// logarithmic beyond, so that every bar is drawn whole and a 10x
/// overload stands a power of ten above capacity, as capacity stands
/// above a tenth of it (cut bars, the other way to keep capacity
/// readable, make 10x look like 3x). Its floor is half a call per bucket:
/// a bucket of one call stands above it.
fn load_axis(needed: f64, capacity: f64, width: f64) -> Axes {
    if capacity > 0.0 && capacity.is_finite() && needed > OVERLOAD * capacity * 1.12 {
        Axes {
            // Room above the peaks for their labels.
            tops: [needed * 3.0, 0.0],
            floor: (0.5 / width).min(capacity / 10.0),
        }
    } else {
        let top = needed.max(capacity.min(needed.max(1.0) * 1e3)).max(1.0) * 1.12;
        Axes {
            tops: [top, 0.0],
            floor: 0.0,
        }
    }
}

/// A wave: consecutive buckets in which calls arrived faster than the
/// server completes them (it being up).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Wave {
    /// Calls in the wave.
    calls: u64,
    /// Its first and last bucket.
    first: usize,
    last: usize,
    /// Its busiest bucket.
    peak: usize,
}

/// The waves of a run whose busiest bucket reaches at least twice the
/// capacity: those worth a label.
fn waves(report: &Report) -> Vec<Wave> {
    let series = &report.series;
    let calls = |i: usize| series.first_tries[i] + series.retries[i];
    let mut found: Vec<Wave> = Vec::new();
    let mut open = false;
    for i in 0..series.len() {
        let capacity = series.capacity[i];
        let over = capacity > 0.0 && calls(i) as f64 / series.width > capacity;
        match (over, open, found.last_mut()) {
            (true, true, Some(wave)) => {
                if calls(i) > calls(wave.peak) {
                    wave.peak = i;
                }
                wave.calls += calls(i);
                wave.last = i;
            }
            (true, _, _) => found.push(Wave {
                calls: calls(i),
                first: i,
                last: i,
                peak: i,
            }),
            _ => {}
        }
        open = over;
    }
    found.retain(|wave| calls(wave.peak) as f64 / series.width >= 2.0 * series.capacity[wave.peak]);
    found
}

/// Where time runs across the load chart, in the backend's pixels: a click
/// on it reads back as a time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeAxis {
    /// Pixels of time 0 and of the horizon.
    pub left: f64,
    pub right: f64,
    pub horizon: f64,
}

impl TimeAxis {
    /// The time under pixel `x`, within the horizon.
    pub fn time_at(&self, x: f64) -> f64 {
        let span = (self.right - self.left).max(1.0);
        ((x - self.left) / span).clamp(0.0, 1.0) * self.horizon
    }
}

/// What the load chart shows besides the runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct LoadView<'a> {
    /// The replay's instant, marked and labelled on every panel; `None`
    /// where no replay is shown.
    pub cursor: Option<f64>,
    /// The state before a change: its load drawn ghost, its axes kept
    /// (the load's, then the duplicates').
    pub before: Before<'a>,
}

/// What a drawing of the load chart hands back.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LoadDrawn {
    /// Where its time axis runs.
    pub time: TimeAxis,
    /// Its axes, for the next state to keep.
    pub axes: Axes,
}

/// Load over time: [`draw_load_view`] with nothing but the runs.
pub fn draw_load<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    draw_load_view(area, runs, scenario, theme, &LoadView::default()).map(|_| ())
}

/// Load over time, one panel per policy on the same axes: first tries
/// (solid) and retries (lighter) stacked in the policy's colour, its
/// failed answers (503s, timeouts, refused connections) dotted, what the
/// server shed dashed in a colour of its own where it shed any, what its
/// own budget refused to send grey above its calls, goodput and the
/// server's capacity (labelled in calls a second, the axis'
/// unit) as lines, outage and spike windows shaded. What was sent while
/// the server was down is drawn as an outline only: the server did no
/// work for it, and its total over the outage is said once on the shade.
/// Waves of at least twice the capacity are labelled with their busiest
/// bucket's rate against capacity and, apart, their calls over the wave;
/// labels never cover one another (those that find no room are left
/// out, the earliest waves first served). Past a few times capacity the
/// axis is logarithmic (see [`load_axis`]). The time after a run stopped
/// short is shaded as not simulated. Where an action ran twice (now or
/// before the change), a strip below counts the duplicates as they add
/// up.
pub fn draw_load_view<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    runs: &[Plotted],
    scenario: &Scenario,
    theme: &Theme,
    view: &LoadView,
) -> Result<LoadDrawn, Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    area.fill(&theme.background)?;
    let series = &runs[0].report.series;
    let width = series.width.max(1e-9);
    let buckets = series.len();
    let rate = |count: u64| count as f64 / width;
    let left = |i: usize| i as f64 * width;
    let horizon = left(buckets).max(1e-3);
    let capacity_top = series
        .capacity
        .iter()
        .filter(|c| c.is_finite())
        .fold(0.0, |a: f64, c| a.max(*c));
    let total = |report: &Report, i: usize| {
        let s = &report.series;
        rate(s.first_tries[i] + s.retries[i])
    };
    let ghosts = view.before.runs;
    let everything = || runs.iter().chain(ghosts).map(|run| run.report);
    // What the callers asked of the client: its calls and, above them,
    // what its own budget refused and never sent (the SRE throttle's
    // first tries too).
    let asked = |report: &Report, i: usize| {
        let refused = report.series.budget_refusals.get(i).copied().unwrap_or(0);
        total(report, i) + rate(refused)
    };
    let refuses = |report: &Report| report.series.budget_refusals.iter().any(|r| *r > 0);
    let sheds = |report: &Report| report.summary.shed > 0;
    let needed = everything()
        .flat_map(|report| (0..report.series.len().min(buckets)).map(move |i| asked(report, i)))
        .fold(0.0, f64::max);
    let axis = match view.before.axes {
        Some(before) if needed <= before.tops[0] => before,
        _ => load_axis(needed, capacity_top, width),
    };
    let log = (axis.floor > 0.0).then_some(LogScale { floor: axis.floor });
    let at = |value: f64| log.map_or(value, |scale| scale.at(value));
    let (y_low, y_high) = (at(0.0), at(axis.tops[0]));
    // Duplicates as they add up, where any action ran twice.
    let so_far = |report: &Report| -> Vec<f64> {
        let mut sum = 0;
        (0..buckets)
            .map(|i| {
                sum += report.series.duplicates.get(i).copied().unwrap_or(0);
                sum as f64
            })
            .collect()
    };
    let most_duplicates = everything()
        .map(|report| so_far(report).last().copied().unwrap_or(0.0))
        .fold(0.0, f64::max);
    let duplicates_top = kept_top(
        view.before.axes,
        1,
        most_duplicates,
        most_duplicates.max(1.0) * 1.15,
    );
    // The whole server down: not one server of a fleet, whose others
    // still answer.
    let whole = scenario
        .fault(Fault::Outage)
        .filter(|_| !(scenario.servers > 1 && scenario.fault_on == FaultOn::One));
    let down =
        |i: usize| whole.is_some_and(|w| left(i) >= w.start - 1e-9 && left(i + 1) <= w.end + 1e-9);
    // What was sent while the server was down (a cut run sent nothing
    // after it stopped, as far as its series know).
    let sent_down =
        |report: &Report| -> u64 { whole.map_or(0, |w| calls_within(report, (w.start, w.end))) };

    // One legend over every panel: a kind both policies draw is one line
    // with A's sample and B's.
    let b = (runs.len() > 1).then(|| run_colour(theme, 1));
    let a = run_colour(theme, 0);
    let both = |colour: &dyn Fn(RGBColor) -> RGBColor| (colour(a), b.map(colour));
    let (first, first_b) = both(&|c| c);
    let (retried, retried_b) = both(&|c| light(theme, c));
    let (failed, failed_b) = both(&|c| deep(theme, c));
    // Through a chain the bars are the calls of the service that calls
    // the server, to which a retry above is a first try of its own.
    let chained = scenario.layers > 1;
    let (firsts, retries) = match (axis.floor > 0.0, chained) {
        (false, false) => (tr("first tries"), tr("retries")),
        (true, false) => (tr("first tries"), tr("all calls, retries included")),
        (false, true) => (
            tr("first tries of the last service"),
            tr("retries of the last service"),
        ),
        (true, true) => (
            tr("first tries of the last service"),
            tr("all calls of the last service, retries included"),
        ),
    };
    let mut entries = vec![
        Entry::area(firsts, first).and(first_b),
        Entry::area(retries, retried).and(retried_b),
    ];
    if runs.iter().any(|run| sent_down(run.report) > 0) {
        entries.push(Entry::line(tr("sent while the server was down"), first, false).and(first_b));
    }
    if runs.iter().any(|run| refuses(run.report)) {
        entries.push(Entry::area(
            tr("refused by its own budget, never sent"),
            refused_fill(theme),
        ));
    }
    entries.push(Entry::new(tr("failed answers"), failed, Sample::Dotted).and(failed_b));
    if runs.iter().any(|run| sheds(run.report)) {
        entries.push(Entry::line(tr("shed by the server"), theme.colour(3), true));
    }
    entries.push(Entry::line(tr("goodput"), theme.foreground, false));
    if capacity_top > 0.0 {
        entries.push(Entry::line(tr("server capacity"), theme.colour(2), false));
    }
    if !ghosts.is_empty() {
        let was = ghost(theme);
        let b = (ghosts.len() > 1).then_some(was);
        entries.push(Entry::line(tr("before the change"), was, false).and(b));
    }
    let body = header(area, &entries, theme)?;
    let (panels_area, strip) = if most_duplicates > 0.0 {
        // Half the height: an action run twice is the story wherever one
        // was; on a phone, three plots as tall as one another.
        let (width, height) = body.dim_in_pixel();
        let split = if width < theme.px(560.0) {
            super::even_split(height, runs.len() as u32, runs.len() as u32 + 1, theme)
        } else {
            height / 2
        };
        let (top, bottom) = body.split_vertically(split);
        (top, Some(bottom))
    } else {
        (body.clone(), None)
    };
    let mut time_axis = TimeAxis {
        left: 0.0,
        right: 1.0,
        horizon,
    };

    // Plots of one height, so that equal loads stand equally high on every
    // panel: the lowest panel is taller by the time axis it carries.
    let panels = {
        let (_, height) = panels_area.dim_in_pixel();
        let axis = if strip.is_none() { theme.px(48.0) } else { 0 };
        let each = height.saturating_sub(axis) / runs.len() as u32;
        let breaks: Vec<u32> = (1..runs.len() as u32).map(|k| k * each).collect();
        panels_area.split_by_breakpoints::<u32, u32, _, _>(Vec::<u32>::new(), breaks)
    };
    // Panels stacked on a short chart leave each too short for the long
    // words along its axis (measured on the first, the shortest, so that
    // every panel says the same and none runs into the next one's).
    let y_label = match log {
        None => along_axis(
            &panels[0],
            theme,
            &[tr("requests per second"), tr("requests/s")],
        )?,
        Some(_) => along_axis(
            &panels[0],
            theme,
            &[
                tr("requests per second (log scale)"),
                tr("requests/s (log)"),
                // The ticks' powers of ten say the rest.
                tr("requests/s"),
            ],
        )?,
    };
    for (r, (run, plot)) in runs.iter().zip(&panels).enumerate() {
        let colour = run_colour(theme, r);
        let report = run.report;
        let s = &report.series;
        let until = simulated_until(report, horizon).unwrap_or(horizon);
        // Buckets that began before the run stopped; the cut one is
        // shaded over below.
        let drawn = (0..buckets).filter(|&i| left(i) < until).count();
        let sent_down = sent_down(report);
        let was = ghosts.get(r);
        let lowest = r + 1 == runs.len() && strip.is_none();
        let mut chart = axes(
            plot,
            theme,
            0.0..horizon,
            y_low..y_high,
            Frame {
                x_label: tr("time (s)"),
                y_label,
                log: log.is_some(),
                x_axis: lowest,
            },
        )?;
        shade_windows(&mut chart, scenario, theme)?;

        // A step per bucket at the heights `drawn_at` gives, on the axis.
        let steps = |drawn_at: &dyn Fn(usize) -> f64| {
            let mut points = Vec::with_capacity(2 * drawn + 2);
            points.push((0.0, y_low));
            for i in 0..drawn {
                let value = drawn_at(i);
                points.push((left(i), value));
                points.push((left(i + 1).min(until), value));
            }
            points.push((left(drawn).min(until), y_low));
            points
        };
        let stepped = |values: &dyn Fn(usize) -> f64| steps(&|i| at(values(i)));
        let line = |values: &dyn Fn(usize) -> f64| {
            let mut points = stepped(values);
            points.remove(0);
            points.pop();
            points
        };
        if let Some(was) = was {
            let g = was.report;
            let reach = drawn.min(g.series.len());
            let points: Vec<(f64, f64)> = (0..reach)
                .flat_map(|i| {
                    let value = at(total(g, i));
                    [(left(i), value), (left(i + 1), value)]
                })
                .collect();
            path(
                &mut chart,
                points,
                ghost(theme).stroke_width(theme.px(1.5)),
                run.dashed(r),
                theme,
            )?;
        }
        // Above the calls, up to what was asked: the budget's refusals,
        // a range and not a stack, so the same on a log axis.
        if refuses(report) {
            let mut band = stepped(&|i| asked(report, i));
            band.remove(0);
            band.pop();
            let mut under = line(&|i| total(report, i));
            under.reverse();
            band.extend(under);
            chart.draw_series(std::iter::once(Polygon::new(
                band,
                refused_fill(theme).filled(),
            )))?;
        }
        // Filled where the server was up: what it had to take.
        let up = |value: f64, i: usize| if down(i) { 0.0 } else { value };
        chart.draw_series(std::iter::once(Polygon::new(
            stepped(&|i| up(total(report, i), i)),
            light(theme, colour).filled(),
        )))?;
        // First tries: under the retries, up to their own rate, on either
        // axis (on a log one that is no stack: the bar's light part is
        // not the retries' rate, but every top reads on the axis).
        let first_tries = |i: usize| -> f64 { at(up(rate(s.first_tries[i]), i)) };
        chart.draw_series(std::iter::once(Polygon::new(
            steps(&first_tries),
            colour.filled(),
        )))?;
        path(
            &mut chart,
            line(&|i| total(report, i)),
            colour.stroke_width(theme.px(1.0)),
            run.dashed(r),
            theme,
        )?;
        dotted(
            &mut chart,
            line(&|i| rate(s.failures(i))),
            deep(theme, colour).stroke_width(theme.px(2.0)),
            theme,
        )?;
        if sheds(report) {
            path(
                &mut chart,
                line(&|i| rate(s.shed[i])),
                theme.colour(3).stroke_width(theme.px(2.0)),
                true,
                theme,
            )?;
        }

        if capacity_top > 0.0 {
            let points: Vec<(f64, f64)> = (0..buckets)
                .flat_map(|i| {
                    let c = at(series.capacity[i]);
                    [(left(i), c), (left(i + 1), c)]
                })
                .collect();
            chart.draw_series(std::iter::once(PathElement::new(
                points,
                theme.colour(2).stroke_width(theme.px(2.0)),
            )))?;
        }
        let goodput: Vec<(f64, f64)> = (0..drawn)
            .map(|i| (left(i) + width / 2.0, at(rate(s.operations_succeeded[i]))))
            .collect();
        chart.draw_series(std::iter::once(PathElement::new(
            goodput,
            theme.foreground.stroke_width(theme.px(1.5)),
        )))?;
        if until < horizon {
            let in_progress = report.summary.in_progress();
            shade_unsimulated(&mut chart, (until, horizon), in_progress, theme)?;
        }

        let cursor = view.cursor.filter(|t| (0.0..=horizon).contains(t));
        if let Some(at_time) = cursor {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(at_time, y_low), (at_time, y_high)],
                theme.cursor.stroke_width(theme.px(2.0)),
            )))?;
        }

        // Words on the data, in the order they matter, none over another
        // nor over this policy's lines.
        let mut labels = Labels::on(&chart, theme);
        labels.avoid(&chart, &line(&|i| total(report, i)));
        labels.avoid(&chart, &line(&|i| rate(s.failures(i))));
        if sheds(report) {
            labels.avoid(&chart, &line(&|i| rate(s.shed[i])));
        }
        if refuses(report) {
            labels.avoid(&chart, &line(&|i| asked(report, i)));
        }
        let [_, plot_top, plot_right, plot_bottom] = labels.plot;
        let small = theme.font(11.0);
        let step = theme.px(13.0) as i32;
        let pixel = |t: f64, value: f64| chart.backend_coord(&(t, value));
        let from_top = |rows: i32| (0..rows).map(move |k| plot_top + 4 + k * step);
        let rows = (plot_bottom - plot_top) / step;
        if !run.name.is_empty() {
            // Which policy's panel, first: it is sure of its place.
            let style = theme.font(13.0).color(&colour);
            let x = labels.plot[0];
            labels.put_anyway(area, &[run.name.to_string()], &style, x, [plot_top + 4])?;
        }
        // Each wave's label: the busiest bucket's rate and its ratio to
        // capacity, then apart the wave's calls over its time (the axis
        // says when); and the same with the rate and the ratio on lines
        // of their own, for labels too wide to stand beside the next
        // wave's (a longer language).
        let mut placed = Vec::new();
        for wave in waves(report).iter().filter(|w| w.peak < drawn) {
            let peak = total(report, wave.peak);
            let ratio = peak / series.capacity[wave.peak];
            // Two digits: 9.95x reads 10x, 7.66x 7.7x.
            let ratio = if ratio >= 9.95 {
                format!("{ratio:.0}")
            } else {
                format!("{ratio:.1}")
            };
            let calls = tf!(
                "{calls} {calls|call|calls} in {t} s",
                calls = wave.calls,
                t = tick(&super::round3(left(wave.last + 1) - left(wave.first)))
            );
            let wide = vec![
                tf!(
                    "{peak}/s, {ratio}x capacity",
                    peak = count(peak),
                    ratio = ratio
                ),
                calls.clone(),
            ];
            let narrow = vec![
                tf!("{peak}/s", peak = count(peak)),
                tf!("{ratio}x capacity", ratio = ratio),
                calls,
            ];
            let x = pixel(left(wave.peak + 1), y_high).0;
            placed.push((x, wide, narrow, series.capacity[wave.peak]));
        }
        let gap = placed
            .windows(2)
            .map(|w| w[1].0 - w[0].0)
            .min()
            .unwrap_or(i32::MAX);
        let mut widest = 0;
        for (_, wide, _, _) in &placed {
            widest = widest.max(area.estimate_text_size(&wide[0], &small)?.0 as i32);
        }
        let narrow_first = widest + step > gap;
        for (k, (x, wide, narrow, capacity)) in placed.into_iter().enumerate() {
            // Above the capacity line, which stays readable under them.
            let ceiling = pixel(0.0, at(capacity)).1 - 4;
            // With no row above it (a narrow panel, a long language), the
            // top row, from which [`Labels::put`] looks for the nearest
            // clear place.
            let rows_for = |lines: &[String]| {
                let last_top = (ceiling - lines.len() as i32 * step).max(plot_top + 4);
                from_top(rows).take_while(move |top| *top <= last_top)
            };
            let (first, second) = if narrow_first {
                (narrow, wide)
            } else {
                (wide, narrow)
            };
            if !labels.put(area, &first, &small, x, rows_for(&first))?
                && !labels.put(area, &second, &small, x, rows_for(&second))?
                && k == 0
            {
                // The first wave's ratio is the lesson's number: said
                // even where only data leaves it room (a phone's narrow
                // panel in a long language).
                let narrow = if narrow_first { &first } else { &second };
                labels.put_anyway(area, narrow, &small, x, rows_for(narrow))?;
            }
        }
        if capacity_top > 0.0 {
            // At the line's right end, else where the server is back.
            let y = pixel(horizon, at(capacity_top)).1;
            let text = vec![tf!("capacity {rate}/s", rate = count(capacity_top))];
            let rows = [y - step - 4, y + 4];
            if !labels.put(area, &text, &small, plot_right, rows)? {
                let back = scenario.outage_start + scenario.outage_duration;
                let x = pixel(if sent_down > 0 { back } else { 0.0 }, y_low).0;
                labels.put_anyway(area, &text, &small, x, rows)?;
            }
        }
        let mut outage_told = false;
        if sent_down > 0 {
            let what = if scenario.outage_mode == OutageMode::FailFast {
                tr("all refused")
            } else {
                tr("none answered")
            };
            let text = tf!(
                "outage: {calls} calls sent, {what}",
                calls = count(sent_down as f64),
                what = what
            );
            let x = pixel(scenario.outage_start, y_low).0;
            let end = pixel(scenario.outage_start + scenario.outage_duration, y_low).0;
            let bottom_up: Vec<i32> = (1..rows).map(|k| plot_bottom - 4 - k * step).collect();
            let forms = super::one_line_or_two(text);
            outage_told = labels.put_named(area, &forms, &small, x, &bottom_up, (x, end))?;
        }
        // Where the calls' count found no place by the outage, its name.
        super::name_windows(&mut labels, area, &chart, scenario, !outage_told, theme)?;
        if let Some(at_time) = cursor {
            let text = vec![tf!("replay at {t} s", t = tick(&super::round3(at_time)))];
            let style = small.clone().color(&theme.cursor);
            let x = pixel(at_time, y_low).0;
            labels.put_anyway(area, &text, &style, x, from_top(rows))?;
        }
        time_axis.left = f64::from(pixel(0.0, y_low).0);
        time_axis.right = f64::from(pixel(horizon, y_low).0);
    }

    if let Some(strip) = strip {
        let words = [tr("duplicates so far"), tr("duplicates")];
        let y_label = super::along_axis_over(&strip, theme, &words, theme.px(52.0))?;
        let mut chart = axes(
            &strip,
            theme,
            0.0..horizon,
            0.0..duplicates_top,
            Frame::new(tr("time (s)"), y_label),
        )?;
        let mut labels = Labels::on(&chart, theme);
        let cumulative = |report: &Report| -> Vec<(f64, f64)> {
            so_far(report)
                .into_iter()
                .enumerate()
                .flat_map(|(i, sum)| [(left(i), sum), (left(i + 1), sum)])
                .collect()
        };
        // The words stand off every line, now's and before's.
        for report in everything() {
            labels.avoid(&chart, &cumulative(report));
        }
        for (r, run) in runs.iter().enumerate() {
            let colour = run_colour(theme, r);
            if let Some(was) = ghosts.get(r) {
                path(
                    &mut chart,
                    cumulative(was.report),
                    ghost(theme).stroke_width(theme.px(1.5)),
                    run.dashed(r),
                    theme,
                )?;
            }
            let line = cumulative(run.report);
            let end = line.last().copied().unwrap_or((0.0, 0.0));
            path(
                &mut chart,
                line,
                colour.stroke_width(theme.px(2.0)),
                run.dashed(r),
                theme,
            )?;
            let (x, y) = chart.backend_coord(&end);
            // The strip stops at the horizon; the run's total also counts
            // the drain after it, and the headline gives that total.
            let all = run.report.summary.duplicates;
            let text = if all as f64 == end.1 {
                vec![format!(
                    "{}{}",
                    run.prefix(),
                    tf!("{all} {all|duplicate|duplicates}", all = all)
                )]
            } else {
                vec![format!(
                    "{}{}",
                    run.prefix(),
                    tf!(
                        "{now} by {t} s, {all} in all",
                        now = end.1,
                        t = tick(&horizon),
                        all = all
                    )
                )]
            };
            let style = theme.font(11.0).color(&colour);
            let step = theme.px(13.0) as i32;
            // By the line's end, else by its middle, else at the left:
            // as near its height as no line is.
            let middle = chart.backend_coord(&(horizon / 2.0, 0.0)).0;
            let [plot_left, plot_top, _, plot_bottom] = labels.plot;
            let reach = (plot_bottom - plot_top) / step + 1;
            let rows = || (0..reach).flat_map(|k| [y - step - 4 - k * step, y + 4 + k * step]);
            let mut put = false;
            for x in [x, middle, plot_left] {
                put = put || labels.put(area, &text, &style, x, rows())?;
            }
            if !put {
                labels.put_anyway(area, &text, &style, x, rows())?;
            }
        }
    }
    Ok(LoadDrawn {
        time: time_axis,
        axes: Axes {
            tops: [
                axis.tops[0],
                if most_duplicates > 0.0 {
                    duplicates_top
                } else {
                    0.0
                },
            ],
            floor: axis.floor,
        },
    })
}
/// The fill of what a client's own budget refused: grey, the colour of
/// no policy, for calls that never reached the server.
pub(super) fn refused_fill(theme: &Theme) -> RGBColor {
    blend(theme.background, theme.foreground, 0.25)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::svg_test::*;
    use retry_sim::sim::run;

    /// Each fault is shaded where it lies in time, on both the load and
    /// the mechanism chart, and named at the foot of its shade with the
    /// number that sizes it.
    #[test]
    fn each_fault_is_shaded_and_named() {
        let base = Scenario {
            horizon: 20.0,
            outage_duration: 0.0,
            ..scenario()
        };
        for (fault, words, (start, end)) in [
            (
                Scenario {
                    drop_start: 4.0,
                    drop_duration: 6.0,
                    drop_to: 0.4,
                    ..base.clone()
                },
                "capacity loss: 40 % of workers left",
                (4.0, 10.0),
            ),
            (
                Scenario {
                    slow_start: 2.0,
                    slow_duration: 5.0,
                    slow_factor: 3.0,
                    ..base.clone()
                },
                "latency spike: service x3",
                (2.0, 7.0),
            ),
            (
                Scenario {
                    cut_start: 8.0,
                    cut_duration: 10.0,
                    cut_share: 0.25,
                    ..base.clone()
                },
                "partition: 25 % of clients cut off",
                (8.0, 18.0),
            ),
            (
                Scenario {
                    layers: 2,
                    layer_outage_start: [3.0, 0.0, 0.0, 0.0],
                    layer_outage_duration: [5.0, 0.0, 0.0, 0.0],
                    ..base.clone()
                },
                "outage at layer 2",
                (3.0, 8.0),
            ),
        ] {
            let report = run(&fault);
            let runs = [single(&report, &[], None)];
            let theme = Theme::light(1.0);
            for out in [
                svg(|area| draw_load(area, &runs, &fault, &theme)),
                svg(|area| crate::draw_mechanism(area, &runs, &fault, &theme)),
            ] {
                assert!(out.contains(words), "{words}");
                let shades = shades(&out, &theme);
                assert!(!shades.is_empty(), "{words}: shaded");
                // The plot's frame: its left edge is time 0, the shade's
                // right edge lies as far along as the fault's end.
                let mesh = mesh(&out, &theme, 0.0..400.0);
                let (left, right) = (mesh.vertical[0], mesh.vertical[mesh.vertical.len() - 1]);
                let per_second = (right - left) / fault.horizon;
                let [x0, _, x1, _] = shades[0];
                near(x0, left + start * per_second, &format!("{words}: start"));
                near(x1, left + end * per_second, &format!("{words}: end"));
            }
        }
    }

    #[test]
    fn load_chart_stacks_tries_and_shades_the_outage() {
        let scenario = scenario();
        let report = run(&scenario);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &Theme::light(1.0)));
        assert_labels(
            &out,
            &[
                "first tries",
                "retries",
                "server capacity",
                "goodput",
                "outage: ",
                "calls sent, all refused",
                "capacity 400/s",
            ],
        );
    }

    /// The replay's cursor stands at its time on the axis the outage shade
    /// fixes, in the cursor's own colour, labelled with its instant; the
    /// axis it returns reads that pixel back as that time.
    #[test]
    fn the_cursor_marks_the_replays_instant_and_reads_back() {
        let scenario = scenario();
        let report = run(&scenario);
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let drawn = std::cell::Cell::new(None);
        let view = LoadView {
            cursor: Some(7.0),
            ..LoadView::default()
        };
        let out = svg(|area| {
            drawn.set(Some(draw_load_view(area, &runs, &scenario, &theme, &view)?));
            Ok(())
        });
        let shade = elements(&out, "rect")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(theme.grid) && attr(e, "opacity") == "0.6")
            .expect("the outage shade");
        let per_second = number(&shade, "width") / scenario.outage_duration;
        let left = number(&shade, "x") - scenario.outage_start * per_second;
        let cursor = lines_in(&out, theme.cursor);
        assert_eq!(cursor.len(), 1, "one cursor");
        assert_eq!(cursor[0].len(), 2);
        near(cursor[0][0].0, left + 7.0 * per_second, "cursor");
        let label = texts(&out)
            .into_iter()
            .find(|t| t.text == "replay at 7 s")
            .expect("the cursor's label");
        assert_eq!(
            label.fill,
            hex(theme.cursor),
            "the label in the cursor's colour"
        );
        // No data is drawn in the cursor's colour.
        let colours = [
            run_colour(&theme, 0),
            run_colour(&theme, 1),
            theme.colour(2),
            theme.foreground,
        ];
        for colour in colours {
            assert_ne!(hex(colour), hex(theme.cursor));
        }
        let axis = drawn.get().expect("drawn").time;
        assert!((axis.time_at(cursor[0][0].0) - 7.0).abs() < 0.05);
        assert_eq!(axis.time_at(-100.0), 0.0);
        // No replay shown, no cursor.
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));
        assert!(lines_in(&out, theme.cursor).is_empty());
        assert!(!out.contains("replay at"));
    }

    /// What the server shed is a dashed line of its own colour, named in the
    /// legend, whose highest point is the busiest bucket's rate of shed
    /// requests; a world that sheds nothing has neither.
    #[test]
    fn load_chart_draws_what_the_server_shed() {
        let shedding = Scenario {
            workers: 5,
            rate: 120.0,
            queue_timeout: 0.2,
            policy: retry_core::policy::Policy {
                attempts: 1,
                ..scenario().policy
            },
            ..scenario()
        };
        let report = run(&shedding);
        let series = &report.series;
        let shed = |i: usize| series.shed[i] as f64 / series.width;
        let most = (0..series.len()).map(shed).fold(0.0, f64::max);
        assert!(most > 0.0, "this world sheds");
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &shedding, &theme));
        assert_labels(&out, &["shed by the server"]);
        // The outage shade fixes the value axis, as above.
        let shade = elements(&out, "rect")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(theme.grid) && attr(e, "opacity") == "0.6")
            .expect("the outage shade");
        let (top, bottom) = (
            number(&shade, "y"),
            number(&shade, "y") + number(&shade, "height"),
        );
        let rate = |i: usize| (series.first_tries[i] + series.retries[i]) as f64 / series.width;
        let peak = (0..series.len()).map(rate).fold(0.0, f64::max);
        let axis = load_axis(peak, 5.0 / shedding.service_mean(), series.width);
        assert_eq!(axis.floor, 0.0, "a linear axis");
        let y = |value: f64| bottom - value / axis.tops[0] * (bottom - top);
        let highest = lines_in(&out, theme.colour(3))
            .into_iter()
            .flatten()
            .filter(|(_, py)| *py >= top)
            .map(|(_, py)| py)
            .fold(f64::INFINITY, f64::min);
        near(highest, y(most), "the busiest bucket of shed requests");

        let calm = run(&scenario());
        let runs = [single(&calm, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario(), &theme));
        assert!(!out.contains("shed by the server"));
        assert!(lines_in(&out, theme.colour(3)).is_empty());
    }

    /// The load chart's pixels agree with the report: the outage shade spans
    /// the outage, the capacity line sits at workers / service time (0
    /// during the outage), the outline of the load reaches the busiest
    /// bucket's rate, and the filled area (first tries in the policy's
    /// colour, retries its lighter tint) the busiest bucket of the time
    /// the server was up: what was sent while it was down is an outline.
    #[test]
    fn load_chart_puts_capacity_outage_and_peak_where_they_belong() {
        let scenario = scenario();
        let report = run(&scenario);
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));

        // The shade runs from the bottom of the plot to its top, from 4 s
        // to 6 s: it fixes both axes' pixels.
        let shades: Vec<_> = elements(&out, "rect")
            .into_iter()
            .filter(|e| attr(e, "fill") == hex(theme.grid) && attr(e, "opacity") == "0.6")
            .collect();
        assert_eq!(shades.len(), 1, "one outage shade");
        let shade = &shades[0];
        let (top, bottom) = (
            number(shade, "y"),
            number(shade, "y") + number(shade, "height"),
        );
        let per_second = number(shade, "width") / scenario.outage_duration;
        let left = number(shade, "x") - scenario.outage_start * per_second;
        let series = &report.series;
        let rate = |i: usize| (series.first_tries[i] + series.retries[i]) as f64 / series.width;
        let peak = (0..series.len()).map(rate).fold(0.0, f64::max);
        let capacity = f64::from(scenario.workers) / scenario.service_mean();
        let axis = load_axis(peak, capacity, series.width);
        assert_eq!(
            axis.floor, 0.0,
            "this load stays near capacity: a linear axis"
        );
        let y = |value: f64| bottom - value / axis.tops[0] * (bottom - top);
        let x = |seconds: f64| left + seconds * per_second;

        let capacity_line = longest(lines_in(&out, theme.colour(2)));
        near(capacity_line[0].0, x(0.0), "capacity starts at 0 s");
        near(
            capacity_line[0].1,
            y(capacity),
            "capacity before the outage",
        );
        let during = capacity_line
            .iter()
            .find(|(px, _)| *px > x(4.5) && *px < x(5.5))
            .expect("capacity is drawn during the outage");
        near(during.1, y(0.0), "capacity during the outage");

        let colour = run_colour(&theme, 0);
        let area_of = |fill: RGBColor| -> Vec<(f64, f64)> {
            let areas: Vec<_> = elements(&out, "polygon")
                .into_iter()
                .filter(|e| attr(e, "fill") == hex(fill))
                .collect();
            assert_eq!(areas.len(), 1, "one area filled {}", hex(fill));
            points(&areas[0])
        };
        let highest = |points: &[(f64, f64)]| {
            points
                .iter()
                .map(|(_, py)| *py)
                .fold(f64::INFINITY, f64::min)
        };
        let up = |i: usize| {
            let start = i as f64 * series.width;
            start + series.width <= 4.0 + 1e-9 || start >= 6.0 - 1e-9
        };
        let up_peak = (0..series.len())
            .filter(|&i| up(i))
            .map(rate)
            .fold(0.0, f64::max);
        let total = area_of(light(&theme, colour));
        near(highest(&total), y(up_peak), "the busiest bucket while up");
        for (px, py) in &total {
            if *px > x(4.0) + 1.5 && *px < x(6.0) - 1.5 {
                near(*py, y(0.0), "nothing filled while the server is down");
            }
        }
        let outline = longest(lines_in(&out, colour));
        near(
            highest(&outline),
            y(peak),
            "the outline reaches the busiest bucket",
        );
        let first = area_of(colour);
        let first_peak = (0..series.len())
            .filter(|&i| up(i))
            .map(|i| series.first_tries[i] as f64 / series.width)
            .fold(0.0, f64::max);
        near(highest(&first), y(first_peak), "the busiest first tries");
        // Failed answers, dotted in the policy's deeper shade, reach the
        // busiest bucket of failures.
        let failed = |i: usize| series.failures(i) as f64 / series.width;
        assert!((0..series.len()).map(failed).fold(0.0, f64::max) > 0.0);
        let buckets = series.len();
        let mut checked = 0;
        for (px, py) in lines_in(&out, deep(&theme, colour)).iter().flatten() {
            if *py < top {
                continue; // the legend's sample
            }
            // A dot lies on its bucket's rate, or on the step between it
            // and a neighbour.
            let i = (((px - left) / per_second / series.width) as usize).min(buckets - 1);
            let around = [i.saturating_sub(1), i, (i + 1).min(buckets - 1)].map(failed);
            let (low, high) = (
                around.iter().copied().fold(f64::INFINITY, f64::min),
                around.iter().copied().fold(0.0, f64::max),
            );
            assert!(
                *py <= y(low) + 1.5 && *py >= y(high) - 1.5,
                "a failed-answers dot at ({px}, {py}) is off its buckets' rates {around:?}"
            );
            checked += 1;
        }
        assert!(checked > 100, "the failed answers are drawn");
    }

    fn herd() -> (Scenario, Report, Report) {
        let (config, _) = retry_sim::config::Config::from_link(
            "v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd\
             &clients=2000&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100\
             &queue=200&B.jitter=full",
        );
        let (a, b) = retry_sim::simulate::run_both(&config);
        (config.scenario(), a, b.expect("comparing"))
    }

    /// A and B as compare mode draws them.
    fn compared<'a>(a: &'a Report, b: &'a Report) -> [Plotted<'a>; 2] {
        [("A", a), ("B", b)].map(|(name, report)| Plotted {
            name,
            report,
            bounds: &[],
            deadline: None,
        })
    }

    /// The pixel height of `value` calls a second on a panel whose outage
    /// shade is `shade`, on the log axis `axis`.
    fn log_y(shade: &[(&str, &str)], axis: Axes) -> impl Fn(f64) -> f64 {
        let (top, bottom) = (
            number(shade, "y"),
            number(shade, "y") + number(shade, "height"),
        );
        let (low, high) = (axis.floor.log10(), axis.tops[0].log10());
        move |value: f64| {
            bottom - (value.max(axis.floor).log10() - low) / (high - low) * (bottom - top)
        }
    }

    /// The herd on a log axis: after the outage A's waves stand above the
    /// capacity line by their true ratio (a power of ten for 10x) and B's
    /// load stays under it; nothing sent while the server was down (every
    /// call refused at once) is filled: it is an outline, its total said
    /// once on the shade. Each wave's label gives its busiest bucket's
    /// rate against capacity and, apart, its calls over the wave.
    /// Every wave of the herd is labelled in Russian too, whose labels
    /// on two lines are too wide to stand beside the next wave's: there
    /// the rate and the ratio take lines of their own.
    #[test]
    fn every_wave_keeps_its_label_in_a_longer_language() {
        let (scenario, a, b) = herd();
        let theme = Theme::light(1.0);
        let runs = compared(&a, &b);
        let labels = |out: &str, ratio: &str| out.matches(ratio).count();
        // Wide enough for the narrow labels and not for the wide ones, by
        // the test backend's estimate of a text's width, which makes
        // Cyrillic far wider than the page's fonts do.
        let size = (1400, 460);
        let english = svg_sized(size, |area| {
            draw_load_view(area, &runs, &scenario, &theme, &LoadView::default()).map(|_| ())
        });
        let table =
            retry_core::words::read_table(include_str!("../../../i18n/ru.txt")).expect("the table");
        retry_core::words::speak_russian(&retry_core::words::compile(&table)).expect("it reads");
        let russian = svg_sized(size, |area| {
            draw_load_view(area, &runs, &scenario, &theme, &LoadView::default()).map(|_| ())
        });
        retry_core::words::speak_english();
        assert_eq!(
            labels(&english, "x capacity"),
            3,
            "A's three waves in English"
        );
        assert_eq!(
            labels(&russian, "\u{d7} пропускной способности"),
            3,
            "A's three waves in Russian"
        );
    }

    /// The herd's A and B, their load chart drawn in `theme`, and its axes.
    fn herd_drawn(theme: &Theme) -> (Report, Report, String, Axes) {
        let (scenario, a, b) = herd();
        let runs = compared(&a, &b);
        let drawn = std::cell::Cell::new(None);
        let out = svg(|area| {
            let view = LoadView::default();
            drawn.set(Some(draw_load_view(area, &runs, &scenario, theme, &view)?));
            Ok(())
        });
        let axes = drawn.get().expect("drawn").axes;
        (a, b, out, axes)
    }

    /// No stacked fill on a log axis: on the herd's, each bar stands at
    /// its true load and the first tries fill up to their own true rate,
    /// so the top of each fill reads on the axis as what it is; the
    /// legend says the light bar is all calls.
    #[test]
    fn on_a_log_axis_every_fill_reads_at_its_true_rate() {
        let theme = Theme::light(1.0);
        // Stability Sim's collapse: first tries arrive all along at 70/s
        // under retries that pile up past three times the capacity.
        let (config, _) = retry_sim::config::Config::from_link(
            "v=1&compare=on&shape=constant&base=0.001&jitter=none&rate=70&buckets=120&failure=0\
             &outage_at=5&outage_for=5&servers=2&fault_on=one&workers=5&queue=10000&service_t=0.1\
             &B.shape=exponential&B.base=0.1&B.cap=10&B.jitter=full&B.budget=ratio&B.b_floor=1\
             &B.b_basis=requests",
        );
        let (a, b) = retry_sim::simulate::run_both(&config);
        let b = b.expect("comparing");
        let runs = compared(&a, &b);
        let drawn = std::cell::Cell::new(None);
        let out = svg(|area| {
            let view = LoadView::default();
            let scenario = config.scenario();
            drawn.set(Some(draw_load_view(area, &runs, &scenario, &theme, &view)?));
            Ok(())
        });
        let axes = drawn.get().expect("drawn").axes;
        assert!(axes.floor > 0.0, "a log axis");
        assert!(out.contains("all calls, retries included"));
        let colour = run_colour(&theme, 0);
        // A's bars, by the x of each step: the light one's top (the load)
        // and the solid one's (the first tries').
        let tops = |fill: RGBColor| -> Vec<(f64, f64)> {
            let polygon = elements(&out, "polygon")
                .into_iter()
                .find(|e| attr(e, "fill") == hex(fill))
                .expect("A's fill");
            points(&polygon)
        };
        let (load, first) = (tops(light(&theme, colour)), tops(colour));
        assert_eq!(load.len(), first.len(), "a step of each per bucket");
        let bottom = load[0].1;
        let mut checked = 0;
        for (k, (l, f)) in load.iter().zip(&first).enumerate().skip(1) {
            let i = (k - 1) / 2;
            if i >= a.series.len() {
                continue;
            }
            // Buckets with first tries, the server up (a bar is drawn).
            let (tries, retries) = (a.series.first_tries[i], a.series.retries[i]);
            if tries == 0 || l.1 >= bottom {
                continue;
            }
            // On a log axis a height above the floor is k ln(rate / floor):
            // k read off the bar of all calls, the first tries' fill must
            // stand at their own rate by the same k, to a pixel.
            let width = a.series.width;
            let log_of = |count: u64| (count as f64 / width / axes.floor).ln();
            let k = (bottom - l.1) / log_of(tries + retries);
            let expected = bottom - k * log_of(tries);
            assert!(
                (f.1 - expected).abs() <= 1.0,
                "bucket {i}: {tries} first tries of {} calls drawn at y {}, their rate at {expected:.1}",
                tries + retries,
                f.1
            );
            checked += 1;
        }
        // First tries arrive in every bucket the server is up.
        assert!(checked >= 100, "{checked} buckets checked");
    }

    #[test]
    fn herd_waves_stand_above_capacity_by_their_true_ratio() {
        let theme = Theme::light(1.0);
        let (a, b, out, axis) = herd_drawn(&theme);
        let width = a.series.width;
        let rate = |report: &Report, i: usize| {
            (report.series.first_tries[i] + report.series.retries[i]) as f64 / width
        };
        let needed = (0..a.series.len())
            .flat_map(|i| [rate(&a, i), rate(&b, i)])
            .fold(0.0, f64::max);
        assert_eq!(axis, load_axis(needed, 2000.0, width));
        assert!(axis.floor > 0.0, "10x capacity: a log axis");
        let mut shades: Vec<_> = elements(&out, "rect")
            .into_iter()
            .filter(|e| attr(e, "fill") == hex(theme.grid) && attr(e, "opacity") == "0.6")
            .collect();
        assert_eq!(shades.len(), 2, "an outage shade per panel");
        shades.sort_by(|p, q| number(p, "y").total_cmp(&number(q, "y")));
        let outage_end = number(&shades[0], "x") + number(&shades[0], "width");

        for (panel, (report, colour)) in [(&a, run_colour(&theme, 0)), (&b, run_colour(&theme, 1))]
            .into_iter()
            .enumerate()
        {
            let y = log_y(&shades[panel], axis);
            let panel_top = number(&shades[panel], "y");
            let capacity_line = lines_in(&out, theme.colour(2))
                .into_iter()
                .filter(|line| line.len() > 2 && line[0].1 >= panel_top)
                .min_by(|p, q| p[0].1.total_cmp(&q[0].1))
                .expect("the panel's capacity line");
            let after = capacity_line
                .iter()
                .find(|(px, _)| *px > outage_end + 10.0)
                .expect("capacity after the outage");
            near(after.1, y(2000.0), "capacity at 2000/s");
            // The outline, solid for A, dashed for B: its points after
            // the outage, on this panel.
            let panel_bottom = y(0.0);
            let highest_after = lines_in(&out, colour)
                .into_iter()
                .flatten()
                .filter(|(px, py)| {
                    *px > outage_end + 1.0 && *py >= panel_top && *py <= panel_bottom + 0.5
                })
                .map(|(_, py)| py)
                .fold(f64::INFINITY, f64::min);
            let peak_after = (51..report.series.len())
                .map(|i| rate(report, i))
                .fold(0.0, f64::max);
            near(
                highest_after,
                y(peak_after),
                "the busiest bucket after the outage",
            );
            let filled: Vec<(f64, f64)> = elements(&out, "polygon")
                .into_iter()
                .filter(|e| {
                    [hex(colour), hex(light(&theme, colour))].contains(&attr(e, "fill").to_string())
                })
                .flat_map(|e| points(&e))
                .collect();
            let bottom = y(0.0);
            for (px, py) in &filled {
                if *px < outage_end - 1.5 {
                    near(*py, bottom, "nothing filled while the server was down");
                }
            }
            if panel == 0 {
                // 19 900/s against 2 000/s: a power of ten and 0.2 % above.
                assert!(peak_after / 2000.0 > 9.9);
                let decade = y(2000.0) - y(20000.0);
                near(
                    y(2000.0) - highest_after,
                    decade * (peak_after / 2000.0).log10(),
                    "A's wave above capacity by its true ratio",
                );
            } else {
                assert!(
                    highest_after > y(2000.0) + 10.0,
                    "B's load stays under capacity"
                );
            }
        }
        // The outage's count stands by the outage (0-5 s) where it has a
        // clear place there, else the shade is named: on a phone A's
        // waves leave none, and its count once stood on the wave at 12.6 s.
        let sent = |report: &Report| (0..50).map(|i| rate(report, i) * width).sum::<f64>();
        let placed = texts(&out);
        let counted = |report: &Report| {
            // On one line, or broken in two after "calls".
            let start = format!("outage: {} calls", count(sent(report)));
            placed
                .iter()
                .find(|t| t.text.starts_with(&start))
                .map(|t| t.rect)
        };
        // By the outage: starting no further past its end than the words
        // are wide (the first clear place beside it).
        for (panel, report) in [&a, &b].into_iter().enumerate() {
            let end = number(&shades[panel], "x") + number(&shades[panel], "width");
            match counted(report) {
                Some([left, _, right, _]) => assert!(
                    left <= end + (right - left),
                    "panel {panel}: its count at x {left}, the outage ending at {end}"
                ),
                None => assert!(placed.iter().any(|t| t.text == "outage"), "panel {panel}"),
            }
        }
        assert!(counted(&b).is_some(), "B's count has room by its outage");
        // The first wave after the outage: its bucket's rate, and apart
        // its calls over the wave.
        let busiest = (50..100)
            .max_by(|p, q| rate(&a, *p).total_cmp(&rate(&a, *q)))
            .expect("buckets after the outage");
        let calls = a.series.first_tries[busiest] + a.series.retries[busiest];
        let wave = format!(
            "{}k/s, 10x capacity",
            (rate(&a, busiest) / 100.0).round() / 10.0
        );
        assert!(out.contains(&wave), "{wave} missing");
        assert!(out.contains(&format!("{calls} calls in 0.1 s")));
        assert!(out.contains("capacity 2000/s"));
        assert!(
            !out.contains(&hex(theme.colour(1))),
            "no orange: colour is the policy"
        );
    }

    /// The canvas sizes the page draws the lesson's chart at: a laptop
    /// (1440x900, the chart beside the numbers, CSS pixels), and a phone
    /// (390x844, device pixel ratio 2), each also at the sizes measured
    /// on the built page.
    pub(crate) const SIZES: [((u32, u32), f64); 4] = [
        ((811, 448), 1.0),
        ((1000, 420), 1.0),
        ((724, 636), 2.0),
        ((700, 380), 1.0),
    ];

    /// Labels on the load chart never overlap one another, the axes'
    /// numbers and words or the legend, and stay inside the chart, at the
    /// laptop's and the phone's sizes, on every preset's world.
    #[test]
    fn load_labels_never_overlap_at_laptop_and_phone_sizes() {
        for preset in crate::presets::PRESETS {
            let config = preset.config();
            let runs = crate::run(&config);
            let charts = runs.charts();
            for (size, scale) in SIZES {
                let theme = Theme::light(scale);
                let view = LoadView {
                    cursor: Some(runs.scenario.horizon * 0.3),
                    before: Before::default(),
                };
                let out = svg_sized(size, |area| {
                    draw_load_view(area, &charts, &runs.scenario, &theme, &view).map(|_| ())
                });
                assert_texts_apart(&out, size, &format!("{} at {size:?}", preset.key));
                assert!(
                    out.contains("replay at "),
                    "{} at {size:?}: the cursor's label",
                    preset.key
                );
            }
        }
    }

    /// A run cut by the work limit: its load stops where the run stopped
    /// and the rest of the horizon is shaded and labelled "not simulated",
    /// not drawn as load falling to zero.
    #[test]
    fn a_cut_run_is_shaded_not_simulated() {
        let scenario = Scenario {
            horizon: 60.0,
            buckets: 60,
            rate: 400.0,
            failure: 0.5,
            work_limit: 8_000,
            ..Scenario::default()
        };
        let report = run(&scenario);
        assert!(report.summary.truncated);
        let until = report.summary.simulated_until;
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));
        assert!(out.contains("not simulated (work limit)"));
        let x = time_scale(&out, &theme, scenario.horizon);
        let cut = unsimulated_shade(&out, &theme).expect("the shade of what was not simulated");
        near(
            number(&cut, "x"),
            x(until),
            "the shade starts where the run stopped",
        );
        near(
            number(&cut, "x") + number(&cut, "width"),
            x(scenario.horizon),
            "the shade runs to the horizon",
        );
        let load = elements(&out, "polygon")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(light(&theme, run_colour(&theme, 0))))
            .expect("the load");
        let furthest = points(&load).iter().map(|(px, _)| *px).fold(0.0, f64::max);
        near(furthest, x(until), "the load ends where the run stopped");
    }

    /// The pixel of an instant in a load chart of `horizon` seconds: the
    /// capacity line spans the horizon.
    fn time_scale(out: &str, theme: &Theme, horizon: f64) -> impl Fn(f64) -> f64 {
        let line = longest(lines_in(out, theme.colour(2)));
        let (left, right) = (line[0].0, line[line.len() - 1].0);
        move |seconds| left + seconds / horizon * (right - left)
    }

    /// The shade over the time not simulated, if the chart has one.
    fn unsimulated_shade<'a>(out: &'a str, theme: &Theme) -> Option<Vec<(&'a str, &'a str)>> {
        elements(out, "rect")
            .into_iter()
            .find(|e| attr(e, "fill") == hex(theme.foreground) && attr(e, "opacity") == "0.18")
    }

    /// A run still going, drawn as far as it got: the rest of the horizon
    /// is shaded as for a cut run, and labelled as still simulating.
    #[test]
    fn a_run_still_going_is_shaded_still_simulating() {
        let scenario = Scenario {
            horizon: 60.0,
            buckets: 60,
            rate: 400.0,
            failure: 0.5,
            ..Scenario::default()
        };
        let mut going = retry_sim::sim::Run::new(&scenario);
        assert!(!going.advance(20_000));
        let report = going.so_far();
        let until = report.summary.simulated_until;
        assert!(until > 5.0 && until < 55.0, "{until}");
        let theme = Theme::light(1.0);
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));
        assert!(out.contains("still simulating"));
        assert!(!out.contains("work limit"));
        let x = time_scale(&out, &theme, scenario.horizon);
        let shade =
            unsimulated_shade(&out, &theme).expect("the shade of what is not simulated yet");
        near(
            number(&shade, "x"),
            x(until),
            "the shade starts where the run is",
        );
        // Finished, the same run is drawn whole.
        let report = going.finish();
        let runs = [single(&report, &[], None)];
        let out = svg(|area| draw_load(area, &runs, &scenario, &theme));
        assert!(!out.contains("still simulating"));
        assert!(!out.contains("not simulated"));
    }

    /// The lost response: a strip under the load counts the actions run
    /// twice as they add up: A's (no idempotency key) rise to the run's
    /// total of duplicates, B's (one key) stay at zero.
    #[test]
    fn the_lost_responses_duplicates_rise_for_a_and_stay_at_zero_for_b() {
        let runs = preset_runs("lost-response");
        let charts = runs.charts();
        let (a, b) = (&runs.a, runs.b.as_ref().expect("comparing"));
        assert!(a.summary.duplicates > 100 && b.summary.duplicates == 0);
        let in_series: u64 = a.series.duplicates.iter().sum();
        assert!(in_series <= a.summary.duplicates && in_series * 10 >= a.summary.duplicates * 9);
        let theme = Theme::light(1.0);
        let out = svg(|area| draw_load(area, &charts, &runs.scenario, &theme));
        assert!(out.contains("duplicates so far"));
        let all = a.summary.duplicates;
        assert!(out.contains(&format!("A: {in_series} by 30 s, {all} in all")));
        assert!(out.contains("B: 0 duplicates"));
        let strip = mesh(&out, &theme, 200.0..400.0);
        let y = |value: f64| {
            strip.bottom - value / (in_series as f64 * 1.15) * (strip.bottom - strip.top)
        };
        let a_line = lines_in(&out, run_colour(&theme, 0))
            .into_iter()
            .filter(|l| l.len() > 100 && l[0].1 > strip.top - 1.0)
            .max_by_key(|l| l.len())
            .expect("A's duplicates");
        near(a_line[0].1, y(0.0), "A starts at none");
        near(
            a_line[a_line.len() - 1].1,
            y(in_series as f64),
            "A ends at its total",
        );
        assert!(a_line.windows(2).all(|w| w[1].1 <= w[0].1), "A's only rise");
        assert!(
            a_line.windows(2).filter(|w| w[1].1 < w[0].1).count() > 20,
            "A's rise all along"
        );
        // B's dashes, all on the strip's zero.
        let b_dashes: Vec<(f64, f64)> = lines_in(&out, run_colour(&theme, 1))
            .into_iter()
            .flatten()
            .filter(|(_, py)| *py > strip.top - 1.0)
            .collect();
        assert!(b_dashes.len() > 20, "B's line is drawn");
        for (_, py) in b_dashes {
            near(py, y(0.0), "B's stay at zero");
        }
    }

    /// After a change, the state before it is drawn ghost on each panel
    /// and the chart keeps its axes while the new load fits under them;
    /// load the axes cannot hold widens them.
    #[test]
    fn a_change_keeps_the_axes_and_leaves_a_ghost() {
        let (scenario, a, b) = herd();
        let theme = Theme::light(1.0);
        let before_runs = compared(&a, &b);
        let drawn = |runs: &[Plotted], view: &LoadView| {
            let result = std::cell::Cell::new(None);
            let out = svg(|area| {
                result.set(Some(draw_load_view(area, runs, &scenario, &theme, view)?));
                Ok(())
            });
            (out, result.get().expect("drawn").axes)
        };
        let (_, axes) = drawn(&before_runs, &LoadView::default());
        // A smaller crowd: its load fits under the herd's axes.
        let (config, _) = retry_sim::config::Config::from_link(
            "v=1&compare=on&attempts=8&base=0.2&cap=10&jitter=none&timeout=0&workload=crowd\
             &clients=500&horizon=30&buckets=300&failure=0&outage_at=0&outage_for=5&workers=100\
             &queue=200&B.jitter=full",
        );
        let (small_a, small_b) = retry_sim::simulate::run_both(&config);
        let small_b = small_b.expect("comparing");
        let runs = compared(&small_a, &small_b);
        let view = LoadView {
            cursor: None,
            before: Before {
                runs: &before_runs,
                axes: Some(axes),
            },
        };
        let (out, kept) = drawn(&runs, &view);
        assert_eq!(kept, axes, "the new load fits: the axes stay");
        assert!(out.contains("before the change"));
        let ghost = lines_in(&out, ghost(&theme));
        assert!(
            ghost.iter().any(|l| l.len() > 100),
            "A's load before, faint"
        );
        // The same state drawn fresh has axes of its own, lower.
        let (_, fresh) = drawn(&runs, &LoadView::default());
        assert!(fresh.tops[0] < axes.tops[0]);
        // Axes too small for the new load are widened to it.
        let small = Axes {
            tops: [500.0, 0.0],
            floor: 0.0,
        };
        let view = LoadView {
            cursor: None,
            before: Before {
                runs: &before_runs,
                axes: Some(small),
            },
        };
        let (_, widened) = drawn(&runs, &view);
        assert!(widened.tops[0] > 500.0);
        assert_eq!(widened, fresh_with_ghost(&runs, &before_runs, &scenario));
    }

    /// The axes a fresh chart takes for `runs` with `ghosts` drawn too.
    fn fresh_with_ghost(runs: &[Plotted], ghosts: &[Plotted], scenario: &Scenario) -> Axes {
        let width = runs[0].report.series.width;
        let needed = runs
            .iter()
            .chain(ghosts)
            .flat_map(|run| {
                let s = &run.report.series;
                (0..s.len()).map(move |i| (s.first_tries[i] + s.retries[i]) as f64 / s.width)
            })
            .fold(0.0, f64::max);
        let capacity = f64::from(scenario.workers) / scenario.service_mean();
        load_axis(needed, capacity, width)
    }
}
