//! Targeting: which artifact and section a chat message is about.
//!
//! [`resolve`] reads the seed's syntax — `@artifact#section`, `/artifact
//! section`, `#section` (in the current artifact) — and plain phrasings
//! ("fix the competitive analysis in research.md"), and answers with a
//! [`Resolution`]: one target with the rest of the message and a confidence,
//! the candidates when several places match comparably (never a guess), or
//! what was not found with "did you mean" suggestions.
//!
//! It is pure: it sees only the slugs, titles and paths it is given, so it
//! knows nothing of storage, and it never fails or panics — every input has
//! an outcome.
//!
//! ```
//! use ctxkeep_core::artifact::target::{resolve, ArtifactRef, Resolution, SectionRef};
//!
//! let sections = vec![SectionRef { slug: "what-is-it", title: "What Is It?" }];
//! let concept = ArtifactRef { slug: "concept", title: "Concept", path: "concept.md", sections };
//! let Resolution::Resolved(target) = resolve("@concept#what-is-it update the definition", &[concept], None) else {
//!     panic!("explicit syntax resolves");
//! };
//! assert_eq!((target.artifact.as_str(), target.section.as_deref()), ("concept", Some("what-is-it")));
//! assert_eq!(target.rest, "update the definition");
//! ```

mod lookup;
mod message;
mod score;
mod words;

use std::ops::Range;

use serde::Serialize;

use lookup::Lookup;
use message::{Message, Reference, cut};
use score::{Decision, Mentions, Query, Scored, SectionInfo};

/// An artifact as targeting sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactRef<'a> {
    pub slug: &'a str,
    pub title: &'a str,
    /// Its file, relative to the repository root (`docs/research.md`).
    pub path: &'a str,
    /// In document order.
    pub sections: Vec<SectionRef<'a>>,
}

/// A section as targeting sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SectionRef<'a> {
    pub slug: &'a str,
    pub title: &'a str,
}

/// What a message targets. Stable JSON, tagged by `outcome`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Resolution {
    /// One artifact, and a section unless the message names only the artifact.
    Resolved(Target),
    /// Several places match comparably: `AMBIGUOUS_TARGET` with `candidates`.
    Ambiguous(Ambiguity),
    /// Nothing matches well enough: `ARTIFACT_NOT_FOUND` or
    /// `SECTION_NOT_FOUND` with `suggestions`.
    NotFound(NotFound),
}

/// A resolved target.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Target {
    /// The artifact's slug.
    pub artifact: String,
    /// The section's slug; `None` when the message names only the artifact.
    pub section: Option<String>,
    /// The message without its targeting syntax (`@…`, `#…`, `/artifact
    /// section`). A plain phrasing is kept whole: its title words are part of
    /// the instruction.
    pub rest: String,
    /// In 0..1. Below [`CONFIRM_BELOW`] a front-end should ask before acting.
    pub confidence: f64,
    /// How the artifact was found.
    pub artifact_match: MatchKind,
    /// How the section was found, when there is one.
    pub section_match: Option<MatchKind>,
}

/// Several comparable targets.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Ambiguity {
    /// Best first; at least two.
    pub candidates: Vec<Candidate>,
    pub rest: String,
}

/// No target, and what the message might have meant.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct NotFound {
    pub missing: Missing,
    /// The reference that named nothing (`what-si-it`, `reserch.md`), or the
    /// message when no single reference can be blamed.
    pub query: String,
    /// The artifact searched, when a section was missing from a known one.
    pub artifact: Option<String>,
    /// Closest first. When nothing is close: what exists there instead
    /// (score 0), as the seed's `SECTION_NOT_FOUND` example lists.
    pub suggestions: Vec<Candidate>,
    pub rest: String,
}

/// A place a message may mean.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Candidate {
    pub artifact: String,
    /// `None` for the artifact as a whole.
    pub section: Option<String>,
    /// The section's title, or the artifact's.
    pub title: String,
    /// In 0..1, two decimals.
    pub score: f64,
}

