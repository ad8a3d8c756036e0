//! Words of messages and titles: splitting, stop words, a light stemmer,
//! typo distance and slug similarity. Everything here is deliberately small
//! so that every match can be explained in one sentence.

use std::collections::HashSet;
use std::sync::OnceLock;

/// A word of a message: its bytes in the original text, lowercased, stemmed.
#[derive(Debug, Clone)]
pub(super) struct Word {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub stem: String,
}

/// Words that never name a section: function words, the verbs of an
/// instruction, and the nouns people put around a target ("the … section").
const STOP_WORDS: &[&str] = &[
    // articles, determiners, pronouns
    "a",
    "an",
    "the",
    "this",
    "that",
    "these",
    "those",
    "some",
    "any",
    "all",
    "each",
    "every",
    "another",
    "other",
    "i",
    "me",
    "my",
    "we",
    "us",
    "our",
    "you",
    "your",
    "he",
    "she",
    "it",
    "its",
    "they",
    "them",
    "their",
    "his",
    "her",
    // prepositions and conjunctions
    "of",
    "in",
    "on",
    "at",
    "to",
    "for",
    "from",
    "with",
    "by",
    "about",
    "into",
    "onto",
    "over",
    "under",
    "within",
    "inside",
    "without",
    "between",
    "through",
    "up",
    "down",
    "out",
    "off",
    "as",
    "and",
    "or",
    "but",
    "nor",
    "so",
    "then",
    "than",
    "if",
    // auxiliaries and question words
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "am",
    "do",
    "does",
    "did",
    "have",
    "has",
    "had",
    "will",
    "would",
    "shall",
    "should",
    "can",
    "could",
    "may",
    "might",
    "must",
    "what",
    "which",
    "who",
    "whom",
    "whose",
    "where",
    "when",
    "why",
    "how",
    "s",
    // politeness and filler
    "please",
    "pls",
    "just",
    "also",
    "more",
    "less",
    "very",
    "really",
    "now",
    "here",
    "there",
    "not",
    "no",
    "yes",
    "ok",
    "okay",
    "maybe",
    "bit",
    "little",
    "new",
    // instruction verbs
    "update",
    "fix",
    "add",
    "mark",
    "change",
    "rewrite",
    "edit",
    "revise",
    "write",
    "set",
    "replace",
    "remove",
    "delete",
    "append",
    "insert",
    "expand",
    "improve",
    "clarify",
    "refine",
    "tweak",
    "modify",
    "amend",
    "correct",
    "fill",
    "finish",
    "make",
    "put",
    "move",
    "rename",
    "review",
    "check",
    "adjust",
    "polish",
    "reword",
    "shorten",
    "extend",
    "include",
    "mention",
    "describe",
    "explain",
    "draft",
    "finalize",
    "finalise",
    "show",
    "open",
    "read",
    "look",
    "go",
    // what surrounds a target, and section states
    "section",
    "sections",
    "heading",
    "part",
    "doc",
    "docs",
    "document",
    "file",
    "artifact",
    "md",
    "markdown",
    "page",
    "done",
    "todo",
    "complete",
    "incomplete",
    "finished",
];

/// The stems of the stop words, so that "updated" and "marks" are stop words too.
fn stop_stems() -> &'static HashSet<String> {
    static STEMS: OnceLock<HashSet<String>> = OnceLock::new();
    STEMS.get_or_init(|| STOP_WORDS.iter().map(|word| stem(word)).collect())
}

/// Whether a lowercased word (or its stem) is a stop word.
pub(super) fn is_stop(text: &str, stem: &str) -> bool {
    STOP_WORDS.contains(&text) || stop_stems().contains(stem)
}

