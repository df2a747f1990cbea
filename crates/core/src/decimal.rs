//! Decimal text read as `f64`: the very value `str::parse::<f64>` gives,
//! bit for bit, without the standard library's parser.
//!
//! Why not `str::parse`: its fast path (Eisel and Lemire, "Number Parsing at
//! a Gigabyte per Second", 2021) carries a 10 KB table of 128-bit powers of
//! five, which gzip cannot shrink: a tenth of what the page may weigh. The
//! numbers the page reads (links, number boxes, pasted configurations) are
//! few and short, so they can afford the plain method: an exact product in
//! ordinary floating point when one exists (Clinger, "How to Read Floating
//! Point Numbers Accurately", 1990), and otherwise an estimate corrected by
//! comparing the decimal with the halfway points around it in big integer
//! arithmetic (Clinger's AlgorithmR). Both round to nearest, ties to even,
//! as IEEE 754 and `str::parse` do. Tests check it against `str::parse`.

use std::cmp::Ordering;

/// `text` as an `f64`, exactly as `text.parse::<f64>().ok()` reads it: an
/// optional sign, then `inf`, `infinity` or `nan` in any case, or digits
/// with an optional point and an optional exponent (`1`, `1.`, `.5`,
/// `2.5e-3`, `1E6`). Nothing else: no spaces, no `_`, no hexadecimal.
pub fn parse_f64(text: &str) -> Option<f64> {
    let bytes = text.as_bytes();
    let (negative, rest) = match bytes.first()? {
        b'-' => (true, &bytes[1..]),
        b'+' => (false, &bytes[1..]),
        _ => (false, bytes),
    };
    let value = unsigned(rest)?;
    Some(if negative { -value } else { value })
}

/// Significant digits kept: a halfway point between two `f64`s has at most
/// 767, so 800 digits and a sticky nonzero one round as all of them would.
const MAX_DIGITS: usize = 800;

fn unsigned(bytes: &[u8]) -> Option<f64> {
    for (word, value) in [
        (&b"inf"[..], f64::INFINITY),
        (b"infinity", f64::INFINITY),
        (b"nan", f64::NAN),
    ] {
        if bytes.eq_ignore_ascii_case(word) {
            return Some(value);
        }
    }
    // The value is `digits` (significant, no leading zeros) x 10^exponent.
    let mut digits: Vec<u8> = Vec::new();
    let mut exponent: i64 = 0;
    let mut dropped_nonzero = false;
    let mut seen_digit = false;
    let mut at = 0;
    let mut after_point = false;
    while at < bytes.len() {
        let byte = bytes[at];
        if byte == b'.' && !after_point {
            after_point = true;
        } else if byte.is_ascii_digit() {
            seen_digit = true;
            let digit = byte - b'0';
            if digits.len() < MAX_DIGITS {
                if digit != 0 || !digits.is_empty() {
                    digits.push(digit);
                }
                if after_point {
                    exponent -= 1;
                }
            } else {
                dropped_nonzero |= digit != 0;
                if !after_point {
                    exponent += 1;
                }
            }
        } else {
            break;
        }
        at += 1;
    }
    if !seen_digit {
        return None;
    }
    if at < bytes.len() {
        if bytes[at] | 0x20 != b'e' {
            return None;
        }
        at += 1;
        let negative = match bytes.get(at) {
            Some(b'-') => {
                at += 1;
                true
            }
            Some(b'+') => {
                at += 1;
                false
            }
            _ => false,
        };
        if at == bytes.len() {
            return None;
        }
        // Saturating: any exponent past a few hundred gives 0 or infinity.
        let mut written: i64 = 0;
        for &byte in &bytes[at..] {
            if !byte.is_ascii_digit() {
                return None;
            }
            written = (written * 10 + i64::from(byte - b'0')).min(1 << 40);
        }
        exponent += if negative { -written } else { written };
    }
    if dropped_nonzero {
        digits.push(1);
        exponent -= 1;
    }
    while digits.last() == Some(&0) {
        digits.pop();
        exponent += 1;
    }
    if digits.is_empty() {
        return Some(0.0);
    }
    // The decimal's magnitude: 10^(magnitude - 1) <= value < 10^magnitude.
    let magnitude = exponent + digits.len() as i64;
    if magnitude > 310 {
        return Some(f64::INFINITY);
    }
    if magnitude < -330 {
        return Some(0.0);
    }
    let exponent = exponent as i32;
    if digits.len() <= 15 && (-22..=22).contains(&exponent) {
        // Both factors are exact in an f64, so one rounding: the right one.
        let whole = digits.iter().fold(0.0, |sum, &d| sum * 10.0 + f64::from(d));
        let scale = POWERS_OF_TEN[exponent.unsigned_abs() as usize];
        return Some(if exponent < 0 {
            whole / scale
        } else {
            whole * scale
        });
    }
    Some(corrected(&digits, exponent))
}

