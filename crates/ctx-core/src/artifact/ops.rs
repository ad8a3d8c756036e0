//! Agent operations, in the seed's JSON shapes, and how one is applied:
//! checked (artifact, section, not finalized unless overridden, content
//! valid for its place), snapshotted, written (only the target's bytes,
//! atomically, after checking that the file did not change since it was
//! read) and logged.

use rusqlite::Connection;
use serde::Deserialize;

use super::edit::{self, Edit};
use super::history::{self, Logged};
use super::markdown::{self, slugify};
use super::state;
use super::view::{self, Loaded};
use super::{ArtifactError, OperationResult, ViewOptions};
use crate::error::{Error, Result};
use crate::workspace::Authoring;

/// An operation an agent asks for (`"operation"` names the kind). Unknown
/// fields are refused, so a typo never passes silently.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "operation", rename_all = "snake_case", deny_unknown_fields)]
pub enum Operation {
    /// Replace a section's content (everything after its heading line,
    /// subsections included).
    UpdateSection {
        artifact_slug: String,
        section_slug: String,
        content: String,
        #[serde(default)]
        reason: Option<String>,
        /// Apply to a finalized artifact all the same.
        #[serde(default)]
        override_finalized: bool,
    },
    /// Mark a section done (or, with `is_done: false`, not done).
    MarkSectionDone {
        artifact_slug: String,
        section_slug: String,
        #[serde(default = "yes")]
        is_done: bool,
        #[serde(default)]
        reason: Option<String>,
        #[serde(default)]
        override_finalized: bool,
    },
    /// Add a section after `after_section` (and its subsections), or at
    /// `order` (0-based: before the section now at that position; past the
    /// end: at the end). `after_section` wins when both are given.
    CreateSection {
        artifact_slug: String,
        #[serde(default)]
        after_section: Option<String>,
        #[serde(default)]
        order: Option<usize>,
        title: String,
        #[serde(default)]
        content: String,
        /// 1-6; default: the level of the section it follows (or precedes).
        #[serde(default)]
        level: Option<u8>,
        #[serde(default)]
        reason: Option<String>,
        #[serde(default)]
        override_finalized: bool,
    },
    /// Store a suggestion on a section, for a person to accept or reject;
    /// never applied on its own.
    SuggestEdit {
        artifact_slug: String,
        section_slug: String,
        suggestion: String,
        #[serde(default)]
        rationale: Option<String>,
        /// Replacement content for the section, applied if the suggestion is accepted.
        #[serde(default)]
        content: Option<String>,
    },
}

fn yes() -> bool {
    true
}

impl Operation {
    pub fn name(&self) -> &'static str {
        match self {
            Operation::UpdateSection { .. } => "update_section",
            Operation::MarkSectionDone { .. } => "mark_section_done",
            Operation::CreateSection { .. } => "create_section",
            Operation::SuggestEdit { .. } => "suggest_edit",
        }
    }

    pub fn artifact_slug(&self) -> &str {
        match self {
            Operation::UpdateSection { artifact_slug, .. }
            | Operation::MarkSectionDone { artifact_slug, .. }
            | Operation::CreateSection { artifact_slug, .. }
            | Operation::SuggestEdit { artifact_slug, .. } => artifact_slug,
        }
    }

    fn reason(&self) -> String {
        match self {
            Operation::UpdateSection { reason, .. }
            | Operation::MarkSectionDone { reason, .. }
            | Operation::CreateSection { reason, .. } => reason.clone().unwrap_or_default(),
            Operation::SuggestEdit { rationale, .. } => rationale.clone().unwrap_or_default(),
        }
    }

    fn overrides_finalized(&self) -> bool {
        match self {
            Operation::UpdateSection { override_finalized, .. }
            | Operation::MarkSectionDone { override_finalized, .. }
            | Operation::CreateSection { override_finalized, .. } => *override_finalized,
            Operation::SuggestEdit { .. } => true,
        }
    }

    /// Set the override (the CLI's `--override-finalized`).
    pub fn set_override_finalized(&mut self, value: bool) {
        match self {
            Operation::UpdateSection { override_finalized, .. }
            | Operation::MarkSectionDone { override_finalized, .. }
            | Operation::CreateSection { override_finalized, .. } => *override_finalized = value,
            Operation::SuggestEdit { .. } => {}
        }
    }
}

