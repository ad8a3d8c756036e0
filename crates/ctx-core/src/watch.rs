//! Watch: rescan and rebuild whenever files of the repository change.
//!
//! File system events are debounced (one write often makes several events;
//! a checkout makes thousands), events inside `.ctx/` and `.git/` are ignored
//! (the build writes into `.ctx/context/`), and each batch that remains runs
//! one scan and one build. The scan decides what really changed, so events
//! for ignored files cost a quick rescan and nothing more.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

use notify_debouncer_full::notify::RecursiveMode;
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use serde::Serialize;

use crate::build::{BuildOptions, BuildReport};
use crate::error::{Error, Result};
use crate::scan::ScanReport;
use crate::workspace::{CTX_DIR, Workspace};

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
    /// Scan and build once, then again after every batch of file changes, calling
    /// `on_cycle` after each round until it returns `Break`. Errors of a round
    /// (bad template, file locked) are reported in the cycle and watching goes on;
    /// errors of the watcher itself end it.
    pub fn watch(
        &mut self,
        options: &WatchOptions,
        mut on_cycle: impl FnMut(&WatchCycle) -> ControlFlow<()>,
    ) -> Result<()> {
        let (tx, rx) = mpsc::channel::<DebounceEventResult>();
        let mut debouncer = new_debouncer(options.debounce, None, tx)
            .map_err(|err| Error::Watch(format!("cannot watch files: {err}")))?;
        debouncer
            .watch(self.root(), RecursiveMode::Recursive)
            .map_err(|err| Error::Watch(format!("cannot watch {}: {err}", self.root().display())))?;

        let mut changed = Vec::new();
        let mut events = 0;
        loop {
            let cycle = self.rebuild(&options.build, std::mem::take(&mut changed), events);
            if on_cycle(&cycle).is_break() {
                return Ok(());
            }
            // Wait for a batch with something outside .ctx/ and .git/.
            loop {
                let batch = match rx.recv() {
                    Ok(Ok(batch)) => batch,
                    Ok(Err(errors)) => {
                        let message = errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
                        return Err(Error::Watch(format!("file watcher failed: {message}")));
                    }
                    Err(_) => return Err(Error::Watch("file watcher stopped".into())),
                };
                // Reads (the scan's own among them) change nothing.
                let mut paths: Vec<String> = batch
                    .iter()
                    .filter(|event| !event.kind.is_access())
                    .flat_map(|event| event.paths.iter())
                    .filter_map(|path| relevant(self.root(), path))
                    .collect();
                paths.sort();
                paths.dedup();
                if !paths.is_empty() {
                    events = paths.len();
                    paths.truncate(MAX_REPORTED_PATHS);
                    changed = paths;
                    break;
                }
            }
        }
    }

    fn rebuild(&mut self, build: &BuildOptions, changed: Vec<String>, events: usize) -> WatchCycle {
        let mut cycle = WatchCycle {
            changed,
            events,
            scan: ScanReport::default(),
            build: BuildReport::default(),
            error: None,
        };
        let options = BuildOptions { folders: Vec::new(), ..build.clone() };
        let result = self.scan().and_then(|scan| {
            cycle.scan = scan;
            self.build(&options)
        });
        match result {
            Ok(report) => cycle.build = report,
            Err(err) => cycle.error = Some(err.to_string()),
        }
        cycle
    }
}

/// The repository-relative path of an event, unless it is inside `.ctx/` or `.git/`.
fn relevant(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let first = rel.components().next()?.as_os_str();
    if first == CTX_DIR || first == ".git" {
        return None;
    }
    Some(rel.to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/"))
}
