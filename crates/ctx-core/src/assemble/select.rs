//! Scoring ancestors and siblings, and cutting text to a number of tokens.
//!
//! The weights follow the flame seed where they make sense and depart from
//! it where its numbers defeat their purpose (each departure says why).

use rustc_hash::FxHashSet;

use super::FrameInput;
use crate::frames::FrameStatus;
use crate::tokens::{self, Tokenizer};

/// What a cut text ends with, so nobody mistakes it for the whole.
pub(crate) const TRUNCATION_MARKER: &str = " …[truncated]";

/// Keywords are taken from this many characters of a text: enough for a
/// goal and a summary's gist, and scoring 10,000 siblings stays cheap.
const KEYWORD_CHARS: usize = 2_000;

const HOUR_MS: f64 = 3_600_000.0;

/// Score of an ancestor `distance` levels up (1: the parent).
///
/// Proximity halves with each level (parent 1000, grandparent 500, ...), as
/// in the seed. Departure: the root gets a 250-point floor, because it
/// states the mission every frame below serves; the middle of a deep chain
/// says least. Then recency (up to 100), status (in progress 30, completed
/// 10) and content (summary 20, artifacts 10).
pub(crate) fn ancestor_score(frame: &FrameInput, distance: usize, is_root: bool, now_ms: i64) -> f64 {
    let proximity = 1000.0 / 2f64.powi(distance.saturating_sub(1).min(60) as i32);
    let proximity = if is_root { proximity.max(250.0) } else { proximity };
    let status = match frame.status {
        FrameStatus::InProgress => 30.0,
        FrameStatus::Completed => 10.0,
        _ => 0.0,
    };
    let content = if frame.summary.is_empty() { 0.0 } else { 20.0 }
        + if frame.artifacts.is_empty() { 0.0 } else { 10.0 };
    proximity + recency(frame.changed_ms, now_ms) + status + content
}

/// The current frame's side of sibling relevance.
pub(crate) struct Focus {
    keywords: FxHashSet<String>,
    artifacts: Vec<String>,
}

impl Focus {
    pub fn new(frame: &FrameInput) -> Focus {
        let mut keywords = keywords(&frame.title);
        keywords.extend(keywords_of(&frame.goal));
        Focus { keywords, artifacts: frame.artifacts.iter().map(|a| artifact_stem(a).to_string()).collect() }
    }
}

/// Relevance of a completed or failed sibling to the current frame.
///
/// As in the seed: recency (100 within the hour it ended, then halving each
/// hour), 20 per goal keyword it shares with the current goal, 10 per
/// keyword its summary shares, 25 per artifact path they share. Departure:
/// content and status are tie-breakers (summary 10, artifacts 5, completed
/// 10, failed 5; the seed gives 30, 15, 20, 15), because with the seed's
/// numbers any completed sibling with a summary clears the 30-point bar and
/// the relevance filter filters nothing; here a sibling needs a shared word,
/// a shared file or recent completion to pass.
pub(crate) fn sibling_score(sibling: &FrameInput, focus: &Focus, now_ms: i64) -> f64 {
    let mut goal_words = keywords(&sibling.title);
    goal_words.extend(keywords_of(&sibling.goal));
    let summary_words = keywords_of(&sibling.summary);
    let mut score = recency(sibling.changed_ms, now_ms);
    for word in &focus.keywords {
        if goal_words.contains(word) {
            score += 20.0;
        } else if summary_words.contains(word) {
            score += 10.0;
        }
    }
    let shared = sibling
        .artifacts
        .iter()
        .filter(|a| focus.artifacts.iter().any(|f| paths_overlap(artifact_stem(a), f)))
        .count();
    score += 25.0 * shared as f64;
    score += if sibling.summary.is_empty() { 0.0 } else { 10.0 };
    score += if sibling.artifacts.is_empty() { 0.0 } else { 5.0 };
    score += match sibling.status {
        FrameStatus::Completed => 10.0,
        FrameStatus::Failed => 5.0,
        _ => 0.0,
    };
    score
}

/// 100 points within the hour since `changed_ms`, halving with every hour after.
fn recency(changed_ms: i64, now_ms: i64) -> f64 {
    let hours = (now_ms - changed_ms).max(0) as f64 / HOUR_MS;
    if hours <= 1.0 { 100.0 } else { 100.0 * 0.5f64.powf(hours - 1.0) }
}

/// An artifact without a trailing glob: `src/auth/*` → `src/auth`.
fn artifact_stem(path: &str) -> &str {
    path.trim_end_matches(['*', '/']).trim_end_matches("/**")
}

/// Two paths overlap when they are equal or one is a folder holding the other.
fn paths_overlap(a: &str, b: &str) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let within =
        |inner: &str, outer: &str| inner.strip_prefix(outer).is_some_and(|rest| rest.starts_with('/'));
    a == b || within(a, b) || within(b, a)
}

