//! The files ctx writes for agents (docs/agents.md): its managed section in
//! AGENTS.md, CLAUDE.md and the other files of `[agents] files`, and the
//! prompts of `.ctx/` (boot.md, constitution.md, runloop.md). `ctx init` and
//! `ctx update` go through [`update`]; the map (`.ctx/map.md`) is ctxkeep-map's,
//! which adds it (`ctxkeep_map::update`).
//!
//! Every file is read and checked before any is written: broken markers in
//! one file and nothing is written at all. No database is opened here, so
//! `ctx update --check` works in a fresh clone.

mod prompts;
pub mod section;

use std::path::{Component, Path, PathBuf};

use serde::Serialize;

use crate::config::Config;
use crate::error::{Error, Result};
use crate::fsutil::{read_within, write_atomic};
use crate::secrets::{Detector, SecretsConfig};
use crate::templates::Templates;
use crate::workspace::{CONFIG_FILE, CTX_DIR, TEMPLATES_DIR};

pub use prompts::PromptState;
pub use section::{Outcome, Problem, SECTION_VERSION, Section};

/// The template of the vendor-neutral section, and of Claude Code's (which includes it).
const AGENTS_TEMPLATE: &str = "section-agents.md.hbs";
const CLAUDE_TEMPLATE: &str = "section-claude.md.hbs";

/// What `update` is asked to do.
#[derive(Debug, Clone, Copy, Default)]
pub struct UpdateOptions {
    /// Write nothing; report what is missing or out of date.
    pub check: bool,
    /// Fix broken markers by the repair rule (see [`section`]).
    pub repair: bool,
}

/// What `ctx update` (or the agent files part of `ctx init`) did. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct UpdateReport {
    /// Whether this was a check (nothing written).
    pub check: bool,
    /// One entry per file, sections first, then prompts, then the map.
    pub files: Vec<FileUpdate>,
    /// Whether no file is missing or out of date (what `--check` exits 1 on).
    pub up_to_date: bool,
    /// The sync of `.ctx/knowledge/` that `update` runs (a pull's changes
    /// read in, the store's written out); `None` for a check.
    pub knowledge: Option<crate::KnowledgeReport>,
}

/// One file's fate. Stable JSON.
#[derive(Debug, Clone, Serialize)]
pub struct FileUpdate {
    /// Relative to the root, with `/`.
    pub path: String,
    pub kind: FileRole,
    pub status: UpdateStatus,
    /// For a section: the version it had (`None`: none) and has now.
    pub from_version: Option<u32>,
    pub to_version: Option<u32>,
    /// What `--repair` did, in order.
    pub repairs: Vec<String>,
    /// For [`UpdateStatus::Linked`]: the file of the list it is a link to.
    pub same_as: Option<String>,
}

/// What kind of file ctx keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileRole {
    /// A file with ctx's managed section (AGENTS.md, CLAUDE.md, ...).
    Section,
    /// A prompt of `.ctx/` (boot.md, constitution.md, runloop.md).
    Prompt,
    /// `.ctx/map.md`.
    Map,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UpdateStatus {
    /// The file did not exist and was written.
    Created,
    /// The file had no section; it was added at its end.
    Appended,
    /// Rewritten with other content (same section version; the map).
    Replaced,
    /// From an older template version (a section) or shipped text (a prompt).
    Upgraded,
    /// Broken markers removed, a fresh section written.
    Repaired,
    Unchanged,
    /// A prompt someone edited: left alone.
    Edited,
    /// (`--check`) The file or its section is missing.
    Missing,
    /// (`--check`) The section or prompt is older than what ctx writes.
    OutOfDate,
    /// A link to another file of the list, kept through that one.
    Linked,
}

impl UpdateStatus {
    /// Whether `--check` fails on it.
    pub fn is_stale(self) -> bool {
        matches!(self, UpdateStatus::Missing | UpdateStatus::OutOfDate)
    }
}

impl FileUpdate {
    pub fn new(path: impl Into<String>, kind: FileRole, status: UpdateStatus) -> FileUpdate {
        FileUpdate {
            path: path.into(),
            kind,
            status,
            from_version: None,
            to_version: None,
            repairs: Vec::new(),
            same_as: None,
        }
    }
}

impl UpdateReport {
    /// A report of `files`, `up_to_date` computed from them.
    pub fn new(check: bool, files: Vec<FileUpdate>) -> UpdateReport {
        let up_to_date = !files.iter().any(|f| f.status.is_stale());
        UpdateReport { check, files, up_to_date, knowledge: None }
    }

    /// Add one more file's entry.
    pub fn push(&mut self, file: FileUpdate) {
        self.up_to_date &= !file.status.is_stale();
        self.files.push(file);
    }
}