/// 10^0 ... 10^22: every power of ten an f64 holds exactly.
const POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The f64 nearest `digits x 10^exponent`: an estimate, then moved one
/// step at a time while the decimal lies beyond a halfway point.
fn corrected(digits: &[u8], exponent: i32) -> f64 {
    let exact = Decimal::new(digits, exponent);
    let mut estimate = estimate(digits, exponent);
    loop {
        if estimate.is_infinite() {
            // Stepped past f64::MAX: the decimal reached its upper halfway
            // point, from where ties go to the even 2^1024, infinity.
            return estimate;
        }
        let (mantissa, power) = split(estimate);
        // Above: halfway to the next f64, (2m + 1) x 2^(power - 1).
        match exact.compare(2 * mantissa + 1, power - 1) {
            Ordering::Greater => {
                estimate = f64::from_bits(estimate.to_bits() + 1);
                continue;
            }
            Ordering::Equal if mantissa & 1 == 1 => return f64::from_bits(estimate.to_bits() + 1),
            _ => {}
        }
        if mantissa == 0 {
            return estimate;
        }
        // Below: halfway to the previous f64, which is closer when this
        // one starts a binade (a normal power of two).
        let (low, low_power) = if mantissa == 1 << 52 && power > MIN_POWER {
            (4 * mantissa - 1, power - 2)
        } else {
            (2 * mantissa - 1, power - 1)
        };
        match exact.compare(low, low_power) {
            Ordering::Less => estimate = f64::from_bits(estimate.to_bits() - 1),
            Ordering::Equal if mantissa & 1 == 1 => return f64::from_bits(estimate.to_bits() - 1),
            _ => return estimate,
        }
    }
}

/// The exponent of subnormals and of the smallest normal binade.
const MIN_POWER: i32 = -1074;

/// A finite, non-negative f64 as `mantissa x 2^power`, the mantissa with its
/// implicit bit.
fn split(value: f64) -> (u64, i32) {
    let bits = value.to_bits();
    let biased = (bits >> 52) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        (fraction, MIN_POWER)
    } else {
        (fraction | 1 << 52, biased - 1075)
    }
}

/// A few ulps from the answer: the first 19 digits, scaled in two steps
/// so that no step leaves the range of f64.
fn estimate(digits: &[u8], exponent: i32) -> f64 {
    let kept = digits.len().min(19);
    let leading = digits[..kept]
        .iter()
        .fold(0u64, |n, &d| n * 10 + u64::from(d)) as f64;
    let mut scale = exponent + (digits.len() - kept) as i32;
    let mut value = leading;
    while scale != 0 {
        let step = scale.clamp(-300, 300);
        value *= 10f64.powi(step);
        scale -= step;
    }
    if value.is_infinite() { f64::MAX } else { value }
}

/// `digits x 10^exponent`, kept as the integers `numerator` and a power of
/// ten `denominator` to compare with `odd x 2^power` without rounding.
struct Decimal {
    numerator: Big,
    denominator: Big,
}

impl Decimal {
    fn new(digits: &[u8], exponent: i32) -> Self {
        let mut numerator = Big::from(0);
        for &digit in digits {
            numerator.mul_add(10, u32::from(digit));
        }
        let mut denominator = Big::from(1);
        let tens = if exponent >= 0 {
            &mut numerator
        } else {
            &mut denominator
        };
        for _ in 0..exponent.unsigned_abs() {
            tens.mul_add(10, 0);
        }
        Self {
            numerator,
            denominator,
        }
    }

    /// The decimal against `odd x 2^power`.
    fn compare(&self, odd: u64, power: i32) -> Ordering {
        let mut left = self.numerator.clone();
        let mut right = self.denominator.clone();
        right.mul_add(odd as u32, 0);
        let mut high = self.denominator.clone();
        high.mul_add((odd >> 32) as u32, 0);
        high.shift_left(32);
        right.add(&high);
        if power < 0 {
            left.shift_left(power.unsigned_abs());
        } else {
            right.shift_left(power as u32);
        }
        left.cmp(&right)
    }
}

