//! What the page says about itself: the Copy link button's status, the
//! notice list's lines, and (from [`retry_sim::simulate`]) a cut run's notice.

use retry_core::words::Text;
use retry_sim::link::Notice;
// What the page says of a cut run is what the command line says, so it
// lives with the run both make.
pub use retry_sim::simulate::limit_text;

/// What the Copy link button says once the link is on the clipboard.
pub const LINK_COPIED: Text = Text("Link copied.");

/// What the Copy link button says when the browser did not let the page
/// copy (no clipboard outside a secure context, or permission refused):
/// the link is then shown selected, for the person to copy.
pub const LINK_SELECTED: Text = Text(
    "The browser did not let the page copy: the link is selected below, press Ctrl+C (or Cmd+C) to copy it.",
);

/// What the Copy link button says once it tried: `copied` is whether the
/// link really reached the clipboard.
pub fn copy_status(copied: bool) -> &'static str {
    if copied { LINK_COPIED } else { LINK_SELECTED }.get()
}

/// A notice's line in the notice list.
pub fn notice_line(notice: &Notice) -> String {
    format!("{}: {}", notice.key, notice.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use retry_sim::config::Config;

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
}
