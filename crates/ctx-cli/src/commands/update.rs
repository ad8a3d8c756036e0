//! `ctx update`: ctx's section in the agent files, the prompts of `.ctx/`,
//! and `.ctx/map.md`; `--check` for CI.

use std::io::Write;
use std::process::ExitCode;

use ctxkeep_core::paths::display_name;
use ctxkeep_core::{FileUpdate, UpdateOptions, UpdateReport, UpdateStatus};

use super::Env;
use crate::args::UpdateArgs;
use crate::output;

pub fn run(env: &Env, args: &UpdateArgs) -> anyhow::Result<ExitCode> {
    let options = UpdateOptions { check: args.check, repair: args.repair };
    let report = if args.check {
        // No database: a fresh clone in CI has none, and a check makes none.
        let root = match &env.root {
            Some(root) => ctxkeep_core::agents::workspace_root(root, false)?,
            None => ctxkeep_core::agents::workspace_root(&env.cwd, true)?,
        };
        ctxkeep_core::agents::update(&root, &options)?
    } else {
        ctxkeep_map::update(&mut env.workspace()?, &options)?
    };
    if env.json {
        output::json(&report)?;
    } else if !env.quiet || args.check {
        print_report(&report)?;
    }
    Ok(if report.check && !report.up_to_date { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// One line per file: `AGENTS.md: created`, `CLAUDE.md: v1 -> v2`.
pub fn print_report(report: &UpdateReport) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for file in &report.files {
        writeln!(out, "{}: {}", display_name(&file.path), describe(file))?;
    }
    if let Some(knowledge) = &report.knowledge {
        let (read, written) = (knowledge.loaded.len(), knowledge.written.len());
        if read + written > 0 {
            writeln!(
                out,
                ".ctx/knowledge/: {} read, {written} written",
                ctxkeep_core::wording::count(read, "file")
            )?;
        }
    }
    Ok(())
}

pub fn describe(file: &FileUpdate) -> String {
    let versions = match (file.from_version, file.to_version) {
        (Some(from), Some(to)) if from != to => format!("v{from} -> v{to}"),
        _ => String::new(),
    };
    match file.status {
        UpdateStatus::Created => "created".into(),
        UpdateStatus::Appended => "section appended".into(),
        UpdateStatus::Replaced => "updated".into(),
        UpdateStatus::Upgraded if versions.is_empty() => "upgraded to the current shipped version".into(),
        UpdateStatus::Upgraded => versions,
        UpdateStatus::Repaired => format!("repaired: {}", file.repairs.join("; ")),
        UpdateStatus::Unchanged => "unchanged".into(),
        UpdateStatus::Edited => "edited, left alone".into(),
        UpdateStatus::Missing => "missing".into(),
        UpdateStatus::OutOfDate if versions.is_empty() => "out of date".into(),
        UpdateStatus::OutOfDate => format!("out of date ({versions})"),
        UpdateStatus::Linked => {
            format!("a link to {}, kept through it", file.same_as.as_deref().unwrap_or("?"))
        }
    }
}
