//! The words a person reads, in English or in Russian.
//!
//! The English is written where it is used, as gettext does: a message is
//! its English text, marked so a test can find every one of them in the
//! sources ([`tr`] for a message used at once, [`Text`] for one kept in a
//! table, [`tf!`](crate::tf) for one with values in it). The Russian is one
//! table, `i18n/ru.txt`, the English of each message beside its Russian;
//! `tests/words.rs` names every message of the sources it lacks, every
//! entry no source has any more, and every placeholder a translation drops.
//!
//! What the page downloads for Russian is that table compiled, without the
//! English: each message under a 32-bit FNV-1a hash of its English
//! ([`compile`]), fetched only by a page that shows Russian: `www/ru.words`
//! with every message the page shows, but those of a library's
//! configuration, `www/ru-take-home.words`, fetched when "Take it home"
//! opens. The command line reads the table itself. An English reader
//! downloads no Russian at all, and the English costs no keys: a message is
//! looked up by the hash of the text it already holds.
//!
//! The language is the thread's, as a process's locale is in C: the page
//! and the command line each set it once, before they write a word, and a
//! test that wants Russian sets it on its own thread. It never reaches a
//! number the simulator computes; only the words and the way numbers are
//! written (a decimal comma in Russian: `0,2 с`, `63,2 %`).

use std::cell::{Cell, RefCell};
use std::fmt::{self, Display, Write as _};

/// A language the page speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Ru,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ru];

    /// The word for it in a link, `lang=ru`, and in HTML's `lang`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ru => "ru",
        }
    }

    /// The language a code names exactly (`en`, `ru`): a link's word, the
    /// command line's, the switch's remembered choice.
    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }

    /// A browser's language (`ru-RU`), if it is one the page speaks.
    pub fn parse(text: &str) -> Option<Lang> {
        let primary = text.split(['-', '_']).next().unwrap_or("");
        Lang::ALL
            .into_iter()
            .find(|lang| primary.eq_ignore_ascii_case(lang.code()))
    }

    /// The first of a browser's languages the page speaks, in the
    /// browser's order of preference.
    pub fn preferred<'a>(languages: impl IntoIterator<Item = &'a str>) -> Option<Lang> {
        languages.into_iter().find_map(Lang::parse)
    }

    /// The language's own name, as a switch offers it.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ru => "Русский",
        }
    }
}

thread_local! {
    static LANG: Cell<Lang> = const { Cell::new(Lang::En) };
    /// The Russian messages by the hash of their English, in its order.
    static TABLE: RefCell<Vec<(u32, &'static str)>> = const { RefCell::new(Vec::new()) };
}

/// The thread's language.
pub fn lang() -> Lang {
    LANG.with(Cell::get)
}

/// Speaks English from now on.
pub fn speak_english() {
    LANG.with(|l| l.set(Lang::En));
}

/// Speaks Russian from now on, with the words of a compiled table
/// (`www/ru.words`) added to those already learnt (so the page can learn
/// `www/ru-take-home.words` when it needs them). A table that does not
/// read changes nothing and says why.
pub fn speak_russian(compiled: &str) -> Result<(), String> {
    let mut table = Vec::new();
    for (n, line) in compiled.lines().enumerate() {
        let (hash, text) = line
            .split_once('\t')
            .and_then(|(h, t)| Some((u32::from_str_radix(h, 16).ok()?, t)))
            .ok_or_else(|| format!("line {} of the Russian words does not read", n + 1))?;
        // Once per page: the table lives as long as the page.
        let text: &'static str = Box::leak(unescape(text).into_boxed_str());
        table.push((hash, text));
    }
    // Kept in order as it grows, by insertion: a table is a few hundred
    // messages, and a sort would weigh 2 KB in the page.
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        for (hash, text) in table {
            match t.binary_search_by_key(&hash, |(h, _)| *h) {
                Ok(at) => t[at].1 = text,
                Err(at) => t.insert(at, (hash, text)),
            }
        }
    });
    LANG.with(|l| l.set(Lang::Ru));
    Ok(())
}

