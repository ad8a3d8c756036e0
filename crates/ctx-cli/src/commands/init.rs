//! `ctx init`: create `.ctx/`, scan, and build the context files.

use std::io::Write;

use ctx_core::{BuildOptions, Workspace};

use super::Env;
use crate::args::InitArgs;
use crate::output;
use ctx_core::paths::display_name;

pub fn run(env: &Env, args: &InitArgs) -> anyhow::Result<()> {
    let (mut ws, report) = Workspace::init(env.init_root())?;
    let scan = if args.no_scan { None } else { Some(ws.scan()?) };
    if let Some(scan) = &scan {
        super::scan::warn_issues(scan);
    }
    let build = if args.no_scan || args.no_build { None } else { Some(ws.build(&BuildOptions::default())?) };
    if env.json {
        return output::json(&serde_json::json!({ "init": report, "scan": scan, "build": build }));
    }
    let mut out = std::io::stdout().lock();
    if report.created.is_empty() {
        writeln!(out, "ctx is already set up in {}", display_name(&report.root))?;
    } else {
        let verb = if report.already_initialized { "completed" } else { "initialized" };
        writeln!(
            out,
            "{verb} ctx in {} (created {})",
            display_name(&report.root),
            report.created.join(", ")
        )?;
    }
    drop(out);
    if let Some(scan) = &scan {
        super::scan::print_summary(scan)?;
    }
    if let Some(build) = &build {
        super::build::print_build(build)?;
        println!("agents read .ctx/context/<folder>.standard.md (see .ctx/boot.md)");
    }
    Ok(())
}
