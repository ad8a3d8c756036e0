//! OpenAI's o200k_base byte-pair encoding, counted without start-up cost.
//!
//! Text is split into pieces by o200k's pattern; a piece that is a token is
//! one token, any other is merged pair by pair, lowest rank first, as the
//! reference BPE does. The vocabulary is a table laid out at compile time
//! ([`vocab_table`]) and read in place. Tests compare every result with
//! tiktoken-rs.

use std::sync::LazyLock;

use super::vocab_table::{self, MAGIC, slot_hash};

static TABLE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k.table"));

/// o200k_base's pre-tokenizer (the pattern tiktoken uses).
const PATTERN: &str = concat!(
    r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
    r"|\p{N}{1,3}",
    r"| ?[^\s\p{L}\p{N}]+[\r\n/]*",
    r"|\s*[\r\n]+",
    r"|\s+(?!\S)",
    r"|\s+",
);

/// `None` only if the constant pattern failed to compile, which the tests rule out.
static PIECES: LazyLock<Option<fancy_regex::Regex>> = LazyLock::new(|| fancy_regex::Regex::new(PATTERN).ok());

/// Compile [`PIECES`] now rather than at the first count.
pub(super) fn prepare() {
    LazyLock::force(&PIECES);
}

/// The vocabulary table, split into its parts.
struct Vocab {
    ranks: usize,
    offsets: &'static [u8],
    slots: &'static [u8],
    mask: usize,
    bytes: &'static [u8],
}

static VOCAB: LazyLock<Option<Vocab>> = LazyLock::new(|| Vocab::parse(TABLE));

fn u32_at(bytes: &[u8], index: usize) -> Option<usize> {
    let word = bytes.get(index * 4..index * 4 + 4)?;
    Some(u32::from_le_bytes(word.try_into().ok()?) as usize)
}

impl Vocab {
    fn parse(table: &'static [u8]) -> Option<Vocab> {
        if u32_at(table, 0)? != MAGIC as usize {
            return None;
        }
        let (ranks, slots) = (u32_at(table, 1)?, u32_at(table, 2)?);
        if slots != vocab_table::slot_count(ranks) {
            return None;
        }
        let offsets_at = 3 * 4;
        let slots_at = offsets_at + (ranks + 1) * 4;
        let bytes_at = slots_at + slots * 4;
        Some(Vocab {
            ranks,
            offsets: table.get(offsets_at..slots_at)?,
            slots: table.get(slots_at..bytes_at)?,
            mask: slots - 1,
            bytes: table.get(bytes_at..)?,
        })
    }

    fn token(&self, rank: usize) -> &[u8] {
        match (u32_at(self.offsets, rank), u32_at(self.offsets, rank + 1)) {
            (Some(start), Some(end)) => self.bytes.get(start..end).unwrap_or_default(),
            _ => &[],
        }
    }

    /// The rank of the token whose bytes are `piece`, if there is one.
    fn rank(&self, piece: &[u8]) -> Option<usize> {
        let mut slot = slot_hash(piece) as usize & self.mask;
        loop {
            let rank = u32_at(self.slots, slot)?.checked_sub(1)?;
            if rank < self.ranks && self.token(rank) == piece {
                return Some(rank);
            }
            slot = (slot + 1) & self.mask;
        }
    }

    /// Byte-pair merge `piece` (not itself a token): push the byte length of
    /// each of its tokens to `lengths`. The lowest rank merges first; among
    /// equals, the leftmost.
    fn merge(&self, piece: &[u8], lengths: &mut Vec<usize>) {
        if piece.len() > LONG_PIECE {
            return self.merge_long(piece, lengths);
        }
        // bounds[i]..bounds[i + 1] is part i; pair[i] is the rank of parts i and i + 1 joined.
        let mut bounds: Vec<usize> = (0..=piece.len()).collect();
        let pair_rank = |bounds: &[usize], i: usize| match bounds.get(i + 2) {
            Some(&end) => self.rank(&piece[bounds[i]..end]).unwrap_or(usize::MAX),
            None => usize::MAX,
        };
        let mut pair: Vec<usize> =
            (0..piece.len().saturating_sub(1)).map(|i| pair_rank(&bounds, i)).collect();
        let lowest = |pair: &[usize]| {
            pair.iter()
                .enumerate()
                .filter(|(_, r)| **r != usize::MAX)
                .min_by_key(|&(i, &r)| (r, i))
                .map(|(i, _)| i)
        };
        while let Some(i) = lowest(&pair) {
            bounds.remove(i + 1);
            pair.remove(i);
            if i < pair.len() {
                pair[i] = pair_rank(&bounds, i);
            }
            if i > 0 {
                pair[i - 1] = pair_rank(&bounds, i - 1);
            }
        }
        lengths.extend(bounds.windows(2).map(|w| w[1] - w[0]));
    }

