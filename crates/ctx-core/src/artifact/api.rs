//! The artifact operations of [`Workspace`]: each runs in one write
//! transaction with the knowledge files synced around it.

use std::time::{Duration, SystemTime};

use super::history;
use super::markdown::ascii_slug;
use super::ops::{self, Operation};
use super::state::{self, Flags};
use super::view::{self, Loaded};
use super::{
    ArtifactError, ArtifactHistory, ArtifactSummary, ArtifactView, NewArtifact, OperationResult, ProjectView,
    StalenessReport, Suggestion, ViewOptions,
};
use crate::error::Result;
use crate::workspace::{Authoring, Workspace};

impl Workspace {
    /// Add the Markdown file `new.path` as an artifact; its view.
    pub fn add_artifact(&mut self, new: &NewArtifact) -> Result<ArtifactView> {
        let path = self.key(&new.path)?;
        let full = self.root().join(&path);
        if path == "." || !full.is_file() {
            return Err(ArtifactError::invalid(format!("{}: not a file of the repository", new.path)).into());
        }
        let slug = match &new.slug {
            Some(slug) => slug.clone(),
            None => {
                let name = path.rsplit('/').next().unwrap_or(&path);
                let stem =
                    name.strip_suffix(".md").or_else(|| name.strip_suffix(".markdown")).unwrap_or(name);
                ascii_slug(stem)
            }
        };
        let valid = (1..=64).contains(&slug.len())
            && !slug.starts_with(['-', '.'])
            && slug.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid {
            return Err(ArtifactError::invalid(format!(
                "{slug:?}: an artifact slug is 1-64 lower-case letters, digits and '-' (give one with --slug)"
            ))
            .into());
        }
        let stage = new.stage.clone().unwrap_or_default();
        if stage.contains(['\n', '\r']) || stage.len() > 64 {
            return Err(ArtifactError::invalid("a stage is one short line").into());
        }
        self.author_in(|conn, site| {
            if let Some(other) = state::by_path(conn, &path)? {
                return Err(
                    ArtifactError::invalid(format!("{path}: already artifact '{}'", other.slug)).into()
                );
            }
            if state::by_slug(conn, &slug)?.is_some() {
                return Err(ArtifactError::invalid(format!(
                    "an artifact is already called '{slug}': give another with --slug"
                ))
                .into());
            }
            let row = state::insert(conn, &slug, &path, &stage)?;
            let loaded = view::load(conn, site.root, row)?;
            view::view(conn, &loaded, &ViewOptions::default(), &site.config.artifacts)
        })
    }

    /// Every artifact, by slug.
    pub fn artifacts(&mut self) -> Result<Vec<ArtifactSummary>> {
        Ok(self.all_views()?.iter().map(view::summary).collect())
    }

    /// Artifact `slug`: its sections (metadata), and the content `options` ask for.
    pub fn artifact(&mut self, slug: &str, options: &ViewOptions) -> Result<ArtifactView> {
        self.author_in(|conn, site| {
            let loaded = view::load(conn, site.root, view::row(conn, slug)?)?;
            view::view(conn, &loaded, options, &site.config.artifacts)
        })
    }

    /// The project: its name, description, current stage and the progress of each stage.
    pub fn artifact_project(&mut self) -> Result<ProjectView> {
        let views = self.all_views()?;
        let description = self.folder(".").map(|folder| folder.description).unwrap_or_default();
        Ok(view::project(self.root(), description, &views, &self.config().artifacts))
    }

    fn all_views(&mut self) -> Result<Vec<ArtifactView>> {
        self.author_in(|conn, site| {
            let mut views = Vec::new();
            for row in state::all(conn)? {
                let loaded = view::load(conn, site.root, row)?;
                views.push(view::view(conn, &loaded, &ViewOptions::default(), &site.config.artifacts)?);
            }
            Ok(views)
        })
    }

    /// Mark artifact `slug` finalized (operations are refused unless they
    /// override it) or, with `false`, a draft again.
    pub fn finalize_artifact(&mut self, slug: &str, finalized: bool) -> Result<ArtifactView> {
        self.change_artifact(slug, |conn, loaded| state::set_finalized(conn, loaded.row.node_id, finalized))
    }

