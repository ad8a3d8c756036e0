//! `ctx folder show|describe|scope|relate|todo`.

use std::io::{Read, Write};
use std::path::Path;

use anyhow::Context as _;
use ctxkeep_core::wording::count;
use ctxkeep_core::{Folder, FolderEdit, FolderPath};

use super::Env;
use crate::args::{FolderCommand, ShowArg};
use crate::output;
use ctxkeep_core::paths::display_name;

pub fn run(env: &Env, command: FolderCommand) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    // The folder, the file its argument named, and for an edit, what changed.
    let (folder, from_file, edit) = match command {
        FolderCommand::Show { path } => {
            let FolderPath { key, file } = env.folder(&ws, &path)?;
            (ws.folder(&key)?, file, None)
        }
        FolderCommand::Describe { path, description, content_file, show } => {
            let FolderPath { key, file } = env.folder(&ws, &path)?;
            let content_md = content_file.as_deref().map(read_content).transpose()?;
            let gave_description = description.is_some();
            let content_lines = content_md.as_deref().map(|content| content.lines().count());
            let folder = ws.describe_folder(&key, &FolderEdit { description, content_md })?;
            // What was given (the engine refuses neither), as stored (redacted).
            let name = display_name(&folder.path);
            let mut said = Vec::new();
            if gave_description {
                said.push(match folder.description.as_str() {
                    "" => format!("{name}: description cleared"),
                    text => format!("described {name}: {}", display_name(text)),
                });
            }
            if let Some(lines) = content_lines {
                said.push(format!("content of {name}: {}", count(lines, "line")));
            }
            (folder, file, Some((said, show)))
        }
        FolderCommand::Scope { path, on, off: _, show } => {
            let FolderPath { key, file } = env.folder(&ws, &path)?;
            let folder = ws.set_scope(&key, on)?;
            let now = if on { "a scope now" } else { "no scope now" };
            (folder, file, Some((vec![format!("{} is {now}", display_name(&key))], show)))
        }
        FolderCommand::Relate { path, other, note, remove, show } => {
            let FolderPath { key, file } = env.folder(&ws, &path)?;
            let other = env.folder_key(&ws, &other)?;
            let (key_name, other_name) = (display_name(&key), display_name(&other));
            let (folder, said) = if remove {
                (ws.unrelate(&key, &other)?, format!("{key_name} is no longer related to {other_name}"))
            } else {
                let why = note.as_deref().map(|n| format!(" ({})", display_name(n))).unwrap_or_default();
                (
                    ws.relate(&key, &other, note.as_deref())?,
                    format!("related {key_name} to {other_name}{why}"),
                )
            };
            (folder, file, Some((vec![said], show)))
        }
        FolderCommand::Todo => return print_todo(env, &ws.todo()?),
    };
    if env.json {
        return output::json_from_file(&folder, from_file.as_deref());
    }
    match edit {
        Some((_, ShowArg { show: true })) | None => print_folder(&folder),
        Some((said, _)) => {
            for line in said {
                env.report(format_args!("{line}"))?;
            }
            Ok(())
        }
    }
}

fn print_todo(env: &Env, todo: &[ctxkeep_core::TodoFolder]) -> anyhow::Result<()> {
    if env.json {
        return output::json(&todo);
    }
    let mut out = std::io::stdout().lock();
    if todo.is_empty() {
        writeln!(out, "every folder is described")?;
        return Ok(());
    }
    for folder in todo {
        let (path, from) = (display_name(&folder.path), display_name(&folder.derived_from));
        writeln!(out, "{path}  ({from}: {})", display_name(&folder.derived_description))?;
    }
    writeln!(
        out,
        "{} to describe: ctx folder describe PATH --description TEXT",
        count(todo.len(), "folder")
    )?;
    Ok(())
}

/// The content of `--content-file`: a file, or standard input for `-`.
fn read_content(path: &Path) -> anyhow::Result<String> {
    if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("cannot read content from standard input")?;
        return Ok(text);
    }
    std::fs::read_to_string(path).with_context(|| format!("{}: cannot read content file", path.display()))
}

fn print_folder(folder: &Folder) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    let mut flags = Vec::new();
    if folder.is_scope {
        flags.push("scope");
    }
    if folder.stale {
        flags.push("stale");
    }
    let flags = if flags.is_empty() { String::new() } else { format!("  [{}]", flags.join(", ")) };
    writeln!(out, "{}{flags}", display_name(&folder.path))?;
    let description = if folder.description.is_empty() { "(none yet)" } else { &folder.description };
    writeln!(out, "description: {description}")?;
    if !folder.content_md.is_empty() {
        writeln!(out, "content:")?;
        for line in folder.content_md.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    if !folder.files.is_empty() {
        writeln!(out, "files:")?;
        for file in &folder.files {
            let mut about = vec![output::human_bytes(file.size)];
            if let Some(lang) = &file.lang {
                about.insert(0, lang.clone());
            }
            if file.kind != ctxkeep_core::FileKind::Text {
                about.push(file.kind.as_str().to_string());
            }
            if let Some(reason) = &file.secret_reason {
                about.push(format!("secret: {reason}"));
            }
            writeln!(out, "  {}  ({})", display_name(&file.name), about.join(", "))?;
        }
    }
    if !folder.children.is_empty() {
        writeln!(out, "subfolders: {}", output::list_some(&folder.children, usize::MAX))?;
    }
    for relation in &folder.related {
        let note = if relation.note.is_empty() { String::new() } else { format!(" — {}", relation.note) };
        writeln!(out, "related: {}{note}", display_name(&relation.path))?;
    }
    if !folder.decisions.is_empty() {
        writeln!(out, "decisions:")?;
        for decision in &folder.decisions {
            super::log::print_decision(&mut out, decision)?;
        }
    }
    Ok(())
}
