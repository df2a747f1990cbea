//! What the page tells scripts: the parameter table as JSON, one object
//! per parameter, for `window.retryPlayground.params()`. Reports need no
//! code here: the page hands out the command line's own JSON.

use serde::Serialize;

use retry_sim::config::{Kind, PARAMS, Param};

/// One parameter as scripts see it.
#[derive(Debug, Serialize)]
struct ParamRow {
    key: &'static str,
    label: &'static str,
    /// `"s"`, `"/s"`, `"x"` or empty.
    unit: &'static str,
    group: &'static str,
    /// `"number"`, `"integer"` or `"choice"`.
    kind: &'static str,
    /// Range of a number or an integer.
    #[serde(skip_serializing_if = "Option::is_none")]
    min: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max: Option<f64>,
    /// How far the slider of a number moves in one step.
    #[serde(skip_serializing_if = "Option::is_none")]
    step: Option<f64>,
    /// The words a choice takes in a link.
    #[serde(skip_serializing_if = "Option::is_none")]
    choices: Option<&'static [&'static str]>,
    /// As a link writes it: a number, or a choice's word.
    default: Value,
    help: &'static str,
    /// Whether compare mode's policy B may differ from A in it (`B.key=`).
    per_policy: bool,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Value {
    Number(f64),
    Word(&'static str),
}

fn row(param: &'static Param) -> ParamRow {
    let (kind, min, max, step, choices) = match param.kind {
        Kind::Number { min, max, step } => ("number", Some(min), Some(max), Some(step), None),
        Kind::Integer { min, max } => ("integer", Some(min), Some(max), None, None),
        Kind::Choice(options, _) => ("choice", None, None, None, Some(options)),
    };
    let default = match param.kind {
        Kind::Choice(options, _) => Value::Word(options[param.default as usize]),
        _ => Value::Number(param.default),
    };
    ParamRow {
        key: param.key,
        label: param.label.english(),
        unit: param.unit.english(),
        group: param.group.title().english(),
        kind,
        min,
        max,
        step,
        choices,
        default,
        help: param.help.english(),
        per_policy: param.per_policy(),
    }
}

/// Every parameter in table order, as a JSON array.
pub fn params_json() -> String {
    let rows: Vec<ParamRow> = PARAMS.iter().map(row).collect();
    serde_json::to_string(&rows).unwrap_or_else(|_| "[]".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use retry_sim::config::{Config, P};

    #[test]
    fn every_parameter_is_listed_with_what_a_link_accepts() {
        let rows: Vec<serde_json::Value> =
            serde_json::from_str(&params_json()).expect("the table is JSON");
        assert_eq!(rows.len(), PARAMS.len());
        for (row, param) in rows.iter().zip(PARAMS) {
            assert_eq!(row["key"], param.key);
            assert_eq!(row["help"], param.help.0);
            // The default, written into a link, reads back as the default.
            let default = match &row["default"] {
                serde_json::Value::String(word) => word.clone(),
                number => number.to_string(),
            };
            assert_eq!(
                param.parse(&default),
                Ok(param.default),
                "{}: {default}",
                param.key
            );
            match param.kind {
                Kind::Choice(options, _) => {
                    assert_eq!(row["kind"], "choice");
                    assert_eq!(row["choices"], serde_json::json!(options));
                    assert!(row.get("min").is_none(), "{}", param.key);
                }
                Kind::Number { min, max, step } => {
                    assert_eq!(row["kind"], "number");
                    assert_eq!(
                        [&row["min"], &row["max"], &row["step"]],
                        [min, max, step].map(serde_json::Value::from).each_ref()
                    );
                }
                Kind::Integer { min, max } => {
                    assert_eq!(row["kind"], "integer");
                    assert_eq!(
                        [&row["min"], &row["max"]],
                        [min, max].map(serde_json::Value::from).each_ref()
                    );
                    assert!(row.get("step").is_none(), "{}", param.key);
                }
            }
        }
        let jitter = &rows[P::Jitter as usize];
        assert_eq!(jitter["default"], "full");
        assert_eq!(jitter["per_policy"], true);
        assert_eq!(rows[P::Rate as usize]["per_policy"], false);
        assert_eq!(rows[P::Rate as usize]["unit"], "/s");
        assert_eq!(rows[P::Rate as usize]["group"], "Workload");
        // Every default together is the default configuration.
        let link: Vec<String> = rows
            .iter()
            .map(|r| {
                let value = match &r["default"] {
                    serde_json::Value::String(word) => word.clone(),
                    number => number.to_string(),
                };
                format!("{}={value}", r["key"].as_str().unwrap_or(""))
            })
            .collect();
        assert_eq!(
            Config::from_link(&format!("v=1&{}", link.join("&"))),
            (Config::default(), vec![])
        );
    }
}
