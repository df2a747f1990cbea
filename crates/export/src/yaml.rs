//! YAML as teams write it, read into JSON values: every document of a
//! stream, block and flow collections, quoted, plain and block scalars,
//! anchors and aliases (and `<<` merge keys), tags ignored. The text is
//! tokenised by `saphyr-parser`, a maintained YAML 1.2 parser whose events
//! carry no tree: the tree is built here, under bounds, since the text is
//! untrusted:
//! - nesting deeper than [`MOST_DEPTH`] is refused;
//! - an alias copies its anchor's value, and the values built (copies
//!   included) may not pass [`MOST_NODES`], so an alias bomb (each level
//!   ten aliases of the last) is refused after a few thousand values, not
//!   after memory runs out;
//! - a key met twice in one mapping is refused, as Kubernetes refuses it;
//! - every message names its line and quotes at most a short clip.
//!
//! Plain scalars resolve as YAML 1.2's core schema does: `null`, `~` and
//! nothing are null, `true` and `false` (in three cases) booleans, decimal
//! numbers numbers, everything else text; a quoted or block scalar, or one
//! tagged `!!str`, is always text.

use saphyr_parser::{Event, Parser, ScalarStyle, Span};
use serde_json::{Map, Number, Value};
use std::collections::HashMap;

use retry_sim::link::clip;

/// Deepest nesting read: a manifest's retry policy sits at depth 6, an
/// Envoy bootstrap's at 10.
const MOST_DEPTH: usize = 32;

/// Most values built, aliases' copies included: a whole `kubectl get -o
/// yaml` of a few objects holds a few thousand.
const MOST_NODES: usize = 200_000;

/// Reads every document of `text`.
pub fn documents(text: &str) -> Result<Vec<Value>, String> {
    let mut reader = Reader {
        parser: Parser::new_from_str(text),
        lines: text.lines().count().max(1),
        anchors: HashMap::new(),
        nodes: 0,
    };
    let mut documents = Vec::new();
    loop {
        let (event, span) = reader.next()?;
        match event {
            Event::StreamEnd => return Ok(documents),
            Event::DocumentStart(_) => {
                let (event, span) = reader.next()?;
                let value = reader.value(event, span, 0)?;
                // An empty document (a lone `---`) holds nothing.
                if !value.is_null() {
                    documents.push(value);
                }
                reader.anchors.clear();
            }
            Event::StreamStart | Event::DocumentEnd | Event::Nothing => {}
            _ => {
                return Err(at(
                    span,
                    retry_core::words::tr("not where a document can start"),
                ));
            }
        }
    }
}

/// The parser and what the tree so far holds.
struct Reader<'input> {
    parser: Parser<'input, saphyr_parser::StrInput<'input>>,
    /// Each anchor's value, for its aliases.
    anchors: HashMap<usize, Value>,
    /// Values built so far, copies included.
    nodes: usize,
    /// The text's lines: an error found at its end is on its last.
    lines: usize,
}

impl<'input> Reader<'input> {
    fn next(&mut self) -> Result<(Event<'input>, Span), String> {
        match self.parser.next_event() {
            Some(Ok(event)) => Ok(event),
            // The parser's own bound on nesting: said as ours is.
            Some(Err(error)) if error.info().contains("recursion") => Err(retry_core::tf!(
                "line {line}: {why}",
                line = error.marker().line().min(self.lines),
                why = retry_core::tf!("nested deeper than {most} levels", most = MOST_DEPTH)
            )),
            Some(Err(error)) => Err(retry_core::tf!(
                "line {line}, column {column}: not valid YAML",
                line = error.marker().line().min(self.lines),
                column = error.marker().col() + 1
            )),
            None => Ok((Event::StreamEnd, Span::default())),
        }
    }

