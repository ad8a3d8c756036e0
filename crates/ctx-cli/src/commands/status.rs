//! `ctx status`: counts, stale folders, last scan.

use std::io::Write;

use super::Env;
use crate::output;
use ctxkeep_core::paths::display_name;

pub fn run(env: &Env) -> anyhow::Result<()> {
    let ws = env.workspace()?;
    let status = ws.status()?;
    if env.json {
        return output::json(&status);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "root: {}", display_name(&status.root))?;
    writeln!(
        out,
        "files: {} ({} text, {} binary, {} oversized; {} flagged as secrets)",
        status.files, status.text_files, status.binary_files, status.oversized_files, status.secret_files
    )?;
    writeln!(out, "folders: {} ({} stale)", status.folders, status.stale_folders.len())?;
    writeln!(out, "decisions: {}", status.decisions)?;
    match (&status.last_scan_at, status.last_scan_ms) {
        (Some(at), Some(ms)) => writeln!(out, "last scan with changes: {at} ({ms} ms)")?,
        (Some(at), None) => writeln!(out, "last scan with changes: {at}")?,
        _ => writeln!(out, "last scan: never (run `ctx scan`)")?,
    }
    writeln!(out, "database: {} (schema v{})", output::human_bytes(status.db_bytes), status.schema_version)?;
    if !status.stale_folders.is_empty() {
        let some = if env.verbose { usize::MAX } else { 10 };
        writeln!(out, "stale folders: {}", output::list_some(&status.stale_folders, some))?;
    }
    Ok(())
}
