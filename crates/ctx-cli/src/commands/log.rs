//! `ctx log PATH --title ...` and `ctx log list [PATH]`.

use std::io::Write;

use ctxkeep_core::{Decision, NewDecision};

use super::Env;
use crate::args::{LogArgs, LogCommand};
use crate::output;
use ctxkeep_core::paths::display_name;

pub fn run(env: &Env, args: LogArgs) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    if let Some(LogCommand::List { path }) = args.command {
        let key = path.map(|p| env.folder_key(&ws, &p)).transpose()?;
        let decisions = ws.decisions(key.as_deref())?;
        if env.json {
            return output::json(&decisions);
        }
        let mut out = std::io::stdout().lock();
        if decisions.is_empty() {
            writeln!(out, "no decisions logged yet")?;
        }
        for decision in &decisions {
            print_decision(&mut out, decision)?;
        }
        return Ok(());
    }
    // clap guarantees both when there is no subcommand.
    let (Some(path), Some(title)) = (args.path, args.title) else {
        anyhow::bail!("usage: ctx log PATH --title TEXT [--rationale TEXT] [--tag TAG]...");
    };
    let key = env.folder_key(&ws, &path)?;
    let new = NewDecision { title, rationale: args.rationale.unwrap_or_default(), tags: args.tags };
    let decision = ws.log_decision(&key, &new)?;
    if env.json {
        return output::json(&decision);
    }
    env.report(format_args!("logged {} on {}", decision.id, display_name(&key)))?;
    Ok(())
}

/// One decision, as `ctx log list` and `ctx folder show` print it.
pub fn print_decision(out: &mut impl Write, decision: &Decision) -> std::io::Result<()> {
    let date = decision.ts.get(..10).unwrap_or(&decision.ts);
    // A folder's decision names its folder, a frame's its frame.
    let on = decision.folder.as_deref().or(decision.frame.as_deref()).unwrap_or("(folder gone)");
    let tags =
        if decision.tags.is_empty() { String::new() } else { format!("  [{}]", decision.tags.join(", ")) };
    writeln!(out, "  {date}  {}  {}  ({}){tags}", decision.id, decision.title, display_name(on))?;
    if !decision.rationale.is_empty() {
        writeln!(out, "      {}", decision.rationale.replace('\n', "\n      "))?;
    }
    Ok(())
}
