//! What the readers share: lenient JSON (Python's bare `Infinity`/`NaN`, JSON Lines), an RFC 4180 CSV reader,
//! and the number, string and label helpers every tool's reader uses. Nothing here knows a tool.

use super::{Measurement, Stats};
use serde_json::{Map, Value};

/// A JSON object, as the readers see every record (CSV and Markdown rows are turned into one).
pub(super) type Obj = Map<String, Value>;

/// Replaces the bare `Infinity`, `-Infinity` and `NaN` tokens Python writes (outside strings) with `null`, so a
/// strict parser accepts the file. A rate of `null` then reads as "unlimited", which is what `Infinity` meant.
fn sanitize_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            rest = &rest[c.len_utf8()..];
            continue;
        }
        if c == '"' {
            in_string = true;
        } else {
            let token = ["-Infinity", "Infinity", "NaN"].into_iter().find(|t| rest.starts_with(t));
            if let Some(t) = token {
                out.push_str("null");
                rest = &rest[t.len()..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// One JSON document (object or array of objects) or JSON Lines (one object per line, as `--append-result` and
/// SGLang write).
pub(super) fn json_objects(text: &str) -> Result<Vec<Obj>, String> {
    let clean = sanitize_json(text);
    let objects = |v: Value| -> Vec<Obj> {
        match v {
            Value::Object(o) => vec![o],
            Value::Array(a) => a.into_iter().filter_map(|x| if let Value::Object(o) = x { Some(o) } else { None }).collect(),
            _ => Vec::new(),
        }
    };
    match serde_json::from_str::<Value>(&clean) {
        Ok(v) => Ok(objects(v)),
        Err(whole) => {
            let mut out = Vec::new();
            for (i, line) in clean.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                match serde_json::from_str::<Value>(line) {
                    Ok(v) => out.extend(objects(v)),
                    Err(_) if i == 0 => return Err(format!("not valid JSON ({whole})")),
                    Err(e) => return Err(format!("line {}: not valid JSON ({e})", i + 1)),
                }
            }
            Ok(out)
        }
    }
}

/// A number from a JSON value: numbers, numeric strings (thousands separators removed), `"inf"`.
pub(super) fn num(v: Option<&Value>) -> Option<f64> {
    match v? {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => {
            let s = s.trim().replace(',', "");
            match s.to_ascii_lowercase().as_str() {
                "inf" | "infinity" | "+inf" => Some(f64::INFINITY),
                _ => s.parse().ok(),
            }
        }
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        _ => None,
    }
    .filter(|x: &f64| !x.is_nan())
}

pub(super) fn finite(v: Option<f64>) -> Option<f64> {
    v.filter(|x| x.is_finite())
}

pub(super) fn string(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A path of object keys.
pub(super) fn at<'a>(o: &'a Obj, path: &[&str]) -> Option<&'a Value> {
    let (last, init) = path.split_last()?;
    let mut cur = o;
    for k in init {
        cur = cur.get(*k)?.as_object()?;
    }
    cur.get(*last)
}

/// The label of a serving run from its load.
pub(super) fn load_label(m: &Measurement) -> String {
    match (m.concurrency, m.request_rate) {
        (Some(c), Some(r)) => format!("concurrency {c}, {r} req/s"),
        (Some(c), None) => format!("concurrency {c}"),
        (None, Some(r)) => format!("{r} req/s"),
        (None, None) => "all requests at once".into(),
    }
}

/// Decode speed of one user from the mean TPOT (ms), as the tools' own summaries define it.
pub(super) fn per_user_from_tpot(tpot: &Stats) -> Option<f64> {
    tpot.mean.filter(|t| *t > 0.0).map(|t| 1000.0 / t)
}

// ---------------------------------------------------------------------------------------------------------
// CSV (genai-perf / AIPerf summaries, llama-bench -o csv)

/// RFC 4180 rows: quoted fields may hold commas (`"1,863.41"`), `""` is a quote.
pub fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push(std::mem::take(&mut row));
            }
            ('\r', false) => {}
            (c, _) => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push(row);
    }
    rows
}

/// A header row and data rows as JSON objects (values as strings; [`num`] reads them).
pub(super) fn table_rows(rows: &[Vec<String>]) -> Vec<Obj> {
    let Some((header, data)) = rows.split_first() else { return Vec::new() };
    data.iter().filter(|r| r.len() == header.len()).map(|r| string_obj(header, r)).collect()
}

/// An object of string values, one per key (the last of a repeated key). Inserted one by one: collecting
/// into the map would sort the pairs first, another copy of the sort code in the page's wasm.
pub(super) fn string_obj(keys: &[String], values: &[String]) -> Obj {
    let mut o = Obj::new();
    for (k, v) in keys.iter().zip(values) {
        o.insert(k.clone(), Value::String(v.clone()));
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizer_replaces_python_tokens_outside_strings_only() {
        let s = sanitize_json(r#"{"a": Infinity, "b": -Infinity, "c": NaN, "d": "NaN Infinity \"x\""}"#);
        assert_eq!(s, r#"{"a": null, "b": null, "c": null, "d": "NaN Infinity \"x\""}"#);
    }

    #[test]
    fn csv_reader_keeps_quoted_commas() {
        let rows = csv_rows("a,b\n\"1,863.41\",\"x\"\"y\"\n");
        assert_eq!(rows[1], vec!["1,863.41".to_string(), "x\"y".to_string()]);
        assert_eq!(num(Some(&Value::String(rows[1][0].clone()))), Some(1863.41));
    }
}
