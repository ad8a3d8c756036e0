//! Plain phrasings: which section titles a message's words name, how well,
//! and whether the best match is clear, ambiguous or too weak to act on.

use std::collections::HashMap;
use std::ops::Range;

use super::message::{tokens, trim_reference};
use super::words::{self, Word, is_stop, is_typo, plain_words, slugify, stem};
use super::{ArtifactRef, MatchKind};

/// A whole title found word for word, in order ("the what is it section").
const PHRASE_SCORE: f64 = 0.95;
/// Every meaningful title word found, in any order or inflection; partial
/// and typo matches scale down from here with the share of words found.
const WORDS_SCORE: f64 = 0.9;
/// Per title word: found as is, by stem, with a typo, or as a prefix.
const SAME_WORD: f64 = 1.0;
const SAME_STEM: f64 = 0.95;
const TYPO_WORD: f64 = 0.8;
const PREFIX_WORD: f64 = 0.6;

/// At or above: a match to act on (half the words of a two-word title).
pub(super) const RESOLVE_AT: f64 = 0.4;
/// At or above, but below [`RESOLVE_AT`]: worth a "did you mean".
pub(super) const SUGGEST_AT: f64 = 0.2;
/// Candidates closer than this to the best are as good as the best.
pub(super) const AMBIGUITY_MARGIN: f64 = 0.1;

/// How many words of a long message are read for titles: its start and its end.
const HEAD_WORDS: usize = 300;
const TAIL_WORDS: usize = 100;

/// Shortest word a prefix may be ("comp" may mean "competitive"; "co" may not).
const MIN_PREFIX_CHARS: usize = 4;

/// What the matcher knows of a section, computed once per call.
#[derive(Debug)]
pub(super) struct SectionInfo {
    /// Lowercased slug.
    pub slug: String,
    /// The title as a slug, to compare with slug-like references.
    pub title_slug: String,
    /// All words of the title, for phrase matches.
    title_words: Vec<String>,
    /// Title words that can name it on their own: (word, stem).
    content: Vec<(String, String)>,
}

impl SectionInfo {
    pub(super) fn new(slug: &str, title: &str) -> SectionInfo {
        let title_words = plain_words(title);
        let content = title_words
            .iter()
            .filter_map(|word| {
                let word_stem = stem(word);
                (!is_stop(word, &word_stem)).then(|| (word.clone(), word_stem))
            })
            .collect();
        SectionInfo { slug: slug.to_lowercase(), title_slug: slugify(title), title_words, content }
    }
}

/// The words of a message that may name a target, without the spans
/// already spoken for (explicit syntax, a file name naming the artifact).
#[derive(Debug)]
pub(super) struct Query {
    pub words: Vec<Word>,
    /// Per word, the index of its first occurrence: the same word twice is
    /// one piece of evidence.
    first: Vec<usize>,
    /// Indices into `words` of the distinct words that are not stop words.
    content: Vec<usize>,
    /// Whitespace-separated tokens, lowercased, outer punctuation trimmed
    /// (a slug written as is: "what-is-it").
    tokens: Vec<String>,
}

impl Query {
    pub(super) fn new(text: &str, excluded: &[Range<usize>]) -> Query {
        let outside =
            |start: usize, end: usize| !excluded.iter().any(|span| start < span.end && span.start < end);
        let mut words: Vec<Word> =
            words::words(text).into_iter().filter(|word| outside(word.start, word.end)).collect();
        // A long paste names its target at its start or its end, not in between.
        if words.len() > HEAD_WORDS + TAIL_WORDS {
            words.drain(HEAD_WORDS..words.len() - TAIL_WORDS);
        }
        let mut seen: HashMap<&str, usize> = HashMap::new();
        let first: Vec<usize> = (words.iter().enumerate())
            .map(|(at, word)| *seen.entry(word.text.as_str()).or_insert(at))
            .collect();
        let content = (words.iter().enumerate())
            .filter(|(at, word)| first[*at] == *at && !is_stop(&word.text, &word.stem))
            .map(|(at, _)| at)
            .collect();
        let tokens = tokens(text)
            .into_iter()
            .filter(|span| outside(span.start, span.end))
            .map(|span| trim_reference(&text[span]).to_lowercase())
            .collect();
        Query { words, first, content, tokens }
    }

    /// Whether the message says it is about a section ("the … section").
    pub(super) fn says_section(&self) -> bool {
        self.words.iter().any(|word| matches!(word.text.as_str(), "section" | "sections" | "heading"))
    }