    /// [`Vocab::merge`] in O(n log n) for a long piece (a run of one
    /// character can be a single piece of any length): the parts are a
    /// linked list by start offset, the candidate pairs a heap, and a popped
    /// pair that a merge has since changed is skipped.
    fn merge_long(&self, piece: &[u8], lengths: &mut Vec<usize>) {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let n = piece.len();
        // Parts start at offsets; next[s] is the start of the part after the one at s (n: none).
        let mut next: Vec<usize> = (1..=n).collect();
        let mut prev: Vec<usize> = (0..n).map(|s| s.wrapping_sub(1)).collect();
        let mut alive = vec![true; n];
        let pair_rank = |next: &[usize], s: usize| {
            let mid = next[s];
            if mid >= n {
                return usize::MAX;
            }
            self.rank(&piece[s..next[mid]]).unwrap_or(usize::MAX)
        };
        let mut rank_at: Vec<usize> = (0..n).map(|s| pair_rank(&next, s)).collect();
        let mut heap: BinaryHeap<Reverse<(usize, usize)>> =
            (0..n).filter(|&s| rank_at[s] != usize::MAX).map(|s| Reverse((rank_at[s], s))).collect();
        while let Some(Reverse((rank, s))) = heap.pop() {
            if !alive[s] || rank_at[s] != rank {
                continue; // stale: a merge changed this pair since
            }
            // Join the part at s with the next one.
            let gone = next[s];
            alive[gone] = false;
            next[s] = next[gone];
            if next[s] < n {
                prev[next[s]] = s;
            }
            rank_at[s] = pair_rank(&next, s);
            if rank_at[s] != usize::MAX {
                heap.push(Reverse((rank_at[s], s)));
            }
            let before = prev[s];
            if before < n {
                rank_at[before] = pair_rank(&next, before);
                if rank_at[before] != usize::MAX {
                    heap.push(Reverse((rank_at[before], before)));
                }
            }
        }
        let mut s = 0;
        while s < n {
            lengths.push(next[s] - s);
            s = next[s];
        }
    }
}

/// Pieces longer than this (in bytes) merge with a heap.
const LONG_PIECE: usize = 64;

/// The byte length of each token of `text`, in order.
pub(super) fn token_lengths(text: &str) -> Vec<usize> {
    let mut lengths = Vec::new();
    let (Some(pieces), Some(vocab)) = (PIECES.as_ref(), VOCAB.as_ref()) else {
        // Unreachable in a tested build; a byte a token never counts low.
        lengths.resize(text.len(), 1);
        return lengths;
    };
    let mut done = 0;
    for piece in pieces.find_iter(text) {
        let Ok(piece) = piece else { break };
        let bytes = piece.as_str().as_bytes();
        if vocab.rank(bytes).is_some() {
            lengths.push(bytes.len());
        } else {
            vocab.merge(bytes, &mut lengths);
        }
        done = piece.end();
    }
    // The pattern matches every character; if the matcher gave up, a byte a token.
    lengths.resize(lengths.len() + (text.len() - done), 1);
    lengths
}

/// How many tokens `text` is.
pub(super) fn count(text: &str) -> usize {
    token_lengths(text).len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reference(text: &str) -> Vec<usize> {
        let bpe = tiktoken_rs::o200k_base_singleton();
        bpe._decode_native_and_split(bpe.encode_ordinary(text)).map(|token| token.len()).collect()
    }

    #[test]
    fn the_table_and_pattern_load() {
        assert!(PIECES.is_some());
        let vocab = VOCAB.as_ref().expect("table parses");
        assert_eq!(
            vocab.rank(b"hello"),
            tiktoken_rs::o200k_base_singleton().encode_ordinary("hello").first().map(|&r| r as usize)
        );
        assert_eq!(vocab.rank(b"no such token at all, surely"), None);
    }

    #[test]
    fn agrees_with_tiktoken_on_this_crates_sources() {
        // CTX_TOKENS_CHECK_DIR checks another tree too (e.g. a corpus); slow in debug builds.
        let src = std::env::var_os("CTX_TOKENS_CHECK_DIR")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
        let mut checked = 0;
        for entry in ignore::Walk::new(&src).filter_map(|e| e.ok()) {
            if let Ok(text) = std::fs::read_to_string(entry.path()) {
                assert_eq!(token_lengths(&text), reference(&text), "{}", entry.path().display());
                checked += 1;
            }
        }
        assert!(checked > 10);
    }

    #[test]
    fn long_runs_merge_like_tiktoken_and_in_time() {
        for unit in ["=", " ", "\n", "a", "🚀", "ab", "-=", "é"] {
            for n in [65, 200, 1000, 20_000] {
                let text = unit.repeat(n);
                assert_eq!(token_lengths(&text), reference(&text), "{unit:?} × {n}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn long_pieces_agree_with_tiktoken(text in "[=a-c ]{60,400}|[xyz]{60,800}|[\\-_*]{60,400}") {
            proptest::prop_assert_eq!(token_lengths(&text), reference(&text));
        }

        #[test]
        fn agrees_with_tiktoken_on_odd_text(text in "(\\PC|[ \\t\\r\\n]){0,200}") {
            proptest::prop_assert_eq!(token_lengths(&text), reference(&text));
        }
    }
}
