//! `ctx task add|start|done|fail|list|prompt`.

use std::collections::HashMap;
use std::io::Write;

use ctxkeep_core::{Frame, NewAttempt, NewTask, TaskFilter};

use super::Env;
use super::frame::{frame_line, line, print_context};
use crate::args::TaskCommand;
use crate::output;

pub fn run(env: &Env, command: TaskCommand) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    let (verb, frame) = match command {
        TaskCommand::Add { title, epic, description, criteria, task_type } => {
            ("added", ws.add_task(&NewTask { title, epic, description, criteria, task_type })?)
        }
        TaskCommand::Start { id } => ("started", ws.start_task(&id)?),
        TaskCommand::Done { id, summary } => ("done", ws.finish_task(&id, summary.as_deref())?),
        TaskCommand::Fail { id, reason, observations, avoid } => {
            ("failed", ws.fail_task(&id, &NewAttempt { reason, observations, avoid })?)
        }
        TaskCommand::List { epic, status } => {
            let listing_all = epic.is_none();
            let tasks = ws.tasks(&TaskFilter { epic, status })?;
            if env.json {
                return output::json(&tasks);
            }
            return print_list(&tasks, listing_all);
        }
        TaskCommand::Prompt { id } => return print_context(env, &ws.task_prompt(&id)?),
    };
    if env.json {
        return output::json(&frame);
    }
    env.report(format_args!("{verb} {}: {} ({})", frame.id, frame.title, frame.status))?;
    Ok(())
}

/// One line per task; when listing everything, each under its epic (a task
/// whose epic is not listed stands at the top).
fn print_list(tasks: &[Frame], listing_all: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if tasks.is_empty() {
        writeln!(out, "no tasks")?;
        return Ok(());
    }
    if !listing_all {
        for task in tasks {
            writeln!(out, "{}", line(&frame_line(task)))?;
        }
        return Ok(());
    }
    let listed: HashMap<&str, &Frame> = tasks.iter().map(|t| (t.id.as_str(), t)).collect();
    let mut children: HashMap<&str, Vec<&Frame>> = HashMap::new();
    let mut tops = Vec::new();
    for task in tasks {
        match task.parent.as_deref().filter(|p| listed.contains_key(p)) {
            Some(parent) => children.entry(parent).or_default().push(task),
            None => tops.push(task),
        }
    }
    // Depth first, each level in the order the tasks were added.
    let mut stack: Vec<(&Frame, usize)> = tops.into_iter().rev().map(|t| (t, 0)).collect();
    while let Some((task, depth)) = stack.pop() {
        writeln!(out, "{}{}", "  ".repeat(depth), line(&frame_line(task)))?;
        if let Some(below) = children.get(task.id.as_str()) {
            stack.extend(below.iter().rev().map(|t| (*t, depth + 1)));
        }
    }
    Ok(())
}
