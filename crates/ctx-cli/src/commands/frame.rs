//! `ctx frame push|pop|goal|status|artifact|decision|show|tree|context|preview|info`.

use std::io::Write;

use ctxkeep_core::{
    AssembledContext, Attempt, BudgetSources, Frame, FrameDetail, FrameLine, FrameTree, NewDecision,
    NewFrame, Rendering, Workspace,
};
use serde::Serialize;

use super::Env;
use crate::args::{ArtifactCommand, DecisionCommand, FrameCommand};
use crate::output;
use ctxkeep_core::wording::count;

pub fn run(env: &Env, command: FrameCommand) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    match command {
        FrameCommand::Push { goal, parent, title, frame_type } => {
            let frame = ws.push_frame(&NewFrame { goal, title, parent, frame_type })?;
            if env.json {
                return output::json(&frame);
            }
            env.report(format_args!("pushed {}: {}", frame.id, frame.title))?;
        }
        FrameCommand::Pop { id, status, summary } => {
            let frame = ws.pop_frame(id.as_deref(), status, summary.as_deref())?;
            if env.json {
                return output::json(&frame);
            }
            env.report(format_args!("popped {} ({})", frame.id, frame.status))?;
            match ws.current_frame()? {
                Some(current) => {
                    env.report(format_args!("current frame: {}", line(&frame_line(&current))))?
                }
                None => env.report(format_args!("no current frame"))?,
            }
        }
        FrameCommand::Goal { text: Some(text), frame } => {
            let frame = ws.set_frame_goal(frame.as_deref(), &text)?;
            if env.json {
                return output::json(&frame);
            }
            env.report(format_args!("goal of {}: {}", frame.id, frame.goal))?;
        }
        FrameCommand::Goal { text: None, frame } => {
            let frame = ws.frame(frame.as_deref())?.frame;
            if env.json {
                return output::json(&frame);
            }
            writeln!(std::io::stdout().lock(), "{}", frame.goal)?;
        }
        FrameCommand::Status => return status(env, &ws),
        FrameCommand::Artifact(ArtifactCommand::Add { paths, frame }) => {
            let paths = paths.iter().map(|p| env.path_key(&ws, p)).collect::<anyhow::Result<Vec<_>>>()?;
            let frame = ws.add_frame_artifacts(frame.as_deref(), &paths)?;
            if env.json {
                return output::json(&frame);
            }
            env.report(format_args!(
                "artifacts of {}: {}",
                frame.id,
                output::list_some(&frame.artifacts, 12)
            ))?;
        }
        FrameCommand::Decision(DecisionCommand::Add { text, rationale, tags, frame }) => {
            let new = NewDecision { title: text, rationale: rationale.unwrap_or_default(), tags };
            let decision = ws.add_frame_decision(frame.as_deref(), &new)?;
            if env.json {
                return output::json(&decision);
            }
            let on = decision.frame.as_deref().unwrap_or_default();
            env.report(format_args!("logged {} on {on}", decision.id))?;
        }
        FrameCommand::Show { id } => {
            let detail = ws.frame(id.as_deref())?;
            if env.json {
                return output::json(&detail);
            }
            print_detail(&detail)?;
        }
        FrameCommand::Tree { id, depth } => {
            let trees = ws.frame_tree(id.as_deref(), depth)?;
            if env.json {
                return output::json(&trees);
            }
            let mut out = std::io::stdout().lock();
            if trees.is_empty() {
                writeln!(out, "no frames yet: push one with `ctx frame push GOAL` or add a task")?;
            }
            for tree in &trees {
                print_tree(&mut out, tree, "", "")?;
            }
        }
        FrameCommand::Context { id, format } => {
            return print_context(env, &ws.frame_context(id.as_deref(), format)?);
        }
        FrameCommand::Preview { format } => match ws.frame_context(None, format) {
            Ok(context) => return print_context(env, &context),
            // What a hook would inject: nothing at all when no frame is current.
            Err(ctxkeep_core::Error::NoCurrentFrame) if env.json => {
                return output::json(&serde_json::Value::Null);
            }
            Err(ctxkeep_core::Error::NoCurrentFrame) => {
                output::warn("no current frame: nothing would be injected")
            }
            Err(err) => return Err(err.into()),
        },
        FrameCommand::Info { id, format } => {
            let context = ws.frame_context(id.as_deref(), format)?;
            if env.json {
                return output::json(&Info::from(&context));
            }
            print_info(&context)?;
        }
    }
    Ok(())
}