/// An operation from its JSON; INVALID_OPERATION (with serde's reason) when it is not one.
pub fn parse_operation(json: &str) -> Result<Operation> {
    serde_json::from_str(json).map_err(|err| {
        ArtifactError::invalid(format!("not a valid operation: {err}"))
            .with_action(
                "send one JSON object with \"operation\": update_section, mark_section_done, create_section or suggest_edit (docs/schemas/artifact-operation.json)",
            )
            .into()
    })
}

/// Apply `op` (inside the caller's write transaction).
pub(crate) fn apply(conn: &Connection, site: &Authoring<'_>, op: &Operation) -> Result<OperationResult> {
    let config = &site.config.artifacts;
    let row = view::row(conn, op.artifact_slug())?;
    let loaded = view::load(conn, site.root, row)?;
    if loaded.row.finalized && !op.overrides_finalized() {
        return Err(ArtifactError::finalized(&loaded.row.slug).into());
    }
    let reason = site.detector.redacted(&op.reason());
    let mut result = OperationResult {
        operation: op.name().to_string(),
        artifact_slug: loaded.row.slug.clone(),
        section_slug: None,
        operation_id: None,
        snapshot_id: None,
        suggestion_id: None,
        replaced: None,
        inserted: None,
        artifact: placeholder_view(),
    };
    let node_id = loaded.row.node_id;
    match op {
        Operation::UpdateSection { section_slug, content, .. } => {
            let index = loaded.section(section_slug)?;
            let level = loaded.doc.sections[index].level;
            check_content(content, level)?;
            let edit = edit::replace_body(&loaded.text, &loaded.doc, index, content);
            result.section_slug = Some(section_slug.clone());
            write_logged(conn, site, &loaded, Some(&edit), op, &reason, &mut result)?;
        }
        Operation::MarkSectionDone { section_slug, is_done, .. } => {
            loaded.section(section_slug)?;
            result.section_slug = Some(section_slug.clone());
            write_logged(conn, site, &loaded, None, op, &reason, &mut result)?;
            let mut flags = state::flags(conn, node_id)?.get(section_slug).copied().unwrap_or_default();
            flags.done = *is_done;
            state::set_flags(conn, node_id, section_slug, flags)?;
        }
        Operation::CreateSection { after_section, order, title, content, level, .. } => {
            let (at, sibling_level) = insertion_point(&loaded, after_section.as_deref(), *order)?;
            let level = level.unwrap_or(sibling_level);
            if !(1..=6).contains(&level) {
                return Err(
                    ArtifactError::invalid(format!("level {level}: a heading's level is 1 to 6")).into()
                );
            }
            let title = title.trim();
            if title.is_empty() || title.contains(['\n', '\r']) {
                return Err(ArtifactError::invalid("a section's title is one line, not empty").into());
            }
            check_content(content, level)?;
            let edit = edit::insert_section(&loaded.text, &loaded.doc, at, level, title, content)
                .map_err(ArtifactError::invalid)?;
            // The new section's slug, as the file will give it.
            let new_doc = markdown::parse(&edit.text);
            let slug = new_doc
                .sections
                .iter()
                .find(|s| s.heading.start >= at && s.title == title)
                .map_or_else(|| slugify(title), |s| s.slug.clone());
            result.section_slug = Some(slug);
            write_logged(conn, site, &loaded, Some(&edit), op, &reason, &mut result)?;
        }
        Operation::SuggestEdit { section_slug, suggestion, content, .. } => {
            let index = loaded.section(section_slug)?;
            if suggestion.trim().is_empty() {
                return Err(ArtifactError::invalid("a suggestion cannot be empty").into());
            }
            if let Some(content) = content {
                check_content(content, loaded.doc.sections[index].level)?;
            }
            result.section_slug = Some(section_slug.clone());
            let suggestion = site.detector.redacted(suggestion);
            let content = content.as_ref().map(|c| site.detector.redacted(c));
            result.suggestion_id = Some(history::suggest(
                conn,
                node_id,
                section_slug,
                &suggestion,
                &reason,
                content.as_deref(),
            )?);
        }
    }
    state::touch(conn, node_id)?;
    let after = view::load(conn, site.root, view::row(conn, &loaded.row.slug)?)?;
    result.artifact = view::view(conn, &after, &ViewOptions::default(), config)?;
    Ok(result)
}

