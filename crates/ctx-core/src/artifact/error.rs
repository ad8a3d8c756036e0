//! The errors of artifact commands and operations, in the seed's shape:
//!
//! ```json
//! {"error": "SECTION_NOT_FOUND", "message": "Section 'xyz' not found in artifact 'concept'",
//!  "suggestions": ["what-is-it", "problem-being-solved"]}
//! ```
//!
//! `suggestions` (closest slugs), `action` (what to do) and `candidates`
//! (an ambiguous target's readings) are there when they say something.
//! Every front-end hands this object out unchanged (`--json`, MCP, Python).

use serde::Serialize;

/// The kind of an artifact error: its stable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ArtifactErrorCode {
    ArtifactNotFound,
    SectionNotFound,
    ArtifactFinalized,
    ContextTooLarge,
    AmbiguousTarget,
    InvalidOperation,
    /// The file changed on disk while the operation was being applied (nothing was written).
    ArtifactChanged,
    SnapshotNotFound,
    SuggestionNotFound,
}

impl ArtifactErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ArtifactErrorCode::ArtifactNotFound => "ARTIFACT_NOT_FOUND",
            ArtifactErrorCode::SectionNotFound => "SECTION_NOT_FOUND",
            ArtifactErrorCode::ArtifactFinalized => "ARTIFACT_FINALIZED",
            ArtifactErrorCode::ContextTooLarge => "CONTEXT_TOO_LARGE",
            ArtifactErrorCode::AmbiguousTarget => "AMBIGUOUS_TARGET",
            ArtifactErrorCode::InvalidOperation => "INVALID_OPERATION",
            ArtifactErrorCode::ArtifactChanged => "ARTIFACT_CHANGED",
            ArtifactErrorCode::SnapshotNotFound => "SNAPSHOT_NOT_FOUND",
            ArtifactErrorCode::SuggestionNotFound => "SUGGESTION_NOT_FOUND",
        }
    }
}

/// One reading of an ambiguous target: an artifact and, for a section, which one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct TargetCandidate {
    pub artifact: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<String>,
    /// The section's title (or the artifact's name), for a person to choose by.
    pub title: String,
}

/// An artifact error (see the module docs). Stable JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ArtifactError {
    pub error: ArtifactErrorCode,
    pub message: String,
    /// Closest existing slugs, best first.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub suggestions: Vec<String>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub action: Option<String>,
    /// The readings of an ambiguous target.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub candidates: Vec<TargetCandidate>,
}

impl std::fmt::Display for ArtifactError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        if !self.suggestions.is_empty() {
            write!(f, " (did you mean: {}?)", self.suggestions.join(", "))?;
        }
        if !self.candidates.is_empty() {
            let readings: Vec<String> = self
                .candidates
                .iter()
                .map(|c| match &c.section {
                    Some(section) => format!("@{}#{section}", c.artifact),
                    None => format!("@{}", c.artifact),
                })
                .collect();
            write!(f, " (one of: {})", readings.join(", "))?;
        }
        if let Some(action) = &self.action {
            write!(f, "; {action}")?;
        }
        Ok(())
    }
}

impl ArtifactError {
    fn new(error: ArtifactErrorCode, message: String) -> ArtifactError {
        ArtifactError { error, message, suggestions: Vec::new(), action: None, candidates: Vec::new() }
    }

    pub fn artifact_not_found(slug: &str, known: &[String]) -> ArtifactError {
        let mut err =
            ArtifactError::new(ArtifactErrorCode::ArtifactNotFound, format!("Artifact '{slug}' not found"));
        err.suggestions = closest(slug, known);
        err.action = Some("add it with `ctx artifact add PATH`, or see `ctx artifact list`".into());
        err
    }

    pub fn section_not_found(artifact: &str, section: &str, known: &[String]) -> ArtifactError {
        let mut err = ArtifactError::new(
            ArtifactErrorCode::SectionNotFound,
            format!("Section '{section}' not found in artifact '{artifact}'"),
        );
        err.suggestions = closest(section, known);
        err
    }

    pub fn finalized(artifact: &str) -> ArtifactError {
        let mut err = ArtifactError::new(
            ArtifactErrorCode::ArtifactFinalized,
            format!("Cannot modify finalized artifact '{artifact}'"),
        );
        err.action = Some(format!(
            "Ask user to un-finalize (`ctx artifact unfinalize {artifact}`) or repeat with \"override_finalized\": true"
        ));
        err
    }

