//! Name matching behind [`super::models::guess`] and [`super::hardware::guess`]: a name is cut into lower-case
//! tokens, and a preset is guessed only when exactly one preset's rule matches. The rules are hand-written and
//! strict on purpose: a wrong guess would offer the wrong preset, no guess only omits the offer.

/// One way of recognising a preset: every entry of `all` must be a token (an entry may list alternatives
/// separated by `|`), and no entry of `none` may be.
pub(super) struct Rule {
    pub id: &'static str,
    pub all: &'static [&'static str],
    pub none: &'static [&'static str],
}

/// Lower-case tokens of a name: runs of letters and digits; a dot stays inside a token only between two digits
/// (`3.1`, `v0.1`, but `30B.A3B` is `30b`, `a3b`).
#[must_use]
pub(crate) fn tokens(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.to_ascii_lowercase().chars().collect();
    let mut out = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let keep =
            c.is_ascii_alphanumeric() || (c == '.' && i > 0 && chars[i - 1].is_ascii_digit() && chars.get(i + 1).is_some_and(char::is_ascii_digit));
        if keep {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn matches(rule: &Rule, toks: &[String]) -> bool {
    let has = |t: &str| toks.iter().any(|x| x == t);
    rule.all.iter().all(|entry| entry.split('|').any(has)) && !rule.none.iter().any(|t| has(t))
}

/// The id of the only preset whose rules match (several rules of one id count once), else `None`.
pub(super) fn unique(rules: &[Rule], toks: &[String]) -> Option<&'static str> {
    let mut found: Option<&'static str> = None;
    for r in rules.iter().filter(|r| matches(r, toks)) {
        match found {
            Some(id) if id != r.id => return None,
            _ => found = Some(r.id),
        }
    }
    found
}