fn keywords_of(text: &str) -> FxHashSet<String> {
    let end = text.char_indices().nth(KEYWORD_CHARS).map_or(text.len(), |(at, _)| at);
    keywords(&text[..end])
}

/// The words of `text` that say what it is about: split at anything but
/// letters and digits and at camelCase humps, lower-cased, three characters
/// or more, without stop words, lightly stemmed (`routes` = `route`,
/// `classes` = `class`).
pub(crate) fn keywords(text: &str) -> FxHashSet<String> {
    let mut words = FxHashSet::default();
    let mut word = String::new();
    let mut last_lower = false;
    let mut flush = |word: &mut String| {
        if word.chars().count() >= 3 && !STOP_WORDS.contains(&word.as_str()) {
            words.insert(stem(word));
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            if c.is_uppercase() && last_lower {
                flush(&mut word);
            }
            last_lower = c.is_lowercase() || c.is_ascii_digit();
            word.extend(c.to_lowercase());
        } else {
            flush(&mut word);
            last_lower = false;
        }
    }
    flush(&mut word);
    words
}

/// Strip a plural or verb ending, so that `routes` and `route`, `classes`
/// and `class`, `caching` and `cached` meet.
fn stem(word: &str) -> String {
    let long_enough = |rest: &str, n: usize| rest.chars().count() >= n;
    if let Some(rest) = word.strip_suffix("ies").filter(|r| long_enough(r, 3)) {
        return format!("{rest}y");
    }
    if let Some(rest) = word.strip_suffix("es").filter(|r| long_enough(r, 3))
        && (rest.ends_with(['s', 'x', 'z']) || rest.ends_with("ch") || rest.ends_with("sh"))
    {
        return rest.to_string();
    }
    for suffix in ["ing", "ed"] {
        if let Some(rest) = word.strip_suffix(suffix).filter(|r| long_enough(r, 4)) {
            return rest.to_string();
        }
    }
    match word.strip_suffix('s') {
        Some(rest) if long_enough(rest, 3) && !rest.ends_with('s') => rest.to_string(),
        _ => word.to_string(),
    }
}

/// Words too common in English and in task titles to tell two goals apart.
const STOP_WORDS: &[&str] = &[
    "about",
    "above",
    "after",
    "again",
    "all",
    "also",
    "and",
    "any",
    "are",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "can",
    "could",
    "did",
    "does",
    "doing",
    "done",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "into",
    "its",
    "itself",
    "just",
    "let",
    "more",
    "most",
    "must",
    "need",
    "not",
    "now",
    "off",
    "once",
    "only",
    "other",
    "our",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "some",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "too",
    "under",
    "until",
    "use",
    "used",
    "using",
    "very",
    "was",
    "way",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "yet",
    "you",
    "your",
    "add",
    "added",
    "adding",
    "make",
    "new",
    "fix",
    "fixed",
    "implement",
    "implemented",
    "update",
    "updated",
    "change",
    "changed",
    "work",
    "task",
    "get",
    "set",
];

/// `text` cut to at most `max_tokens` tokens, [`TRUNCATION_MARKER`] included
/// (nothing at all when even the marker does not fit), and whether it was cut. Only a window at the start of a long text is
/// tokenized, so cutting a megabyte costs what cutting a page does.
pub(crate) fn cut_tokens(tok: &dyn Tokenizer, text: &str, max_tokens: usize) -> (String, bool) {
    // A token is at least one byte: a text no longer than the budget fits.
    if text.len() <= max_tokens {
        return (text.to_string(), false);
    }
    let mut window = max_tokens.saturating_mul(8).saturating_add(64);
    loop {
        let end = floor_char_boundary(text, window);
        let slice = &text[..end];
        let ends = tok.token_ends(slice);
        let whole = end == text.len();
        if whole && ends.len() <= max_tokens {
            return (text.to_string(), false);
        }
        // Tokens at the window's end may merge differently in the whole
        // text: trust only a window with tokens to spare.
        if whole || ends.len() > max_tokens + 2 {
            let marker = tok.count(TRUNCATION_MARKER);
            if max_tokens <= marker {
                // No room to say anything: nothing, flagged as cut.
                return (String::new(), true);
            }
            let mut keep = max_tokens - marker;
            loop {
                let cut = format!("{}{TRUNCATION_MARKER}", tokens::prefix(slice, &ends, keep).trim_end());
                // The prefix and the marker may merge into fewer or more tokens than apart.
                if keep == 0 || tok.count(&cut) <= max_tokens {
                    return (cut, true);
                }
                keep -= 1;
            }
        }
        window = window.saturating_mul(2);
    }
}

