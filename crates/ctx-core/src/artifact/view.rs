//! Reading an artifact: its file loaded and parsed (re-indexed when its
//! hash moved), the views agents get, the project's progress, and the
//! staleness check of a view an agent holds.

use std::collections::BTreeMap;
use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::markdown::{self, Document};
use super::state::{self, ArtifactRow, Flags};
use super::{
    ArtifactError, ArtifactStatus, ArtifactSummary, ArtifactView, PREVIEW_CHARS, ProjectView, SectionView,
    StageProgress, StalenessReport, ViewOptions,
};
use crate::config::ArtifactsConfig;
use crate::error::{Error, Result};
use crate::time;

/// An artifact's row with its file read and parsed.
#[derive(Debug, Clone)]
pub(crate) struct Loaded {
    pub row: ArtifactRow,
    pub text: String,
    pub hash: String,
    pub doc: Document,
}

impl Loaded {
    /// The slugs of its sections, in order.
    pub fn slugs(&self) -> Vec<String> {
        self.doc.sections.iter().map(|s| s.slug.clone()).collect()
    }

    /// The index of section `slug`, or SECTION_NOT_FOUND with the closest slugs.
    pub fn section(&self, slug: &str) -> Result<usize> {
        self.doc
            .sections
            .iter()
            .position(|s| s.slug == slug)
            .ok_or_else(|| ArtifactError::section_not_found(&self.row.slug, slug, &self.slugs()).into())
    }
}

pub(crate) fn hash(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// The artifact `slug`, or ARTIFACT_NOT_FOUND with the closest slugs.
pub(crate) fn row(conn: &Connection, slug: &str) -> Result<ArtifactRow> {
    match state::by_slug(conn, slug)? {
        Some(row) => Ok(row),
        None => {
            let known: Vec<String> = state::all(conn)?.into_iter().map(|row| row.slug).collect();
            Err(ArtifactError::artifact_not_found(slug, &known).into())
        }
    }
}

/// Read the file of `row` (never through a link out of `root`), parse it,
/// and re-index the artifact when its hash moved since it was last read.
pub(crate) fn load(conn: &Connection, root: &Path, row: ArtifactRow) -> Result<Loaded> {
    let bytes =
        crate::fsutil::read_within(root, &row.path).map_err(|err| Error::io(root.join(&row.path), err))?;
    let hash = hash(&bytes);
    let text = String::from_utf8(bytes).map_err(|_| {
        Error::from(ArtifactError::invalid(format!(
            "{}: not UTF-8 text, so not an artifact ctx can read",
            row.path
        )))
    })?;
    let doc = markdown::parse(&text);
    let mut row = row;
    if row.file_hash != hash {
        state::set_file_hash(conn, row.node_id, &hash)?;
        // The time stored, so this view and the next agree on it.
        row.updated_at = state::touch(conn, row.node_id)?;
        row.file_hash = hash.clone();
    }
    Ok(Loaded { row, text, hash, doc })
}

/// The view of a loaded artifact.
pub(crate) fn view(
    conn: &Connection,
    loaded: &Loaded,
    options: &ViewOptions,
    config: &ArtifactsConfig,
) -> Result<ArtifactView> {
    for wanted in &options.sections {
        loaded.section(wanted)?;
    }
    if options.content && loaded.text.len() > config.max_content_bytes {
        return Err(ArtifactError::context_too_large(
            format!(
                "Artifact '{}' content ({} bytes) exceeds the limit ({} bytes, [artifacts] max_content_bytes)",
                loaded.row.slug,
                loaded.text.len(),
                config.max_content_bytes
            ),
            "Summarizing content or requesting specific sections (`--section SLUG`)",
        )
        .into());
    }
    let flags = state::flags(conn, loaded.row.node_id)?;
    let sections: Vec<SectionView> = loaded
        .doc
        .sections
        .iter()
        .enumerate()
        .map(|(order, span)| {
            let Flags { done, collapsed } = flags.get(&span.slug).copied().unwrap_or_default();
            SectionView {
                slug: span.slug.clone(),
                title: span.title.clone(),
                level: span.level,
                order,
                line: span.line,
                is_done: done,
                is_collapsed: collapsed,
                preview: markdown::preview(&loaded.text, span, PREVIEW_CHARS),
                content: options.sections.contains(&span.slug).then(|| loaded.text[span.body()].to_string()),
            }
        })
        .collect();
    let row = &loaded.row;
    let status = if row.finalized { ArtifactStatus::Finalized } else { ArtifactStatus::Draft };
    let stage = stage_of(row, config);
    let state_hash = state_hash(row, &stage, &sections);
    let name = row.path.rsplit('/').next().unwrap_or(&row.path).to_string();
    let view = ArtifactView {
        id: row.slug.clone(),
        name,
        slug: row.slug.clone(),
        path: row.path.clone(),
        stage,
        status,
        sections_complete: sections.iter().filter(|s| s.is_done).count(),
        sections_total: sections.len(),
        sections,
        content: options.content.then(|| loaded.text.clone()),
        pending_suggestions: super::history::pending_count(conn, row.node_id)?,
        file_hash: loaded.hash.clone(),
        updated_at: row.updated_at.clone(),
        generated_at: time::now_iso(),
        state_hash,
    };
    remember(conn, row.node_id, &view)?;
    Ok(view)
}

pub(crate) fn summary(view: &ArtifactView) -> ArtifactSummary {
    ArtifactSummary {
        slug: view.slug.clone(),
        name: view.name.clone(),
        path: view.path.clone(),
        stage: view.stage.clone(),
        status: view.status,
        sections_complete: view.sections_complete,
        sections_total: view.sections_total,
        pending_suggestions: view.pending_suggestions,
        updated_at: view.updated_at.clone(),
        state_hash: view.state_hash.clone(),
    }
}

fn stage_of(row: &ArtifactRow, config: &ArtifactsConfig) -> String {
    if row.stage.is_empty() { config.default_stage().to_string() } else { row.stage.clone() }
}

/// A hash of what a view shows (not when it was made): 16 hex digits.
fn state_hash(row: &ArtifactRow, stage: &str, sections: &[SectionView]) -> String {
    let mut hasher = blake3::Hasher::new();
    for part in [row.slug.as_str(), row.path.as_str(), stage, &row.file_hash] {
        hasher.update(part.as_bytes()).update(&[0]);
    }
    hasher.update(&[u8::from(row.finalized)]);
    for section in sections {
        hasher.update(section.slug.as_bytes()).update(&[0]);
        hasher.update(section.title.as_bytes()).update(&[0]);
        hasher.update(&[section.level, u8::from(section.is_done), u8::from(section.is_collapsed)]);
    }
    hasher.finalize().to_hex()[..16].to_string()
}

/// What a view showed, remembered by its hash, so that a later check can say what changed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Shown {
    status: String,
    stage: String,
    file_hash: String,
    /// (slug, done)
    sections: Vec<(String, bool)>,
}

