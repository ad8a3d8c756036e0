//! The walk of a scan: the tree in parallel with the `ignore` crate and the
//! scan's rules, each file stat'ed, and read (hashed, classified) unless the
//! snapshot trusts its stat; every entry it cannot read becomes an issue.

use std::path::Path;
use std::sync::Mutex;

use ignore::overrides::OverrideBuilder;
use ignore::{DirEntry, ParallelVisitor, ParallelVisitorBuilder, WalkBuilder, WalkState};

use super::{FileState, ScanIssue, SeenFile, Snapshot, Walked, read_file, summary};
use crate::config::ScanConfig;
use crate::error::{Error, Result};
use crate::paths::ROOT;
use crate::secrets::{Detector, REDACTED_MARK};
use crate::{fsutil, time};

/// Walk the tree at `root` (canonical) with the scan's rules. Files `snapshot` does not trust are
/// read; without a snapshot, none is (stat only).
pub(super) fn walk(
    root: &Path,
    config: &ScanConfig,
    detector: &Detector,
    snapshot: Option<&Snapshot>,
) -> Result<Walked> {
    let mut overrides = OverrideBuilder::new(root);
    for glob in &config.exclude {
        overrides
            .add(&format!("!{glob}"))
            .map_err(|err| Error::InvalidInput(format!("[scan] exclude {glob:?}: {err}")))?;
    }
    let overrides = overrides.build().map_err(|err| Error::InvalidInput(format!("[scan] exclude: {err}")))?;

    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(!config.hidden)
        .follow_links(config.follow_symlinks)
        // .gitignore means the same thing in an unpacked tarball as in a clone.
        .require_git(false)
        .add_custom_ignore_filename(".ctxignore")
        .overrides(overrides)
        .filter_entry(|entry| {
            let name = entry.file_name();
            !(entry.depth() > 0 && (name == ".git" || name == ".ctx"))
        });

    let collected = Mutex::new(Walked::default());
    let mut visitors = VisitorBuilder { root, config, detector, snapshot, collected: &collected };
    builder.build_parallel().visit(&mut visitors);
    Ok(collected.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner()))
}

/// What every walker thread's visitor reads, and where it hands over what it found.
#[derive(Clone, Copy)]
struct VisitorBuilder<'s> {
    root: &'s Path,
    config: &'s ScanConfig,
    detector: &'s Detector,
    snapshot: Option<&'s Snapshot>,
    collected: &'s Mutex<Walked>,
}

impl<'s> ParallelVisitorBuilder<'s> for VisitorBuilder<'s> {
    fn build(&mut self) -> Box<dyn ParallelVisitor + 's> {
        Box::new(Visitor { walk: *self, local: Walked::default() })
    }
}

/// One walker thread's visitor: collects locally, hands over once when dropped.
struct Visitor<'s> {
    walk: VisitorBuilder<'s>,
    local: Walked,
}

impl Drop for Visitor<'_> {
    fn drop(&mut self) {
        let local = std::mem::take(&mut self.local);
        let mut all = self.walk.collected.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        all.folders.extend(local.folders);
        all.files.extend(local.files);
        all.issues.extend(local.issues);
        all.unreadable.extend(local.unreadable);
    }
}