/// A message's key: the 32-bit FNV-1a hash of its English.
pub const fn key(english: &str) -> u32 {
    let bytes = english.as_bytes();
    let mut hash: u32 = 0x811c_9dc5;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u32;
        hash = hash.wrapping_mul(0x0100_0193);
        i += 1;
    }
    hash
}

/// A message in the thread's language; the English itself when the
/// language is English or the table lacks it (a test sees that it never
/// does).
#[inline(never)]
pub fn tr(english: &str) -> &str {
    if lang() == Lang::En {
        return english;
    }
    let hash = key(english);
    TABLE.with(|t| {
        let t = t.borrow();
        t.binary_search_by_key(&hash, |(h, _)| *h)
            .map_or(english, |at| t[at].1)
    })
}

/// A message kept in a table (a parameter's label, a preset's lesson):
/// its English, read in the thread's language with [`Text::get`] or
/// `Display`. A test finds every `Text("…")` in the sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Text(pub &'static str);

impl Text {
    pub fn get(self) -> &'static str {
        tr(self.0)
    }

    /// The English, whatever the language: for keys and tests.
    pub fn english(self) -> &'static str {
        self.0
    }
}

/// A message in the thread's language, as the command line prints it.
impl serde::Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.get())
    }
}

impl Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.get())
    }
}

/// A message with values in it, in the thread's language:
/// `tf!("{done} of {of}", done = n, of = total)`. See [`fill`].
#[macro_export]
macro_rules! tf {
    ($template:literal $(, $name:ident = $value:expr)* $(,)?) => {
        $crate::words::fill(
            $crate::words::tr($template),
            &[$((stringify!($name), &$value as &dyn ::std::fmt::Display)),*],
        )
    };
}

/// Fills a message's placeholders: `{name}` is the value named so, written
/// as the language writes numbers ([`number`]); `{name|form|form|form}` is
/// the form of a word that goes with that value (English: one, other;
/// Russian: one, few, many: 1 попытка, 2 попытки, 5 попыток). A name
/// without a value is left as it stands, braces and all, so a slip shows.
pub fn fill(template: &str, values: &[(&str, &dyn Display)]) -> String {
    fill_as(lang(), template, values)
}

/// [`fill`] as English writes it, whatever the thread's language: for
/// words that go into a report, which is the same in every language.
pub fn fill_english(template: &str, values: &[(&str, &dyn Display)]) -> String {
    fill_as(Lang::En, template, values)
}

#[inline(never)]
fn fill_as(lang: Lang, template: &str, values: &[(&str, &dyn Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some((text, after)) = rest.split_once('{') {
        out.push_str(text);
        let Some((tag, after)) = after.split_once('}') else {
            out.push('{');
            rest = after;
            break;
        };
        rest = after;
        let (name, forms) = tag.split_once('|').unwrap_or((tag, ""));
        match values.iter().find(|(n, _)| *n == name) {
            Some((_, value)) if forms.is_empty() => {
                out.push_str(&number_as(lang, &value.to_string()))
            }
            Some((_, value)) => {
                let forms: Vec<&str> = forms.split('|').collect();
                out.push_str(plural_as(lang, &forms, &value.to_string()));
            }
            None => {
                out.push('{');
                out.push_str(tag);
                out.push('}');
            }
        }
    }
    out.push_str(rest);
    out
}

/// The form of a word that goes with `value` (a written number): English
/// has one and other; Russian one (1, 21), few (2–4, 22–24, and every
/// fraction: 2,5 попытки) and many (5–20, 25…).
pub fn plural<'a>(forms: &[&'a str], value: &str) -> &'a str {
    plural_as(lang(), forms, value)
}