/// The root of the workspace at or above `start` (the folder holding
/// `.ctx/`), without opening its database. With `walk` false, `start` itself
/// must hold `.ctx/` (`--root`).
pub fn workspace_root(start: &Path, walk: bool) -> Result<PathBuf> {
    let start = std::fs::canonicalize(start).map_err(|err| Error::io(start, err))?;
    let mut candidates = start.ancestors().take(if walk { usize::MAX } else { 1 });
    let root = candidates.find(|dir| dir.join(CTX_DIR).is_dir());
    root.map(Path::to_path_buf).ok_or(Error::NotAWorkspace { start })
}

/// Bring the agent files and prompts of the workspace at `root` (canonical)
/// up to date, or with `check`, only say which are not. Reads
/// `.ctx/config.toml` and `.ctx/templates/`; never the database.
pub fn update(root: &Path, options: &UpdateOptions) -> Result<UpdateReport> {
    let ctx_dir = root.join(CTX_DIR);
    let config = Config::load(&ctx_dir.join(CONFIG_FILE))?;
    let custom;
    let detector = if config.secrets == SecretsConfig::default() {
        Detector::builtin()
    } else {
        custom = Detector::new(&config.secrets);
        &custom
    };
    let mut planned = plan_sections(root, &config, detector, options)?;
    planned.extend(plan_prompts(root, options.check)?);
    if !options.check {
        for (_, write) in &planned {
            if let Some((path, bytes)) = write {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(|err| Error::io(parent, err))?;
                }
                write_atomic(path, bytes)?;
            }
        }
    }
    Ok(UpdateReport::new(options.check, planned.into_iter().map(|(file, _)| file).collect()))
}

/// Write the prompts of `.ctx/` that are absent (what `init` does). Returns their paths, relative to the root.
pub(crate) fn write_missing_prompts(ctx_dir: &Path) -> Result<Vec<String>> {
    let mut created = Vec::new();
    for prompt in prompts::PROMPTS {
        let path = ctx_dir.join(prompt.name);
        if !path.exists() {
            write_atomic(&path, prompt.text.as_bytes())?;
            created.push(format!("{CTX_DIR}/{}", prompt.name));
        }
    }
    Ok(created)
}

/// A file's entry and, when it changes, the bytes to write where.
type Planned = (FileUpdate, Option<(PathBuf, Vec<u8>)>);

/// Every section file's new bytes, or the problems of all of them.
fn plan_sections(
    root: &Path,
    config: &Config,
    detector: &Detector,
    options: &UpdateOptions,
) -> Result<Vec<Planned>> {
    let files = &config.agents.files;
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let templates =
        Templates::load(&root.join(CTX_DIR).join(TEMPLATES_DIR), &[AGENTS_TEMPLATE, CLAUDE_TEMPLATE])?;
    let mut planned = Vec::new();
    let mut broken = Vec::new();
    let mut seen: Vec<(PathBuf, String)> = Vec::new();
    // The stack and the commands, for an agent that reads AGENTS.md and nothing
    // it points to (Codex, Cursor, OpenCode): how to build and test comes first.
    let found = crate::structure::detect_near_root(root, detector);
    let project = serde_json::json!({ "stack": found.stack, "commands": found.commands });
    for file in files {
        let target = target(root, file)?;
        if let Some((_, first)) = seen.iter().find(|(real, _)| *real == target) {
            let mut entry = FileUpdate::new(file, FileRole::Section, UpdateStatus::Linked);
            entry.same_as = Some(first.clone());
            planned.push((entry, None));
            continue;
        }
        seen.push((target.clone(), file.clone()));
        let claude = file.rsplit('/').next() == Some("CLAUDE.md");
        let template = if claude { CLAUDE_TEMPLATE } else { AGENTS_TEMPLATE };
        let existing = match target.exists() {
            true => Some(read_within(root, &target).map_err(|err| Error::io(&target, err))?),
            false => None,
        };
        // A CLAUDE.md that imports the AGENTS.md beside it (`@AGENTS.md`) has its guide
        // from there: its own section only adds what Claude Code imports besides.
        let sibling = |name: &str| match file.rsplit_once('/') {
            Some((folder, _)) => format!("{folder}/{name}"),
            None => name.to_string(),
        };
        let imports_agents = claude
            && files.contains(&sibling("AGENTS.md"))
            && existing.as_deref().is_some_and(|bytes| imports(bytes, "AGENTS.md"));
        // CLAUDE.md imports `.ctx/map.md`, which has them: `imports_map` leaves them out.
        let data = serde_json::json!({
            "file": file, "files": files, "project": project, "imports_map": claude,
            "imports_agents": imports_agents,
        });
        let body = detector.redacted(&templates.render(template, &data)?);
        section::check_body(&body).map_err(|(line, message)| Error::Template {
            template: format!("{template} (as rendered for {file})"),
            line: Some(line),
            message: message.to_string(),
        })?;
        let wanted = Section { version: SECTION_VERSION, body: &body };
        let edit = match section::splice(existing.as_deref(), wanted, options.repair && !options.check) {
            Ok(edit) => edit,
            Err(section::SpliceError::Broken(problems)) => {
                broken.push((file.clone(), problems));
                continue;
            }
            Err(section::SpliceError::Newer { line, found, this }) => {
                return Err(Error::NewerSection { path: file.clone(), line, found, supported: this });
            }
        };
        let mut entry = FileUpdate::new(file, FileRole::Section, UpdateStatus::Unchanged);
        entry.to_version = Some(SECTION_VERSION);
        (entry.status, entry.from_version) = match edit.outcome {
            Outcome::Created => (UpdateStatus::Created, None),
            Outcome::Appended => (UpdateStatus::Appended, None),
            Outcome::Replaced => (UpdateStatus::Replaced, Some(SECTION_VERSION)),
            Outcome::Upgraded { from, .. } => (UpdateStatus::Upgraded, Some(from)),
            Outcome::Unchanged => (UpdateStatus::Unchanged, Some(SECTION_VERSION)),
            Outcome::Repaired { actions } => {
                entry.repairs = actions;
                (UpdateStatus::Repaired, None)
            }
        };
        let changed = entry.status != UpdateStatus::Unchanged;
        if options.check && changed {
            entry.status = match entry.status {
                UpdateStatus::Created | UpdateStatus::Appended => UpdateStatus::Missing,
                _ => UpdateStatus::OutOfDate,
            };
        }
        planned.push((entry, changed.then_some((target, edit.bytes))));
    }
    if !broken.is_empty() {
        return Err(Error::ManagedSectionBroken { files: broken });
    }
    Ok(planned)
}