impl ParallelVisitor for Visitor<'_> {
    fn visit(&mut self, entry: Result<DirEntry, ignore::Error>) -> WalkState {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                let issue = walk_issue(self.walk.root, &err);
                if let Some(key) = issue.key.clone() {
                    self.local.unreadable.push(key);
                }
                self.local.issues.push(issue.issue);
                return WalkState::Continue;
            }
        };
        if entry.depth() == 0 {
            return WalkState::Continue;
        }
        let Some(file_type) = entry.file_type() else {
            return WalkState::Continue;
        };
        let is_dir = file_type.is_dir();
        let rel = entry.path().strip_prefix(self.walk.root).unwrap_or(entry.path());
        let Some(key) = rel.to_str().map(|rel| stored_key(self.walk.detector, key_of(rel))) else {
            self.local.issues.push(ScanIssue {
                path: rel.to_string_lossy().into_owned(),
                message: "name is not valid UTF-8; skipped".into(),
            });
            return if is_dir { WalkState::Skip } else { WalkState::Continue };
        };
        // A followed link must resolve inside the workspace, whatever the
        // configuration says: a repository could link to the home directory.
        let mut target = None;
        if self.walk.config.follow_symlinks && entry.path_is_symlink() {
            let skip = if is_dir { WalkState::Skip } else { WalkState::Continue };
            match std::fs::canonicalize(entry.path()) {
                Ok(real) if real.starts_with(self.walk.root) => target = Some(real),
                Ok(_) => {
                    let message = "links outside the workspace; skipped".to_string();
                    self.local.issues.push(ScanIssue { path: key, message });
                    return skip;
                }
                Err(err) => {
                    let message = format!("cannot resolve link: {err}");
                    self.local.issues.push(ScanIssue { path: key, message });
                    return skip;
                }
            }
        }
        if is_dir {
            self.local.folders.push(key);
            return WalkState::Continue;
        }
        // A README linked from elsewhere in the workspace (axum's root
        // `README.md` -> `axum/README.md`) says what its folder is for: it is
        // read through the link even when links are not followed, never
        // from outside the workspace.
        let name = key.rsplit('/').next().unwrap_or(&key);
        if target.is_none() && file_type.is_symlink() && summary::is_readme(name) {
            match std::fs::canonicalize(entry.path()) {
                Ok(real) if real.starts_with(self.walk.root) && real.is_file() => target = Some(real),
                _ => return WalkState::Continue,
            }
        }
        // Symlinks that are not followed, FIFOs, sockets and devices hold no
        // source; opening a FIFO would even block the scan.
        if !file_type.is_file() && target.is_none() {
            return WalkState::Continue;
        }
        // A link's own size and time say nothing of its target's changes.
        let metadata = match &target {
            Some(real) => std::fs::metadata(real).map_err(|err| err.to_string()),
            None => entry.metadata().map_err(|err| err.to_string()),
        };
        let metadata = match metadata {
            Ok(metadata) => metadata,
            Err(err) => {
                self.local
                    .issues
                    .push(ScanIssue { path: key.clone(), message: format!("cannot stat: {err}") });
                self.local.unreadable.push(key);
                return WalkState::Continue;
            }
        };
        let size = metadata.len();
        let mtime_ns = metadata.modified().map(time::unix_nanos).unwrap_or(0);
        let mut file = SeenFile { key, size, mtime_ns, state: FileState::Unchanged };
        if self.walk.snapshot.is_some_and(|snapshot| !snapshot.trusts(&file)) {
            // Never through a link: a file swapped for one since the walk saw it is not read.
            let path = target.as_deref().unwrap_or(entry.path());
            let open = || fsutil::open_no_symlink(path);
            file.state = read_file(
                open,
                size,
                self.walk.config,
                self.walk.detector,
                &mut self.local.issues,
                &file.key,
            );
            if let FileState::Read(inspection) = &mut file.state
                && file.key.contains(REDACTED_MARK)
            {
                // Its name holds a secret: a file to keep out of every output.
                inspection.secret = Some("secret in its path");
                inspection.summary = None;
            }
        }
        self.local.files.push(file);
        WalkState::Continue
    }
}

/// The key a path is stored under: each component with its secrets
/// redacted, so a token in a file or folder name never reaches the store.
/// The same path always gives the same key, so the file is still found again.
pub(super) fn stored_key(detector: &Detector, key: String) -> String {
    if detector.allows_path(&key) || detector.find(&key).is_empty() {
        return key;
    }
    key.split('/').map(|component| detector.redact(component)).collect::<Vec<_>>().join("/")
}

/// A relative path as a key: `/` between components on every platform.
fn key_of(rel: &str) -> String {
    if std::path::MAIN_SEPARATOR == '/' {
        rel.to_owned()
    } else {
        rel.replace(std::path::MAIN_SEPARATOR, "/")
    }
}

/// A walk error as an issue, and the key of the entry it is about (if any).
struct WalkIssue {
    issue: ScanIssue,
    key: Option<String>,
}

fn walk_issue(root: &Path, err: &ignore::Error) -> WalkIssue {
    fn path_of(err: &ignore::Error) -> Option<&Path> {
        match err {
            ignore::Error::WithPath { path, .. } => Some(path),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => path_of(err),
            ignore::Error::Loop { child, .. } => Some(child),
            _ => None,
        }
    }
    let rel = path_of(err).map(|p| p.strip_prefix(root).unwrap_or(p));
    let path = rel.map_or_else(String::new, |rel| rel.to_string_lossy().into_owned());
    // An error about the root itself leaves the whole tree unread.
    let key =
        rel.and_then(Path::to_str).map(|rel| if rel.is_empty() { ROOT.to_string() } else { key_of(rel) });
    // The path is in `path` already, relative: keep the message free of the absolute root.
    let message = err.to_string().replace(&format!("{}{}", root.display(), std::path::MAIN_SEPARATOR), "");
    WalkIssue { issue: ScanIssue { path, message }, key }
}