/// `ctx frame status`: the current frame and its chain from the root.
fn status(env: &Env, ws: &Workspace) -> anyhow::Result<()> {
    let detail = match ws.frame(None) {
        Ok(detail) => Some(detail),
        Err(ctxkeep_core::Error::NoCurrentFrame) => None,
        Err(err) => return Err(err.into()),
    };
    let stack: Vec<FrameLine> = detail
        .as_ref()
        .map(|d| d.ancestors.iter().cloned().chain([frame_line(&d.frame)]).collect())
        .unwrap_or_default();
    if env.json {
        #[derive(Serialize)]
        struct FrameStack<'a> {
            current: Option<&'a Frame>,
            /// Root first, the current frame last.
            stack: &'a [FrameLine],
        }
        return output::json(&FrameStack { current: detail.as_ref().map(|d| &d.frame), stack: &stack });
    }
    let mut out = std::io::stdout().lock();
    if stack.is_empty() {
        writeln!(out, "no current frame")?;
        return Ok(());
    }
    for (depth, frame) in stack.iter().enumerate() {
        let marker = if depth + 1 == stack.len() { CURRENT_MARKER } else { "" };
        writeln!(out, "{}{}{marker}", "  ".repeat(depth), line(frame))?;
    }
    Ok(())
}

/// What follows the current frame's line in status, tree and list output.
const CURRENT_MARKER: &str = "  ← current";

/// The one-line view of a frame.
pub fn frame_line(frame: &Frame) -> FrameLine {
    FrameLine {
        id: frame.id.clone(),
        frame_type: frame.frame_type.clone(),
        title: frame.title.clone(),
        status: frame.status,
    }
}

/// `F3 [in_progress] title`, with the type before the title unless it is a plain frame.
pub fn line(frame: &FrameLine) -> String {
    if frame.frame_type == "frame" {
        format!("{} [{}] {}", frame.id, frame.status, frame.title)
    } else {
        format!("{} [{}] {}: {}", frame.id, frame.status, frame.frame_type, frame.title)
    }
}

fn print_tree(out: &mut impl Write, tree: &FrameTree, lead: &str, child_lead: &str) -> std::io::Result<()> {
    let marker = if tree.is_current { CURRENT_MARKER } else { "" };
    writeln!(out, "{lead}{}{marker}", line(&tree.frame))?;
    let count = tree.children.len();
    for (i, child) in tree.children.iter().enumerate() {
        let last = i + 1 == count && tree.children_not_shown == 0;
        let (branch, below) = if last { ("└─ ", "   ") } else { ("├─ ", "│  ") };
        print_tree(out, child, &format!("{child_lead}{branch}"), &format!("{child_lead}{below}"))?;
    }
    if tree.children_not_shown > 0 {
        writeln!(out, "{child_lead}└─ ({} more below)", tree.children_not_shown)?;
    }
    Ok(())
}

fn print_detail(detail: &FrameDetail) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let frame = &detail.frame;
    let marker = if detail.is_current { CURRENT_MARKER } else { "" };
    writeln!(out, "{}{marker}", line(&frame_line(frame)))?;
    writeln!(out, "goal: {}", indented(&frame.goal))?;
    if !frame.summary.is_empty() {
        writeln!(out, "summary: {}", indented(&frame.summary))?;
    }
    if !frame.criteria.is_empty() {
        writeln!(out, "criteria:")?;
        for criterion in &frame.criteria {
            writeln!(out, "  - {criterion}")?;
        }
    }
    if !frame.artifacts.is_empty() {
        writeln!(out, "artifacts: {}", output::list_some(&frame.artifacts, usize::MAX))?;
    }
    let mut times = vec![format!("created {}", frame.created_at), format!("updated {}", frame.updated_at)];
    times.extend(frame.activated_at.as_ref().map(|t| format!("started {t}")));
    times.extend(frame.ended_at.as_ref().map(|t| format!("ended {t}")));
    writeln!(out, "{}", times.join(", "))?;
    if !detail.ancestors.is_empty() {
        writeln!(out, "ancestors (root first):")?;
        for ancestor in &detail.ancestors {
            writeln!(out, "  {}", line(ancestor))?;
        }
    }
    if !detail.subframes.is_empty() {
        writeln!(out, "subframes:")?;
        for subframe in &detail.subframes {
            writeln!(out, "  {}", line(subframe))?;
        }
    }
    if !detail.decisions.is_empty() {
        writeln!(out, "decisions:")?;
        for decision in &detail.decisions {
            super::log::print_decision(&mut out, decision)?;
        }
    }
    if !detail.attempts.is_empty() {
        writeln!(out, "attempts:")?;
        for attempt in &detail.attempts {
            print_attempt(&mut out, attempt)?;
        }
    }
    Ok(())
}

