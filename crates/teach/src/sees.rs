//! What the eye must see on each preset's key chart, in one sentence: held
//! to by the chart's tests (`retry_draw::lessons`), which read the
//! drawing; the page gives it to readers of the chart's words (its
//! description) and the facilitator's guide points at it.
//!
//! Apart from [`crate::presets`]: the first chart's module, which draws a
//! preset's chart and lesson before the page's, never says these, so
//! neither it nor a Russian reader's first words carry them.

use crate::presets::Preset;
use retry_core::words::Text;

impl Preset {
    /// What the eye must see on the preset's key chart.
    pub fn sees(&self) -> Text {
        SEES.iter()
            .find(|(key, _)| *key == self.key)
            .map_or(Text(""), |(_, sees)| *sees)
    }
}

/// Each preset's sentence, by its key.
static SEES: &[(&str, Text)] = &[
    (
        "herd",
        Text(
            "After the outage A's waves stand ten times above the capacity line, a power of ten \
                 on the log axis, while B's load stays under it; what both send during the outage, \
                 all refused at once, is an outline, not a filled load.",
        ),
    ),
    (
        "shared-seed",
        Text(
            "A's clients all draw the same pause, so A's waves come back after the outage, up to \
                 ten times the capacity line, while B's clients, each with a seed of its own, keep \
                 their load under it.",
        ),
    ),
    (
        "storm",
        Text(
            "After the shaded spike A's requests in service keep climbing to the end of the run, \
                 while B's fall back under 100 within 20 s.",
        ),
    ),
    (
        "budget",
        Text(
            "After the shaded spike A's load keeps growing to about three times the 40 calls a \
                 second offered, while B's, its retries held to 20 % by the budget, settles back \
                 near the 40.",
        ),
    ),
    (
        "layers",
        Text(
            "On the same axis A's load at the bottom of the chain stands about nine times B's, \
                 27 calls per request against 3, and the layers beside the chart count them layer \
                 by layer.",
        ),
    ),
    (
        "orphans",
        Text(
            "While the database is slow A's calls at it stand about three times B's; after, the \
                calls A left below keep it so busy that A's operations go on failing to the end, \
                where B's stop with the slowdown.",
        ),
    ),
    (
        "fan-out",
        Text(
            "Where the cross marks the backends' own p99, A's curve has reached only about a \
                third of its requests and B's about nine tenths.",
        ),
    ),
    (
        "lost-response",
        Text(
            "A and B put the same load on the server, but in the strip below A's duplicates rise \
                 all along while B's stay at zero.",
        ),
    ),
    (
        "deadline",
        Text(
            "A's curve rises at once to about half the operations and stays flat until the \
               2 s deadline, where the rest fail together, while B's climbs in steps, a retry \
               after each of its 0.4 s timeouts, to about 93 % succeeded.",
        ),
    ),
    (
        "contention",
        Text(
            "Over 20 seeds full jitter's mean calls are the fewest and exponential backoff \
                 without jitter's last client is done by far the latest, while A's own run, the \
                 headlines', has a row of its own.",
        ),
    ),
    (
        "classic",
        Text(
            "The mark stands at this world's 10 % failures with the headlines' ring on the 3 \
                 retries curve; towards 100 % that curve climbs to 4 calls per operation while the \
                 token bucket and the breaker stay near 1.",
        ),
    ),
    (
        "aws-sdk",
        Text(
            "In the shaded outage B sends about three times A's calls: A's retry quota runs dry \
                 within its first second and A's retries are refused, dotted above its calls, \
                 until successes refill the quota after it.",
        ),
    ),
    (
        "grpc",
        Text(
            "In the shaded outage B sends about five times A's calls: A's tokens drop to half \
                 within the first failures, its retries are refused, dotted above its calls, and \
                 successes earn the tokens back after it.",
        ),
    ),
    (
        "why-retry",
        Text(
            "Across failure rates B's success stays above A's, near one minus the rate cubed, \
               while A's falls in a straight line, one minus the rate; at 100 % B's calls per \
               operation reach 3 and A's stay at 1.",
        ),
    ),
    (
        "timeout",
        Text(
            "A's retries, cut off below the p99, pile onto the server: its load stands near \
               three times B's, which stays near the 100 calls a second offered.",
        ),
    ),
    (
        "long-tail",
        Text(
            "A's load stands about 1.4 times B's, which stays near the 100 calls a second \
                offered: a timeout at the mean cuts off about three calls in ten.",
        ),
    ),
    (
        "at-scale",
        Text(
            "At every failure rate A's breaker curves lie near 1 call per operation, whatever \
               the instance count, while B's bucket curves climb with it: at half failures \
               from about 1.1 calls per operation over 10 instances to about 1.9 over 1 000, \
               what plain retries make.",
        ),
    ),
    (
        "closed-loop",
        Text(
            "While the dependency is down, A's clients send about four times what they sent \
               before it, and B's about as much as before.",
        ),
    ),
    (
        "throttle",
        Text(
            "A sends more than one and a half times what the server can serve, its capacity \
               line, all the way through; B, throttling itself, sends less than the server \
               can serve, and the grey band above its calls is what its clients refused \
               themselves.",
        ),
    ),
    (
        "polly",
        Text(
            "After the outage A's last retries land as one wave ten times above the capacity \
               line, a power of ten on the log axis, while B's load stays under it; what both \
               send during the outage, all refused at once, is an outline, not a filled load.",
        ),
    ),
    (
        "envoy",
        Text(
            "A's calls stand barely above its first tries: the grey band over them, taller than \
               its retries, is what its own limit refused; B's retries, the paler band, go out, and \
               little of it is refused.",
        ),
    ),
    (
        "finagle",
        Text(
            "In the shaded outage A sends more than twice B's calls, all refused at once: B's \
               budget holds back every retry past its share and its floor, the grey band \
               above its calls.",
        ),
    ),
    (
        "aws-2026",
        Text(
            "Most operations of both finish at once, the curves together; in the slowest tenth, \
               the wide panel, B's curve reaches 99 % of operations far to the left of A's: its \
               retries pause under ceilings a twentieth as high.",
        ),
    ),
    (
        "hedge",
        Text(
            "B's curve of latencies reaches 99 % of operations well before A's: the tail \
               past the hedging delay is cut, for about 5 % more calls.",
        ),
    ),
    (
        "stability-sim",
        Text(
            "After the crash A's load stays above the capacity line to the end with its \
               goodput at zero, while B's falls back under the line and its goodput returns \
               to what is offered.",
        ),
    ),
    (
        "trigger",
        Text(
            "A's panel is deep where the ring stands and over the long, deep corner around \
               it, a region B's panel leaves pale or half way.",
        ),
    ),
    (
        "recover",
        Text(
            "The load falls to nothing in the gap at the door, and the retries are back at \
               their height as soon as the traffic returns.",
        ),
    ),
    (
        "shed",
        Text(
            "After the shaded spike the load stands near two and a half times the capacity line \
                to the end of the run: every request is tried three times, and every try comes too \
                late.",
        ),
    ),
    (
        "reset-herd",
        Text(
            "At the reset A's retries stand as one spike far above the capacity line and are gone \
               within a second; B's spread over half the window and stay under it.",
        ),
    ),
];

#[cfg(test)]
mod tests {
    use crate::presets::PRESETS;

    #[test]
    fn every_preset_has_its_sentence_and_only_presets_have_one() {
        for preset in PRESETS {
            assert!(preset.sees().0.len() > 40, "{}", preset.key);
        }
        assert_eq!(super::SEES.len(), PRESETS.len());
    }
}
