//! Every word a person reads exists in both languages.
//!
//! The messages are found where they are written, as xgettext finds them:
//! every `Text("…")`, `tr("…")` and `tf!("…"` outside the tests of the
//! library and the page, and every text and readable attribute of
//! `index.html`. The Russian table, `i18n/ru.txt`, must hold each of them,
//! nothing else, with the same placeholders; the file the page downloads,
//! `www/ru.words`, must be that table compiled. `UPDATE_WORDS=1 cargo test
//! --test words` rewrites `www/ru.words` and lists what the table lacks in
//! `i18n/missing.txt`, in the table's own form, for a translator.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use retry_core::words::{self, Entry};

/// Where each message is written: the message, then its first place.
fn messages() -> BTreeMap<String, String> {
    places()
        .into_iter()
        .map(|(message, places)| (message, places[0].clone()))
        .collect()
}

/// Every place each message is written, `file:line` or `index.html`.
fn places() -> BTreeMap<String, Vec<String>> {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut files = Vec::new();
    for dir in ["crates", "page/src", "first/src"] {
        rust_files(Path::new(dir), &mut files);
    }
    files.sort();
    for file in files {
        let text = fs::read_to_string(&file).expect("a source file");
        for (line, message) in rust_messages(&text) {
            let place = format!("{}:{line}", file.display());
            found.entry(message).or_default().push(place);
        }
    }
    let html = fs::read_to_string("index.html").expect("index.html");
    for message in html_messages(&html) {
        found.entry(message).or_default().push("index.html".into());
    }
    found.retain(|message, _| readable(message));
    found
}

/// Whether a message has words to translate: not empty, and not a
/// policy's name alone.
fn readable(message: &str) -> bool {
    message.chars().any(char::is_alphabetic) && !matches!(message, "A" | "B")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The messages of a Rust file, with their lines, its tests left out.
fn rust_messages(text: &str) -> Vec<(usize, String)> {
    let code = &text[..tests_at(text)];
    let mut out = Vec::new();
    for marker in ["Text(", "tr(", "tf!("] {
        let mut from = 0;
        while let Some(at) = code[from..].find(marker) {
            let start = from + at;
            from = start + marker.len();
            // `str(` or `attr(` is not `tr(`.
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            // The template may stand on the next line, as rustfmt puts it.
            let rest = code[from..].trim_start();
            if let Some(rest) = rest.strip_prefix('"') {
                let line = code[..code.len() - rest.len()].matches('\n').count() + 1;
                out.push((line, literal(rest)));
            }
        }
    }
    out
}

/// Where a file's inline test module starts (`#[cfg(test)]` over a
/// `mod name {`, perhaps `pub(super)`), or its end: a test module declared
/// from another file (`mod svg_test;`) is no place to stop.
fn tests_at(text: &str) -> usize {
    let mut from = 0;
    while let Some(at) = text[from..].find("#[cfg(test)]\n") {
        let start = from + at;
        from = start + 1;
        let item = text[start..].lines().nth(1).unwrap_or("").trim();
        let item = item.strip_prefix("pub(super) ").unwrap_or(item);
        if item.starts_with("mod ") && item.ends_with('{') {
            return start;
        }
    }
    text.len()
}

/// The value of a Rust string literal whose opening quote is just before
/// `rest`, escapes read as the compiler reads them.
fn literal(rest: &str) -> String {
    let mut out = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => return out,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('0') => out.push('\0'),
                Some('r') => out.push('\r'),
                Some('x') => {
                    let code: String = chars.by_ref().take(2).collect();
                    let value = u8::from_str_radix(&code, 16).expect("a \\x escape");
                    out.push(char::from(value));
                }
                Some('u') => {
                    let code: String = chars.by_ref().skip(1).take_while(|&c| c != '}').collect();
                    let value = u32::from_str_radix(&code, 16).expect("a \\u escape");
                    out.push(char::from_u32(value).expect("a character"));
                }
                Some('\n') => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                }
                Some(other) => out.push(other),
                None => break,
            },
            c => out.push(c),
        }
    }
    panic!("an unclosed string literal: {rest:.40}");
}