    /// Move artifact `slug` to `stage`.
    pub fn set_artifact_stage(&mut self, slug: &str, stage: &str) -> Result<ArtifactView> {
        let stage = stage.trim().to_string();
        if stage.is_empty() || stage.contains(['\n', '\r']) || stage.len() > 64 {
            return Err(ArtifactError::invalid("a stage is one short line").into());
        }
        self.change_artifact(slug, |conn, loaded| state::set_stage(conn, loaded.row.node_id, &stage))
    }

    /// Collapse (or expand) section `section` of artifact `slug`: a flag for views, the file is unchanged.
    pub fn set_section_collapsed(
        &mut self,
        slug: &str,
        section: &str,
        collapsed: bool,
    ) -> Result<ArtifactView> {
        self.change_artifact(slug, |conn, loaded| {
            loaded.section(section)?;
            let mut flags = state::flags(conn, loaded.row.node_id)?.get(section).copied().unwrap_or_default();
            flags.collapsed = collapsed;
            state::set_flags(conn, loaded.row.node_id, section, flags)
        })
    }

    /// Stop tracking artifact `slug`: its state, snapshots and suggestions go; the Markdown file stays.
    pub fn remove_artifact(&mut self, slug: &str) -> Result<()> {
        self.author_in(|conn, _| {
            let row = view::row(conn, slug)?;
            conn.execute(
                "DELETE FROM records WHERE node_id = ?1 AND type IN ('operation', 'suggestion')",
                [row.node_id],
            )?;
            state::remove(conn, slug)
        })
    }

    /// Apply an agent operation (see [`Operation`]).
    pub fn apply_operation(&mut self, op: &Operation) -> Result<OperationResult> {
        self.author_in(|conn, site| ops::apply(conn, site, op))
    }

    /// The suggestions on artifact `slug`, oldest first.
    pub fn artifact_suggestions(&mut self, slug: &str) -> Result<Vec<Suggestion>> {
        self.author_in(|conn, _| history::suggestions(conn, view::row(conn, slug)?.node_id))
    }

    /// Accept suggestion `id`: its content, when it has some, is applied as
    /// an `update_section` (with every check of one); then it is marked accepted.
    pub fn accept_suggestion(&mut self, id: &str, override_finalized: bool) -> Result<Suggestion> {
        self.author_in(|conn, site| {
            let suggestion = history::suggestion(conn, id)?;
            if suggestion.status != "pending" {
                return Err(ArtifactError::invalid(format!(
                    "suggestion {id} was {} already",
                    suggestion.status
                ))
                .into());
            }
            let operation = match &suggestion.content {
                Some(content) => {
                    let op = Operation::UpdateSection {
                        artifact_slug: suggestion.artifact_slug.clone(),
                        section_slug: suggestion.section_slug.clone(),
                        content: content.clone(),
                        reason: Some(format!("accepted suggestion {id}: {}", suggestion.suggestion)),
                        override_finalized,
                    };
                    ops::apply(conn, site, &op)?.operation_id
                }
                None => None,
            };
            history::decide(conn, id, "accepted", None, operation.as_deref())?;
            history::suggestion(conn, id)
        })
    }

    /// Reject suggestion `id` (nothing is applied), with why.
    pub fn reject_suggestion(&mut self, id: &str, reason: Option<&str>) -> Result<Suggestion> {
        let reason = reason.map(|reason| self.detector().redacted(reason));
        self.author_in(|conn, _| {
            history::decide(conn, id, "rejected", reason.as_deref(), None)?;
            history::suggestion(conn, id)
        })
    }

    /// Artifact `slug`'s snapshots and operations, newest first.
    pub fn artifact_history(&mut self, slug: &str) -> Result<ArtifactHistory> {
        self.author_in(|conn, _| {
            let row = view::row(conn, slug)?;
            Ok(ArtifactHistory {
                slug: row.slug.clone(),
                snapshots: history::snapshots(conn, row.node_id)?,
                operations: history::operations(conn, row.node_id)?,
            })
        })
    }

