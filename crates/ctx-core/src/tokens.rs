//! Token counting: every budget in ctx is in tokens of a real tokenizer.
//!
//! [`Tokenizer`] is the one interface; [`O200k`] (OpenAI's o200k_base BPE,
//! tables compiled in) is the default, [`CharEstimate`] (4 characters a
//! token) is the fast estimate a workspace can choose in `[build] tokenizer`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Counts tokens and cuts text to a number of tokens.
pub trait Tokenizer: Send + Sync + fmt::Debug {
    /// A stable name (`o200k_base`, `estimate`); part of every source hash.
    fn name(&self) -> &'static str;

    /// How many tokens `text` is.
    fn count(&self, text: &str) -> usize;

    /// The longest prefix of `text` that is at most `max_tokens` tokens,
    /// ending on a character boundary.
    fn truncate<'t>(&self, text: &'t str, max_tokens: usize) -> &'t str;
}

/// Which tokenizer a workspace counts with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenizerKind {
    /// o200k_base, the BPE of current OpenAI models: exact, ~0.2 s to load.
    #[default]
    O200k,
    /// Four characters a token: instant, approximate.
    Estimate,
}

impl TokenizerKind {
    /// The tokenizer itself (o200k's tables load once per process).
    pub fn get(self) -> &'static dyn Tokenizer {
        match self {
            TokenizerKind::O200k => &O200k,
            TokenizerKind::Estimate => &CharEstimate,
        }
    }
}

/// OpenAI's o200k_base byte-pair encoding.
#[derive(Debug, Clone, Copy)]
pub struct O200k;

impl Tokenizer for O200k {
    fn name(&self) -> &'static str {
        "o200k_base"
    }

    fn count(&self, text: &str) -> usize {
        tiktoken_rs::o200k_base_singleton().encode_ordinary(text).len()
    }

    fn truncate<'t>(&self, text: &'t str, max_tokens: usize) -> &'t str {
        let bpe = tiktoken_rs::o200k_base_singleton();
        let tokens = bpe.encode_ordinary(text);
        if tokens.len() <= max_tokens {
            return text;
        }
        // Tokens decode to consecutive byte runs of the text: the first
        // `max_tokens` of them are a prefix of it.
        let len = bpe.decode_bytes(&tokens[..max_tokens]).map_or(0, |bytes| bytes.len());
        &text[..floor_char_boundary(text, len)]
    }
}

/// A token is about four characters of English or code.
#[derive(Debug, Clone, Copy)]
pub struct CharEstimate;

impl Tokenizer for CharEstimate {
    fn name(&self) -> &'static str {
        "estimate"
    }

    fn count(&self, text: &str) -> usize {
        text.chars().count().div_ceil(4)
    }

    fn truncate<'t>(&self, text: &'t str, max_tokens: usize) -> &'t str {
        match text.char_indices().nth(max_tokens.saturating_mul(4)) {
            Some((at, _)) => &text[..at],
            None => text,
        }
    }
}

fn floor_char_boundary(text: &str, mut index: usize) -> usize {
    index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn o200k_counts_and_truncates_on_char_boundaries() {
        let text = "Authentication module: JWT handling, sessions — and ünïcödé 🚀 too.";
        let n = O200k.count(text);
        assert!(n > 5 && n < text.len(), "{n}");
        for max in 0..=n {
            let cut = O200k.truncate(text, max);
            assert!(text.starts_with(cut));
            assert!(O200k.count(cut) <= max, "{max}: {cut:?}");
        }
        assert_eq!(O200k.truncate(text, n), text);
    }

    #[test]
    fn estimate_is_four_chars_a_token() {
        assert_eq!(CharEstimate.count(""), 0);
        assert_eq!(CharEstimate.count("abcde"), 2);
        assert_eq!(CharEstimate.truncate("ääääääääää", 2), "ääääääää");
        assert_eq!(CharEstimate.truncate("abc", 2), "abc");
    }
}