/// What was not found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    Artifact,
    Section,
}

/// How a target was found, strongest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    /// Named by the seed's syntax (`@concept#what-is-it`), exactly.
    Explicit,
    /// Named by the syntax with a unique prefix of its slug (`@concept#what-is`).
    Prefix,
    /// Its slug written in the message (`what-is-it`, "the concept doc").
    Slug,
    /// Its file name or path (`research.md`).
    Path,
    /// All the meaningful words of its title, any case and punctuation.
    Title,
    /// Some of its title's words, or a prefix of one, and nothing else comparable.
    PartialTitle,
    /// Title words with a typo (`competetive`).
    Fuzzy,
    /// The current artifact (`ctx artifact use`).
    Current,
    /// The only artifact holding the section that matched.
    Inferred,
}

/// Below this confidence a resolved target is a "did you mean" to confirm
/// (a partial title: "the problem section" → Problem Being Solved).
pub const CONFIRM_BELOW: f64 = 0.6;

impl Resolution {
    /// The seed's error code for this outcome, `None` when resolved.
    pub fn error_code(&self) -> Option<&'static str> {
        match self {
            Resolution::Resolved(_) => None,
            Resolution::Ambiguous(_) => Some("AMBIGUOUS_TARGET"),
            Resolution::NotFound(NotFound { missing: Missing::Artifact, .. }) => Some("ARTIFACT_NOT_FOUND"),
            Resolution::NotFound(NotFound { missing: Missing::Section, .. }) => Some("SECTION_NOT_FOUND"),
        }
    }

    /// The message without its targeting syntax.
    pub fn rest(&self) -> &str {
        match self {
            Resolution::Resolved(target) => &target.rest,
            Resolution::Ambiguous(ambiguity) => &ambiguity.rest,
            Resolution::NotFound(not_found) => &not_found.rest,
        }
    }
}

impl NotFound {
    /// The suggestions as the seed's error lists them: slugs (sections', or
    /// artifacts' when the artifact is missing; `artifact#section` when the
    /// section lies in another artifact than the one searched).
    pub fn suggestion_slugs(&self) -> Vec<String> {
        self.suggestions
            .iter()
            .map(|candidate| match &candidate.section {
                Some(section) if self.artifact.as_deref() == Some(candidate.artifact.as_str()) => {
                    section.clone()
                }
                Some(section) => format!("{}#{section}", candidate.artifact),
                None => candidate.artifact.clone(),
            })
            .collect()
    }
}

/// Resolves what `text` targets among `artifacts`; `current` is the slug of
/// the current artifact (`ctx artifact use`), if any.
///
/// Precedence:
/// 1. Explicit syntax beats everything: `/artifact …` at the start, else the
///    first `@artifact[#section]`; its section is `#section`, else (for `/`)
///    the next word as a slug, the next words as a whole title, or the next
///    word as a unique slug prefix, else title words anywhere in the rest,
///    within that artifact only. An
///    explicit name that matches nothing is not found, with suggestions — a
///    typo in syntax is never silently corrected.
/// 2. `#section` alone: in the artifact a file name in the message names,
///    else the current artifact, else the one artifact that has it.
/// 3. Plain words: a file name, a multi-word artifact title, or a slug after
///    "in"/"from" (or before "doc") restricts the search to that artifact;
///    then section titles score by phrase, words, stems, typos and prefixes
///    (stop words and instruction verbs never count). Comparable best
///    matches in different places are ambiguous, unless one of them is the
///    only one in an artifact the message names by bare slug, or in the
///    current artifact.
/// 4. Nothing matched: the named or current artifact as a whole, unless the
///    message says "section" (then the section is not found).
pub fn resolve(text: &str, artifacts: &[ArtifactRef<'_>], current: Option<&str>) -> Resolution {
    let project = Project::new(artifacts, current);
    let message = Message::parse(text);
    if let Some(reference) = message.slash.as_ref().or(message.at.as_ref()) {
        return project.named_artifact(&message, reference);
    }
    if let Some(reference) = &message.hash {
        return project.section_reference(&message, reference);
    }
    project.plain(&message)
}

/// Longest title, in words, a slash command's leading words may spell.
const MAX_TITLE_WORDS: usize = 8;
/// Confidence in an artifact named by a prefix of its slug.
const PREFIX_CONFIDENCE: f64 = 0.85;
/// Confidence in an artifact named by its file or title in plain words.
const NAMED_CONFIDENCE: f64 = 0.9;
/// Confidence in an artifact named by a bare slug that may be an ordinary word.
const BARE_SLUG_CONFIDENCE: f64 = 0.7;
/// Confidence in the current artifact when the message names nothing.
const CURRENT_ONLY_CONFIDENCE: f64 = 0.3;

/// An artifact, and one of its sections or the whole of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place {
    artifact: usize,
    section: Option<usize>,
}