/// A non-negative integer as base-2^32 limbs, least significant first, no
/// high zero limbs.
#[derive(Clone)]
struct Big(Vec<u32>);

impl From<u32> for Big {
    fn from(value: u32) -> Self {
        let mut big = Big(vec![value]);
        big.trim();
        big
    }
}

impl Big {
    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// self = self x factor + addend.
    fn mul_add(&mut self, factor: u32, addend: u32) {
        let mut carry = u64::from(addend);
        for limb in &mut self.0 {
            let product = u64::from(*limb) * u64::from(factor) + carry;
            *limb = product as u32;
            carry = product >> 32;
        }
        self.0.push(carry as u32);
        self.trim();
    }

    fn add(&mut self, other: &Big) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        let mut carry = 0u64;
        for (i, limb) in self.0.iter_mut().enumerate() {
            let sum = u64::from(*limb) + u64::from(other.0.get(i).copied().unwrap_or(0)) + carry;
            *limb = sum as u32;
            carry = sum >> 32;
        }
        self.0.push(carry as u32);
        self.trim();
    }

    fn shift_left(&mut self, bits: u32) {
        if self.0.is_empty() {
            return;
        }
        let (limbs, bits) = ((bits / 32) as usize, bits % 32);
        if bits > 0 {
            let mut carry = 0;
            for limb in &mut self.0 {
                let wide = (u64::from(*limb) << bits) | carry;
                *limb = wide as u32;
                carry = wide >> 32;
            }
            self.0.push(carry as u32);
        }
        self.0.splice(0..0, std::iter::repeat_n(0, limbs));
        self.trim();
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0
            .len()
            .cmp(&other.0.len())
            .then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same bits as `str::parse`, or both refuse.
    fn same(text: &str) {
        let ours = parse_f64(text).map(f64::to_bits);
        let theirs = text.parse::<f64>().ok().map(f64::to_bits);
        assert_eq!(ours, theirs, "{text:?}");
    }

    #[test]
    fn the_forms_str_parse_takes_and_refuses() {
        for text in [
            "0",
            "-0",
            "+0",
            "1",
            "-1",
            "+1.5",
            "1.",
            ".5",
            "-.5",
            "0.1",
            "00012.5000",
            "1e5",
            "1E5",
            "1e+5",
            "1e-5",
            "1.5e3",
            ".5e1",
            "5.e-1",
            "inf",
            "-inf",
            "+inf",
            "INF",
            "Infinity",
            "-infinity",
            "iNfInItY",
            "nan",
            "NaN",
            "-nan",
            "+NAN",
            "",
            "+",
            "-",
            ".",
            "e5",
            ".e5",
            "1e",
            "1e+",
            "1e-",
            "--1",
            "+-1",
            "1.2.3",
            " 1",
            "1 ",
            "1_0",
            "0x10",
            "1e5.0",
            "1.5f",
            "infinit",
            "nana",
            "\u{661}",
            "1e99999999999999999999",
            "1e-99999999999999999999",
            "0e99999999",
            "0.000e-99999",
            "1ee5",
            "1e5e5",
        ] {
            same(text);
        }
    }

    #[test]
    fn edges_of_the_range_round_as_str_parse_does() {
        for text in [
            "1.7976931348623157e308", // f64::MAX
            "1.7976931348623158e308", // rounds to MAX
            "1.7976931348623159e308", // past the halfway point: infinity
            "179769313486231580793728971405301e276",
            "2.2250738585072014e-308", // the smallest normal
            "2.2250738585072011e-308", // the largest subnormal's neighbourhood
            "4.9406564584124654e-324", // the smallest subnormal
            "2.4703282292062327e-324", // half of it: ties to even, 0
            "2.4703282292062328e-324", // just above half: the smallest subnormal
            "1e-400",
            "1e400",
            "1e308",
            "1e-308",
            "1e-320",
            "9e-324",
            "3e-324",
            "1e23",
            "9007199254740993", // 2^53 + 1: ties to even, 2^53
            "9007199254740995", // 2^53 + 3: ties to even, 2^53 + 4
            "9007199254740993.0000000000000000000000000000001",
            "123456789012345678901234567890",
            "0.1000000000000000055511151231257827021181583404541015625", // 0.1 exactly
            "0.1000000000000000055511151231257827021181583404541015624",
            "0.1000000000000000055511151231257827021181583404541015626",
        ] {
            same(text);
        }
    }

    /// The decimal expansion of `odd x 2^power`, exact.
    fn exact_decimal(odd: u64, power: i32) -> String {
        // odd x 2^p = odd x 5^-p x 10^p for p < 0.
        let mut big = Big::from(odd as u32);
        let mut high = Big::from((odd >> 32) as u32);
        high.shift_left(32);
        big.add(&high);
        if power >= 0 {
            big.shift_left(power as u32);
        } else {
            for _ in 0..power.unsigned_abs() {
                big.mul_add(5, 0);
            }
        }
        let mut digits = Vec::new();
        while !big.0.is_empty() {
            let mut remainder = 0u64;
            for limb in big.0.iter_mut().rev() {
                let wide = (remainder << 32) | u64::from(*limb);
                *limb = (wide / 10) as u32;
                remainder = wide % 10;
            }
            big.trim();
            digits.push(b'0' + remainder as u8);
        }
        digits.reverse();
        let digits = String::from_utf8(digits).expect("ASCII digits");
        format!("{digits}e{}", power.min(0))
    }

    /// A small generator with a fixed seed, so a failure repeats.
    struct Draws(u64);
    impl Draws {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = self.0;
            (x ^ (x >> 29)).wrapping_mul(0xbf58476d1ce4e5b9) ^ (x >> 32)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn halfway_points_and_their_neighbours_round_as_str_parse_does() {
        let mut draws = Draws(7);
        for i in 0..3000 {
            // Across the whole range, subnormals and the binades' edges too.
            let bits = match i % 4 {
                0 => draws.below(0x7FF0_0000_0000_0000),
                1 => draws.below(1 << 53),
                2 => (draws.below(0x7FF) << 52) | draws.below(2),
                _ => ((1 + draws.below(0x7FE)) << 52) - 1,
            };
            let (mantissa, power) = split(f64::from_bits(bits));
            let text = exact_decimal(2 * mantissa + 1, power - 1);
            same(&text);
            // Just below and just above the halfway point.
            let (digits, exponent) = text.split_once('e').expect("an exponent");
            same(&format!(
                "{digits}1e{}",
                exponent.parse::<i32>().expect("digits") - 1
            ));
            let mut lower = digits.as_bytes().to_vec();
            if let Some(last) = lower.iter().rposition(|&d| d != b'0') {
                lower[last] -= 1;
                lower[last + 1..].fill(b'9');
                let lower = String::from_utf8(lower).expect("ASCII digits");
                same(&format!(
                    "{lower}9e{}",
                    exponent.parse::<i32>().expect("digits") - 1
                ));
            }
        }
    }

    #[test]
    fn random_decimals_read_as_str_parse_reads_them() {
        let mut draws = Draws(11);
        for _ in 0..10_000 {
            let count = match draws.below(4) {
                0 => 1 + draws.below(6),
                1 => 1 + draws.below(25),
                2 => 14 + draws.below(8),
                _ => 790 + draws.below(20),
            } as usize;
            let mut text = String::new();
            if draws.below(3) == 0 {
                text.push(if draws.below(2) == 0 { '-' } else { '+' });
            }
            let point = draws.below(count as u64 + 2) as usize;
            for i in 0..count {
                if i == point {
                    text.push('.');
                }
                let digit = if draws.below(5) == 0 {
                    0
                } else {
                    draws.below(10)
                };
                text.push((b'0' + digit as u8) as char);
            }
            if draws.below(2) == 0 {
                text.push(if draws.below(2) == 0 { 'e' } else { 'E' });
                let exponent = draws.below(800) as i64 - 400;
                text.push_str(&exponent.to_string());
            }
            same(&text);
        }
    }

    #[test]
    fn shortest_texts_of_random_f64_read_back_as_the_same_f64() {
        let mut draws = Draws(13);
        for _ in 0..10_000 {
            let value = f64::from_bits(draws.below(0x7FF0_0000_0000_0000));
            for text in [
                format!("{value}"),
                format!("{value:e}"),
                format!("{value:.3}"),
            ] {
                same(&text);
            }
        }
    }
}
