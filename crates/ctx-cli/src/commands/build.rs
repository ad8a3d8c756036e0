//! `ctx build`, `ctx context`, `ctx validate`, `ctx watch`: the static context files.

use std::io::Write;
use std::ops::ControlFlow;
use std::process::ExitCode;
use std::time::Duration;

use ctxkeep_core::{BuildMode, BuildOptions, BuildReport, ValidateReport, WatchCycle, WatchOptions};

use super::Env;
use crate::args::{BuildArgs, ContextArgs, WatchArgs};
use crate::output;
use ctxkeep_core::paths::display_name;
use ctxkeep_core::wording::{count, plural};

pub fn build(env: &Env, args: &BuildArgs) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    let folders = args.paths.iter().map(|p| env.folder_key(&ws, p)).collect::<anyhow::Result<_>>()?;
    // `--stale` spells out the default.
    let mode = if args.force { BuildMode::Force } else { BuildMode::Stale };
    let scan = if args.scan { Some(ws.scan()?) } else { None };
    if let Some(scan) = &scan {
        super::scan::warn_issues(scan);
    }
    let report =
        ctxkeep_map::outline::build(&mut ws, &BuildOptions { folders, mode, tiers: args.tier.clone() })?;
    if env.json {
        return match scan {
            Some(scan) => output::json(&serde_json::json!({ "scan": scan, "build": report })),
            None => output::json(&report),
        };
    }
    if let Some(scan) = &scan {
        super::scan::print_summary(env, scan)?;
    }
    print_build(env, &report)
}

/// The text report of a build (nothing with `--quiet`; with `--verbose`,
/// every folder with its tiers, and every file removed).
pub fn print_build(env: &Env, report: &BuildReport) -> anyhow::Result<()> {
    if env.quiet {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "built in {} ms: {} written for {}, {} unchanged, {} removed",
        report.elapsed_ms,
        count(report.files_written, "file"),
        count(report.built.len(), "folder"),
        report.files_unchanged,
        report.files_removed.len(),
    )?;
    if env.verbose {
        for folder in &report.built {
            let tiers: Vec<&str> = folder.tiers.iter().map(|t| t.as_str()).collect();
            let tiers = format!("{} {}", plural(tiers.len(), "tier"), tiers.join(", "));
            writeln!(out, "rebuilt {} ({}; {tiers})", display_name(&folder.path), folder.reason)?;
        }
        for file in &report.files_removed {
            writeln!(out, "removed .ctx/context/{}", display_name(file))?;
        }
    } else {
        let rebuilt: Vec<String> =
            report.built.iter().map(|f| format!("{} ({})", f.path, f.reason)).collect();
        if !rebuilt.is_empty() {
            writeln!(out, "rebuilt: {}", output::list_some(&rebuilt, 12))?;
        }
    }
    if report.boot_written {
        writeln!(out, "wrote .ctx/boot.md (how agents read this context)")?;
    }
    Ok(())
}

pub fn context(env: &Env, args: &ContextArgs) -> anyhow::Result<()> {
    let ws = env.workspace()?;
    let folder = env.folder(&ws, &args.path)?;
    if env.json || args.format == "json" {
        return output::json_from_file(&ws.context(&folder.key, args.tier)?, folder.file.as_deref());
    }
    if env.verbose {
        // Rendered again for its count: the text printed is the file's, when current.
        let context = ws.context(&folder.key, args.tier)?;
        env.note(&format!(".ctx/context/{}: {}", context.file, count(context.tokens, "token")));
    }
    let text = ws.context_text(&folder.key, args.tier)?;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(())
}

pub fn validate(env: &Env) -> anyhow::Result<ExitCode> {
    let ws = env.workspace()?;
    let report = ws.validate()?;
    if env.json {
        output::json(&report)?;
    } else if !env.quiet {
        // Quiet, the exit code says it.
        print_validate(&report)?;
    }
    Ok(if report.ok { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn print_validate(report: &ValidateReport) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for (label, problems) in
        [("missing", &report.missing), ("stale", &report.stale), ("edited", &report.edited)]
    {
        for problem in problems {
            writeln!(
                out,
                "{label:8} {}  ({} tier, .ctx/context/{})",
                display_name(&problem.path),
                problem.tier,
                display_name(&problem.file)
            )?;
        }
    }
    for file in &report.orphaned {
        writeln!(out, "orphaned .ctx/context/{}", display_name(file))?;
    }
    for file in &report.temp_files {
        writeln!(out, "leftover .ctx/context/{file}")?;
    }
    for (label, files) in [("unscanned", &report.unscanned_files), ("vanished", &report.vanished_files)] {
        for file in files {
            writeln!(out, "{label:9} {file}")?;
        }
    }
    if report.ok {
        writeln!(out, "ok: {} current", count(report.current, "context file"))?;
        return Ok(());
    }
    if report.current < report.expected || !report.orphaned.is_empty() || !report.temp_files.is_empty() {
        writeln!(
            out,
            "{} of {} current: {} missing, {} stale, {} edited, {} orphaned, {}; run `ctx build`",
            report.current,
            count(report.expected, "context file"),
            report.missing.len(),
            report.stale.len(),
            report.edited.len(),
            report.orphaned.len(),
            count(report.temp_files.len(), "leftover temp file")
        )?;
    }
    if !report.unscanned_files.is_empty() || !report.vanished_files.is_empty() {
        writeln!(
            out,
            "the store is not the disk: {} not scanned, {} gone; run `ctx scan`",
            count(report.unscanned_files.len(), "file"),
            count(report.vanished_files.len(), "scanned file")
        )?;
    }
    Ok(())
}

pub fn watch(env: &Env, args: &WatchArgs) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    let options = WatchOptions {
        debounce: Duration::from_millis(args.debounce),
        build: BuildOptions { tiers: args.tier.clone(), ..BuildOptions::default() },
    };
    if !env.json && !env.quiet {
        println!("watching {} (Ctrl-C to stop)", display_name(&ws.root().display().to_string()));
    }
    // Outlines first, as `ctx build` does: a changed file's definitions show at once.
    let build = |ws: &mut ctxkeep_core::Workspace, options: &BuildOptions| {
        ctxkeep_map::outline::build(ws, options).map_err(|err| err.to_string())
    };
    ws.watch(&options, build, |cycle| match print_cycle(env, cycle) {
        Ok(()) => ControlFlow::Continue(()),
        // stdout is gone (a closed pipe): nobody is listening any more.
        Err(_) => ControlFlow::Break(()),
    })?;
    Ok(())
}

/// One line per round (one JSON object per line with --json); quiet rounds print nothing.
fn print_cycle(env: &Env, cycle: &WatchCycle) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if env.json {
        serde_json::to_writer(&mut out, cycle)?;
        writeln!(out)?;
        return Ok(());
    }
    if let Some(error) = &cycle.error {
        output::warn(error);
    }
    super::scan::warn_issues(&cycle.scan);
    if env.quiet || (cycle.build.built.is_empty() && cycle.build.files_removed.is_empty()) {
        return Ok(());
    }
    let rebuilt: Vec<String> = cycle.build.built.iter().map(|f| f.path.clone()).collect();
    writeln!(
        out,
        "{} changed; rebuilt {} ({}) in {} ms",
        count(cycle.scan.files_added + cycle.scan.files_changed + cycle.scan.files_removed, "file"),
        output::list_some(&rebuilt, if env.verbose { usize::MAX } else { 12 }),
        count(cycle.build.files_written, "file"),
        cycle.scan.elapsed_ms + cycle.build.elapsed_ms
    )?;
    out.flush()?;
    Ok(())
}
