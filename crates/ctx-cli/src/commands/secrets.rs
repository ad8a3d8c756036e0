//! `ctx secrets scan|rules`: what the secret detector finds, and its rules.

use std::io::Write;

use super::Env;
use crate::args::SecretsCommand;
use crate::output;
use ctxkeep_core::wording::count;

pub fn run(env: &Env, command: SecretsCommand) -> anyhow::Result<()> {
    match command {
        SecretsCommand::Scan { path } => scan(env, path.as_deref()),
        SecretsCommand::Rules => rules(env),
    }
}

fn scan(env: &Env, path: Option<&str>) -> anyhow::Result<()> {
    // Like the map, it works in any folder: without `.ctx/` the store is in the cache.
    let mut ws = env.workspace_or_cache()?;
    // A scan whose report is not shown: the next `ctx scan` reports its changes.
    ws.scan_files()?;
    let under = path.map(|p| env.path_key(&ws, p)).transpose()?;
    let report = ws.secrets_scan(under.as_deref())?;
    if env.json {
        return output::json(&report);
    }
    let mut out = std::io::stdout().lock();
    for finding in &report.findings {
        let place = if finding.line == 0 {
            format!("{} (its name)", finding.path)
        } else {
            format!("{}:{}:{}", finding.path, finding.line, finding.column)
        };
        writeln!(out, "{place}  {}  {}", finding.rule, finding.fingerprint)?;
    }
    for hidden in &report.hidden {
        writeln!(out, "{}  hidden whole: {}", hidden.path, hidden.reason)?;
    }
    let files: std::collections::BTreeSet<&str> = report.findings.iter().map(|f| f.path.as_str()).collect();
    writeln!(
        out,
        "{} in {} of {} scanned (redacted in every output); {} hidden whole; {} allow-listed",
        count(report.findings.len(), "secret"),
        count(files.len(), "file"),
        report.files_scanned,
        count(report.hidden.len(), "file"),
        report.files_allowed,
    )?;
    Ok(())
}

fn rules(env: &Env) -> anyhow::Result<()> {
    let ws = env.workspace_or_cache()?;
    let rules: Vec<_> = ws.detector().rules().collect();
    if env.json {
        return output::json(&rules);
    }
    let mut out = std::io::stdout().lock();
    let width = rules.iter().map(|r| r.id.len()).max().unwrap_or(0);
    for rule in rules {
        writeln!(out, "{:width$}  {}", rule.id, rule.description)?;
    }
    Ok(())
}