    pub fn context_too_large(message: String, action: &str) -> ArtifactError {
        let mut err = ArtifactError::new(ArtifactErrorCode::ContextTooLarge, message);
        err.action = Some(action.to_string());
        err
    }

    pub fn ambiguous(target: &str, candidates: Vec<TargetCandidate>) -> ArtifactError {
        let mut err = ArtifactError::new(
            ArtifactErrorCode::AmbiguousTarget,
            format!("'{target}' matches {} targets: say which", candidates.len()),
        );
        err.candidates = candidates;
        err
    }

    pub fn invalid(message: impl Into<String>) -> ArtifactError {
        ArtifactError::new(ArtifactErrorCode::InvalidOperation, message.into())
    }

    pub fn changed(artifact: &str, path: &str) -> ArtifactError {
        let mut err = ArtifactError::new(
            ArtifactErrorCode::ArtifactChanged,
            format!(
                "{path} (artifact '{artifact}') changed on disk while the operation was applied; nothing was written"
            ),
        );
        err.action = Some("read the artifact again and repeat the operation".into());
        err
    }

    pub fn snapshot_not_found(artifact: &str, id: &str, known: &[String]) -> ArtifactError {
        let mut err = ArtifactError::new(
            ArtifactErrorCode::SnapshotNotFound,
            format!("Snapshot '{id}' not found for artifact '{artifact}'"),
        );
        err.suggestions = known.iter().take(5).cloned().collect();
        err.action = Some(format!("see `ctx artifact history {artifact}`"));
        err
    }

    pub fn suggestion_not_found(id: &str) -> ArtifactError {
        let mut err =
            ArtifactError::new(ArtifactErrorCode::SuggestionNotFound, format!("Suggestion '{id}' not found"));
        err.action = Some("see `ctx artifact suggestions SLUG`".into());
        err
    }

    /// The same error with `action` set.
    pub fn with_action(mut self, action: impl Into<String>) -> ArtifactError {
        self.action = Some(action.into());
        self
    }
}

/// The names of `known` closest to `wanted`, best first, at most five:
/// those within an edit distance of a third of the longer name, or sharing
/// a word (split at `-`, `_` and spaces) with it.
pub fn closest(wanted: &str, known: &[String]) -> Vec<String> {
    let wanted_lower = wanted.to_lowercase();
    let wanted_words: Vec<&str> = words(&wanted_lower);
    let mut scored: Vec<(usize, usize, &String)> = known
        .iter()
        .filter_map(|name| {
            let lower = name.to_lowercase();
            let distance = edit_distance(&wanted_lower, &lower);
            let limit = wanted_lower.chars().count().max(lower.chars().count()).div_ceil(3);
            let shared = words(&lower).iter().filter(|w| wanted_words.contains(w)).count();
            let prefix = !wanted_lower.is_empty() && lower.starts_with(&wanted_lower);
            (distance <= limit || shared > 0 || prefix).then_some((usize::MAX - shared, distance, name))
        })
        .collect();
    scored.sort();
    scored.into_iter().take(5).map(|(_, _, name)| name.clone()).collect()
}

fn words(text: &str) -> Vec<&str> {
    const STOP: [&str; 8] = ["a", "an", "the", "of", "and", "is", "it", "to"];
    text.split(['-', '_', ' ', '.', '#']).filter(|w| w.len() > 1 && !STOP.contains(w)).collect()
}

/// Levenshtein distance, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn closest_slugs_by_distance_and_shared_words() {
        let known = names(&["what-is-it", "problem-being-solved", "core-features", "overview"]);
        assert_eq!(closest("what-is", &known), ["what-is-it"]);
        assert_eq!(closest("problem", &known), ["problem-being-solved"]);
        assert_eq!(closest("the-problem-statement", &known), ["problem-being-solved"]);
        assert_eq!(closest("overveiw", &known), ["overview"]);
        assert!(closest("zzz", &known).is_empty());
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn the_json_is_the_seeds() {
        let err = ArtifactError::section_not_found("concept", "xyz", &names(&["xy", "what-is-it"]));
        let json = serde_json::to_value(&err).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"error": "SECTION_NOT_FOUND",
                "message": "Section 'xyz' not found in artifact 'concept'", "suggestions": ["xy"]})
        );
        let json = serde_json::to_value(ArtifactError::finalized("concept")).unwrap();
        assert_eq!(json["error"], "ARTIFACT_FINALIZED");
        assert!(json["action"].as_str().unwrap().contains("un-finalize"));
        assert!(json.get("suggestions").is_none());
    }
}