/// `text` cut to at most `max_words` words (whitespace-separated), with the marker.
pub(crate) fn cut_words(text: &str, max_words: usize) -> (String, bool) {
    let mut words = 0;
    let mut in_word = false;
    for (at, c) in text.char_indices() {
        if c.is_whitespace() {
            in_word = false;
        } else if !in_word {
            in_word = true;
            words += 1;
            if words > max_words {
                return (format!("{}{TRUNCATION_MARKER}", text[..at].trim_end()), true);
            }
        }
    }
    (text.to_string(), false)
}

fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::{CharEstimate, O200k};

    fn frame(goal: &str, summary: &str, artifacts: &[&str], changed_ms: i64) -> FrameInput {
        FrameInput {
            goal: goal.into(),
            summary: summary.into(),
            artifacts: artifacts.iter().map(|a| a.to_string()).collect(),
            changed_ms,
            status: FrameStatus::Completed,
            ..FrameInput::default()
        }
    }

    #[test]
    fn keywords_drop_stop_words_and_split_identifiers() {
        let words = keywords("Add the JWT middleware to userAuth routes, using snake_case_names");
        for expected in ["jwt", "middleware", "user", "auth", "route", "snake", "case", "name"] {
            assert!(words.contains(expected), "{expected} in {words:?}");
        }
        for dropped in ["add", "the", "to", "using"] {
            assert!(!words.contains(dropped), "{dropped} in {words:?}");
        }
        assert_eq!(stem("route"), "route");
        assert_eq!(stem("routes"), "route");
        assert_eq!(stem("caching"), stem("cached"));
        assert_eq!(stem("classes"), "class");
        assert_eq!(stem("class"), "class");
    }

    #[test]
    fn relevance_needs_a_shared_word_file_or_recent_end() {
        let day = 24.0 * HOUR_MS;
        let now = (10.0 * day) as i64;
        let focus = Focus::new(&frame("Build the API routes for sessions", "", &["src/api/routes.rs"], now));
        let old = now - day as i64;
        let unrelated = frame("Write the changelog", "Listed every release", &["CHANGELOG.md"], old);
        let shares_word = frame("Session storage in Redis", "Stored sessions", &[], old);
        let shares_file = frame("Rename handlers", "", &["src/api"], old);
        let recent = frame("Write the changelog", "", &[], now - 60_000);
        let unrelated_score = sibling_score(&unrelated, &focus, now);
        assert!(unrelated_score < 30.0, "{unrelated_score}");
        assert!(sibling_score(&shares_word, &focus, now) >= 30.0);
        assert!(sibling_score(&shares_file, &focus, now) >= 30.0);
        assert!(sibling_score(&recent, &focus, now) >= 100.0);
    }

    #[test]
    fn nearer_ancestors_score_higher_and_the_root_keeps_a_floor() {
        let a = frame("goal", "", &[], 0);
        let now = 100 * HOUR_MS as i64;
        let parent = ancestor_score(&a, 1, false, now);
        let grandparent = ancestor_score(&a, 2, false, now);
        let far = ancestor_score(&a, 9, false, now);
        let root = ancestor_score(&a, 9, true, now);
        assert!(
            parent > grandparent && grandparent > far && root > far,
            "{parent} {grandparent} {far} {root}"
        );
    }

    #[test]
    fn paths_overlap_by_folder_and_glob() {
        assert!(paths_overlap("src/auth", "src/auth/jwt.rs"));
        assert!(paths_overlap(artifact_stem("src/auth/*"), "src/auth/jwt.rs"));
        assert!(paths_overlap(artifact_stem("src/auth/**"), "src/auth"));
        assert!(!paths_overlap("src/auth", "src/authz/x.rs"));
    }

    #[test]
    fn cuts_hold_their_token_limit_and_say_so() {
        let text = "The quick brown fox jumps over the lazy dog. ".repeat(500);
        for tok in [&O200k as &dyn Tokenizer, &CharEstimate] {
            for max in [0, 5, 12, 100, 1000] {
                let (cut, truncated) = cut_tokens(tok, &text, max);
                assert!(truncated);
                assert!(cut.is_empty() || cut.ends_with(TRUNCATION_MARKER));
                assert!(tok.count(&cut) <= max, "{max}: {}", tok.count(&cut));
                assert_eq!(cut.is_empty(), max <= tok.count(TRUNCATION_MARKER), "{max}: {cut:?}");
            }
        }
        assert_eq!(cut_tokens(&O200k, "short", 10), ("short".to_string(), false));
        // Long tokens (runs of one character) widen the window until it holds enough.
        let spaces = format!("a{}b", " ".repeat(5000));
        let (cut, truncated) = cut_tokens(&O200k, &spaces, 3);
        assert!(truncated && cut.len() < 100, "{cut:?}");
        assert_eq!(cut_words("one two  three four", 2), (format!("one two{TRUNCATION_MARKER}"), true));
        assert_eq!(cut_words("one two", 2), ("one two".to_string(), false));
    }
}
