//! The YAML a Kubernetes manifest is written in, as far as a retry policy
//! needs it: documents split by `---`, block mappings and block sequences
//! by indentation, plain and quoted scalars, comments. Flow collections
//! (`[a, b]`, `{a: 1}`) other than empty ones, anchors, tags and block
//! scalars (`|`, `>`) are refused with a message: they are never how a
//! retry policy is written, and a general YAML crate would weigh more than
//! the page allows.
//!
//! The text is untrusted: depth is bounded, nothing here panics, and a
//! message quotes at most a short clip of a line.

use serde_json::{Map, Number, Value};

use crate::config::clip;

/// Deepest nesting read: a manifest's retry policy sits at depth 6.
const MOST_DEPTH: usize = 32;

/// A line of content: its indentation and its text, comment removed.
#[derive(Debug, Clone)]
struct Line {
    number: usize,
    indent: usize,
    text: String,
}

/// Reads every document of `text`.
pub fn documents(text: &str) -> Result<Vec<Value>, String> {
    let mut documents = Vec::new();
    let mut lines = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        if raw.starts_with("---") || raw.starts_with("...") {
            documents.push(std::mem::take(&mut lines));
            continue;
        }
        let indentation = &raw[..raw.len() - raw.trim_start().len()];
        if indentation.contains('\t') {
            return Err(crate::tf!(
                "line {number}: a tab indents it; YAML indents with spaces",
                number = number
            ));
        }
        let text = strip_comment(raw);
        if text.trim().is_empty() {
            continue;
        }
        let indent = text.len() - text.trim_start().len();
        lines.push(Line {
            number,
            indent,
            text: text.trim().to_string(),
        });
    }
    documents.push(lines);
    documents
        .into_iter()
        .filter(|lines| !lines.is_empty())
        .map(|mut lines| {
            let mut at = 0;
            let indent = lines[0].indent;
            let value = block(&mut lines, &mut at, indent, 0)?;
            match lines.get(at) {
                Some(line) => Err(crate::tf!(
                    "line {number}: not where its indentation puts it: {text}",
                    number = line.number,
                    text = clip(&line.text)
                )),
                None => Ok(value),
            }
        })
        .collect()
}

/// The line without its comment: a `#` at its start or after a space,
/// outside quotes.
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (at, c) in line.char_indices() {
        match (quote, c) {
            // A quote opens a quoted scalar only where a token starts: the
            // apostrophe of "it's" is text.
            (None, '"' | '\'') if previous == ' ' => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') if previous == ' ' => return &line[..at],
            _ => {}
        }
        previous = c;
    }
    line
}

/// The block at `indent` starting at line `at`: a sequence if its first
/// line is an item, else a mapping.
fn block(lines: &mut [Line], at: &mut usize, indent: usize, depth: usize) -> Result<Value, String> {
    if depth > MOST_DEPTH {
        return Err(crate::tf!(
            "nested deeper than {most} levels",
            most = MOST_DEPTH
        ));
    }
    if is_item(&lines[*at].text) {
        return sequence(lines, at, indent, depth);
    }
    let mut map = Map::new();
    while let Some(line) = lines.get(*at).filter(|l| l.indent == indent).cloned() {
        if is_item(&line.text) {
            break;
        }
        let number = line.number;
        let Some((key, rest)) = split_key(&line.text) else {
            return Err(crate::tf!(
                "line {number}: expected key: value, read {text}",
                number = number,
                text = clip(&line.text)
            ));
        };
        let (key, rest) = (unquote(key), rest.to_string());
        *at += 1;
        let value = if rest.is_empty() {
            match lines.get(*at) {
                Some(next) if next.indent > indent => block(lines, at, next.indent, depth + 1)?,
                // A sequence may sit at its key's own indentation.
                Some(next) if next.indent == indent && is_item(&next.text) => {
                    sequence(lines, at, indent, depth + 1)?
                }
                _ => Value::Null,
            }
        } else {
            scalar(&rest, number)?
        };
        if map.insert(key.clone(), value).is_some() {
            return Err(crate::tf!(
                "line {number}: {key} is given twice",
                number = number,
                key = clip(&key)
            ));
        }
    }
    Ok(Value::Object(map))
}

fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

fn sequence(
    lines: &mut [Line],
    at: &mut usize,
    indent: usize,
    depth: usize,
) -> Result<Value, String> {
    let mut items = Vec::new();
    while let Some(line) = lines
        .get(*at)
        .filter(|l| l.indent == indent && is_item(&l.text))
        .cloned()
    {
        let rest = line.text[1..].trim_start().to_string();
        if rest.is_empty() {
            *at += 1;
            match lines.get(*at) {
                Some(next) if next.indent > indent => {
                    items.push(block(lines, at, next.indent, depth + 1)?)
                }
                _ => items.push(Value::Null),
            }
        } else if split_key(&rest).is_some() || is_item(&rest) {
            // `- key: value` opens a mapping whose keys line up after the
            // dash: the line becomes its first key, indented as they are.
            let inner = indent + (line.text.len() - rest.len());
            lines[*at] = Line {
                number: line.number,
                indent: inner,
                text: rest,
            };
            items.push(block(lines, at, inner, depth + 1)?);
        } else {
            let number = line.number;
            *at += 1;
            items.push(scalar(&rest, number)?);
        }
    }
    Ok(Value::Array(items))
}

/// `key: rest` split at the first `: ` (or a final `:`) outside quotes.
fn split_key(text: &str) -> Option<(&str, &str)> {
    let mut quote = None;
    let bytes = text.as_bytes();
    for (at, c) in text.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') if at == 0 => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ':') if bytes.get(at + 1).is_none_or(|b| *b == b' ') => {
                return Some((text[..at].trim(), text[at + 1..].trim()));
            }
            _ => {}
        }
    }
    None
}