/// The texts of `index.html` as the page reads them to translate:
/// between tags (outside scripts, styles and comments), whitespace
/// collapsed, entities decoded; and the readable attributes.
fn html_messages(html: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push(text_of(&rest[..open]));
        rest = &rest[open..];
        if let Some(after) = rest.strip_prefix("<!--") {
            rest = after.split_once("-->").map_or("", |(_, r)| r);
            continue;
        }
        let close = rest.find('>').expect("a closed tag");
        let tag = &rest[1..close];
        rest = &rest[close + 1..];
        for raw in ["script", "style"] {
            if tag.starts_with(raw) {
                let end = format!("</{raw}>");
                rest = rest.split_once(end.as_str()).map_or("", |(_, r)| r);
            }
        }
        if tag.starts_with("meta") && !tag.contains("name=\"description\"") {
            continue;
        }
        for attribute in words::READ_ATTRIBUTES {
            let key = format!(" {attribute}=\"");
            if let Some((_, value)) = tag.split_once(key.as_str()) {
                out.push(text_of(value.split('"').next().unwrap_or("")));
            }
        }
    }
    out.retain(|text| !text.is_empty());
    out
}

fn text_of(html: &str) -> String {
    let text = html
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&rsaquo;", "\u{203a}")
        .replace("&lsaquo;", "\u{2039}")
        .replace("&hellip;", "\u{2026}")
        .replace("&middot;", "\u{b7}")
        .replace("&times;", "\u{d7}")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&");
    words::collapsed(&text)
}

fn table() -> Vec<Entry> {
    let text = fs::read_to_string("i18n/ru.txt").expect("i18n/ru.txt");
    words::read_table(&text).unwrap_or_else(|e| panic!("i18n/ru.txt: {e}"))
}

/// Placeholders of a message: `{name}`, and for a plural `{name|…}` its
/// name alone; and the prose's `{if …}`, `{else}` and `{end}` as written.
fn placeholders(message: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = message;
    while let Some((_, after)) = rest.split_once('{') {
        let Some((tag, after)) = after.split_once('}') else {
            break;
        };
        out.insert(tag.split('|').next().unwrap_or("").to_string());
        rest = after;
    }
    out
}

#[test]
fn the_russian_table_holds_every_message_and_only_those() {
    let messages = messages();
    let table = table();
    let update = std::env::var_os("UPDATE_WORDS").is_some();
    let russian: HashMap<&str, &Entry> = table.iter().map(|e| (e.english.as_str(), e)).collect();
    let missing: Vec<(&String, &String)> = messages
        .iter()
        .filter(|(m, _)| !russian.contains_key(m.as_str()))
        .collect();
    if update {
        let mut out = String::from("# What i18n/ru.txt lacks, with where each is written.\n");
        for (message, place) in &missing {
            out.push_str(&format!(
                "\n# {place}\nen {}\nru \n",
                message.replace('\\', "\\\\").replace('\n', "\\n")
            ));
        }
        fs::write("i18n/missing.txt", out).expect("written");
    }
    let stale: Vec<String> = table
        .iter()
        .filter(|e| !messages.contains_key(&e.english))
        .map(|e| format!("line {}: {:?}", e.line, e.english))
        .collect();
    let missing_text: Vec<String> = missing
        .iter()
        .take(40)
        .map(|(m, place)| format!("{place}: {m:?}"))
        .collect();
    assert!(
        missing.is_empty(),
        "i18n/ru.txt lacks {} messages (UPDATE_WORDS=1 lists them in i18n/missing.txt):\n{}",
        missing.len(),
        missing_text.join("\n")
    );
    assert!(
        stale.is_empty(),
        "i18n/ru.txt has entries no source uses any more:\n{}",
        stale.join("\n")
    );
}

