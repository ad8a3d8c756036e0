//! `ctx eval`: how well ctx finds the files past commits modified.

use std::io::{IsTerminal, Write};

use ctxkeep_core::paths::display_name;
use ctxkeep_core::wording::count;
use ctxkeep_map::eval::{EvalOptions, EvalReport, KS};
use indicatif::{ProgressBar, ProgressStyle};

use super::Env;
use crate::args::EvalArgs;
use crate::output;

/// How many of each method's first files a case line shows.
const CASE_TOP: usize = 5;

pub fn run(env: &Env, args: &EvalArgs) -> anyhow::Result<()> {
    // The folder `ctx rank` would rank: --root, the workspace around, or here.
    let root = match &env.root {
        Some(root) => root.clone(),
        None => ctxkeep_core::Workspace::find_root(&env.cwd).unwrap_or_else(|_| env.cwd.clone()),
    };
    if args.signals && !env.json {
        anyhow::bail!("--signals is for programs: add --json (the signals are in each case's `rank` result)");
    }
    let options = EvalOptions { commits: args.commits, tokens: args.tokens.clone(), signals: args.signals };
    let bar = if env.quiet { None } else { progress_bar() };
    let progress = |done: usize, total: usize| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let report = ctxkeep_map::eval::eval(&root, &options, Some(&progress));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let mut report = report?;
    if report.cases.is_empty() && report.skipped.is_empty() {
        output::warn(&format!(
            "no eligible commit among the {} read (non-merge, modifying 1 to {} source files)",
            report.commits_read,
            ctxkeep_map::eval::MAX_CHANGED
        ));
    }
    if let Some(first) = report.skipped.first() {
        output::warn(&format!(
            "{} skipped, their parent could not be checked out (the first: {})",
            count(report.skipped.len(), "eligible commit"),
            first.reason
        ));
    }
    if !args.cases {
        report.cases.clear();
    }
    if env.json {
        return output::json(&report);
    }
    print_text(&report)
}

fn print_text(report: &EvalReport) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    for case in &report.cases {
        writeln!(out, "{} {}", &case.sha[..case.sha.len().min(10)], display_name(&case.subject))?;
        writeln!(out, "  modified: {}", display_name(&case.changed.join(", ")))?;
        for result in &case.results {
            let rank = result.rank.map_or("-".to_string(), |r| r.to_string());
            let top: Vec<&str> = result.top.iter().take(CASE_TOP).map(String::as_str).collect();
            writeln!(
                out,
                "  {:<10} {rank:>5}  {}",
                result.method.to_string(),
                display_name(&top.join(", "))
            )?;
        }
    }
    if !report.cases.is_empty() {
        writeln!(out)?;
    }
    let n = report.methods.first().map_or(0, |m| m.n);
    let head = &report.head[..report.head.len().min(10)];
    writeln!(
        out,
        "{} up to {head} ({} read): the message as the task, the files it modified as the answer",
        count(n, "commit"),
        report.commits_read
    )?;
    let [k1, k5, k10] = KS;
    writeln!(
        out,
        "{:<10} {:>5} {:>5} {:>5} {:>5} {:>5} {:>9}",
        "method",
        format!("R@{k1}"),
        format!("R@{k5}"),
        format!("R@{k10}"),
        "MRR",
        "n",
        "ms/case"
    )?;
    for m in &report.methods {
        writeln!(
            out,
            "{:<10} {:>5.2} {:>5.2} {:>5.2} {:>5.2} {:>5} {:>9.1}",
            m.method.to_string(),
            m.r_at_1,
            m.r_at_5,
            m.r_at_10,
            m.mrr,
            m.n,
            m.mean_ms
        )?;
    }
    writeln!(
        out,
        "R@K: share of commits with a modified file among a method's first K files; MRR: mean of 1/rank of the first one (0 if absent). Higher is better."
    )?;
    let maps: Vec<_> = report.methods.iter().filter_map(|m| Some((m, m.definitions.as_ref()?))).collect();
    if maps.iter().any(|(_, defs)| defs.n > 0) {
        writeln!(out)?;
        writeln!(out, "{:<10} {:>5} {:>5} {:>5} {:>5} {:>5}", "defs", "R@1", "R@5", "R@10", "MRR", "n")?;
        for (m, defs) in maps {
            writeln!(
                out,
                "{:<10} {:>5.2} {:>5.2} {:>5.2} {:>5.2} {:>5}",
                m.method.to_string(),
                defs.r_at_1,
                defs.r_at_5,
                defs.r_at_10,
                defs.mrr,
                defs.n
            )?;
        }
        writeln!(
            out,
            "defs: the same for the definitions the map shows, best first, against those the commit changed (over the commits that changed one)."
        )?;
    }
    Ok(())
}

/// A progress bar over the cases on stderr when it is a terminal.
fn progress_bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(0);
    bar.set_style(ProgressStyle::with_template("evaluating {pos}/{len} commits {wide_bar} {eta}").ok()?);
    Some(bar)
}
