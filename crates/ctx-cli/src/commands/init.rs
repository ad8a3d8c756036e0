//! `ctx init`: create `.ctx/`, write the agent files, scan, map, build the
//! context files and write the map.

use std::io::Write;

use ctxkeep_core::{BuildOptions, UpdateOptions, UpdateStatus, Workspace};

use super::Env;
use crate::args::InitArgs;
use crate::output;
use ctxkeep_core::paths::display_name;

pub fn run(env: &Env, args: &InitArgs) -> anyhow::Result<()> {
    let (mut ws, report) = Workspace::init(env.init_root())?;
    // The agent files first, so that the first scan has them.
    let mut agents = if args.no_agents {
        None
    } else {
        Some(ctxkeep_core::agents::update(ws.root(), &UpdateOptions::default())?)
    };
    let scan = if args.no_scan { None } else { Some(ws.scan()?) };
    if let Some(scan) = &scan {
        super::scan::warn_issues(scan);
    }
    // The map before the build: mapping stores the outlines the context files show.
    let map = match &agents {
        Some(_) if !args.no_scan => {
            Some(ctxkeep_map::map::map(&mut ws, &ctxkeep_map::map::MapOptions::default(), None)?)
        }
        _ => None,
    };
    let build = match map {
        _ if args.no_scan || args.no_build => None,
        Some(_) => Some(ws.build(&BuildOptions::default())?),
        None => Some(ctxkeep_map::outline::build(&mut ws, &BuildOptions::default())?),
    };
    if let (Some(agents), Some(map)) = (agents.as_mut(), &map) {
        agents.push(ctxkeep_map::map::write_map(&ws, map)?);
    }
    // What agents find ctx through is no use to another clone if git leaves it out.
    let shared: Vec<String> = (agents.iter().flat_map(|a| &a.files))
        .map(|file| file.path.clone())
        .filter(|path| path.ends_with(".md") && !path.starts_with(ctxkeep_core::CTX_DIR))
        .chain([format!("{}/boot.md", ctxkeep_core::CTX_DIR)])
        .collect();
    let ignored = ignored_by_git(ws.root(), &shared);
    if !ignored.is_empty() {
        output::warn(&format!(
            "git ignores {}: other clones of this repository will not have {}, \
             so their agents will not find ctx",
            ignored.join(", "),
            if ignored.len() == 1 { "it" } else { "them" }
        ));
    }
    if env.json {
        return output::json(
            &serde_json::json!({ "init": report, "agents": agents, "scan": scan, "build": build }),
        );
    }
    if env.quiet {
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    let mut created = report.created.clone();
    let mut other = Vec::new();
    for file in agents.iter().flat_map(|a| &a.files) {
        match file.status {
            UpdateStatus::Created => created.push(file.path.clone()),
            UpdateStatus::Unchanged => {}
            _ => other.push(file),
        }
    }
    if created.is_empty() {
        writeln!(out, "ctx is already set up in {}", display_name(&report.root))?;
    } else {
        let verb = if report.already_initialized { "completed" } else { "initialized" };
        writeln!(out, "{verb} ctx in {} (created {})", display_name(&report.root), created.join(", "))?;
    }
    for file in other {
        writeln!(out, "{}: {}", display_name(&file.path), super::update::describe(file))?;
    }
    drop(out);
    if let Some(scan) = &scan {
        super::scan::print_summary(env, scan)?;
    }
    if let Some(build) = &build {
        super::build::print_build(env, build)?;
        if args.no_agents {
            println!("agents start at .ctx/boot.md; commit .ctx/ (its .gitignore keeps the local parts out)");
        } else {
            println!("agents find ctx through AGENTS.md/CLAUDE.md ([agents] files); commit them and .ctx/");
        }
    }
    Ok(())
}

/// Which of `paths` (relative to `root`) git ignores there: none when `root`
/// is in no repository or git cannot be run. `.ctx/boot.md` stands for
/// `.ctx/`, whose own `.gitignore` leaves the local parts out.
fn ignored_by_git(root: &std::path::Path, paths: &[String]) -> Vec<String> {
    let output = std::process::Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["check-ignore", "--"])
        .args(paths)
        .stderr(std::process::Stdio::null())
        .output();
    let Ok(output) = output else { return Vec::new() };
    // 0: some are ignored; 1: none; 128: not a repository, or another failure.
    if output.status.code() != Some(0) {
        return Vec::new();
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|path| match path.strip_suffix("/boot.md") {
            Some(dir) if dir == ctxkeep_core::CTX_DIR => format!("{dir}/"),
            _ => path.to_string(),
        })
        .collect()
}