    /// Put artifact `slug` back as snapshot `snapshot` left it: the file's
    /// bytes and the sections' flags (stage and finalized stay as they are
    /// now). A snapshot of the present is taken first, so a restore can be undone.
    pub fn restore_artifact(
        &mut self,
        slug: &str,
        snapshot: &str,
        override_finalized: bool,
    ) -> Result<OperationResult> {
        self.author_in(|conn, site| restore(conn, site, slug, snapshot, override_finalized))
    }

    /// Whether a view of artifact `slug` an agent holds (`state_hash`, made
    /// at `at` when given, else when ctx first showed that state) is still
    /// good: the same state, and younger than `max_age` (default `[artifacts] max_age_seconds`).
    pub fn check_artifact(
        &mut self,
        slug: &str,
        state_hash: &str,
        at: Option<SystemTime>,
        max_age: Option<Duration>,
    ) -> Result<StalenessReport> {
        self.author_in(|conn, site| {
            let loaded = view::load(conn, site.root, view::row(conn, slug)?)?;
            let now = view::view(conn, &loaded, &ViewOptions::default(), &site.config.artifacts)?;
            let max_age = max_age.map_or(site.config.artifacts.max_age_seconds, |age| age.as_secs());
            view::check(conn, &now, loaded.row.node_id, state_hash, at, max_age)
        })
    }

    /// Change artifact `slug`'s state in one transaction; its view after.
    fn change_artifact(
        &mut self,
        slug: &str,
        change: impl FnOnce(&rusqlite::Connection, &Loaded) -> Result<()>,
    ) -> Result<ArtifactView> {
        self.author_in(|conn, site| {
            let loaded = view::load(conn, site.root, view::row(conn, slug)?)?;
            change(conn, &loaded)?;
            state::touch(conn, loaded.row.node_id)?;
            let after = view::load(conn, site.root, view::row(conn, slug)?)?;
            view::view(conn, &after, &ViewOptions::default(), &site.config.artifacts)
        })
    }
}

fn restore(
    conn: &rusqlite::Connection,
    site: &Authoring<'_>,
    slug: &str,
    snapshot: &str,
    override_finalized: bool,
) -> Result<OperationResult> {
    let loaded = view::load(conn, site.root, view::row(conn, slug)?)?;
    if loaded.row.finalized && !override_finalized {
        return Err(ArtifactError::finalized(slug).into());
    }
    let old = history::read_snapshot(conn, loaded.row.node_id, slug, snapshot)?;
    let flags = state::flags(conn, loaded.row.node_id)?;
    let before = history::snapshot(conn, &loaded, &flags, &format!("before restore of {snapshot}"))?;
    let changed = old.content != loaded.text.as_bytes();
    if changed {
        ops::write_checked(site, &loaded, &old.content)?;
    }
    let after_hash = view::hash(&old.content);
    state::set_file_hash(conn, loaded.row.node_id, &after_hash)?;
    let restored = old
        .state
        .flags
        .iter()
        .map(|(slug, done, collapsed)| (slug.clone(), Flags { done: *done, collapsed: *collapsed }))
        .collect();
    state::replace_flags(conn, loaded.row.node_id, &restored)?;
    let reason = format!("restored snapshot {snapshot}");
    let logged = history::Logged {
        operation: "restore",
        section: None,
        reason: &reason,
        snapshot: &before,
        before_hash: &loaded.hash,
        after_hash: &after_hash,
        detail: serde_json::json!({ "restored": snapshot, "override_finalized": override_finalized }),
    };
    let operation_id = history::log(conn, loaded.row.node_id, &logged)?;
    state::touch(conn, loaded.row.node_id)?;
    let after = view::load(conn, site.root, view::row(conn, slug)?)?;
    let view = view::view(conn, &after, &ViewOptions::default(), &site.config.artifacts)?;
    let len = loaded.text.len();
    Ok(OperationResult {
        operation: "restore".into(),
        artifact_slug: slug.to_string(),
        section_slug: None,
        operation_id: Some(operation_id),
        snapshot_id: Some(before),
        suggestion_id: None,
        replaced: changed.then_some([0, len]),
        inserted: changed.then_some(old.content.len()),
        artifact: view,
    })
}
