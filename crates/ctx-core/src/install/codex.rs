//! Codex CLI's `config.toml`: the `[mcp_servers.ctx]` table, edited with
//! toml_edit so comments, order and spacing of everything else are kept.

use toml_edit::{Array, DocumentMut, Item, Table, TableLike, Value};

use super::{Action, Edit, is_our_program};

const SERVERS: &str = "mcp_servers";

pub(super) fn edit(text: &str, command: &str, action: Action) -> Result<Edit, String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|err: toml_edit::TomlError| format!("not valid TOML: {}", err.message().trim_end()))?;
    let mut changes = Vec::new();
    match action {
        Action::Install => install(&mut doc, command, &mut changes)?,
        Action::Uninstall => uninstall(&mut doc, &mut changes)?,
    }
    let text = if changes.is_empty() { text.to_string() } else { doc.to_string() };
    // A file left with nothing in it was ctx's alone (install created it).
    let removed_all = action == Action::Uninstall && !changes.is_empty() && doc.as_table().is_empty();
    Ok(Edit { text, delete: removed_all, changes })
}

fn servers_mut(doc: &mut DocumentMut, create: bool) -> Result<Option<&mut dyn TableLike>, String> {
    if doc.get(SERVERS).is_none() {
        if !create {
            return Ok(None);
        }
        // Implicit: no `[mcp_servers]` header of its own, only `[mcp_servers.ctx]`.
        let mut table = Table::new();
        table.set_implicit(true);
        doc.insert(SERVERS, Item::Table(table));
    }
    match doc.get_mut(SERVERS).and_then(Item::as_table_like_mut) {
        Some(servers) => Ok(Some(servers)),
        None => Err(format!("`{SERVERS}` is not a table")),
    }
}

fn install(doc: &mut DocumentMut, command: &str, changes: &mut Vec<String>) -> Result<(), String> {
    let servers = servers_mut(doc, true)?.ok_or(format!("`{SERVERS}` could not be created"))?;
    let args = || Value::Array(Array::from_iter(["mcp"]));
    match servers.get_mut("ctx") {
        None => {
            let mut table = Table::new();
            table.insert("command", toml_edit::value(command));
            table.insert("args", Item::Value(args()));
            // Into an inline `mcp_servers = { ... }` this goes inline (toml_edit converts it).
            servers.insert("ctx", Item::Table(table));
            changes.push(format!("{SERVERS}.ctx: added"));
        }
        Some(entry) => {
            let entry = entry.as_table_like_mut().ok_or(format!("`{SERVERS}.ctx` is not a table"))?;
            let mut changed = false;
            if entry.get("command").and_then(Item::as_str) != Some(command) {
                entry.insert("command", toml_edit::value(command));
                changed = true;
            }
            let has_args = entry
                .get("args")
                .and_then(Item::as_array)
                .is_some_and(|a| a.len() == 1 && a.get(0).and_then(Value::as_str) == Some("mcp"));
            if !has_args {
                entry.insert("args", Item::Value(args()));
                changed = true;
            }
            if changed {
                changes.push(format!("{SERVERS}.ctx: updated"));
            }
        }
    }
    Ok(())
}

fn uninstall(doc: &mut DocumentMut, changes: &mut Vec<String>) -> Result<(), String> {
    let Some(servers) = servers_mut(doc, false)? else { return Ok(()) };
    let Some(entry) = servers.get("ctx") else { return Ok(()) };
    let program = entry.get("command").and_then(Item::as_str);
    let first_arg = entry.get("args").and_then(Item::as_array).and_then(|a| a.get(0)).and_then(Value::as_str);
    if !program.is_some_and(is_our_program) || first_arg != Some("mcp") {
        changes.push(format!(
            "{SERVERS}.ctx: not a ctx server ({}), left alone",
            program.unwrap_or("no command")
        ));
        return Ok(());
    }
    servers.remove("ctx");
    changes.push(format!("{SERVERS}.ctx: removed"));
    let emptied = servers.is_empty();
    // Remove the `mcp_servers` table install added (no header of its own), not one the user wrote.
    let implicit = matches!(doc.get(SERVERS), Some(Item::Table(table)) if table.is_implicit());
    if emptied && implicit {
        doc.remove(SERVERS);
    }
    Ok(())
}