    /// Counts `count` more values built, refusing past the bound.
    fn built(&mut self, count: usize, span: Span) -> Result<(), String> {
        self.nodes = self.nodes.saturating_add(count);
        if self.nodes > MOST_NODES {
            return Err(at(
                span,
                &retry_core::tf!(
                    "more than {most} values (aliases copy their anchors): refused",
                    most = MOST_NODES
                ),
            ));
        }
        Ok(())
    }

    /// The value that `event` starts, read to its end.
    fn value(&mut self, event: Event<'input>, span: Span, depth: usize) -> Result<Value, String> {
        if depth > MOST_DEPTH {
            return Err(at(
                span,
                &retry_core::tf!("nested deeper than {most} levels", most = MOST_DEPTH),
            ));
        }
        let (value, anchor) = match event {
            Event::Scalar(text, style, anchor, tag) => {
                self.built(1, span)?;
                let text_tag = tag.is_some_and(|tag| tag.suffix == "str");
                let value = match style {
                    ScalarStyle::Plain if !text_tag => plain(&text),
                    _ => Value::String(text.into_owned()),
                };
                (value, anchor)
            }
            Event::Alias(anchor) => {
                let value = self
                    .anchors
                    .get(&anchor)
                    .cloned()
                    .ok_or_else(|| at(span, retry_core::words::tr("an alias of no anchor")))?;
                self.built(size(&value), span)?;
                return Ok(value);
            }
            Event::SequenceStart(anchor, _) => {
                self.built(1, span)?;
                let mut items = Vec::new();
                loop {
                    let (event, span) = self.next()?;
                    if matches!(event, Event::SequenceEnd) {
                        break;
                    }
                    items.push(self.value(event, span, depth + 1)?);
                }
                (Value::Array(items), anchor)
            }
            Event::MappingStart(anchor, _) => {
                self.built(1, span)?;
                (Value::Object(self.mapping(depth)?), anchor)
            }
            _ => {
                return Err(at(
                    span,
                    retry_core::words::tr("not where a value can start"),
                ));
            }
        };
        if anchor > 0 {
            self.anchors.insert(anchor, value.clone());
        }
        Ok(value)
    }

    /// A mapping's entries, read to its end; `<<` merges the entries of
    /// the mapping (or mappings) it names that the mapping does not set.
    fn mapping(&mut self, depth: usize) -> Result<Map<String, Value>, String> {
        let mut entries = Map::new();
        let mut merged = Vec::new();
        loop {
            let (event, span) = self.next()?;
            if matches!(event, Event::MappingEnd) {
                break;
            }
            let key = match self.value(event, span, depth + 1)? {
                Value::String(key) => key,
                Value::Null => "null".to_string(),
                Value::Bool(b) => b.to_string(),
                Value::Number(n) => n.to_string(),
                Value::Array(_) | Value::Object(_) => {
                    return Err(at(
                        span,
                        retry_core::words::tr("a key that is a list or a mapping"),
                    ));
                }
            };
            let (event, value_span) = self.next()?;
            let value = self.value(event, value_span, depth + 1)?;
            if key == "<<" {
                match value {
                    Value::Object(entries) => merged.push(entries),
                    Value::Array(items) => {
                        merged.extend(items.into_iter().filter_map(|item| match item {
                            Value::Object(entries) => Some(entries),
                            _ => None,
                        }))
                    }
                    _ => {
                        return Err(at(
                            span,
                            retry_core::words::tr("<< merges a mapping, or a list of them"),
                        ));
                    }
                }
                continue;
            }
            if entries.contains_key(&key) {
                return Err(at(
                    span,
                    &retry_core::tf!("the key {key} is set twice", key = clip(&key)),
                ));
            }
            entries.insert(key, value);
        }
        for merge in merged {
            for (key, value) in merge {
                entries.entry(key).or_insert(value);
            }
        }
        Ok(entries)
    }
}

