//! What the page says about itself: the Copy link button's status, the
//! notice list's lines, the work limit.

use crate::config::Notice;
use crate::sim::Report;

/// What the Copy link button says once the link is on the clipboard.
pub const LINK_COPIED: &str = "Link copied.";

/// What the Copy link button says when the browser did not let the page
/// copy (no clipboard outside a secure context, or permission refused):
/// the link is then shown selected, for the person to copy.
pub const LINK_SELECTED: &str = "The browser did not let the page copy: the link is selected below, press Ctrl+C (or Cmd+C) to copy it.";

/// What the Copy link button says once it tried: `copied` is whether the
/// link really reached the clipboard.
pub fn copy_status(copied: bool) -> &'static str {
    if copied { LINK_COPIED } else { LINK_SELECTED }
}

/// A notice's line in the notice list.
pub fn notice_line(notice: &Notice) -> String {
    format!("{}: {}", notice.key, notice.message)
}

/// What the page says when a run was cut short at one of its bounds, if one
/// was: where and why (policy A's first), and how to see it whole.
pub fn limit_text(a: &Report, b: Option<&Report>) -> Option<String> {
    let cut = [Some(a), b]
        .into_iter()
        .flatten()
        .find_map(|report| report.summary.cut.as_ref())?;
    // The simulator's own words, which start with an ASCII letter or digit;
    // the ASCII case keeps Unicode's case tables (about 9 KB gzip) out of
    // the page.
    let mut letters = cut.message.chars();
    let first = letters.next().map(|c| c.to_ascii_uppercase());
    Some(format!(
        "{}{}; the run stopped there. Shorten the horizon or lower the rate to see it whole.",
        first.map(String::from).unwrap_or_default(),
        letters.as_str()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::view::fixtures::report;

    #[test]
    fn copying_says_what_happened() {
        assert_eq!(copy_status(true), "Link copied.");
        assert!(copy_status(false).contains("selected"));
        assert!(!copy_status(false).contains("copied"));
    }

    #[test]
    fn notices_read_key_then_message() {
        let (_, notices) = Config::from_link("v=1&attempts=99&wat=1");
        let lines: Vec<String> = notices.iter().map(notice_line).collect();
        assert_eq!(
            lines,
            [
                "attempts: 99 is outside 1..50; using 50",
                "wat: unknown key; ignored"
            ]
        );
    }

    #[test]
    fn the_limit_is_said_only_when_a_run_was_cut_short() {
        use crate::sim::{Cut, CutReason};
        let mut a = report(200, &[250, 400], 0.9, 1.5);
        let b = a.clone();
        assert_eq!(limit_text(&a, Some(&b)), None);
        a.summary.truncated = true;
        a.summary.cut = Some(Cut {
            reason: CutReason::Work,
            at: 12.5,
            message: "more than 3000000 operations and attempts by t = 12.50 s".to_string(),
        });
        assert_eq!(
            limit_text(&b, Some(&a)).as_deref(),
            Some(
                "More than 3000000 operations and attempts by t = 12.50 s; the run stopped \
                 there. Shorten the horizon or lower the rate to see it whole."
            )
        );
    }
}
