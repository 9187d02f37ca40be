//! Search queries from `outline.json`, each tagged with the part of the
//! paper its results are for.

use super::{shape, type_name};
use crate::error::{Error, Location, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One search query derived from the outline, with the tag its results get.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Query {
    /// The query text.
    pub query: String,
    /// `intro` or `related_work[2.<i+1>]`.
    pub discovered_for: String,
}

fn outline_field<'a>(
    map: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<Option<&'a Map<String, Value>>> {
    match map.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => Ok(Some(m)),
        Some(other) => Err(shape(
            format!("`{path}` must be an object, got {}", type_name(other)),
            Location::default().field(path),
        )),
    }
}

fn string_list(v: Option<&Value>, path: &str) -> Result<Vec<String>> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(j, item)| match item {
                Value::String(s) => Ok(s.clone()),
                other => Err(shape(
                    format!("a query must be a string, got {}", type_name(other)),
                    Location::default().field(format!("{path}[{j}]")),
                )),
            })
            .collect(),
        Some(other) => Err(shape(
            format!(
                "`{path}` must be a list of strings, got {}",
                type_name(other)
            ),
            Location::default().field(path),
        )),
    }
}

/// Turns `outline.json` into search queries.
///
/// `introduction_strategy.search_directions` become queries tagged `intro`;
/// the `sota_investigation_mission` and `limitation_search_queries` of
/// `related_work_strategy.subsections[i]` become queries tagged
/// `related_work[2.<i+1>]`. Blank queries are skipped.
pub fn outline_queries(text: &str) -> Result<Vec<Query>> {
    let value: Value = serde_json::from_str(text).map_err(|e| Error::json(&e))?;
    let Value::Object(top) = value else {
        return Err(shape(
            format!(
                "the outline must be a JSON object, got {}",
                type_name(&value)
            ),
            Location::default(),
        ));
    };
    let mut out = Vec::new();
    let mut push = |q: String, tag: &str| {
        if !q.trim().is_empty() {
            out.push(Query {
                query: q.trim().to_string(),
                discovered_for: tag.to_string(),
            });
        }
    };
    if let Some(intro) = outline_field(&top, "introduction_strategy", "introduction_strategy")? {
        for q in string_list(
            intro.get("search_directions"),
            "introduction_strategy.search_directions",
        )? {
            push(q, "intro");
        }
    }
    if let Some(rw) = outline_field(&top, "related_work_strategy", "related_work_strategy")? {
        let subsections = match rw.get("subsections") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a.clone(),
            Some(other) => {
                return Err(shape(
                    format!("`subsections` must be a list, got {}", type_name(other)),
                    Location::default().field("related_work_strategy.subsections"),
                ))
            }
        };
        for (i, sub) in subsections.iter().enumerate() {
            let path = format!("related_work_strategy.subsections[{i}]");
            let Value::Object(sub) = sub else {
                return Err(shape(
                    format!("a subsection must be an object, got {}", type_name(sub)),
                    Location::default().index(i).field(path),
                ));
            };
            let tag = format!("related_work[2.{}]", i + 1);
            let sota = string_list(
                sub.get("sota_investigation_mission"),
                &format!("{path}.sota_investigation_mission"),
            )?;
            for q in sota {
                push(q, &tag);
            }
            let limits = string_list(
                sub.get("limitation_search_queries"),
                &format!("{path}.limitation_search_queries"),
            )?;
            for q in limits {
                push(q, &tag);
            }
        }
    }
    Ok(out)
}
