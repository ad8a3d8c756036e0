//! Watch: rescan and rebuild whenever files of the repository change.
//!
//! File system events are debounced (one write often makes several events;
//! a checkout makes thousands) and sorted: `.git/`, ctx's own output and
//! paths the root's ignore files or `[scan] exclude` leave out are noise;
//! a template override, a knowledge file, `.ctx/config.toml` (reloaded) and a commit to
//! `ctx.db` by another process (an agent's `ctx folder describe`) are not.
//! Each relevant batch runs one scan and one build; the scan and the source
//! hashes decide what really changed.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::{Override, OverrideBuilder};
use notify_debouncer_full::notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use serde::Serialize;

use crate::build::{BuildOptions, BuildReport};
use crate::error::{Error, Result};
use crate::scan::ScanReport;
use crate::workspace::{CONFIG_FILE, CTX_DIR, DB_FILE, TEMPLATES_DIR, Workspace};

/// How `watch` runs.
#[derive(Debug, Clone)]
pub struct WatchOptions {
    /// Quiet time after the last event before a rebuild starts.
    pub debounce: Duration,
    /// What each rebuild builds (the folders in it are ignored: it is the whole tree).
    pub build: BuildOptions,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions { debounce: Duration::from_millis(300), build: BuildOptions::default() }
    }
}

/// One round of watching: what set it off, and what the scan and build did.
#[derive(Debug, Clone, Serialize)]
pub struct WatchCycle {
    /// Repository-relative paths of the events (at most 20), sorted.
    pub changed: Vec<String>,
    /// Number of paths the events named.
    pub events: usize,
    pub scan: ScanReport,
    pub build: BuildReport,
    /// Errors of this round (a broken template, a locked file); watching goes on.
    pub error: Option<String>,
}

/// Most event paths a cycle reports.
const MAX_REPORTED_PATHS: usize = 20;

impl Workspace {
    /// Scan and build once, then again after every batch of relevant changes,
    /// calling `on_cycle` after each round until it returns `Break`. `build`
    /// builds (a front-end passes the one that refreshes the map's outlines
    /// first, `ctxkeep_map::outline::build`; [`Workspace::build`] alone does not). Errors of
    /// a round (bad template, bad config, file locked) and of the watcher (a
    /// lost event queue) are reported in the cycle and watching goes on; only
    /// failing to start watching, or the watcher going away, ends it.
    pub fn watch(
        &mut self,
        options: &WatchOptions,
        mut build: impl FnMut(&mut Workspace, &BuildOptions) -> std::result::Result<BuildReport, String>,
        mut on_cycle: impl FnMut(&WatchCycle) -> ControlFlow<()>,
    ) -> Result<()> {
        let (tx, rx) = mpsc::channel::<DebounceEventResult>();
        let mut debouncer = new_debouncer(options.debounce, None, tx)
            .map_err(|err| Error::Watch(format!("cannot watch files: {err}")))?;
        debouncer
            .watch(self.root(), RecursiveMode::Recursive)
            .map_err(|err| Error::Watch(format!("cannot watch {}: {err}", self.root().display())))?;

        let mut filter = EventFilter::new(self.root(), &self.config().scan.exclude);
        let mut batch = Batch::default();
        loop {
            // Our own writes to ctx.db do not move its data version; other processes' do.
            // Read before the round: a commit made while it runs is news afterwards.
            let mut db_version = self.store().data_version()?;
            let refresh_filter = batch.reload_config || batch.ignore_files_changed;
            let cycle = self.rebuild(&options.build, &mut build, std::mem::take(&mut batch));
            // After the round, which reloaded the config: the filter follows the new rules.
            if refresh_filter {
                filter = EventFilter::new(self.root(), &self.config().scan.exclude);
            }
            if on_cycle(&cycle).is_break() {
                return Ok(());
            }
            // Wait for a batch that holds something relevant.
            while batch.changed.is_empty() && batch.errors.is_empty() {
                let events = match rx.recv() {
                    Ok(Ok(events)) => events,
                    // A lost queue, a folder that vanished while being watched: rescan and go on.
                    Ok(Err(errors)) => {
                        batch.errors = errors.iter().map(ToString::to_string).collect();
                        continue;
                    }
                    Err(_) => return Err(Error::Watch("file watcher stopped".into())),
                };
                let mut paths: Vec<String> = Vec::new();
                let mut db_touched = false;
                // Reads (the scan's own among them) change nothing.
                for path in events.iter().filter(|e| !e.kind.is_access()).flat_map(|e| e.paths.iter()) {
                    match filter.classify(path) {
                        Relevance::Ignored => {}
                        Relevance::Database => db_touched = true,
                        Relevance::Config => {
                            batch.reload_config = true;
                            paths.push(format!("{CTX_DIR}/{CONFIG_FILE}"));
                        }
                        Relevance::IgnoreFile(rel) => {
                            batch.ignore_files_changed = true;
                            paths.push(rel);
                        }
                        Relevance::Path(rel) => paths.push(rel),
                    }
                }
                if db_touched {
                    let version = self.store().data_version()?;
                    if version != db_version {
                        db_version = version;
                        paths.push(format!("{CTX_DIR}/{DB_FILE}"));
                    }
                }
                paths.sort();
                paths.dedup();
                batch.events = paths.len();
                paths.truncate(MAX_REPORTED_PATHS);
                batch.changed = paths;
            }
        }
    }