#[inline(never)]
fn plural_as<'a>(lang: Lang, forms: &[&'a str], value: &str) -> &'a str {
    let digits: String = value
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '\u{2009}' | '\u{a0}'))
        .filter(|c| !matches!(c, '\u{2009}' | '\u{a0}'))
        .collect();
    // A count in thousands or millions ("12,6 тыс.") takes the form of
    // the word that counts them: many, in Russian.
    let scaled = value.bytes().any(|b| b.is_ascii_alphabetic() || b >= 0xd0);
    let whole = !digits.contains(['.', ',']) || scaled;
    let n: u64 = digits
        .split(['.', ','])
        .next()
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    let index = match lang {
        Lang::En => usize::from(!(whole && n == 1)),
        Lang::Ru if scaled => 2,
        Lang::Ru if !whole => 1,
        Lang::Ru => match (n % 10, n % 100) {
            (1, h) if h != 11 => 0,
            (2..=4, h) if !(12..=14).contains(&h) => 1,
            _ => 2,
        },
    };
    forms
        .get(index)
        .or(forms.last())
        .copied()
        .unwrap_or_default()
}

/// A number as the thread's language writes it: in Russian a decimal
/// comma (`0,25`, `63,2 %`, `1,5x`) and the units translated (`с`, `мс`,
/// `/с`). Text that is not a number is left alone, so a version
/// (`1.44.5`) or a name stays as it is.
pub fn number(text: &str) -> String {
    number_as(lang(), text)
}

#[inline(never)]
fn number_as(lang: Lang, text: &str) -> String {
    /// A unit after the digits, and how Russian writes it.
    const UNITS: [(&str, &str); 6] = [
        (" ms", "\u{a0}мс"),
        (" s", "\u{a0}с"),
        ("/s", "/с"),
        (" %", "\u{a0}%"),
        ("%", "%"),
        ("x", "\u{d7}"),
    ];
    if lang == Lang::En {
        return text.to_string();
    }
    let (body, unit) = UNITS
        .iter()
        .find_map(|(en, ru)| text.strip_suffix(en).map(|body| (body, *ru)))
        .unwrap_or((text, ""));
    // Digits, perhaps signed, perhaps a range (`61.0–65.1`), with thin
    // spaces between thousands; a version's second point makes it none.
    let digits = body.trim_start_matches(['-', '+', '\u{2212}']);
    let number = digits.starts_with(|c: char| c.is_ascii_digit())
        && digits.chars().all(|c| {
            c.is_ascii_digit() || matches!(c, '.' | '-' | '\u{2212}' | '\u{2009}' | '\u{2013}')
        })
        && digits
            .split('\u{2013}')
            .all(|part| part.matches('.').count() <= 1);
    if number {
        body.replace('.', ",") + unit
    } else {
        text.to_string()
    }
}

/// `text` in lower case, for the letters the page writes: ASCII and
/// Russian. Not `str::to_lowercase`, whose Unicode tables would weigh
/// about 9 KB in the page for two alphabets.
pub fn lower(text: &str) -> String {
    text.chars().map(lower_letter).collect()
}

/// A label as it reads inside a Russian sentence: its first letter in
/// lower case where it is a Russian capital opening a word ("Полный" is
/// "полный"), and every other letter as it is, so names keep theirs
/// ("Polly (UseJitter)", "AWS SDK").
pub fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    let (Some(first), second) = (chars.next(), chars.clone().next()) else {
        return String::new();
    };
    let russian_capital = matches!(first, '\u{410}'..='\u{42f}' | '\u{401}');
    let opens_word = second.is_none_or(|c| lower_letter(c) == c);
    match russian_capital && opens_word {
        true => std::iter::once(lower_letter(first)).chain(chars).collect(),
        false => text.to_string(),
    }
}

/// A letter in lower case, as [`lower`] writes it.
pub fn lower_letter(c: char) -> char {
    match c {
        'A'..='Z' => c.to_ascii_lowercase(),
        '\u{410}'..='\u{42f}' => char::from_u32(c as u32 + 0x20).unwrap_or(c),
        '\u{401}' => '\u{451}',
        _ => c,
    }
}

/// The attributes of `index.html` whose words a person reads or hears
/// (`data-label` through the style sheet's `content`): the page translates
/// them, and `tests/words.rs` finds their messages.
pub const READ_ATTRIBUTES: [&str; 6] = [
    "aria-label",
    "title",
    "placeholder",
    "alt",
    "content",
    "data-label",
];

