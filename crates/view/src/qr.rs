//! The code a room scans to follow a chapter on its phones: a QR code of
//! the chapter's link, made here (no service sees the link), drawn by the
//! page as dark squares on a light ground with the quiet zone the
//! standard asks for.

use qrcodegen::{QrCode, QrCodeEcc};

/// Modules of light ground around the code, as the standard asks.
pub const QUIET: usize = 4;

/// A QR code as squares: `size` by `size`, row by row, `true` dark.
#[derive(Debug, Clone, PartialEq)]
pub struct Code {
    pub size: usize,
    pub dark: Vec<bool>,
}

impl Code {
    /// Whether the square at column `x`, row `y` is dark.
    pub fn at(&self, x: usize, y: usize) -> bool {
        x < self.size && y < self.size && self.dark[y * self.size + x]
    }
}

/// The code of `text` at medium error correction (a projector's glare
/// and a phone's angle cost a few squares); none for a text too long for
/// any QR code.
pub fn code(text: &str) -> Option<Code> {
    let qr = QrCode::encode_text(text, QrCodeEcc::Medium).ok()?;
    let size = usize::try_from(qr.size()).ok()?;
    let dark = (0..size * size)
        .map(|i| qr.get_module((i % size) as i32, (i / size) as i32))
        .collect();
    Some(Code { size, dark })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three finder squares stand in their corners, 7 by 7 with a
    /// dark ring, a light ring and a dark 3-by-3 heart; a longer link
    /// needs a larger code; a text beyond any code has none.
    #[test]
    fn a_code_has_its_finders_and_grows_with_its_text() {
        let short = code("https://example.org/?chapter=herd").expect("a code");
        assert_eq!(short.size, 29, "version 3 holds a short link at medium");
        for (x0, y0) in [(0, 0), (short.size - 7, 0), (0, short.size - 7)] {
            for y in 0..7 {
                for x in 0..7 {
                    let ring = x == 0 || y == 0 || x == 6 || y == 6;
                    let heart = (2..=4).contains(&x) && (2..=4).contains(&y);
                    assert_eq!(short.at(x0 + x, y0 + y), ring || heart, "({x}, {y})");
                }
            }
        }
        let long = code(&format!("https://example.org/?{}", "a=1&".repeat(40))).expect("a code");
        assert!(long.size > short.size);
        assert_eq!(code(&"x".repeat(5000)), None);
        assert_eq!(code("same"), code("same"));
    }
}