    fn rebuild(
        &mut self,
        options: &BuildOptions,
        build: &mut impl FnMut(&mut Workspace, &BuildOptions) -> std::result::Result<BuildReport, String>,
        batch: Batch,
    ) -> WatchCycle {
        let mut cycle = WatchCycle {
            changed: batch.changed,
            events: batch.events,
            scan: ScanReport::default(),
            build: BuildReport::default(),
            error: None,
        };
        let mut errors: Vec<String> = batch.errors.iter().map(|e| format!("file watcher: {e}")).collect();
        if batch.reload_config
            && let Err(err) = self.reload_config()
        {
            errors.push(format!("{err} (keeping the previous configuration)"));
        }
        let options = BuildOptions { folders: Vec::new(), ..options.clone() };
        let result = match self.scan() {
            Ok(scan) => {
                cycle.scan = scan;
                build(self, &options)
            }
            Err(err) => Err(err.to_string()),
        };
        match result {
            Ok(report) => cycle.build = report,
            Err(err) => errors.push(err),
        }
        cycle.error = (!errors.is_empty()).then(|| errors.join("; "));
        cycle
    }
}

/// What a batch of events asks for.
#[derive(Debug, Default)]
struct Batch {
    /// Relevant paths (at most [`MAX_REPORTED_PATHS`]), sorted.
    changed: Vec<String>,
    events: usize,
    reload_config: bool,
    /// One of the ignore files the filter reads changed.
    ignore_files_changed: bool,
    /// Errors the watcher reported.
    errors: Vec<String>,
}

/// What an event's path means to the watcher.
#[derive(Debug, PartialEq, Eq)]
enum Relevance {
    /// Inside `.git/`, ctx's own output, or a path the scan ignores.
    Ignored,
    /// `ctx.db` or its journal: relevant if another process committed.
    Database,
    /// `.ctx/config.toml`.
    Config,
    /// An ignore file the filter reads (this relative path): the filter is rebuilt.
    IgnoreFile(String),
    /// A repository file, or a template override: this relative path.
    Path(String),
}

/// The ignore files the filter reads, relative to the root.
const IGNORE_FILES: [&str; 4] = [".gitignore", ".ignore", ".ctxignore", ".git/info/exclude"];

/// Tells relevant events from noise without a scan: the root's ignore files
/// and `[scan] exclude` (a nested `.gitignore` is left to the scan, which
/// makes an event it ignores cost a quick rescan, nothing more).
struct EventFilter {
    root: PathBuf,
    ignores: Gitignore,
    excludes: Option<Override>,
}