    /// The distinct words (first occurrences) of a span, sorted.
    fn distinct(&self, span: Range<usize>) -> Vec<usize> {
        let mut ids: Vec<usize> = span.filter_map(|at| self.first.get(at).copied()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }

    /// Where `sequence` occurs as consecutive words, if it does.
    pub(super) fn find_phrase(&self, sequence: &[String]) -> Option<Range<usize>> {
        if sequence.is_empty() || sequence.len() > self.words.len() {
            return None;
        }
        (0..=self.words.len() - sequence.len())
            .find(|&at| sequence.iter().zip(&self.words[at..]).all(|(want, word)| *want == word.text))
            .map(|at| at..at + sequence.len())
    }
}

/// One section's match against a message.
#[derive(Debug, Clone)]
pub(super) struct Scored {
    pub artifact: usize,
    pub section: usize,
    pub score: f64,
    pub kind: MatchKind,
    /// Which distinct query words it used, sorted: a match using a strict superset of
    /// another's words ("data model" over "data") is the better reading.
    pub matched: Vec<usize>,
}

/// Scores every section of the artifacts in `scope` against the message.
pub(super) fn score_sections(query: &Query, sections: &[Vec<SectionInfo>], scope: &[usize]) -> Vec<Scored> {
    let mut scored = Vec::new();
    for &artifact in scope {
        let Some(infos) = sections.get(artifact) else { continue };
        for (section, info) in infos.iter().enumerate() {
            if let Some((score, kind, matched)) = score_section(query, info) {
                scored.push(Scored { artifact, section, score, kind, matched });
            }
        }
    }
    scored
}

fn score_section(query: &Query, info: &SectionInfo) -> Option<(f64, MatchKind, Vec<usize>)> {
    // A one-word title made of a short stop word ("It") would match everywhere.
    let phrase_allowed = !(info.content.is_empty()
        && info.title_words.len() == 1
        && info.title_words[0].chars().count() < MIN_PREFIX_CHARS);
    if phrase_allowed && let Some(span) = query.find_phrase(&info.title_words) {
        return Some((PHRASE_SCORE, MatchKind::Title, query.distinct(span)));
    }
    // A written slug ("what-is-it", "faq"), unless it is an ordinary stop word.
    let slug_is_word = !info.slug.is_empty() && !is_stop(&info.slug, &stem(&info.slug));
    if slug_is_word && query.tokens.contains(&info.slug) {
        let slug_words = plain_words(&info.slug);
        let matched = query.find_phrase(&slug_words).map(|span| query.distinct(span)).unwrap_or_default();
        return Some((PHRASE_SCORE, MatchKind::Slug, matched));
    }
    // Titles of stop words only ("What is it?") match as a phrase or not at all.
    if info.content.is_empty() {
        return None;
    }
    let mut total = 0.0;
    let (mut n_same, mut n_typo) = (0, 0);
    let mut matched = Vec::new();
    for (title_word, title_stem) in &info.content {
        let best = query
            .content
            .iter()
            .map(|&at| (word_match(&query.words[at], title_word, title_stem), at))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let Some((weight, at)) = best.filter(|(weight, _)| *weight > 0.0) else { continue };
        total += weight;
        matched.push(at);
        if weight >= SAME_STEM {
            n_same += 1;
        } else if weight == TYPO_WORD {
            n_typo += 1;
        }
    }
    if matched.is_empty() {
        return None;
    }
    matched.sort_unstable();
    matched.dedup();
    let coverage = total / info.content.len() as f64;
    let kind = if n_typo > 0 {
        MatchKind::Fuzzy
    } else if n_same == info.content.len() {
        MatchKind::Title
    } else {
        MatchKind::PartialTitle
    };
    Some((WORDS_SCORE * coverage, kind, matched))
}

/// How well one message word stands for one title word.
fn word_match(word: &Word, title_word: &str, title_stem: &str) -> f64 {
    if word.text == title_word {
        SAME_WORD
    } else if word.stem == title_stem {
        SAME_STEM
    } else if is_typo(&word.text, title_word) || is_typo(&word.stem, title_stem) {
        TYPO_WORD
    } else if word.text.chars().count() >= MIN_PREFIX_CHARS && title_word.starts_with(word.text.as_str()) {
        PREFIX_WORD
    } else {
        0.0
    }
}

/// What the scores say.
#[derive(Debug)]
pub(super) enum Decision {
    /// One clear best, and the preferred artifact that settled a tie, if one did.
    Clear(Scored, Option<usize>),
    /// Several comparable matches in different places, best first.
    Ambiguous(Vec<Scored>),
    /// Only matches too weak to act on, best first.
    Weak(Vec<Scored>),
    Nothing,
}

/// Picks the best match, or says why there is none.
///
/// 1. Matches below [`SUGGEST_AT`] are noise and dropped.
/// 2. If the best is below [`RESOLVE_AT`], all that is left is "did you mean".
/// 3. The matches within [`AMBIGUITY_MARGIN`] of the best compete, except one
///    whose words are a strict subset of another's ("data" vs "data model").
/// 4. One competitor left wins. Otherwise a competitor that is alone in a
///    `prefer`red artifact (the one the message names, then the current one)
///    and scores as high as any wins; else the outcome is ambiguous.
pub(super) fn decide(mut scored: Vec<Scored>, prefer: &[usize]) -> Decision {
    scored.retain(|candidate| candidate.score >= SUGGEST_AT);
    scored.sort_by(|a, b| {
        b.score.total_cmp(&a.score).then(a.artifact.cmp(&b.artifact)).then(a.section.cmp(&b.section))
    });
    let Some(best) = scored.first().map(|candidate| candidate.score) else { return Decision::Nothing };
    if best < RESOLVE_AT {
        return Decision::Weak(scored);
    }
    let close: Vec<&Scored> =
        scored.iter().filter(|candidate| candidate.score >= best - AMBIGUITY_MARGIN).collect();
    let competing: Vec<Scored> = close
        .iter()
        .filter(|candidate| !close.iter().any(|other| is_strict_subset(&candidate.matched, &other.matched)))
        .map(|candidate| (*candidate).clone())
        .collect();
    if competing.len() == 1 {
        return Decision::Clear(competing[0].clone(), None);
    }
    let top = competing.iter().map(|candidate| candidate.score).fold(0.0, f64::max);
    for &artifact in prefer {
        let mut in_preferred = competing.iter().filter(|candidate| candidate.artifact == artifact);
        if let (Some(only), None) = (in_preferred.next(), in_preferred.next())
            && only.score >= top - f64::EPSILON
        {
            return Decision::Clear(only.clone(), Some(artifact));
        }
    }
    Decision::Ambiguous(competing)
}

fn is_strict_subset(small: &[usize], large: &[usize]) -> bool {
    small.len() < large.len() && small.iter().all(|at| large.binary_search(at).is_ok())
}

/// How a message names an artifact in plain words.
#[derive(Debug, Default)]
pub(super) struct Mentions {
    /// Named for sure: a file name or path, a multi-word title, or its slug
    /// after "in"/"from"… or before "doc"/"file"…, with the span it used.
    pub strong: Vec<(usize, MatchKind, Range<usize>)>,
    /// Its slug as a bare word ("the research overview"), which may also be
    /// an ordinary word ("research the market"): a tie-breaker only.
    pub weak: Vec<usize>,
    /// A Markdown file name that is no artifact ("in reserch.md").
    pub unknown_file: Option<String>,
}

impl Mentions {
    /// The artifacts named for sure, each once, in order of appearance.
    pub(super) fn strong_artifacts(&self) -> Vec<usize> {
        let mut found: Vec<usize> = Vec::new();
        for (artifact, _, _) in &self.strong {
            if !found.contains(artifact) {
                found.push(*artifact);
            }
        }
        found
    }