/// Text of `index.html` as a message: its whitespace collapsed to single
/// spaces, as the page reads a text between tags to translate it.
pub fn collapsed(text: &str) -> String {
    text.split_ascii_whitespace().collect::<Vec<_>>().join(" ")
}

/// One entry of the Russian table: the English and its Russian.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub english: String,
    pub russian: String,
    /// The entry's first line in the table, for messages about it.
    pub line: usize,
}

/// Reads the Russian table (`i18n/ru.txt`): entries of two lines, `en `
/// then `ru ` and the text, with `\n` for a line break; `#` starts a
/// comment line, and blank lines part entries.
pub fn read_table(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    let mut english: Option<(usize, String)> = None;
    for (n, line) in text.lines().enumerate() {
        let n = n + 1;
        if line.trim().is_empty() || line.starts_with('#') {
            if english.is_some() {
                return Err(format!("line {n}: the English before has no Russian"));
            }
            continue;
        }
        if let Some(en) = line.strip_prefix("en ") {
            if english.is_some() {
                return Err(format!("line {n}: two English lines in a row"));
            }
            english = Some((n, unescape(en)));
        } else if let Some(ru) = line.strip_prefix("ru ") {
            let (at, en) = english
                .take()
                .ok_or_else(|| format!("line {n}: a Russian line with no English before it"))?;
            entries.push(Entry {
                english: en,
                russian: unescape(ru),
                line: at,
            });
        } else {
            return Err(format!("line {n}: neither `en ` nor `ru `: {line}"));
        }
    }
    if english.is_some() {
        return Err("the table ends on an English line with no Russian".into());
    }
    Ok(entries)
}