impl EventFilter {
    fn new(root: &Path, exclude: &[String]) -> EventFilter {
        let mut builder = GitignoreBuilder::new(root);
        for name in IGNORE_FILES {
            // A missing or unreadable ignore file ignores nothing; the scan reports real trouble.
            let _ = builder.add(root.join(name));
        }
        let ignores = builder.build().unwrap_or_else(|_| Gitignore::empty());
        let mut overrides = OverrideBuilder::new(root);
        let valid = exclude.iter().all(|glob| overrides.add(&format!("!{glob}")).is_ok());
        let excludes = if valid { overrides.build().ok() } else { None };
        EventFilter { root: root.to_path_buf(), ignores, excludes }
    }

    fn classify(&self, path: &Path) -> Relevance {
        let Ok(rel) = path.strip_prefix(&self.root) else { return Relevance::Ignored };
        let mut parts = rel.components().map(|c| c.as_os_str());
        let Some(first) = parts.next() else { return Relevance::Ignored };
        let as_key = || rel.to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/");
        if IGNORE_FILES.iter().any(|name| rel == Path::new(name)) {
            return Relevance::IgnoreFile(as_key());
        }
        if first == ".git" {
            return Relevance::Ignored;
        }
        if first == CTX_DIR {
            return match parts.next().and_then(|p| p.to_str()) {
                Some(name) if name.starts_with(DB_FILE) => Relevance::Database,
                Some(CONFIG_FILE) => Relevance::Config,
                // A hand edit or a pull of a knowledge file: the scan reads it in.
                Some(TEMPLATES_DIR | crate::knowledge::KNOWLEDGE_DIR) => Relevance::Path(as_key()),
                _ => Relevance::Ignored,
            };
        }
        let is_dir = path.is_dir();
        if self.ignores.matched_path_or_any_parents(rel, is_dir).is_ignore()
            || self.excludes.as_ref().is_some_and(|o| excluded(o, rel, is_dir))
        {
            return Relevance::Ignored;
        }
        Relevance::Path(as_key())
    }
}

/// Whether `[scan] exclude` (as whitelist-inverted overrides) excludes `rel` or a folder above it.
fn excluded(overrides: &Override, rel: &Path, is_dir: bool) -> bool {
    rel.ancestors()
        .filter(|p| !p.as_os_str().is_empty())
        .enumerate()
        .any(|(i, p)| overrides.matched(p, is_dir || i > 0).is_ignore())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_sorted_into_noise_and_news() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".gitignore"), "target/\n*.log\n").unwrap();
        std::fs::create_dir_all(root.join("target/debug")).unwrap();
        let filter = EventFilter::new(root, &["vendor/**".to_string()]);
        let path = |rel: &str| Relevance::Path(rel.to_string());
        for (rel, expected) in [
            ("src/lib.rs", path("src/lib.rs")),
            ("target/debug/out", Relevance::Ignored),
            ("target", Relevance::Ignored),
            ("src/run.log", Relevance::Ignored),
            ("vendor/dep/x.rs", Relevance::Ignored),
            (".git/index", Relevance::Ignored),
            (".gitignore", Relevance::IgnoreFile(".gitignore".into())),
            (".git/info/exclude", Relevance::IgnoreFile(".git/info/exclude".into())),
            (".ctx/context/_root.minimal.md", Relevance::Ignored),
            (".ctx/ctx.db-wal", Relevance::Database),
            (".ctx/ctx.db", Relevance::Database),
            (".ctx/config.toml", Relevance::Config),
            (".ctx/templates/footer.md.hbs", path(".ctx/templates/footer.md.hbs")),
            (".ctx/knowledge/folders/src.md", path(".ctx/knowledge/folders/src.md")),
        ] {
            assert_eq!(filter.classify(&root.join(rel)), expected, "{rel}");
        }
        assert_eq!(filter.classify(Path::new("/elsewhere/x")), Relevance::Ignored);
    }
}
