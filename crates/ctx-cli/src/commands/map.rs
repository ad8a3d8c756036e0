//! `ctx map` and `ctx rank`: the repository map, and files ranked for a task.

use std::io::{IsTerminal, Read, Write};

use ctxkeep_map::map::MapOptions;
use ctxkeep_map::rank::RankOptions;
use indicatif::{ProgressBar, ProgressStyle};

use super::Env;
use crate::args::{MapArgs, RankArgs};
use crate::output;
use ctxkeep_core::paths::display_name;
use ctxkeep_core::wording::count;
use ctxkeep_map::index::IndexStats;

/// Below this many files to parse, no progress bar (it would only flicker).
const PROGRESS_MIN_FILES: usize = 500;

pub fn map(env: &Env, args: &MapArgs) -> anyhow::Result<()> {
    let mut ws = env.workspace_or_cache()?;
    let focus = args.focus.iter().map(|f| env.path_key(&ws, f)).collect::<anyhow::Result<Vec<_>>>()?;
    let query = read_query(args.query.as_deref(), args.query_file.as_deref())?;
    let options = MapOptions { tokens: args.tokens, focus, query };
    let bar = progress_bar(env);
    let progress = |done: usize, total: usize| show_progress(bar.as_ref(), done, total);
    let map = ctxkeep_map::map::map(&mut ws, &options, Some(&progress));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let map = map?;
    if env.verbose {
        env.note(&format!(
            "map: {} of {}, {}",
            map.tokens,
            count(map.budget, "token"),
            index_line(&map.index)
        ));
    }
    if args.write {
        ctxkeep_map::map::write_map(&ws, &map)?;
    }
    if map.text.is_empty() {
        output::warn(&format!(
            "a budget of {} is too small for any map (not even its title)",
            count(map.budget, "token")
        ));
    } else if map.files.is_empty() && map.left_out > 0 {
        // The title or the structure fit, but none of the code it ranked: say so, or
        // the reader takes a bare heading for a repository without code.
        output::warn(&format!(
            "a budget of {} is too small for any of the code's {}: the map holds only {}",
            count(map.budget, "token"),
            count(map.left_out, "definition"),
            if map.structure.stack.is_empty() && map.structure.tree.is_empty() {
                "its title"
            } else {
                "the project's structure"
            }
        ));
    }
    if env.json || args.format == "json" {
        return output::json(&map);
    }
    std::io::stdout().lock().write_all(map.text.as_bytes())?;
    Ok(())
}

/// How many files `ctx rank` lists unless asked for more.
const DEFAULT_TOP: usize = 20;

pub fn rank(env: &Env, args: &RankArgs) -> anyhow::Result<()> {
    let mut ws = env.workspace_or_cache()?;
    let query = read_query(args.query.as_deref(), args.query_file.as_deref())?.unwrap_or_default();
    let bar = progress_bar(env);
    let progress = |done: usize, total: usize| show_progress(bar.as_ref(), done, total);
    let options = RankOptions { graph: args.graph, history: !args.no_history, top: args.top };
    let ranked = ctxkeep_map::rank::rank_workspace(&mut ws, &query, options, Some(&progress));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let (mut ranked, index) = ranked?;
    if env.verbose {
        env.note(&format!("rank: {}", index_line(&index)));
    }
    // Without `-k`, ranked whole and cut here, so that the note can say what the cut left out.
    let default_top = (args.top.is_none() && !args.all).then_some(DEFAULT_TOP);
    let left_out = default_top.map_or(0, |top| ranked.len().saturating_sub(top));
    ranked.truncate(ranked.len() - left_out);
    if env.json {
        return output::json(&ranked);
    }
    let mut out = std::io::stdout().lock();
    for file in &ranked {
        writeln!(out, "{}", display_name(&file.path))?;
    }
    if left_out > 0 {
        env.note(&format!("{left_out} more files rank lower (-k N or --all to list them)"));
    }
    Ok(())
}

/// `--query TEXT`, or the text of `--query-file` (`-`: standard input).
pub fn read_query(query: Option<&str>, file: Option<&std::path::Path>) -> anyhow::Result<Option<String>> {
    match (query, file) {
        (Some(query), _) => Ok(Some(query.to_string())),
        (None, Some(path)) if path.as_os_str() == "-" => {
            let mut text = String::new();
            std::io::stdin().read_to_string(&mut text)?;
            Ok(Some(text))
        }
        (None, Some(path)) => Ok(Some(
            std::fs::read_to_string(path).map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))?,
        )),
        (None, None) => Ok(None),
    }
}

/// Show parsing progress once there is enough of it to be worth a bar.
fn show_progress(bar: Option<&ProgressBar>, done: usize, total: usize) {
    if let Some(bar) = bar
        && total >= PROGRESS_MIN_FILES
    {
        if bar.is_hidden() {
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    }
}

/// What the index behind a map or a ranking did (`--verbose`).
fn index_line(index: &IndexStats) -> String {
    format!(
        "{} ({} parsed, {} from the cache, {} line-scanned, {} with syntax errors, {} unreadable); \
         scan {} ms, parse {} ms",
        count(index.files, "source file"),
        index.parsed,
        index.cached,
        index.line_scanned,
        index.syntax_errors,
        index.unreadable,
        index.scan_ms,
        index.parse_ms
    )
}

/// A progress bar for stderr when it is a terminal (and not `--quiet`),
/// hidden until there is much to do.
fn progress_bar(env: &Env) -> Option<ProgressBar> {
    if env.quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::hidden();
    let style = ProgressStyle::with_template("parsing {pos}/{len} files {wide_bar} {eta}").ok()?;
    bar.set_style(style);
    Some(bar)
}
