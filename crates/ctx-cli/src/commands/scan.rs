//! `ctx scan`: bring the store up to date with the files on disk.

use std::io::Write;

use ctxkeep_core::ScanReport;

use super::Env;
use crate::output;

pub fn run(env: &Env) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    let report = ws.scan()?;
    warn_issues(&report);
    if env.json {
        return output::json(&report);
    }
    print_summary(&report)
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

/// The text summary of a scan.
pub fn print_summary(report: &ScanReport) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "scanned in {} ms: {} added, {} changed, {} removed, {} unchanged files; {} folders added, {} removed",
        report.elapsed_ms,
        report.files_added,
        report.files_changed,
        report.files_removed,
        report.files_unchanged,
        report.folders_added,
        report.folders_removed,
    )?;
    if !report.stale_folders.is_empty() {
        let n = report.stale_folders.len();
        writeln!(out, "stale: {n} folder{} ({})", plural(n), output::list_some(&report.stale_folders, 8))?;
    }
    if !report.secret_files.is_empty() {
        let n = report.secret_files.len();
        writeln!(
            out,
            "secrets: {n} file{} flagged; their content never goes into any context ({})",
            plural(n),
            output::list_some(&report.secret_files, 8)
        )?;
    }
    if !report.issues.is_empty() {
        let n = report.issues.len();
        writeln!(out, "skipped: {n} {} (see warnings)", if n == 1 { "entry" } else { "entries" })?;
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
            writeln!(out, "{what}: {}", output::list_some(files, 8))?;
        }
    }
    Ok(())
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