#[test]
fn every_translation_keeps_its_placeholders_and_plural_forms() {
    let mut wrong = Vec::new();
    let mut seen = HashMap::new();
    for entry in table() {
        if let Some(line) = seen.insert(entry.english.clone(), entry.line) {
            wrong.push(format!("line {}: also at line {line}", entry.line));
        }
        if entry.russian.trim().is_empty() {
            wrong.push(format!("line {}: no Russian", entry.line));
        }
        if placeholders(&entry.english) != placeholders(&entry.russian) {
            wrong.push(format!(
                "line {}: {:?} against {:?}",
                entry.line,
                placeholders(&entry.english),
                placeholders(&entry.russian)
            ));
        }
        // A Russian plural names three forms: one, few, many.
        for tag in entry.russian.split('{').skip(1) {
            let tag = tag.split('}').next().unwrap_or("");
            let forms = tag.split('|').count() - 1;
            if forms != 0 && forms != 3 && !tag.starts_with("if ") {
                wrong.push(format!(
                    "line {}: {{{tag}}} has {forms} forms, not 3",
                    entry.line
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_two_messages_share_a_key() {
    let mut keys: HashMap<u32, String> = HashMap::new();
    for message in messages().into_keys() {
        if let Some(other) = keys.insert(words::key(&message), message.clone()) {
            panic!("{message:?} and {other:?} hash alike: reword one");
        }
    }
}

/// The course's own files: their words come with a chapter's address.
const COURSE: [&str; 4] = [
    "crates/teach/src/course.rs",
    "crates/teach/src/evidence.rs",
    "crates/view/src/course.rs",
    "page/src/chapter.rs",
];

/// The files whose words the first chart's module (`first/`) may write:
/// `index.html`'s own, the charts', a lesson's and what fills it. They come
/// at once; the page module's other words come with it.
const FIRST_SCREEN: [&str; 10] = [
    "index.html",
    "crates/core/",
    "crates/sim/src/sim/",
    // The names of a setting's choices, as a lesson says them.
    "crates/sim/src/config/choices.rs",
    "crates/sim/src/metrics.rs",
    "crates/draw/",
    "crates/teach/src/presets.rs",
    "crates/teach/src/prose.rs",
    "crates/teach/src/claims.rs",
    "crates/view/src/lesson.rs",
];

/// Which file of Russian words the page downloads a message in, if any:
/// those the first screen may show at once, the rest of the page's with
/// its module, the messages of a library's configuration when "Take it
/// home" opens, the course's with a chapter's address; the command line's
/// own are never the page's.
fn page_file(places: &[String]) -> Option<&'static str> {
    let only = |prefix: &str| places.iter().all(|p| p.starts_with(prefix));
    if only("crates/cli/") {
        None
    } else if only("crates/export/") {
        Some("www/ru-take-home.words")
    } else if places
        .iter()
        .all(|p| COURSE.iter().any(|file| p.starts_with(file)))
    {
        Some("www/ru-course.words")
    } else if places
        .iter()
        .any(|p| FIRST_SCREEN.iter().any(|file| p.starts_with(file)))
    {
        Some("www/ru.words")
    } else {
        Some("www/ru-page.words")
    }
}

#[test]
fn the_page_downloads_the_table_compiled() {
    let places = places();
    let table = table();
    let update = std::env::var_os("UPDATE_WORDS").is_some();
    for file in [
        "www/ru.words",
        "www/ru-page.words",
        "www/ru-take-home.words",
        "www/ru-course.words",
    ] {
        let entries: Vec<Entry> = table
            .iter()
            .filter(|e| places.get(&e.english).and_then(|p| page_file(p)) == Some(file))
            .cloned()
            .collect();
        let compiled = words::compile(&entries);
        if update {
            fs::write(file, &compiled).expect("written");
        }
        let shipped = fs::read_to_string(file).unwrap_or_default();
        assert!(
            shipped == compiled,
            "{file} is not i18n/ru.txt compiled: run UPDATE_WORDS=1 cargo test --test words"
        );
        words::speak_russian(&shipped).expect("the page reads it");
        for entry in entries {
            assert_eq!(
                words::tr(&entry.english),
                entry.russian,
                "line {}",
                entry.line
            );
        }
    }
}

#[test]
fn the_extractor_reads_literals_as_the_compiler_does() {
    let source = "let a = tr(\"one\\\n    two \\u{2026} \\\"q\\\"\");\nText(\"x\") str(\"no\")\n\
                  tf!(\n    \"{n} of {m}\", n = 1) tr(x)\n#[cfg(test)]\nmod other;\ntr(\"y\")\n\
                  #[cfg(test)]\nmod tests {\n tr(\"test only\") }";
    let found: Vec<String> = rust_messages(source).into_iter().map(|(_, m)| m).collect();
    assert_eq!(found, ["x", "onetwo \u{2026} \"q\"", "y", "{n} of {m}"]);
    let html = "<p title=\"Hint &amp; more\">Two\n   words<code>x</code></p><script>no</script><!-- no -->";
    assert_eq!(html_messages(html), ["Hint & more", "Two words", "x"]);
}

/// The style sheet writes no words of its own: what it shows with
/// `content` comes from an attribute the page fills in its language.
#[test]
fn the_style_sheet_says_nothing_in_one_language() {
    let css = fs::read_to_string("www/style.css").expect("www/style.css");
    for (n, line) in css.lines().enumerate() {
        for quoted in line.split("content:").skip(1) {
            let value = quoted.split(';').next().unwrap_or("");
            let literal: String = value.split('"').skip(1).step_by(2).collect();
            assert!(
                !literal.chars().any(char::is_alphabetic),
                "www/style.css:{}: words in `content`; put them in an attribute: {value}",
                n + 1
            );
        }
    }
}

/// A report is the same in every language, even the words of a run cut
/// short at a bound, and `lang=` in its link changes nothing.
#[test]
fn a_report_is_the_same_in_russian() {
    use retry_sim::simulate;
    use retry_teach::course;
    let cut = "v=1&timeout=0&rate=20000&hop=constant&hop_mean=10&layers=8";
    let english = simulate::json_for(&course::open(cut).0);
    assert!(
        english.contains("\"message\":\"more than"),
        "a cut run: {english:.300}"
    );
    let table = words::compile(&table());
    let russian = std::thread::spawn(move || {
        words::speak_russian(&table).expect("the table reads");
        let (a, b) = simulate::run_both(&course::open(&format!("{cut}&lang=ru")).0);
        let said = simulate::limit_text(&a, b.as_ref()).unwrap_or_default();
        (simulate::both_to_json(&a, b.as_ref()), said)
    })
    .join()
    .expect("no panic");
    assert_eq!(russian.0, english);
    assert!(
        russian.1.contains("прогон") || russian.1.contains("Прогон"),
        "{}",
        russian.1
    );
}

/// One term for one idea: none of the words `i18n/GLOSSARY.md` rules out
/// (its "not" column) stands as a word in the Russian table.
#[test]
fn the_russian_keeps_to_the_glossarys_terms() {
    let glossary = fs::read_to_string("i18n/GLOSSARY.md").expect("i18n/GLOSSARY.md");
    let banned: Vec<String> = glossary
        .lines()
        .filter(|line| line.starts_with('|') && !line.starts_with("|---"))
        .filter_map(|line| line.split('|').nth(3))
        .flat_map(|cell| cell.split(','))
        .map(|word| words::lower(word.trim()))
        .filter(|word| !word.is_empty() && word != "not")
        .collect();
    assert!(
        banned.len() >= 10,
        "the glossary's column of words not to use: {banned:?}"
    );
    let mut found = Vec::new();
    for entry in table() {
        let russian = words::lower(&entry.russian);
        for word in &banned {
            let stands = russian.match_indices(word.as_str()).any(|(at, _)| {
                let before = russian[..at].chars().next_back();
                let after = russian[at + word.len()..].chars().next();
                !before.is_some_and(char::is_alphabetic) && !after.is_some_and(char::is_alphabetic)
            });
            if stands {
                found.push(format!("line {}: {word}", entry.line));
            }
        }
    }
    assert!(
        found.is_empty(),
        "words the glossary rules out:\n{}",
        found.join("\n")
    );
}