/// How many views are remembered per artifact.
const REMEMBERED: i64 = 50;

fn remember(conn: &Connection, node_id: i64, view: &ArtifactView) -> Result<()> {
    let shown = Shown {
        status: format!("{:?}", view.status).to_lowercase(),
        stage: view.stage.clone(),
        file_hash: view.file_hash.clone(),
        sections: view.sections.iter().map(|s| (s.slug.clone(), s.is_done)).collect(),
    };
    let summary = serde_json::to_string(&shown).unwrap_or_else(|_| "{}".into());
    let now_ms = time::unix_nanos(std::time::SystemTime::now()) / 1_000_000;
    // The first time a state was shown is how old a view of it can be.
    conn.prepare_cached(
        "INSERT OR IGNORE INTO artifact_states (state_hash, artifact_id, generated_ms, summary) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![view.state_hash, node_id, now_ms, summary])?;
    conn.prepare_cached(
        "DELETE FROM artifact_states WHERE artifact_id = ?1 AND state_hash NOT IN
           (SELECT state_hash FROM artifact_states WHERE artifact_id = ?1 ORDER BY generated_ms DESC LIMIT ?2)",
    )?
    .execute(params![node_id, REMEMBERED])?;
    Ok(())
}

/// Compare the view an agent holds (`given_hash`, made at `at` if known) with `now`.
pub(crate) fn check(
    conn: &Connection,
    now: &ArtifactView,
    node_id: i64,
    given_hash: &str,
    at: Option<std::time::SystemTime>,
    max_age_seconds: u64,
) -> Result<StalenessReport> {
    let known: Option<(i64, String)> = conn
        .prepare_cached(
            "SELECT generated_ms, summary FROM artifact_states WHERE state_hash = ?1 AND artifact_id = ?2",
        )?
        .query_row(params![given_hash, node_id], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    let at = at.or_else(|| known.as_ref().map(|(ms, _)| time::from_unix_nanos(ms.saturating_mul(1_000_000))));
    let checked = std::time::SystemTime::now();
    let age_seconds = at.map(|at| checked.duration_since(at).map(|d| d.as_secs()).unwrap_or(0));
    let too_old = age_seconds.is_some_and(|age| age > max_age_seconds);
    let matches = given_hash == now.state_hash;
    let mut changes = Vec::new();
    if !matches {
        match known.and_then(|(_, summary)| serde_json::from_str::<Shown>(&summary).ok()) {
            Some(then) => changes = differences(&then, now),
            None => {
                changes.push("the view's hash is not the artifact's now (ctx does not know that view)".into())
            }
        }
    }
    Ok(StalenessReport {
        slug: now.slug.clone(),
        fresh: matches && !too_old,
        matches,
        too_old,
        given_hash: given_hash.to_string(),
        state_hash: now.state_hash.clone(),
        generated_at: at.map(time::iso),
        age_seconds,
        max_age_seconds,
        changes,
        checked_at: time::iso(checked),
    })
}

fn differences(then: &Shown, now: &ArtifactView) -> Vec<String> {
    let mut changes = Vec::new();
    let status = format!("{:?}", now.status).to_lowercase();
    if then.status != status {
        changes.push(format!("status {} -> {status}", then.status));
    }
    if then.stage != now.stage {
        changes.push(format!("stage {} -> {}", then.stage, now.stage));
    }
    if then.sections.len() != now.sections.len() {
        changes.push(format!("sections_total {} -> {}", then.sections.len(), now.sections.len()));
    }
    let before: BTreeMap<&str, bool> =
        then.sections.iter().map(|(slug, done)| (slug.as_str(), *done)).collect();
    for section in &now.sections {
        match before.get(section.slug.as_str()) {
            None => changes.push(format!("section {} was added", section.slug)),
            Some(done) if *done != section.is_done => changes.push(format!(
                "section {} is {} now",
                section.slug,
                if section.is_done { "done" } else { "not done" }
            )),
            _ => {}
        }
    }
    for (slug, _) in &then.sections {
        if !now.sections.iter().any(|s| &s.slug == slug) {
            changes.push(format!("section {slug} was removed"));
        }
    }
    if then.file_hash != now.file_hash {
        changes.push("the file's content changed".into());
    }
    changes
}

/// The project's view from the views of its artifacts.
pub(crate) fn project(
    root: &Path,
    root_description: String,
    views: &[ArtifactView],
    config: &ArtifactsConfig,
) -> ProjectView {
    let id = root.file_name().and_then(|n| n.to_str()).unwrap_or("project").to_string();
    let name = if config.project_name.is_empty() { id.clone() } else { config.project_name.clone() };
    let description = if config.project_description.is_empty() {
        root_description
    } else {
        config.project_description.clone()
    };
    let mut stage_order: Vec<String> = config.stages.clone();
    let mut others: Vec<String> =
        views.iter().map(|v| v.stage.clone()).filter(|stage| !stage_order.contains(stage)).collect();
    others.sort();
    others.dedup();
    stage_order.extend(others);
    let mut stages: BTreeMap<String, StageProgress> =
        stage_order.iter().map(|stage| (stage.clone(), StageProgress::default())).collect();
    for view in views {
        let progress = stages.entry(view.stage.clone()).or_default();
        progress.artifacts_total += 1;
        progress.artifacts_finalized += usize::from(view.status == ArtifactStatus::Finalized);
        progress.sections_complete += view.sections_complete;
        progress.sections_total += view.sections_total;
    }
    for progress in stages.values_mut() {
        progress.progress_pct = if progress.sections_total == 0 {
            0.0
        } else {
            (progress.sections_complete as f64 * 1000.0 / progress.sections_total as f64).round() / 10.0
        };
    }
    let open = |stage: &String| stages.get(stage).is_some_and(|p| p.artifacts_finalized < p.artifacts_total);
    let used = |stage: &&String| stages.get(*stage).is_some_and(|p| p.artifacts_total > 0);
    let current_stage =
        stage_order.iter().find(|stage| open(stage)).or_else(|| stage_order.iter().rev().find(used)).cloned();
    let mut hasher = blake3::Hasher::new();
    hasher.update(name.as_bytes()).update(&[0]).update(description.as_bytes()).update(&[0]);
    for view in views {
        hasher.update(view.state_hash.as_bytes());
    }
    ProjectView {
        id,
        name,
        description,
        current_stage,
        stages,
        stage_order,
        artifacts: views.iter().map(summary).collect(),
        updated_at: views.iter().map(|v| v.updated_at.clone()).max(),
        generated_at: time::now_iso(),
        state_hash: hasher.finalize().to_hex()[..16].to_string(),
    }
}