    /// How an artifact named for sure was named.
    pub(super) fn kind_of(&self, artifact: usize) -> MatchKind {
        self.strong
            .iter()
            .find(|(named, _, _)| *named == artifact)
            .map_or(MatchKind::Path, |(_, kind, _)| *kind)
    }

    pub(super) fn spans(&self) -> Vec<Range<usize>> {
        self.strong.iter().map(|(_, _, span)| span.clone()).collect()
    }
}

const BEFORE_NAME: &[&str] = &["in", "of", "from", "to", "inside", "within", "into", "on"];
const AFTER_NAME: &[&str] = &["doc", "docs", "document", "artifact", "file", "page", "md"];
const ARTICLES: &[&str] = &["the", "a", "an", "our", "my", "this"];

/// Finds the artifacts a message names without explicit syntax.
pub(super) fn find_mentions(
    text: &str,
    artifacts: &[ArtifactRef<'_>],
    excluded: &[Range<usize>],
) -> Mentions {
    let mut mentions = Mentions::default();
    for span in tokens(text) {
        if excluded.iter().any(|skip| span.start < skip.end && skip.start < span.end) {
            continue;
        }
        let reference = trim_reference(&text[span.clone()]).to_lowercase();
        if !reference.contains('.') && !reference.contains('/') {
            continue;
        }
        match artifacts.iter().position(|artifact| names_file(artifact, &reference)) {
            Some(artifact) => mentions.strong.push((artifact, MatchKind::Path, span)),
            None if reference.ends_with(".md") && mentions.unknown_file.is_none() => {
                mentions.unknown_file = Some(reference);
            }
            None => {}
        }
    }
    let query = Query::new(text, excluded);
    for (artifact, artifact_ref) in artifacts.iter().enumerate() {
        let title_words = plain_words(artifact_ref.title);
        if title_words.len() >= 2
            && let Some(at) = query.find_phrase(&title_words)
        {
            let span = query.words[at.start].start..query.words[at.end - 1].end;
            mentions.strong.push((artifact, MatchKind::Title, span));
            continue;
        }
        let Some(at) = query.find_phrase(&plain_words(artifact_ref.slug)) else { continue };
        let before = query.words[..at.start]
            .iter()
            .rev()
            .map(|word| word.text.as_str())
            .find(|word| !ARTICLES.contains(word));
        let after = query.words.get(at.end).map(|word| word.text.as_str());
        if before.is_some_and(|word| BEFORE_NAME.contains(&word))
            || after.is_some_and(|word| AFTER_NAME.contains(&word))
        {
            let span = query.words[at.start].start..query.words[at.end - 1].end;
            mentions.strong.push((artifact, MatchKind::Slug, span));
        } else {
            mentions.weak.push(artifact);
        }
    }
    let strong = mentions.strong_artifacts();
    mentions.weak.retain(|artifact| !strong.contains(artifact));
    mentions
}

/// Whether a lowercased file reference ("research.md", "docs/research.md")
/// names this artifact's file.
pub(super) fn names_file(artifact: &ArtifactRef<'_>, reference: &str) -> bool {
    let reference = reference.trim_start_matches("./").trim_start_matches('/');
    let path = artifact.path.to_lowercase();
    let path = path.trim_start_matches("./");
    !reference.is_empty() && (path == reference || path.ends_with(&format!("/{reference}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(artifact: usize, section: usize, score: f64, matched: &[usize]) -> Scored {
        Scored { artifact, section, score, kind: MatchKind::Title, matched: matched.to_vec() }
    }

    fn score(text: &str, title: &str) -> Option<(f64, MatchKind)> {
        score_section(&Query::new(text, &[]), &SectionInfo::new(&slugify(title), title))
            .map(|(score, kind, _)| (score, kind))
    }

    #[test]
    fn phrase_beats_scattered_words() {
        assert_eq!(
            score("fix the competitive analysis", "Competitive Analysis"),
            Some((PHRASE_SCORE, MatchKind::Title))
        );
        assert_eq!(
            score("analysis of competitive", "Competitive Analysis"),
            Some((WORDS_SCORE, MatchKind::Title))
        );
    }

    #[test]
    fn stop_word_titles_need_the_phrase() {
        assert_eq!(
            score("mark the what is it section done", "What Is It?").map(|s| s.1),
            Some(MatchKind::Title)
        );
        assert_eq!(score("what is the definition", "What Is It?"), None);
        assert_eq!(score("update it", "It"), None);
    }

    #[test]
    fn partial_typo_and_prefix_scale_down() {
        let (partial, kind) = score("update the competitive part", "Competitive Analysis").unwrap();
        assert_eq!(kind, MatchKind::PartialTitle);
        assert!(partial >= RESOLVE_AT);
        let (typo, kind) = score("competetive analysis", "Competitive Analysis").unwrap();
        assert_eq!(kind, MatchKind::Fuzzy);
        assert!(typo > RESOLVE_AT && typo < WORDS_SCORE);
        let (prefix, _) = score("the compet one", "Competitive Analysis").unwrap();
        assert!((SUGGEST_AT..RESOLVE_AT).contains(&prefix));
    }

    #[test]
    fn decide_prefers_supersets_then_preferred_artifacts() {
        let data = scored(0, 0, 0.95, &[2]);
        let data_model = scored(0, 1, 0.95, &[2, 3]);
        assert!(
            matches!(decide(vec![data, data_model], &[]), Decision::Clear(found, None) if found.section == 1)
        );
        let overviews = vec![scored(0, 3, 0.95, &[2]), scored(1, 2, 0.95, &[2])];
        assert!(matches!(decide(overviews.clone(), &[]), Decision::Ambiguous(found) if found.len() == 2));
        assert!(matches!(decide(overviews, &[1]), Decision::Clear(found, Some(1)) if found.artifact == 1));
    }

    #[test]
    fn decide_reports_weak_and_nothing() {
        assert!(matches!(decide(vec![scored(0, 0, 0.3, &[1])], &[]), Decision::Weak(_)));
        assert!(matches!(decide(vec![scored(0, 0, 0.1, &[1])], &[]), Decision::Nothing));
        assert!(matches!(decide(Vec::new(), &[]), Decision::Nothing));
    }
}
