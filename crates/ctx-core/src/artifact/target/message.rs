//! A message's explicit syntax: `/artifact`, `@artifact#section`,
//! `#section` tokens, picked out with their byte spans so that the rest of
//! the message can be cut around them.

use std::ops::Range;

/// The byte spans of the whitespace-separated tokens of `text`.
pub(super) fn tokens(text: &str) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    let mut start = None;
    for (at, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (false, None) => start = Some(at),
            (true, Some(begin)) => {
                found.push(begin..at);
                start = None;
            }
            _ => {}
        }
    }
    if let Some(begin) = start {
        found.push(begin..text.len());
    }
    found
}

/// A token without the punctuation prose puts around a name: `(research.md),`.
/// A possessive goes too: `@concept's` names `concept`.
pub(super) fn trim_reference(token: &str) -> &str {
    let token = token
        .trim_start_matches(['(', '[', '{', '"', '\'', '`', '<', '«'])
        .trim_end_matches([',', ';', ':', '!', '?', '.', ')', ']', '}', '"', '\'', '`', '>', '»']);
    token.strip_suffix("'s").or_else(|| token.strip_suffix("’s")).unwrap_or(token)
}

/// `text` without the byte spans in `removed`, joined by single spaces where
/// something was cut; the rest keeps its own line breaks.
pub(super) fn cut(text: &str, removed: &[Range<usize>]) -> String {
    let mut spans: Vec<Range<usize>> = removed.to_vec();
    spans.sort_by_key(|span| span.start);
    let mut pieces = Vec::new();
    let mut from = 0;
    for span in spans {
        if span.start >= from {
            pieces.push(text.get(from..span.start).unwrap_or_default().trim());
            from = span.end;
        }
    }
    pieces.push(text.get(from..).unwrap_or_default().trim());
    pieces.into_iter().filter(|piece| !piece.is_empty()).collect::<Vec<_>>().join(" ")
}

/// One piece of explicit syntax.
#[derive(Debug)]
pub(super) struct Reference {
    /// Index of its token in [`Message::tokens`].
    pub(super) token: usize,
    /// The artifact as written; empty for `#section`.
    pub(super) artifact: String,
    pub(super) section: Option<String>,
}

/// A message with its explicit syntax picked out.
#[derive(Debug)]
pub(super) struct Message<'t> {
    pub(super) text: &'t str,
    pub(super) tokens: Vec<Range<usize>>,
    /// `/artifact[#section]` as the first token.
    pub(super) slash: Option<Reference>,
    /// The first `@artifact[#section]` token.
    pub(super) at: Option<Reference>,
    /// The first `#section` token (not a Markdown heading, not `#42`).
    pub(super) hash: Option<Reference>,
}

impl<'t> Message<'t> {
    pub(super) fn parse(text: &'t str) -> Message<'t> {
        let tokens = tokens(text);
        let mut message = Message { text, tokens, slash: None, at: None, hash: None };
        for (index, span) in message.tokens.iter().enumerate() {
            let token = &text[span.clone()];
            if let Some(body) = token.strip_prefix('/') {
                if index == 0 && !body.starts_with('/') {
                    message.slash = split_reference(index, body);
                }
            } else if let Some(body) = token.strip_prefix('@') {
                if message.at.is_none() {
                    message.at = split_reference(index, body);
                }
            } else if let Some(body) = token.strip_prefix('#')
                && message.hash.is_none()
                && body.chars().next().is_some_and(char::is_alphanumeric)
                && body.chars().any(char::is_alphabetic)
            {
                let section = trim_reference(body).to_string();
                message.hash =
                    Some(Reference { token: index, artifact: String::new(), section: Some(section) });
            }
        }
        // `@#section` and `/#section` name no artifact: they are `#section`.
        for named in [&mut message.slash, &mut message.at] {
            if named.as_ref().is_some_and(|reference| reference.artifact.is_empty()) {
                let reference = named.take();
                if message.hash.is_none() {
                    message.hash = reference;
                }
            }
        }
        message
    }

    pub(super) fn span(&self, token: usize) -> Range<usize> {
        self.tokens.get(token).cloned().unwrap_or(0..0)
    }

    /// The text of the token after `token`, trimmed, if there is one.
    pub(super) fn word_after(&self, token: usize) -> Option<&'t str> {
        self.tokens.get(token + 1).map(|span| trim_reference(&self.text[span.clone()]))
    }
}

/// `artifact#section` (either part may be empty) as a reference; `None` when
/// there is nothing after the sigil.
fn split_reference(token: usize, body: &str) -> Option<Reference> {
    let body = trim_reference(body);
    let (artifact, section) = match body.split_once('#') {
        Some((artifact, section)) => (artifact, Some(trim_reference(section))),
        None => (body, None),
    };
    let section = section.filter(|section| !section.is_empty()).map(str::to_string);
    if artifact.is_empty() && section.is_none() {
        return None;
    }
    Some(Reference { token, artifact: artifact.to_string(), section })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> (Option<String>, Option<String>, Option<String>) {
        let message = Message::parse(text);
        let show = |reference: &Option<Reference>| {
            reference.as_ref().map(|r| format!("{}#{}", r.artifact, r.section.as_deref().unwrap_or_default()))
        };
        (show(&message.slash), show(&message.at), show(&message.hash))
    }

    #[test]
    fn picks_out_each_kind_of_syntax() {
        assert_eq!(parsed("/research market-size x"), (Some("research#".into()), None, None));
        assert_eq!(
            parsed("see @concept#what-is-it, please"),
            (None, Some("concept#what-is-it".into()), None)
        );
        assert_eq!(parsed("#overview in (research.md)"), (None, None, Some("#overview".into())));
        assert_eq!(parsed("@#overview"), (None, None, Some("#overview".into())));
    }

    #[test]
    fn ignores_what_only_looks_like_syntax() {
        assert_eq!(parsed("mail bob@example.com"), (None, None, None));
        assert_eq!(parsed("## Overview and #42"), (None, None, None));
        assert_eq!(parsed("a/b and x /research"), (None, None, None));
        assert_eq!(parsed("//comment @ #"), (None, None, None));
    }

    #[test]
    fn cut_joins_what_is_left_with_one_space() {
        let text = "fix  @concept#x  the\nwording";
        let at = text.find('@').unwrap_or_default();
        assert_eq!(cut(text, std::slice::from_ref(&(at..at + 11))), "fix the\nwording");
        assert_eq!(cut("  only  ", &[]), "only");
        assert_eq!(cut("@a", std::slice::from_ref(&(0..2))), "");
    }

    #[test]
    fn trims_prose_punctuation_and_possessives() {
        assert_eq!(trim_reference("(research.md),"), "research.md");
        assert_eq!(trim_reference("concept's"), "concept");
        assert_eq!(trim_reference("«spec»."), "spec");
    }
}
