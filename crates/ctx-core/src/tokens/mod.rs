//! Token counting: every budget in ctx is in tokens of a real tokenizer.
//!
//! [`Tokenizer`] is the one interface; [`O200k`] (OpenAI's o200k_base BPE,
//! tables compiled in) is the default, [`CharEstimate`] (4 characters a
//! token) is the fast estimate a workspace can choose in `[build] tokenizer`.

mod o200k;
mod vocab_table;

use std::fmt;

use serde::{Deserialize, Serialize};

/// Counts tokens and cuts text to a number of tokens.
pub trait Tokenizer: Send + Sync + fmt::Debug {
    /// A stable name (`o200k_base`, `estimate`); part of every source hash.
    fn name(&self) -> &'static str;

    /// How many tokens `text` is.
    fn count(&self, text: &str) -> usize;

    /// Where each token of `text` ends: entry `k` is the byte length of the
    /// first `k + 1` tokens. Lets a caller try many cuts for one encoding.
    fn token_ends(&self, text: &str) -> Vec<usize>;

    /// Make ready what counting needs (a compiled pattern): the first count
    /// does it otherwise. A caller with a core to spare calls it on another
    /// thread first, while it does something else. Default: nothing.
    fn prepare(&self) {}

    /// Whether counts add up at a line start: `count(a + b)` is `count(a) +
    /// count(b)` whenever `a` ends with a newline and `b` starts with neither
    /// whitespace nor `/`. A caller that counts many texts made of the same
    /// parts can then count each part once. Default: false.
    fn adds_up_at_line_starts(&self) -> bool {
        false
    }

    /// The longest prefix of `text` that is at most `max_tokens` tokens,
    /// ending on a character boundary.
    fn truncate<'t>(&self, text: &'t str, max_tokens: usize) -> &'t str {
        let ends = self.token_ends(text);
        prefix(text, &ends, max_tokens)
    }
}

/// The prefix of `text` made of its first `tokens` tokens (per `ends`, from
/// [`Tokenizer::token_ends`]), cut back to a character boundary.
pub fn prefix<'t>(text: &'t str, ends: &[usize], tokens: usize) -> &'t str {
    match tokens.checked_sub(1) {
        None => "",
        Some(last) => match ends.get(last) {
            Some(&end) => &text[..floor_char_boundary(text, end)],
            None => text,
        },
    }
}

/// Which tokenizer a workspace counts with.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenizerKind {
    /// o200k_base, the BPE of current OpenAI models: exact.
    #[default]
    O200k,
    /// Four characters a token: instant, approximate.
    Estimate,
}

impl TokenizerKind {
    /// The tokenizer itself.
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
        count_memoized(text, o200k::count)
    }

    /// Compiles the pre-tokenizing pattern (~5 ms).
    fn prepare(&self) {
        o200k::prepare();
    }

    /// True: a count is the sum of its chunks' (`count_memoized`), and such a cut is a chunk's end.
    fn adds_up_at_line_starts(&self) -> bool {
        true
    }

    fn token_ends(&self, text: &str) -> Vec<usize> {
        let mut end = 0;
        o200k::token_lengths(text)
            .into_iter()
            .map(|length| {
                end += length;
                end
            })
            .collect()
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

    fn token_ends(&self, text: &str) -> Vec<usize> {
        let mut ends: Vec<usize> = text.char_indices().skip(4).step_by(4).map(|(at, _)| at).collect();
        if !text.is_empty() {
            ends.push(text.len());
        }
        ends
    }
}

