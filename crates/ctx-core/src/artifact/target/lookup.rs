//! Names to places: an artifact or section written as a slug, path, file
//! name or title (`@research.md`, `#what-is`), and "did you mean" when it
//! names nothing.

use super::score::{self, Scored, SectionInfo};
use super::{ArtifactRef, Candidate, MatchKind, Place, Project, message::trim_reference, round, words};

/// Shortest slug prefix that may stand for a slug (`@con` → concept).
const MIN_PREFIX_CHARS: usize = 3;
/// How many suggestions a not-found outcome carries at most.
const MAX_SUGGESTIONS: usize = 5;
/// Least similarity for a slug to be suggested as a "did you mean".
const SUGGEST_SIMILARITY: f64 = 0.5;

/// Where a name led.
#[derive(Debug)]
pub(super) enum Lookup {
    Found(Place, MatchKind),
    Several(Vec<Place>),
    Missing(Vec<Candidate>),
}

impl Project<'_, '_> {
    /// An artifact by slug, path, file name, file stem or title (in that
    /// order of trust), else by a unique slug prefix.
    pub(super) fn find_artifact(&self, reference: &str) -> Lookup {
        let lower = trim_reference(reference).to_lowercase();
        let slug = words::slugify(&lower);
        if lower.is_empty() {
            return Lookup::Missing(self.artifact_list());
        }
        let tiers: [&dyn Fn(&ArtifactRef<'_>) -> bool; 3] = [
            &|artifact| artifact.slug.to_lowercase() == lower,
            &|artifact| score::names_file(artifact, &lower),
            &|artifact| {
                let file = artifact.path.rsplit('/').next().unwrap_or(artifact.path).to_lowercase();
                let stem = file.split_once('.').map_or(file.as_str(), |(stem, _)| stem);
                (!lower.contains('.') && stem == lower)
                    || (!slug.is_empty() && words::slugify(artifact.title) == slug)
            },
        ];
        for (tier, matches) in tiers.iter().enumerate() {
            let found: Vec<Place> = self.artifact_places(|artifact| matches(artifact));
            let kind = if tier == 1 { MatchKind::Path } else { MatchKind::Explicit };
            match found[..] {
                [] => continue,
                [place] => return Lookup::Found(place, kind),
                _ => return Lookup::Several(found),
            }
        }
        if slug.chars().count() >= MIN_PREFIX_CHARS {
            let found = self.artifact_places(|artifact| words::slugify(artifact.slug).starts_with(&slug));
            match found[..] {
                [] => {}
                [place] => return Lookup::Found(place, MatchKind::Prefix),
                _ => return Lookup::Several(found),
            }
        }
        Lookup::Missing(self.similar_artifacts(&lower))
    }

    pub(super) fn artifact_places(&self, matches: impl Fn(&ArtifactRef<'_>) -> bool) -> Vec<Place> {
        (self.artifacts.iter().enumerate())
            .filter(|(_, artifact)| matches(artifact))
            .map(|(artifact, _)| Place { artifact, section: None })
            .collect()
    }

    /// A section of one artifact by slug or title (case and punctuation
    /// ignored), else by a unique slug prefix.
    pub(super) fn find_section(&self, artifact: usize, reference: &str) -> Lookup {
        let Some(sections) = self.sections.get(artifact) else { return Lookup::Missing(Vec::new()) };
        let lower = trim_reference(reference).to_lowercase();
        let slug = words::slugify(&lower);
        if lower.is_empty() {
            return Lookup::Missing(self.section_list(artifact));
        }
        let places = |matches: &dyn Fn(&SectionInfo) -> bool| -> Vec<Place> {
            (sections.iter().enumerate())
                .filter(|(_, info)| matches(info))
                .map(|(section, _)| Place { artifact, section: Some(section) })
                .collect()
        };
        let exact = places(&|info| {
            info.slug == lower
                || (!slug.is_empty() && (words::slugify(&info.slug) == slug || info.title_slug == slug))
        });
        match exact[..] {
            [] => {}
            [place] => return Lookup::Found(place, MatchKind::Explicit),
            _ => return Lookup::Several(exact),
        }
        if slug.chars().count() >= MIN_PREFIX_CHARS {
            let prefixed = places(&|info| {
                words::slugify(&info.slug).starts_with(&slug) || info.title_slug.starts_with(&slug)
            });
            match prefixed[..] {
                [] => {}
                [place] => return Lookup::Found(place, MatchKind::Prefix),
                _ => return Lookup::Several(prefixed),
            }
        }
        Lookup::Missing(self.similar_sections(&[artifact], &lower))
    }

    /// Sections of `scope` whose slug or title looks like `reference`, best
    /// first; all of them (score 0) when none does.
    pub(super) fn similar_sections(&self, scope: &[usize], reference: &str) -> Vec<Candidate> {
        let slug = words::slugify(reference);
        let mut similar = Vec::new();
        for &artifact in scope {
            for (section, info) in self.sections.get(artifact).into_iter().flatten().enumerate() {
                let similarity = words::slug_similarity(&slug, &words::slugify(&info.slug))
                    .max(words::slug_similarity(&slug, &info.title_slug));
                if similarity >= SUGGEST_SIMILARITY {
                    similar.push((similarity, Place { artifact, section: Some(section) }));
                }
            }
        }
        if similar.is_empty() {
            return scope
                .iter()
                .flat_map(|&artifact| self.section_list(artifact))
                .take(MAX_SUGGESTIONS)
                .collect();
        }
        self.ranked(similar)
    }

    /// Artifacts whose slug or file stem looks like `reference`; all of them
    /// (score 0) when none does.
    pub(super) fn similar_artifacts(&self, reference: &str) -> Vec<Candidate> {
        let slug = words::slugify(reference.strip_suffix(".md").unwrap_or(reference));
        let similar: Vec<(f64, Place)> = (self.artifacts.iter().enumerate())
            .filter_map(|(artifact, artifact_ref)| {
                let file = artifact_ref.path.rsplit('/').next().unwrap_or(artifact_ref.path);
                let stem = file.split_once('.').map_or(file, |(stem, _)| stem);
                let similarity = words::slug_similarity(&slug, &words::slugify(artifact_ref.slug))
                    .max(words::slug_similarity(&slug, &words::slugify(stem)));
                (similarity >= SUGGEST_SIMILARITY).then_some((similarity, Place { artifact, section: None }))
            })
            .collect();
        if similar.is_empty() {
            return self.artifact_list();
        }
        self.ranked(similar)
    }

    pub(super) fn ranked(&self, mut similar: Vec<(f64, Place)>) -> Vec<Candidate> {
        similar.sort_by(|a, b| b.0.total_cmp(&a.0));
        similar.into_iter().take(MAX_SUGGESTIONS).map(|(score, place)| self.candidate(place, score)).collect()
    }

    pub(super) fn section_list(&self, artifact: usize) -> Vec<Candidate> {
        let n_sections = self.artifacts.get(artifact).map_or(0, |a| a.sections.len());
        (0..n_sections)
            .take(MAX_SUGGESTIONS)
            .map(|section| self.candidate(Place { artifact, section: Some(section) }, 0.0))
            .collect()
    }

    pub(super) fn artifact_list(&self) -> Vec<Candidate> {
        self.all()
            .into_iter()
            .take(MAX_SUGGESTIONS)
            .map(|artifact| self.candidate(Place { artifact, section: None }, 0.0))
            .collect()
    }

    pub(super) fn scored_candidates(&self, scored: &[Scored]) -> Vec<Candidate> {
        (scored.iter().take(MAX_SUGGESTIONS))
            .map(|s| self.candidate(Place { artifact: s.artifact, section: Some(s.section) }, s.score))
            .collect()
    }

    pub(super) fn candidate(&self, place: Place, score: f64) -> Candidate {
        let artifact = &self.artifacts[place.artifact];
        let section = place.section.and_then(|section| artifact.sections.get(section));
        Candidate {
            artifact: artifact.slug.to_string(),
            section: section.map(|section| section.slug.to_string()),
            title: section.map_or(artifact.title, |section| section.title).to_string(),
            score: round(score),
        }
    }
}
