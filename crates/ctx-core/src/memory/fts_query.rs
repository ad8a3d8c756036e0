//! The FTS query builder: a user's search text made into FTS5 terms that
//! SQLite always parses (no syntax of the user's reaches FTS5's parser).

/// A query's distinct terms, each already in FTS5's syntax.
pub(super) struct Terms {
    pub terms: Vec<String>,
    /// Distinct terms left out: there were more than the limit.
    pub dropped: usize,
}

impl Terms {
    /// `"a phrase"` stays a phrase; `pre*` is a prefix; every other run of
    /// letters and digits is a word (`foo-bar` is the phrase `foo bar`, as
    /// the index splits it). Everything else is dropped, as are repeats
    /// and the distinct terms after the first `max`.
    pub(super) fn parse(query: &str, max: usize) -> Terms {
        let mut terms = Terms { terms: Vec::new(), dropped: 0 };
        let mut seen = std::collections::HashSet::new();
        let mut push = |term: Option<String>| {
            if let Some(term) = term
                && seen.insert(term.clone())
            {
                if terms.terms.len() < max {
                    terms.terms.push(term);
                } else {
                    terms.dropped += 1;
                }
            }
        };
        let mut rest = query;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('"') {
                let (inside, next) = after.split_once('"').unwrap_or((after, ""));
                push(phrase(inside, false));
                rest = next;
                continue;
            }
            let end = rest.find(|c: char| c.is_whitespace() || c == '"').unwrap_or(rest.len());
            let chunk = &rest[..end];
            push(phrase(chunk.trim_end_matches('*'), chunk.ends_with('*')));
            rest = rest[end..].trim_start();
        }
        terms
    }

    pub(super) fn len(&self) -> usize {
        self.terms.len()
    }

    /// Every term must match; `None` without terms.
    pub(super) fn all(&self) -> Option<String> {
        (!self.terms.is_empty()).then(|| self.terms.join(" AND "))
    }

    /// Any term may match.
    pub(super) fn any(&self) -> Option<String> {
        (!self.terms.is_empty()).then(|| self.terms.join(" OR "))
    }
}

/// The words of `text` as one FTS5 string (a phrase when several), a
/// prefix if asked; `None` without words.
fn phrase(text: &str, prefix: bool) -> Option<String> {
    let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    if words.is_empty() {
        return None;
    }
    // Only letters and digits inside: nothing to escape.
    Some(format!("\"{}\"{}", words.join(" "), if prefix { "*" } else { "" }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::MAX_QUERY_TERMS;

    #[test]
    fn user_text_becomes_safe_fts_terms() {
        let parse = |q: &str| Terms::parse(q, MAX_QUERY_TERMS).terms;
        assert_eq!(parse("jwt refresh"), ["\"jwt\"", "\"refresh\""]);
        assert_eq!(parse("\"token refresh\" auth*"), ["\"token refresh\"", "\"auth\"*"]);
        assert_eq!(parse("foo-bar AND (NOT x) OR"), ["\"foo bar\"", "\"AND\"", "\"NOT\"", "\"x\"", "\"OR\""]);
        assert_eq!(parse("\"unclosed phrase"), ["\"unclosed phrase\""]);
        assert!(parse("\"\" * ( ) ; -- ' ").is_empty());
        assert_eq!(parse("ünïcödé 名前"), ["\"ünïcödé\"", "\"名前\""]);
    }

    #[test]
    fn repeated_terms_count_once_and_only_the_first_distinct_ones_are_kept() {
        assert_eq!(
            Terms::parse("pool pool \"pool\" pool* Pool", 64).terms,
            ["\"pool\"", "\"pool\"*", "\"Pool\""]
        );
        let query: String = (0..5000).map(|i| format!("w{} ", i % 100)).collect();
        let terms = Terms::parse(&query, 64);
        assert_eq!((terms.len(), terms.dropped), (64, 36));
        assert_eq!(terms.terms[63], "\"w63\"");
    }
}