fn unquote(text: &str) -> String {
    let quoted = |q: char| text.len() >= 2 && text.starts_with(q) && text.ends_with(q);
    if quoted('"') || quoted('\'') {
        text[1..text.len() - 1].to_string()
    } else {
        text.to_string()
    }
}

/// A scalar as YAML 1.2's core schema reads it: quoted text stays text;
/// plain `true`/`false`, `null`/`~` and numbers are those; the rest text.
fn scalar(text: &str, number: usize) -> Result<Value, String> {
    match text {
        "{}" => return Ok(Value::Object(Map::new())),
        "[]" => return Ok(Value::Array(Vec::new())),
        _ => {}
    }
    if let Some(items) = flow_sequence(text) {
        return items
            .into_iter()
            .map(|item| scalar(item, number))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    let refused = ['[', '{', '&', '*', '!', '|', '>'];
    if text.starts_with(refused) {
        return Err(crate::tf!(
            "line {number}: {text} is YAML this reader does not read (flow collections, anchors, tags, block text): write it in block style",
            number = number,
            text = clip(text)
        ));
    }
    if text.starts_with('"') || text.starts_with('\'') {
        let q = text.chars().next().unwrap_or('"');
        if text.len() < 2 || !text.ends_with(q) {
            return Err(crate::tf!(
                "line {number}: a quote is not closed: {text}",
                number = number,
                text = clip(text)
            ));
        }
        return Ok(Value::String(unquote(text)));
    }
    Ok(match text {
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        "null" | "Null" | "NULL" | "~" => Value::Null,
        _ => plain_number(text).unwrap_or_else(|| Value::String(text.to_string())),
    })
}

/// The items of a flow sequence of scalars on one line, `["*", 5xx, 3]`,
/// as Envoy's YAML writes its domains and status codes: split at the
/// commas outside quotes. `None` for anything else, nested collections
/// and empty items included, which [`scalar`] then refuses.
fn flow_sequence(text: &str) -> Option<Vec<&str>> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    if inner.contains(['[', ']', '{', '}']) {
        return None;
    }
    let mut items = Vec::new();
    let (mut start, mut quote) = (0, None);
    for (at, c) in inner.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, ',') => {
                items.push(inner[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(inner[start..].trim());
    (quote.is_none() && items.iter().all(|item| !item.is_empty())).then_some(items)
}

fn plain_number(text: &str) -> Option<Value> {
    let numeric = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'));
    if !numeric || !text.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    if let Ok(whole) = text.parse::<i64>() {
        return Some(Value::Number(whole.into()));
    }
    text.parse::<f64>()
        .ok()
        .and_then(Number::from_f64)
        .map(Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_a_manifest_with_two_documents() {
        let text = "apiVersion: networking.istio.io/v1 # the API\nkind: VirtualService\nspec:\n  hosts:\n  - reviews\n  http:\n  - route:\n    - destination:\n        host: reviews\n    timeout: 7.5s\n    retries:\n      attempts: 3\n      retryOn: \"5xx,reset\"\n---\nkind: DestinationRule\nspec:\n  trafficPolicy:\n    retryBudget:\n      percent: 12.5\n      minRetryConcurrency: 3\n";
        let docs = documents(text).expect("it reads");
        assert_eq!(docs.len(), 2);
        assert_eq!(
            docs[0],
            json!({
                "apiVersion": "networking.istio.io/v1",
                "kind": "VirtualService",
                "spec": {
                    "hosts": ["reviews"],
                    "http": [{
                        "route": [{"destination": {"host": "reviews"}}],
                        "timeout": "7.5s",
                        "retries": {"attempts": 3, "retryOn": "5xx,reset"}
                    }]
                }
            })
        );
        assert_eq!(
            docs[1]["spec"]["trafficPolicy"]["retryBudget"]["percent"],
            json!(12.5)
        );
    }

    #[test]
    fn refuses_what_it_does_not_read_with_the_line() {
        for (text, line) in [
            ("a:\n  b: [1, [2]]\n", "line 2"),
            ("a:\n  b: [1, , 2]\n", "line 2"),
            ("a:\n  b: [\"1, 2]\n", "line 2"),
            ("a: 1\na: 2\n", "line 2"),
            ("a:\n\t b: 1\n", "line 2"),
            ("a:\n  \tb: 1\n", "line 2"),
            ("a: \"open\n", "line 1"),
            ("just text\n", "line 1"),
            ("a:\n    b: 1\n  c: 2\n", "line 3"),
        ] {
            let why = documents(text).expect_err("it is refused");
            assert!(why.contains(line), "{text:?}: {why}");
        }
        // An apostrophe in plain text opens no quote: the comment after it
        // is still a comment.
        assert_eq!(
            documents("a: it's fine # a comment\n").expect("it reads")[0]["a"],
            serde_json::json!("it's fine")
        );
        // A flow sequence of scalars on one line, as Envoy writes its
        // domains: its items as plain scalars read, commas in quotes kept.
        assert_eq!(
            documents("domains: [\"*\", 'a,b', 5xx, 3]\n").expect("it reads")[0]["domains"],
            serde_json::json!(["*", "a,b", "5xx", 3])
        );
        // A tab inside a value is text, not indentation.
        assert_eq!(
            documents("a: x\ty\n").expect("it reads")[0]["a"],
            serde_json::json!("x\ty")
        );
        let deep: String = (0..100).map(|d| format!("{}k:\n", " ".repeat(d))).collect();
        assert!(documents(&deep).expect_err("too deep").contains("deeper"));
    }
}