/// Whether `bytes`, outside ctx's section, import `name` as Claude Code does (a line
/// `@AGENTS.md` or `@./AGENTS.md`).
fn imports(bytes: &[u8], name: &str) -> bool {
    let rest = section::outside_section(bytes).unwrap_or_else(|| bytes.to_vec());
    String::from_utf8_lossy(&rest).lines().any(|line| {
        let import = line.trim().strip_prefix('@').map(|path| path.strip_prefix("./").unwrap_or(path));
        import == Some(name)
    })
}

/// Each prompt's state and, when `update` writes it, its text.
fn plan_prompts(root: &Path, check: bool) -> Result<Vec<Planned>> {
    let mut planned = Vec::new();
    for prompt in prompts::PROMPTS {
        let rel = format!("{CTX_DIR}/{}", prompt.name);
        let path = target(root, &rel)?;
        let existing = match path.exists() {
            true => Some(read_within(root, &path).map_err(|err| Error::io(&path, err))?),
            false => None,
        };
        let status = match (prompt.state(existing.as_deref()), check) {
            (PromptState::Absent, false) => UpdateStatus::Created,
            (PromptState::Absent, true) => UpdateStatus::Missing,
            (PromptState::Outdated, false) => UpdateStatus::Upgraded,
            (PromptState::Outdated, true) => UpdateStatus::OutOfDate,
            (PromptState::Current, _) => UpdateStatus::Unchanged,
            (PromptState::Edited, _) => UpdateStatus::Edited,
        };
        let write = matches!(status, UpdateStatus::Created | UpdateStatus::Upgraded);
        let entry = FileUpdate::new(rel, FileRole::Prompt, status);
        planned.push((entry, write.then(|| (path, prompt.text.as_bytes().to_vec()))));
    }
    Ok(planned)
}

/// Where the file `rel` of the root really is: links resolved, and refused
/// when they lead out of the workspace (ctx never writes outside it).
fn target(root: &Path, rel: &str) -> Result<PathBuf> {
    let path = root.join(rel);
    let outside =
        || Error::OutsideRoot { input: format!("{rel} (through a link)"), root: root.to_path_buf() };
    if std::fs::symlink_metadata(&path).is_ok() {
        let real = std::fs::canonicalize(&path).map_err(|err| Error::io(&path, err))?;
        if !real.starts_with(root) {
            return Err(outside());
        }
        if !real.is_file() {
            return Err(Error::io(&path, std::io::Error::other("not a regular file")));
        }
        return Ok(real);
    }
    // A new file: the folders above it that exist must be inside too.
    let existing = path.ancestors().skip(1).find(|dir| dir.exists()).unwrap_or(root);
    let real = std::fs::canonicalize(existing).map_err(|err| Error::io(existing, err))?;
    if !real.starts_with(root) {
        return Err(outside());
    }
    Ok(real.join(path.strip_prefix(existing).unwrap_or(Path::new(rel))))
}

/// Whether `rel` is a plain relative path inside the root and outside `.ctx/`
/// (what `[agents] files` may hold).
pub(crate) fn valid_agent_path(rel: &str) -> bool {
    let path = Path::new(rel);
    !rel.is_empty()
        && path.components().all(|c| matches!(c, Component::Normal(_)))
        && path.components().next().is_some_and(|c| c.as_os_str() != CTX_DIR)
}