/// Counts `text` chunk by chunk, each distinct chunk encoded once per thread:
/// the tiers of a folder, and the folders of a tree, share most of their
/// lines, so a build encodes each shared line once.
///
/// Exact, not an estimate: a chunk ends after a newline only where no o200k
/// pre-token piece can span the cut. The pieces that can hold a newline are
/// whitespace runs and punctuation runs with a `[\r\n/]*` tail, so a newline
/// followed by anything but whitespace or `/` always ends a piece, and the
/// pattern has no look-behind: the text after the cut splits the same alone.
fn count_memoized(text: &str, encode: impl Fn(&str) -> usize) -> usize {
    /// Chunks remembered per thread before the memo starts over.
    const MAX_MEMO_CHUNKS: usize = 200_000;
    thread_local! {
        static MEMO: std::cell::RefCell<rustc_hash::FxHashMap<Box<str>, usize>> =
            std::cell::RefCell::new(rustc_hash::FxHashMap::default());
    }
    MEMO.with_borrow_mut(|memo| {
        if memo.len() > MAX_MEMO_CHUNKS {
            memo.clear();
        }
        safe_chunks(text)
            .map(|chunk| match memo.get(chunk) {
                Some(&n) => n,
                None => {
                    let n = encode(chunk);
                    memo.insert(chunk.into(), n);
                    n
                }
            })
            .sum()
    })
}

/// `text` cut after every newline that is followed by neither whitespace nor `/`.
fn safe_chunks(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut search = 0;
    std::iter::from_fn(move || {
        if start >= text.len() {
            return None;
        }
        loop {
            let Some(at) = bytes[search..].iter().position(|&b| b == b'\n').map(|i| search + i) else {
                let chunk = &text[start..];
                start = text.len();
                return Some(chunk);
            };
            search = at + 1;
            // `\s` in the pattern is Unicode White_Space, as `char::is_whitespace` is.
            let next = text[search..].chars().next();
            if next.is_some_and(|c| !c.is_whitespace() && c != '/') {
                let chunk = &text[start..search];
                start = search;
                return Some(chunk);
            }
        }
    })
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

    fn raw_count(text: &str) -> usize {
        tiktoken_rs::o200k_base_singleton().encode_ordinary(text).len()
    }

    #[test]
    fn memoized_counts_are_exact_where_pieces_span_newlines() {
        for text in [
            "**Bold**\n/etc\n",
            "# Context: /src\n\n> Tier: standard\n\n- `a.rs`: one\n  two  \n\n\nend",
            "a\n  \nb\r\n\r\nc --\n//x\n\u{2028}y\n\u{a0}z",
        ] {
            assert_eq!(O200k.count(text), raw_count(text), "{text:?}");
            assert_eq!(O200k.count(text), raw_count(text), "memoized again: {text:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn memoized_counts_equal_whole_counts(
            parts in proptest::collection::vec(proptest::prop_oneof![
                proptest::string::string_regex("[a-zA-Z0-9]{1,8}").unwrap(),
                proptest::string::string_regex("[ \t\r\n/*#>`|.,:-]{1,4}").unwrap(),
                proptest::strategy::Just("\n".to_string()),
                proptest::strategy::Just("é\u{a0}—🚀's".to_string()),
            ], 0..60)
        ) {
            let text = parts.concat();
            proptest::prop_assert_eq!(O200k.count(&text), raw_count(&text), "{:?}", text);
        }

        #[test]
        fn o200k_counts_add_up_at_a_line_start(
            a in "[a-zA-Z0-9 \t\r\n/*#>`|.,:é—│\u{a0}-]{0,24}",
            b in "[a-zA-Z0-9*#>`|.,:é—│-][a-zA-Z0-9 \t\r\n/*#>`|.,:é—-]{0,24}",
        ) {
            let a = format!("{a}\n");
            proptest::prop_assert!(O200k.adds_up_at_line_starts());
            proptest::prop_assert_eq!(raw_count(&format!("{a}{b}")), raw_count(&a) + raw_count(&b), "{:?} {:?}", a, b);
        }
    }

    #[test]
    fn estimate_is_four_chars_a_token() {
        assert_eq!(CharEstimate.count(""), 0);
        assert_eq!(CharEstimate.count("abcde"), 2);
        assert_eq!(CharEstimate.truncate("ääääääääää", 2), "ääääääää");
        assert_eq!(CharEstimate.truncate("abc", 2), "abc");
        let text = "abcdefghij";
        assert_eq!(CharEstimate.token_ends(text), [4, 8, 10]);
        assert_eq!(CharEstimate.token_ends(text).len(), CharEstimate.count(text));
        assert_eq!(O200k.token_ends("hello world").len(), O200k.count("hello world"));
    }
}
