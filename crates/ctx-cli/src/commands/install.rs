//! `ctx install HARNESS` and `ctx uninstall HARNESS`: the edit is ctxkeep-core's
//! (`ctxkeep_core::install`); this picks the places and prints the report.

use std::io::Write;

use ctxkeep_core::install::{Action, FileStatus, Harness, InstallOptions, InstallReport, Places, Scope};

use super::Env;
use crate::args::InstallArgs;
use crate::output;

pub fn run(env: &Env, args: &InstallArgs, action: Action) -> anyhow::Result<()> {
    let harness = Harness::parse(&args.harness).expect("clap checked the name");
    let scope = if args.user { Scope::User } else { Scope::Project };
    // The project's files go to the workspace root (--root as given, else the `.ctx/` above).
    let root = match (&env.root, scope) {
        (Some(root), _) => std::fs::canonicalize(root).unwrap_or_else(|_| root.clone()),
        (None, Scope::Project) => ctxkeep_core::agents::workspace_root(&env.cwd, true)?,
        (None, Scope::User) => env.cwd.clone(),
    };
    let options = InstallOptions {
        command: args.command.clone(),
        dry_run: args.dry_run,
        ..InstallOptions::new(harness, scope, action)
    };
    let report = ctxkeep_core::install::run(&options, &Places::from_env(root))?;
    if action == Action::Install && !runnable(&args.command) {
        output::warn(&format!(
            "`{}` is not an executable on PATH, so {} will not be able to start it: put ctx on PATH \
             (`cargo install --locked --path crates/ctx-cli`) or install again with `--command /absolute/path/to/ctx`",
            args.command, args.harness
        ));
    }
    if env.json {
        return output::json(&report);
    }
    // A dry run's diff is what was asked for.
    if env.quiet && !report.dry_run {
        return Ok(());
    }
    print_report(&report)
}

/// Whether `command` names an executable file: a path as it is, a bare
/// name through PATH (as the harness will look for it).
fn runnable(command: &str) -> bool {
    use std::path::Path;
    let executable = |path: &Path| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            path.metadata().is_ok_and(|meta| meta.is_file() && meta.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        {
            path.is_file() || path.with_extension("exe").is_file()
        }
    };
    if command.contains(std::path::MAIN_SEPARATOR) || command.contains('/') {
        return executable(Path::new(command));
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| executable(&dir.join(command))))
}

fn print_report(report: &InstallReport) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for file in &report.files {
        let status = match (file.status, report.action) {
            (FileStatus::Created, _) => "created",
            (FileStatus::Updated, _) => "updated",
            (FileStatus::Deleted, _) => "deleted (it held only ctx's entries)",
            (FileStatus::Unchanged, Action::Install) => "already installed",
            (FileStatus::Unchanged | FileStatus::Absent, Action::Uninstall) => "nothing of ctx's",
            (FileStatus::Absent, Action::Install) => "not needed",
        };
        writeln!(out, "{}: {status}", ctxkeep_core::paths::display_name(&file.name))?;
        for change in &file.changes {
            writeln!(out, "  {change}")?;
        }
        if report.dry_run && !file.diff.is_empty() {
            write!(out, "{}", file.diff)?;
        }
    }
    if report.dry_run {
        writeln!(out, "dry run: nothing written")?;
    }
    Ok(())
}