fn print_attempt(out: &mut impl Write, attempt: &Attempt) -> std::io::Result<()> {
    let date = attempt.ts.get(..10).unwrap_or(&attempt.ts);
    writeln!(out, "  {}. {date}  {}  {}", attempt.number, attempt.id, indented(&attempt.reason))?;
    for observation in &attempt.observations {
        writeln!(out, "      observed: {observation}")?;
    }
    for avoid in &attempt.avoid {
        writeln!(out, "      avoid: {avoid}")?;
    }
    Ok(())
}

/// A multi-line text after a label: its later lines indented.
fn indented(text: &str) -> String {
    text.replace('\n', "\n  ")
}

/// An assembled context: its text as it is (with a final newline), or with
/// `--json` the whole object.
pub fn print_context(env: &Env, context: &AssembledContext) -> anyhow::Result<()> {
    if env.json {
        return output::json(context);
    }
    let mut out = std::io::stdout().lock();
    out.write_all(context.text.as_bytes())?;
    if !context.text.ends_with('\n') {
        writeln!(out)?;
    }
    Ok(())
}

/// `ctx frame info --json`: the assembled context as `--json` prints it, without its text.
#[derive(Serialize)]
struct Info<'a> {
    frame: &'a str,
    rendering: Rendering,
    report: &'a ctxkeep_core::AssemblyReport,
    cache: &'a ctxkeep_core::CacheReport,
}

impl<'a> From<&'a AssembledContext> for Info<'a> {
    fn from(context: &'a AssembledContext) -> Self {
        // Every field named: one the core adds must be placed here (or left out) on purpose.
        let AssembledContext { frame, rendering, text: _, report, cache } = context;
        Info { frame, rendering: *rendering, report, cache }
    }
}

fn print_info(context: &AssembledContext) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let report = &context.report;
    let (budget, sources, tokens) = (&report.budget, &report.budget_sources, &report.tokens);
    writeln!(
        out,
        "{} context ({}): {} of {}, counted with {}",
        context.frame,
        context.rendering.as_str(),
        tokens.total,
        count(budget.total, "token"),
        report.tokenizer
    )?;
    writeln!(out, "budget (tokens used of each share, and where the share comes from):")?;
    let BudgetSources { total, ancestors, siblings, current, overhead } = sources;
    for (name, used, share, source) in [
        ("ancestors", tokens.ancestors, budget.ancestors, ancestors),
        ("siblings", tokens.siblings, budget.siblings, siblings),
        ("current", tokens.current, budget.current, current),
        ("structure", tokens.structure, budget.overhead, overhead),
        ("total", tokens.total, budget.total, total),
    ] {
        writeln!(out, "  {name:<10} {used:>6} of {share:>6}  ({source})")?;
    }
    let a = &report.ancestors;
    writeln!(out, "ancestors: {} of {} included, {} omitted", a.included, a.total, a.omitted)?;
    let s = &report.siblings;
    writeln!(
        out,
        "siblings: {} of {} finished included, {} filtered below the minimum score, {} omitted for room",
        s.included, s.candidates, s.filtered, s.omitted
    )?;
    let f = &report.subframes;
    writeln!(
        out,
        "subframes: {} of {} finished included, {} omitted for room",
        f.included, f.total, f.omitted
    )?;
    if context.rendering == Rendering::Prompt {
        writeln!(
            out,
            "remaining tasks: {} listed, {} omitted for room",
            s.remaining_included, s.remaining_omitted
        )?;
    }
    writeln!(out, "fields truncated: {}", report.fields_truncated)?;
    let cache = &context.cache;
    let served = match (cache.hit, cache.age_ms) {
        (true, Some(age)) => format!("hit (assembled {} ago)", age_text(age)),
        (true, None) => "hit".to_string(),
        (false, _) if cache.stored => "miss (assembled now and stored)".to_string(),
        (false, _) => "miss (assembled now, not stored)".to_string(),
    };
    writeln!(
        out,
        "cache: {served}; TTL {} s; {} of {}",
        cache.ttl_seconds,
        cache.entries,
        count(cache.max_entries, "entry")
    )?;
    Ok(())
}

/// `850 ms`, `12.3 s`.
fn age_text(ms: u64) -> String {
    if ms < 1000 { format!("{ms} ms") } else { format!("{:.1} s", ms as f64 / 1000.0) }
}
