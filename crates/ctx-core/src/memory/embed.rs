//! Embedders: what turns record text into vectors for the vector channel of
//! `ctx search`.
//!
//! A caller brings its own model through the [`Embedder`] trait (from Rust,
//! or from Python with `ctxkeep`). ctx itself ships [`HashedNgrams`], which
//! needs no model and no download — and is honest about being no model:
//! it hashes words and their character trigrams into a fixed number of
//! dimensions (signed feature hashing). Texts that share words, word
//! stems, inflections, misspellings or identifier parts (`refreshToken`,
//! `refresh_token`, "refresh tokens") land close together; synonyms that
//! share no letters do not. That is the part of a paraphrase that exact
//! lexical matching misses, at a cost of microseconds per record.

use rayon::prelude::*;

/// Turns texts into vectors. `name` identifies the vector space: vectors
/// of different names are never compared, so a new model (or a new
/// version of one) must have a new name. Every vector an embedder gives
/// must have the same number of dimensions.
pub trait Embedder {
    fn name(&self) -> &str;

    /// One vector per text, in order.
    fn embed(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, EmbedError>;

    /// Whether embedding a few hundred texts again is cheaper than storing
    /// every record's vector: then only the vectors' sign bits are stored
    /// and a search embeds its candidates again. Default: false (a model).
    fn cheap(&self) -> bool {
        false
    }
}

/// An embedder that could not embed; the message says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EmbedError(pub String);

/// The built-in embedder: hashed words and character trigrams. See the
/// module documentation for what it can and cannot find.
#[derive(Debug, Clone, Copy, Default)]
pub struct HashedNgrams;

impl HashedNgrams {
    /// Its name, which is also its vector space's name. Bump the version
    /// whenever the features or their hashing change.
    pub const NAME: &'static str = "builtin:hashed-ngrams-v1";
    pub const DIM: usize = 384;

    /// One text's vector, unit length (all zeros when it has no features).
    pub fn embed_one(text: &str) -> Vec<f32> {
        let mut vector = vec![0f32; Self::DIM];
        let mut add = |feature: &[u8], weight: f32| {
            let hash = fnv1a(feature);
            let dim = (hash % Self::DIM as u64) as usize;
            vector[dim] += if hash >> 63 == 0 { weight } else { -weight };
        };
        for word in words(text) {
            if word.len() < 2 || STOP_WORDS.binary_search(&word.as_str()).is_ok() {
                continue;
            }
            add(word.as_bytes(), 1.0);
            // Trigrams of the word with its boundaries marked, so `token`
            // and `tokens` share `^to`, `tok`, `oke`, `ken`; together they
            // weigh as much as the word itself.
            let marked: Vec<char> =
                std::iter::once('^').chain(word.chars()).chain(std::iter::once('$')).collect();
            if marked.len() >= 4 {
                let count = marked.len() - 2;
                let weight = 1.0 / (count as f32).sqrt();
                let mut buffer = [0u8; 12];
                for window in marked.windows(3) {
                    let mut len = 0;
                    for c in window {
                        len += c.encode_utf8(&mut buffer[len..]).len();
                    }
                    // Marked trigrams differ from words: `^` and `$` are
                    // never word characters.
                    add(&buffer[..len], weight);
                }
            }
        }
        normalize(&mut vector);
        vector
    }
}

impl Embedder for HashedNgrams {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn embed(&self, texts: &[&str]) -> std::result::Result<Vec<Vec<f32>>, EmbedError> {
        Ok(texts.par_iter().map(|text| Self::embed_one(text)).collect())
    }

    /// About 4 µs a text.
    fn cheap(&self) -> bool {
        true
    }
}

/// Scale `vector` to unit length (a zero vector stays zero).
pub(crate) fn normalize(vector: &mut [f32]) {
    let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        vector.iter_mut().for_each(|x| *x /= norm);
    }
}

/// The lower-case words of `text`: runs of letters and digits, also split
/// where an identifier changes case (`refreshToken`) or between letters
/// and digits (`utf8`).
fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric()).filter(|run| !run.is_empty()).flat_map(|run| {
        let mut parts = Vec::new();
        let mut current = String::new();
        let mut previous: Option<char> = None;
        for c in run.chars() {
            let boundary = match previous {
                Some(p) => (p.is_lowercase() && c.is_uppercase()) || (p.is_alphabetic() != c.is_alphabetic()),
                None => false,
            };
            if boundary && !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            current.extend(c.to_lowercase());
            previous = Some(c);
        }
        if !current.is_empty() {
            parts.push(current);
        }
        parts
    })
}

/// FNV-1a, 64 bits: stable across platforms and versions, as stored
/// vectors need.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// English words too common to say what a text is about (sorted: binary search).
const STOP_WORDS: [&str; 84] = [
    "about", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "but", "by", "can", "could", "did", "do", "does", "doing", "for", "from", "had",
    "has", "have", "having", "he", "her", "here", "him", "his", "how", "if", "in", "into", "is", "it", "its",
    "just", "me", "more", "most", "my", "no", "not", "now", "of", "on", "once", "only", "or", "other", "our",
    "out", "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there",
    "these", "they", "this", "to", "up", "was", "we", "were", "what", "when", "which", "why", "with", "you",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn cosine(a: &str, b: &str) -> f32 {
        let (a, b) = (HashedNgrams::embed_one(a), HashedNgrams::embed_one(b));
        a.iter().zip(&b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn words_split_identifiers_and_fold_case() {
        let split: Vec<String> = words("refreshToken utf8_Decoder HTTPServer").collect();
        assert_eq!(split, ["refresh", "token", "utf", "8", "decoder", "httpserver"]);
    }

    #[test]
    fn vectors_are_unit_length_or_zero() {
        let vector = HashedNgrams::embed_one("the token refresh failed");
        let norm: f32 = vector.iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-4, "{norm}");
        assert!(HashedNgrams::embed_one("the of and ...").iter().all(|x| *x == 0.0));
        assert_eq!(vector.len(), HashedNgrams::DIM);
    }

    #[test]
    fn inflections_and_identifier_spellings_are_close_unrelated_text_is_not() {
        let related = cosine("refreshing the expired tokens", "token refresh expiry");
        let identifier = cosine("refreshToken", "refresh tokens");
        let unrelated = cosine("refreshing the expired tokens", "database migration schema");
        assert!(related > 0.3, "{related}");
        assert!(identifier > 0.5, "{identifier}");
        assert!(unrelated < 0.15, "{unrelated}");
        assert!(related > unrelated + 0.2);
    }

    #[test]
    fn the_builtin_is_deterministic() {
        let texts = ["one text", "another"];
        let first = HashedNgrams.embed(&texts).unwrap_or_default();
        assert_eq!(first, HashedNgrams.embed(&texts).unwrap_or_default());
        assert_eq!(first[0], HashedNgrams::embed_one("one text"));
    }
}