/// How many values `value` holds, itself included.
fn size(value: &Value) -> usize {
    match value {
        Value::Array(items) => 1 + items.iter().map(size).sum::<usize>(),
        Value::Object(entries) => 1 + entries.values().map(size).sum::<usize>(),
        _ => 1,
    }
}

/// A message at `span`'s line.
fn at(span: Span, why: &str) -> String {
    retry_core::tf!("line {line}: {why}", line = span.start.line(), why = why)
}

/// A plain scalar, as YAML 1.2's core schema resolves it.
pub(crate) fn plain(text: &str) -> Value {
    match text {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ => number(text).unwrap_or_else(|| Value::String(text.to_string())),
    }
}

/// A decimal number, whole or not.
fn number(text: &str) -> Option<Value> {
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

    /// What people write beside block style: flow collections, block
    /// text (kubectl's last-applied-configuration), anchors with aliases
    /// and merge keys, tags, quoted keys with braces (kubectl's
    /// managedFields), and an explicit end of a document.
    #[test]
    fn reads_yaml_as_teams_write_it() {
        let text = "defaults: &retry {attempts: 3, perTryTimeout: 2s}\nroutes:\n- retries: *retry\n- retries:\n    <<: *retry\n    attempts: 5\nnote: |\n  {\"a\": 1}\ncodes: [503, \"504\", !!str 429]\nfields:\n  'k:{\"port\":80}': {}\n...\n---\nflow: {a: [1, {b: 2}]}\n";
        let docs = documents(text).expect("it reads");
        assert_eq!(docs.len(), 2);
        assert_eq!(
            docs[0]["routes"][0]["retries"],
            json!({"attempts": 3, "perTryTimeout": "2s"})
        );
        assert_eq!(
            docs[0]["routes"][1]["retries"],
            json!({"attempts": 5, "perTryTimeout": "2s"})
        );
        assert_eq!(docs[0]["note"], json!("{\"a\": 1}\n"));
        assert_eq!(docs[0]["codes"], json!([503, "504", "429"]));
        assert_eq!(docs[0]["fields"]["k:{\"port\":80}"], json!({}));
        assert_eq!(docs[1], json!({"flow": {"a": [1, {"b": 2}]}}));
    }

    #[test]
    fn refuses_what_is_not_yaml_with_the_line() {
        for (text, line) in [
            ("a:\n  b: [1, [2]\n", "line 2"),
            ("a: 1\na: 2\n", "line 2"),
            ("a:\n\tb: 1\n", "line 2"),
            ("a: \"open\n", "line 1"),
            ("a:\n    b: 1\n  c: 2\n", "line 3"),
            ("a: *nothing\n", "line 1"),
        ] {
            let why = documents(text).expect_err("it is refused");
            assert!(why.contains(line), "{text:?}: {why}");
        }
        // An apostrophe in plain text opens no quote: the comment after it
        // is still a comment.
        assert_eq!(
            documents("a: it's fine # a comment\n").expect("it reads")[0]["a"],
            json!("it's fine")
        );
        let deep: String = (0..100).map(|d| format!("{}k:\n", " ".repeat(d))).collect();
        assert!(documents(&deep).expect_err("too deep").contains("deeper"));
        let flow_deep = format!("a: {}{}\n", "[".repeat(100), "]".repeat(100));
        assert!(
            documents(&flow_deep)
                .expect_err("too deep")
                .contains("deeper")
        );
    }

    /// An alias bomb, ten aliases of the level before at each of nine
    /// levels (a billion values), is refused once the copies pass the
    /// bound, in the time a few hundred thousand values take.
    #[test]
    fn refuses_an_alias_bomb() {
        let mut text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n".to_string();
        for level in 1..10 {
            let aliases = vec![format!("*a{}", level - 1); 10].join(", ");
            text += &format!("a{level}: &a{level} [{aliases}]\n");
        }
        let why = documents(&text).expect_err("a bomb");
        assert!(why.contains("aliases copy"), "{why}");
    }
}
