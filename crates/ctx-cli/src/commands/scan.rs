//! `ctx scan`: bring the store up to date with the files on disk.

use std::io::Write;

use ctxkeep_core::wording::count;
use ctxkeep_core::{ChangedFiles, ScanPhases, ScanReport};

use super::Env;
use crate::output;

pub fn run(env: &Env) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    let report = ws.scan()?;
    warn_issues(&report);
    if env.json {
        return output::json(&report);
    }
    print_summary(env, &report)
}

/// A scan's skipped entries, as warnings on stderr (with `--json` too).
pub fn warn_issues(report: &ScanReport) {
    for issue in &report.issues {
        output::warn(&format!("{}: {}", issue.path, issue.message));
    }
    for warning in &report.knowledge.warnings {
        output::warn(warning);
    }
}

/// The text summary of a scan (nothing with `--quiet`; timings and every
/// path with `--verbose`).
pub fn print_summary(env: &Env, report: &ScanReport) -> anyhow::Result<()> {
    if env.quiet {
        return Ok(());
    }
    // How many names a list shows.
    let some = if env.verbose { usize::MAX } else { 8 };
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "scanned in {} ms: {}; {}",
        report.elapsed_ms,
        files_line(report.files_added, report.files_changed, report.files_removed),
        folders_line(report.folders_added, report.folders_removed),
    )?;
    if env.verbose {
        let ScanPhases { load_ms, walk_ms, apply_ms } = report.phases;
        writeln!(
            out,
            "{} unchanged; load {load_ms} ms, walk {walk_ms} ms, apply {apply_ms} ms",
            count(report.files_unchanged, "file"),
        )?;
        print_files(
            &mut out,
            &report.changed_files,
            report.files_added + report.files_changed + report.files_removed,
        )?;
    }
    if let Some(earlier) = &report.earlier {
        writeln!(
            out,
            "earlier, {} that reported nothing (`ctx map`, `ctx rank`, MCP tools; the last at {}): {}; {}",
            count(earlier.scans, "scan"),
            earlier.last_at,
            files_line(earlier.files_added, earlier.files_changed, earlier.files_removed),
            folders_line(earlier.folders_added, earlier.folders_removed),
        )?;
        let total = earlier.files_added + earlier.files_changed + earlier.files_removed;
        if env.verbose || total <= some {
            print_files(&mut out, &earlier.files, total)?;
        }
    }
    if !report.stale_folders.is_empty() {
        let n = report.stale_folders.len();
        writeln!(out, "stale: {} ({})", count(n, "folder"), output::list_some(&report.stale_folders, some))?;
    }
    if !report.secret_files.is_empty() {
        let n = report.secret_files.len();
        writeln!(
            out,
            "secrets: {} flagged; their content never goes into any context ({})",
            count(n, "file"),
            output::list_some(&report.secret_files, some)
        )?;
    }
    if !report.issues.is_empty() {
        writeln!(out, "skipped: {} (see warnings)", count(report.issues.len(), "entry"))?;
    }
    let knowledge = &report.knowledge;
    for (what, files) in [
        ("knowledge read", &knowledge.loaded),
        ("knowledge removed (file deleted)", &knowledge.removed),
        ("knowledge written", &knowledge.written),
        ("knowledge file deleted", &knowledge.deleted),
        ("knowledge waiting for its folder", &knowledge.waiting),
        ("knowledge redacted (a secret was in the file)", &knowledge.redacted),
    ] {
        if !files.is_empty() {
            writeln!(out, "{what}: {}", output::list_some(files, some))?;
        }
    }
    Ok(())
}

/// `2 files added, 1 changed, 0 removed`.
fn files_line(added: usize, changed: usize, removed: usize) -> String {
    format!("{} added, {changed} changed, {removed} removed", count(added, "file"))
}

/// `1 folder added, 0 removed`.
fn folders_line(added: usize, removed: usize) -> String {
    format!("{} added, {removed} removed", count(added, "folder"))
}

/// One line per kind of change that has paths: `added: a, b`; the paths are
/// a sample of `total` (a scan keeps the first 50 of each kind).
fn print_files(out: &mut impl Write, files: &ChangedFiles, total: usize) -> std::io::Result<()> {
    for (what, paths) in [("added", &files.added), ("changed", &files.changed), ("removed", &files.removed)] {
        if !paths.is_empty() {
            writeln!(out, "{what}: {}", output::list_some(paths, usize::MAX))?;
        }
    }
    let shown = files.added.len() + files.changed.len() + files.removed.len();
    if total > shown && shown > 0 {
        writeln!(out, "(and {} more, not listed)", count(total - shown, "path"))?;
    }
    Ok(())
}