/// The table as the page downloads it: one line per message, its key in
/// hexadecimal, a tab and the Russian, in the table's order.
pub fn compile(entries: &[Entry]) -> String {
    let mut out = String::new();
    for entry in entries {
        let _ = writeln!(
            out,
            "{:08x}\t{}",
            key(&entry.english),
            escape(&entry.russian)
        );
    }
    out
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n")
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn russian(pairs: &[(&str, &str)]) {
        let entries: Vec<Entry> = pairs
            .iter()
            .map(|(en, ru)| Entry {
                english: en.to_string(),
                russian: ru.to_string(),
                line: 0,
            })
            .collect();
        speak_russian(&compile(&entries)).expect("compiled");
    }

    #[test]
    fn the_key_is_fnv_1a() {
        // The published FNV-1a 32-bit test vectors.
        assert_eq!(key(""), 0x811c_9dc5);
        assert_eq!(key("a"), 0xe40c_292c);
        assert_eq!(key("foobar"), 0xbf9c_f968);
    }

    #[test]
    fn a_message_is_its_english_until_russian_is_spoken() {
        assert_eq!(tr("Attempts"), "Attempts");
        russian(&[("Attempts", "Попытки"), ("Two\nlines", "Две\nстроки")]);
        assert_eq!(tr("Attempts"), "Попытки");
        assert_eq!(Text("Two\nlines").to_string(), "Две\nстроки");
        // What the table lacks stays English (the words test sees to it
        // that the table lacks nothing).
        assert_eq!(tr("Cap"), "Cap");
        speak_english();
        assert_eq!(tr("Attempts"), "Attempts");
    }

    #[test]
    fn plurals_follow_each_language() {
        let forms = |n: &str| {
            let template = tr("{n} {n|attempt|attempts}");
            fill(template, &[("n", &n as &dyn Display)])
        };
        assert_eq!(forms("1"), "1 attempt");
        assert_eq!(forms("2"), "2 attempts");
        assert_eq!(forms("1.5"), "1.5 attempts");
        russian(&[(
            "{n} {n|attempt|attempts}",
            "{n} {n|попытка|попытки|попыток}",
        )]);
        let expected = [
            ("1", "1 попытка"),
            ("2", "2 попытки"),
            ("4", "4 попытки"),
            ("5", "5 попыток"),
            ("11", "11 попыток"),
            ("12", "12 попыток"),
            ("21", "21 попытка"),
            ("22", "22 попытки"),
            ("111", "111 попыток"),
            ("1.5", "1,5 попытки"),
            ("12\u{2009}612", "12\u{2009}612 попыток"),
            ("12,6 тыс.", "12,6 тыс. попыток"),
        ];
        for (n, text) in expected {
            assert_eq!(forms(n), text, "{n}");
        }
    }

    #[test]
    fn numbers_take_the_languages_decimal_mark_and_units() {
        let cases = [
            ("0.25", "0,25"),
            ("63.2 %", "63,2\u{a0}%"),
            ("61.0\u{2013}65.1 %", "61,0\u{2013}65,1\u{a0}%"),
            ("0.2 s", "0,2\u{a0}с"),
            ("200 ms", "200\u{a0}мс"),
            ("40/s", "40/с"),
            ("1.50x", "1,50\u{d7}"),
            ("-3.5", "-3,5"),
            ("1.44.5", "1.44.5"),
            ("v1.2", "v1.2"),
            ("A", "A"),
        ];
        for (en, _) in cases {
            assert_eq!(number(en), en, "English leaves {en} alone");
        }
        russian(&[]);
        for (en, ru) in cases {
            assert_eq!(number(en), ru, "{en}");
        }
    }

    #[test]
    fn lower_case_covers_both_alphabets() {
        assert_eq!(lower("Attempts"), "attempts");
        assert_eq!(lower("Базовая ЗАДЕРЖКА, Ёж"), "базовая задержка, ёж");
        assert_eq!(lower_first("Полный"), "полный");
        assert_eq!(lower_first("Ёмкий Polly"), "ёмкий Polly");
        assert_eq!(lower_first("Polly (UseJitter)"), "Polly (UseJitter)");
        assert_eq!(lower_first("ДКР"), "ДКР");
        assert_eq!(lower_first(""), "");
    }

    #[test]
    fn fill_writes_values_and_keeps_what_it_cannot() {
        let text = fill(
            "{a} of {b}: {missing}",
            &[("a", &1.5 as &dyn Display), ("b", &"two")],
        );
        assert_eq!(text, "1.5 of two: {missing}");
        assert_eq!(fill("open {", &[]), "open {");
    }

    #[test]
    fn the_table_reads_and_says_where_it_does_not() {
        let table = "# a comment\nen Attempts\nru Попытки\n\nen A\\nB\nru А\\nБ\n";
        let entries = read_table(table).expect("reads");
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[1].english, "A\nB");
        assert_eq!(entries[1].russian, "А\nБ");
        assert_eq!(entries[1].line, 5);
        let compiled = compile(&entries);
        assert_eq!(compiled.lines().count(), 2);
        assert!(compiled.contains("\tА\\nБ\n"), "{compiled}");
        for bad in ["en A\n\nru Б", "ru Б", "en A\nen B", "x", "en A"] {
            assert!(read_table(bad).is_err(), "{bad:?}");
        }
        assert!(speak_russian("zz\tx").is_err());
        assert_eq!(
            lang(),
            Lang::En,
            "a table that does not read changes nothing"
        );
    }

    #[test]
    fn languages_parse_from_links_and_browsers() {
        assert_eq!(Lang::parse("ru"), Some(Lang::Ru));
        assert_eq!(Lang::parse("ru-RU"), Some(Lang::Ru));
        assert_eq!(Lang::parse("EN_gb"), Some(Lang::En));
        assert_eq!(Lang::parse("de"), None);
        assert_eq!(Lang::from_code("ru"), Some(Lang::Ru));
        assert_eq!(Lang::from_code("ru-RU"), None, "a link's word is exact");
        assert_eq!(Lang::preferred(["de-DE", "ru", "en"]), Some(Lang::Ru));
        assert_eq!(Lang::preferred(["fr"]), None);
    }
}