/// The alphanumeric runs of `text`, with their byte spans in `text`.
/// Lowercasing happens per word, so spans always point into the original.
pub(super) fn words(text: &str) -> Vec<Word> {
    let mut found = Vec::new();
    let mut start = None;
    for (at, ch) in text.char_indices() {
        match (ch.is_alphanumeric(), start) {
            (true, None) => start = Some(at),
            (false, Some(begin)) => {
                found.push(word(text, begin, at));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(begin) = start {
        found.push(word(text, begin, text.len()));
    }
    found
}

fn word(text: &str, start: usize, end: usize) -> Word {
    let lower = text[start..end].to_lowercase();
    let stem = stem(&lower);
    Word { start, end, text: lower, stem }
}

/// The lowercased words of a title or slug, without spans.
pub(super) fn plain_words(text: &str) -> Vec<String> {
    words(text).into_iter().map(|word| word.text).collect()
}

/// Suffixes the stemmer strips, longest first; `ies` becomes `y`.
const SUFFIXES: &[&str] = &[
    "ations", "ation", "ings", "ing", "ives", "ive", "ions", "ion", "ors", "or", "ers", "er", "ies", "es",
    "ed", "ly", "s",
];

/// A light suffix stripper: "competitors", "competitive" and "competition"
/// share `competit`; "sizes" and "size" share `size`. It only strips when at
/// least four characters remain, so short words stay whole.
pub(super) fn stem(word: &str) -> String {
    const MIN_STEM: usize = 4;
    let n_chars = word.chars().count();
    let mut stemmed = word.to_string();
    for suffix in SUFFIXES {
        if !word.ends_with(suffix) || n_chars < MIN_STEM + suffix.len() {
            continue;
        }
        // "analysis", "class", "status" end in s but are not plurals.
        if *suffix == "s" && (word.ends_with("ss") || word.ends_with("is") || word.ends_with("us")) {
            continue;
        }
        stemmed = word[..word.len() - suffix.len()].to_string();
        if *suffix == "ies" {
            stemmed.push('y');
        }
        break;
    }
    if stemmed.ends_with('e') && stemmed.chars().count() > MIN_STEM {
        stemmed.pop();
    }
    stemmed
}

/// `text` as a slug: lowercase alphanumeric words joined by `-`.
pub(super) fn slugify(text: &str) -> String {
    plain_words(text).join("-")
}

/// How many edits a typo may have in a word of this many characters:
/// none below four, one up to seven, two from eight.
pub(super) fn typo_limit(n_chars: usize) -> usize {
    match n_chars {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// Longest strings compared by edit distance: beyond this, a "typo" is not
/// a typo and the quadratic table is not worth it.
const MAX_DISTANCE_CHARS: usize = 64;

/// Edit distance with adjacent transpositions (optimal string alignment),
/// or `None` when either string is too long to be a typo of the other.
pub(super) fn distance(a: &str, b: &str) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len() > MAX_DISTANCE_CHARS || b.len() > MAX_DISTANCE_CHARS {
        return None;
    }
    let width = b.len() + 1;
    let mut table = vec![0usize; (a.len() + 1) * width];
    for (i, cell) in table.iter_mut().step_by(width).enumerate() {
        *cell = i;
    }
    for (j, cell) in table.iter_mut().take(width).enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (table[(i - 1) * width + j] + 1)
                .min(table[i * width + j - 1] + 1)
                .min(table[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(table[(i - 2) * width + j - 2] + 1);
            }
            table[i * width + j] = best;
        }
    }
    Some(table[a.len() * width + b.len()])
}

/// Whether `query` is a typo of `target` (both lowercased words).
pub(super) fn is_typo(query: &str, target: &str) -> bool {
    let (query_len, target_len) = (query.chars().count(), target.chars().count());
    let limit = typo_limit(query_len.min(target_len));
    // Lengths further apart than the limit cannot be within it: skip the table.
    limit > 0
        && query_len.abs_diff(target_len) <= limit
        && distance(query, target).is_some_and(|edits| edits > 0 && edits <= limit)
}

/// How alike two slugs are, in 0..1, for "did you mean": whole-string edit
/// distance, a shared prefix, or the share of the query's words found (or
/// nearly found) among the target's words — whichever says most.
pub(super) fn slug_similarity(query: &str, target: &str) -> f64 {
    if query.is_empty() || target.is_empty() {
        return 0.0;
    }
    if query == target {
        return 1.0;
    }
    let query_len = query.chars().count();
    let target_len = target.chars().count();
    let longest = query_len.max(target_len) as f64;
    let by_edits = distance(query, target).map_or(0.0, |edits| 1.0 - edits as f64 / longest);
    let by_prefix = if target.starts_with(query) || query.starts_with(target) {
        0.5 + 0.5 * query_len.min(target_len) as f64 / longest
    } else {
        0.0
    };
    let target_words: Vec<&str> = target.split('-').filter(|part| !part.is_empty()).collect();
    let query_words: Vec<&str> = query.split('-').filter(|part| !part.is_empty()).collect();
    let found = query_words
        .iter()
        .filter(|word| {
            target_words.iter().any(|target_word| {
                target_word == *word
                    || is_typo(word, target_word)
                    || (word.chars().count() >= 4 && target_word.starts_with(*word))
            })
        })
        .count();
    let by_words = if query_words.is_empty() {
        0.0
    } else {
        0.9 * found as f64 / query_words.len().max(target_words.len()) as f64
    };
    by_edits.max(by_prefix).max(by_words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_share_roots() {
        assert_eq!(stem("competitive"), "competit");
        assert_eq!(stem("competitors"), "competit");
        assert_eq!(stem("competition"), "competit");
        assert_eq!(stem("sizes"), stem("size"));
        assert_eq!(stem("solved"), stem("solve"));
        assert_eq!(stem("users"), "user");
        assert_eq!(stem("analysis"), "analysis");
        assert_eq!(stem("questions"), stem("question"));
        assert_eq!(stem("api"), "api");
        assert_eq!(stem("éléments"), "élément");
    }

    #[test]
    fn stop_words_cover_inflections() {
        assert!(is_stop("updated", &stem("updated")));
        assert!(is_stop("marks", &stem("marks")));
        assert!(!is_stop("market", &stem("market")));
        assert!(!is_stop("problem", &stem("problem")));
    }

    #[test]
    fn words_keep_spans_into_the_original() {
        let text = "Fix İstanbul's «Overview»";
        let found = words(text);
        let texts: Vec<&str> = found.iter().map(|word| word.text.as_str()).collect();
        assert_eq!(texts, ["fix", "i\u{307}stanbul", "s", "overview"]);
        assert_eq!(&text[found[3].start..found[3].end], "Overview");
    }

    #[test]
    fn typos_by_length() {
        assert!(is_typo("competetive", "competitive"));
        assert!(is_typo("anaylsis", "analysis"));
        assert!(!is_typo("api", "apo"));
        assert!(!is_typo("market", "market"));
        assert!(!is_typo("overview", "oven"));
    }

    #[test]
    fn distance_counts_transpositions_once() {
        assert_eq!(distance("abcd", "abdc"), Some(1));
        assert_eq!(distance("", "abc"), Some(3));
        assert_eq!(distance(&"x".repeat(65), "x"), None);
    }

    #[test]
    fn slug_similarity_ranks_near_slugs_first() {
        assert!(slug_similarity("what-is", "what-is-it") > 0.8);
        assert!(slug_similarity("competitve-analysis", "competitive-analysis") > 0.9);
        assert!(slug_similarity("xyz", "what-is-it") < 0.5);
        assert_eq!(slug_similarity("", "a"), 0.0);
    }
}