/// An artifact the message names, how, and how sure that is.
#[derive(Debug, Clone, Copy)]
struct Named {
    artifact: usize,
    kind: MatchKind,
    confidence: f64,
}

/// The artifacts with what matching needs of them, computed once per call.
struct Project<'r, 'a> {
    artifacts: &'r [ArtifactRef<'a>],
    sections: Vec<Vec<SectionInfo>>,
    current: Option<usize>,
}

impl<'r, 'a> Project<'r, 'a> {
    fn new(artifacts: &'r [ArtifactRef<'a>], current: Option<&str>) -> Project<'r, 'a> {
        let sections = artifacts
            .iter()
            .map(|artifact| artifact.sections.iter().map(|s| SectionInfo::new(s.slug, s.title)).collect())
            .collect();
        let current = current.and_then(|slug| artifacts.iter().position(|artifact| artifact.slug == slug));
        Project { artifacts, sections, current }
    }

    fn all(&self) -> Vec<usize> {
        (0..self.artifacts.len()).collect()
    }

    /// Step 1: `/artifact …` or `@artifact…`.
    fn named_artifact(&self, message: &Message<'_>, reference: &Reference) -> Resolution {
        let mut removed = vec![message.span(reference.token)];
        let mut section = reference.section.clone();
        if section.is_none()
            && let Some(hash) = &message.hash
        {
            removed.push(message.span(hash.token));
            section.clone_from(&hash.section);
        }
        let named = match self.find_artifact(&reference.artifact) {
            Lookup::Found(place, kind) => {
                let confidence = if kind == MatchKind::Prefix { PREFIX_CONFIDENCE } else { 1.0 };
                Named { artifact: place.artifact, kind, confidence }
            }
            Lookup::Several(places) => return self.ambiguous(&places, 1.0, cut(message.text, &removed)),
            Lookup::Missing(suggestions) => {
                return self.not_found(
                    Missing::Artifact,
                    &reference.artifact,
                    None,
                    suggestions,
                    cut(message.text, &removed),
                );
            }
        };
        if let Some(section) = section {
            return self.section_in(named, &section, cut(message.text, &removed));
        }
        if message.slash.as_ref().is_some_and(|slash| slash.token == reference.token)
            && let Some(resolution) = self.slash_section(message, reference.token, named, &mut removed)
        {
            return resolution;
        }
        let query = Query::new(message.text, &removed);
        self.words_in(named, &query, cut(message.text, &removed))
    }

    /// A slash command's section, in this order: the next word as a slug,
    /// the next words as a whole title, the next word as a slug prefix.
    /// `None` leaves the section to the words of the rest.
    fn slash_section(
        &self,
        message: &Message<'_>,
        slash_token: usize,
        named: Named,
        removed: &mut Vec<Range<usize>>,
    ) -> Option<Resolution> {
        let next = message.word_after(slash_token)?;
        let next_span = message.span(slash_token + 1);
        let next_lower = next.to_lowercase();
        // "/spec add …": an instruction verb is not a section name.
        let lookup = if words::is_stop(&next_lower, &words::stem(&next_lower)) {
            Lookup::Missing(Vec::new())
        } else {
            self.find_section(named.artifact, next)
        };
        if let Lookup::Found(place, MatchKind::Explicit) = lookup {
            removed.push(next_span);
            let rest = cut(message.text, removed);
            return Some(self.resolved(place, named.kind, Some(MatchKind::Explicit), named.confidence, rest));
        }
        let sections = self.sections.get(named.artifact)?;
        let n_after = message.tokens.len().saturating_sub(slash_token + 1).min(MAX_TITLE_WORDS);
        for n_words in (1..=n_after).rev() {
            let last = message.span(slash_token + n_words);
            let spelled = words::slugify(message.text.get(next_span.start..last.end).unwrap_or_default());
            let title = sections.iter().position(|info| !spelled.is_empty() && info.title_slug == spelled);
            if let Some(section) = title {
                removed.push(next_span.start..last.end);
                let place = Place { artifact: named.artifact, section: Some(section) };
                let rest = cut(message.text, removed);
                return Some(self.resolved(
                    place,
                    named.kind,
                    Some(MatchKind::Title),
                    named.confidence,
                    rest,
                ));
            }
        }
        match lookup {
            Lookup::Found(place, kind) => {
                removed.push(next_span);
                let confidence = named.confidence.min(PREFIX_CONFIDENCE);
                Some(self.resolved(place, named.kind, Some(kind), confidence, cut(message.text, removed)))
            }
            Lookup::Several(places) => {
                removed.push(next_span);
                Some(self.ambiguous(&places, PREFIX_CONFIDENCE, cut(message.text, removed)))
            }
            // A slug-shaped word is a section name, so a typo in it is not
            // found rather than read as instruction words.
            Lookup::Missing(suggestions) if next.contains('-') => {
                removed.push(next_span);
                let rest = cut(message.text, removed);
                let artifact_slug = Some(self.artifacts[named.artifact].slug.to_string());
                Some(self.not_found(Missing::Section, next, artifact_slug, suggestions, rest))
            }
            Lookup::Missing(_) => None,
        }
    }

    /// Step 2: `#section` without an explicit artifact.
    fn section_reference(&self, message: &Message<'_>, reference: &Reference) -> Resolution {
        let removed = vec![message.span(reference.token)];
        let rest = cut(message.text, &removed);
        let section = reference.section.as_deref().unwrap_or_default();
        let mentions = score::find_mentions(message.text, self.artifacts, &removed);
        if let [artifact] = mentions.strong_artifacts()[..] {
            let named = Named { artifact, kind: mentions.kind_of(artifact), confidence: NAMED_CONFIDENCE };
            return self.section_in(named, section, rest);
        }
        if let Some(current) = self.current
            && let Lookup::Found(place, kind) = self.find_section(current, section)
        {
            return self.resolved(place, MatchKind::Current, Some(kind), 1.0, rest);
        }
        let mut exact = Vec::new();
        let mut prefixed = Vec::new();
        for artifact in self.all() {
            match self.find_section(artifact, section) {
                Lookup::Found(place, MatchKind::Prefix) => prefixed.push(place),
                Lookup::Found(place, _) => exact.push(place),
                Lookup::Several(places) => prefixed.extend(places),
                Lookup::Missing(_) => {}
            }
        }
        let (found, kind) =
            if exact.is_empty() { (prefixed, MatchKind::Prefix) } else { (exact, MatchKind::Explicit) };
        match found[..] {
            [place] => self.resolved(place, MatchKind::Inferred, Some(kind), 1.0, rest),
            [] if self.artifacts.is_empty() => {
                self.not_found(Missing::Artifact, section, None, Vec::new(), rest)
            }
            [] => {
                let scope = self.current.map_or_else(|| self.all(), |current| vec![current]);
                let suggestions = self.similar_sections(&scope, section);
                let current = self.current.map(|current| self.artifacts[current].slug.to_string());
                self.not_found(Missing::Section, section, current, suggestions, rest)
            }
            _ => {
                self.ambiguous(&found, if kind == MatchKind::Prefix { PREFIX_CONFIDENCE } else { 1.0 }, rest)
            }
        }
    }

    /// Step 3: plain words.
    fn plain(&self, message: &Message<'_>) -> Resolution {
        let text = message.text;
        let rest = cut(text, &[]);
        let mentions = score::find_mentions(text, self.artifacts, &[]);
        let named = mentions.strong_artifacts();
        if named.is_empty()
            && let Some(file) = &mentions.unknown_file
        {
            let suggestions = self.similar_artifacts(file);
            return self.not_found(Missing::Artifact, file, None, suggestions, rest);
        }
        let query = Query::new(text, &mentions.spans());
        if let [artifact] = named[..] {
            let named = Named { artifact, kind: mentions.kind_of(artifact), confidence: NAMED_CONFIDENCE };
            return self.words_in(named, &query, rest);
        }
        let scope = if named.is_empty() { self.all() } else { named.clone() };
        let mut prefer: Vec<usize> = match mentions.weak[..] {
            [artifact] => vec![artifact],
            _ => Vec::new(),
        };
        prefer.extend(self.current);
        let scored = score::score_sections(&query, &self.sections, &scope);
        match score::decide(scored, &prefer) {
            Decision::Clear(best, preferred) => {
                let artifact_kind = match preferred {
                    Some(artifact)
                        if self.current == Some(artifact) && !mentions.weak.contains(&artifact) =>
                    {
                        MatchKind::Current
                    }
                    Some(_) => MatchKind::Slug,
                    None => MatchKind::Inferred,
                };
                let place = Place { artifact: best.artifact, section: Some(best.section) };
                self.resolved(place, artifact_kind, Some(best.kind), best.score, rest)
            }
            Decision::Ambiguous(best) => self.ambiguous_scored(&best, rest),
            Decision::Weak(weak) => {
                let suggestions = self.scored_candidates(&weak);
                self.not_found(Missing::Section, text.trim(), None, suggestions, rest)
            }
            Decision::Nothing => self.nothing_matched(&mentions, &named, &query, rest),
        }
    }

    /// Step 4: no section matched the plain words.
    fn nothing_matched(
        &self,
        mentions: &Mentions,
        named: &[usize],
        query: &Query,
        rest: String,
    ) -> Resolution {
        if named.len() > 1 {
            let places: Vec<Place> =
                named.iter().map(|&artifact| Place { artifact, section: None }).collect();
            return self.ambiguous(&places, 1.0, rest);
        }
        let (artifact, kind, confidence) = match (&mentions.weak[..], self.current) {
            ([artifact], _) => (*artifact, MatchKind::Slug, BARE_SLUG_CONFIDENCE),
            (_, Some(current)) => (current, MatchKind::Current, CURRENT_ONLY_CONFIDENCE),
            _ => {
                let suggestions = self.artifact_list();
                return self.not_found(Missing::Artifact, rest.as_str(), None, suggestions, rest.clone());
            }
        };
        if query.says_section() {
            let suggestions = self.section_list(artifact);
            let slug = Some(self.artifacts[artifact].slug.to_string());
            return self.not_found(Missing::Section, rest.as_str(), slug, suggestions, rest.clone());
        }
        self.resolved(Place { artifact, section: None }, kind, None, confidence, rest)
    }

    /// Title words within one named artifact; the artifact alone when none
    /// match (unless the message says "section").
    fn words_in(&self, named: Named, query: &Query, rest: String) -> Resolution {
        let scored = score::score_sections(query, &self.sections, &[named.artifact]);
        let artifact_slug = self.artifacts[named.artifact].slug.to_string();
        match score::decide(scored, &[]) {
            Decision::Clear(best, _) => {
                let place = Place { artifact: named.artifact, section: Some(best.section) };
                self.resolved(place, named.kind, Some(best.kind), named.confidence.min(best.score), rest)
            }
            Decision::Ambiguous(best) => self.ambiguous_scored(&best, rest),
            Decision::Weak(weak) if query.says_section() => {
                let suggestions = self.scored_candidates(&weak);
                self.not_found(
                    Missing::Section,
                    rest.as_str(),
                    Some(artifact_slug),
                    suggestions,
                    rest.clone(),
                )
            }
            Decision::Nothing if query.says_section() => {
                // Maybe the section is real but elsewhere: say where.
                let elsewhere = score::score_sections(query, &self.sections, &self.all());
                let mut suggestions = match score::decide(elsewhere, &[]) {
                    Decision::Clear(best, _) => self.scored_candidates(&[best]),
                    Decision::Ambiguous(best) | Decision::Weak(best) => self.scored_candidates(&best),
                    Decision::Nothing => Vec::new(),
                };
                if suggestions.is_empty() {
                    suggestions = self.section_list(named.artifact);
                }
                self.not_found(
                    Missing::Section,
                    rest.as_str(),
                    Some(artifact_slug),
                    suggestions,
                    rest.clone(),
                )
            }
            Decision::Weak(_) | Decision::Nothing => self.resolved(
                Place { artifact: named.artifact, section: None },
                named.kind,
                None,
                named.confidence,
                rest,
            ),
        }
    }

    /// A section named by explicit syntax in a known artifact.
    fn section_in(&self, named: Named, section: &str, rest: String) -> Resolution {
        match self.find_section(named.artifact, section) {
            Lookup::Found(place, kind) => {
                let confidence = if kind == MatchKind::Prefix {
                    named.confidence.min(PREFIX_CONFIDENCE)
                } else {
                    named.confidence
                };
                self.resolved(place, named.kind, Some(kind), confidence, rest)
            }
            Lookup::Several(places) => self.ambiguous(&places, 1.0, rest),
            Lookup::Missing(suggestions) => {
                let slug = Some(self.artifacts[named.artifact].slug.to_string());
                self.not_found(Missing::Section, section, slug, suggestions, rest)
            }
        }
    }

    fn resolved(
        &self,
        place: Place,
        artifact_match: MatchKind,
        section_match: Option<MatchKind>,
        confidence: f64,
        rest: String,
    ) -> Resolution {
        let artifact = &self.artifacts[place.artifact];
        let section = place.section.and_then(|section| artifact.sections.get(section));
        Resolution::Resolved(Target {
            artifact: artifact.slug.to_string(),
            section: section.map(|section| section.slug.to_string()),
            rest,
            confidence: round(confidence),
            artifact_match,
            section_match: section.and(section_match),
        })
    }

    fn ambiguous(&self, places: &[Place], score: f64, rest: String) -> Resolution {
        let candidates = places.iter().map(|place| self.candidate(*place, score)).collect();
        Resolution::Ambiguous(Ambiguity { candidates, rest })
    }

    fn ambiguous_scored(&self, scored: &[Scored], rest: String) -> Resolution {
        let candidates = (scored.iter())
            .map(|s| self.candidate(Place { artifact: s.artifact, section: Some(s.section) }, s.score))
            .collect();
        Resolution::Ambiguous(Ambiguity { candidates, rest })
    }

    fn not_found(
        &self,
        missing: Missing,
        query: &str,
        artifact: Option<String>,
        suggestions: Vec<Candidate>,
        rest: String,
    ) -> Resolution {
        Resolution::NotFound(NotFound { missing, query: query.to_string(), artifact, suggestions, rest })
    }
}

fn round(score: f64) -> f64 {
    (score.clamp(0.0, 1.0) * 100.0).round() / 100.0
}