/// Snapshot, write `edit` (when the operation changes the file) and log `op`.
pub(crate) fn write_logged(
    conn: &Connection,
    site: &Authoring<'_>,
    loaded: &Loaded,
    edit: Option<&Edit>,
    op: &Operation,
    reason: &str,
    result: &mut OperationResult,
) -> Result<()> {
    let flags = state::flags(conn, loaded.row.node_id)?;
    let snapshot = history::snapshot(conn, loaded, &flags, &format!("before {}", op.name()))?;
    let after_hash = match edit {
        Some(edit) => {
            write_checked(site, loaded, edit.text.as_bytes())?;
            result.replaced = Some([edit.replaced.start, edit.replaced.end]);
            result.inserted = Some(edit.inserted);
            let after = view::hash(edit.text.as_bytes());
            state::set_file_hash(conn, loaded.row.node_id, &after)?;
            after
        }
        None => loaded.hash.clone(),
    };
    let logged = Logged {
        operation: op.name(),
        section: result.section_slug.as_deref(),
        reason,
        snapshot: &snapshot,
        before_hash: &loaded.hash,
        after_hash: &after_hash,
        detail: operation_json(op, site),
    };
    result.operation_id = Some(history::log(conn, loaded.row.node_id, &logged)?);
    result.snapshot_id = Some(snapshot);
    Ok(())
}

/// Write `bytes` over the artifact's file, atomically, if the file still
/// holds what `loaded` read (compare and swap on its hash): ARTIFACT_CHANGED otherwise.
pub(crate) fn write_checked(site: &Authoring<'_>, loaded: &Loaded, bytes: &[u8]) -> Result<()> {
    let path = site.root.join(&loaded.row.path);
    let now = crate::fsutil::read_within(site.root, &loaded.row.path).map_err(|err| Error::io(&path, err))?;
    if view::hash(&now) != loaded.hash {
        return Err(ArtifactError::changed(&loaded.row.slug, &loaded.row.path).into());
    }
    // Through the link's target if the path is one inside the root (read_within checked it).
    let real = std::fs::canonicalize(&path).map_err(|err| Error::io(&path, err))?;
    crate::fsutil::write_atomic(&real, bytes)
}

fn check_content(content: &str, level: u8) -> Result<()> {
    match edit::invalid_content(content, level) {
        Some(problem) => Err(ArtifactError::invalid(problem).into()),
        None => Ok(()),
    }
}

/// Where a new section goes, and the level of the section it follows or precedes.
fn insertion_point(loaded: &Loaded, after: Option<&str>, order: Option<usize>) -> Result<(usize, u8)> {
    let sections = &loaded.doc.sections;
    if let Some(after) = after {
        let index = loaded.section(after)?;
        return Ok((sections[index].end, sections[index].level));
    }
    match order {
        Some(order) if order < sections.len() => Ok((sections[order].heading.start, sections[order].level)),
        Some(_) | None => {
            // At the end: a sibling of the document's sections below its title.
            let level = sections
                .iter()
                .skip(1)
                .map(|s| s.level)
                .min()
                .unwrap_or_else(|| sections.first().map_or(2, |title| (title.level + 1).min(6)));
            Ok((loaded.text.len(), level))
        }
    }
}

/// The operation as logged: content redacted (a record is searchable, a file is the author's).
fn operation_json(op: &Operation, site: &Authoring<'_>) -> serde_json::Value {
    let redact = |text: &str| site.detector.redacted(text);
    match op {
        Operation::UpdateSection { content, override_finalized, .. } => {
            serde_json::json!({ "content": redact(content), "override_finalized": override_finalized })
        }
        Operation::MarkSectionDone { is_done, override_finalized, .. } => {
            serde_json::json!({ "is_done": is_done, "override_finalized": override_finalized })
        }
        Operation::CreateSection {
            after_section, order, title, content, level, override_finalized, ..
        } => {
            serde_json::json!({ "after_section": after_section, "order": order, "title": redact(title),
                "content": redact(content), "level": level, "override_finalized": override_finalized })
        }
        Operation::SuggestEdit { .. } => serde_json::json!({}),
    }
}

/// Filled in once the operation is applied.
fn placeholder_view() -> super::ArtifactView {
    super::ArtifactView {
        id: String::new(),
        name: String::new(),
        slug: String::new(),
        path: String::new(),
        stage: String::new(),
        status: super::ArtifactStatus::Draft,
        sections: Vec::new(),
        content: None,
        sections_complete: 0,
        sections_total: 0,
        pending_suggestions: 0,
        file_hash: String::new(),
        updated_at: String::new(),
        generated_at: String::new(),
        state_hash: String::new(),
    }
}
