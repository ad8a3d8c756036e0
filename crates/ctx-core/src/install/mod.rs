//! `ctx install HARNESS` and `ctx uninstall HARNESS`: the entries that make
//! an agent harness run ctx (its MCP server, and for Claude Code its hooks),
//! merged into the harness's own config files (docs/harnesses.md).
//!
//! [`edit`] is pure: a file's old text in, its new text and what changed
//! out. Only the spans ctx adds or removes change (a format-preserving edit,
//! [`json`] and toml_edit), so an install followed by an uninstall leaves a
//! file as it was, byte for byte, and a file the install created is deleted.
//! [`run`] reads the files, plans every one before writing any (a file that
//! cannot be read as JSON or TOML stops it with nothing written), and
//! writes atomically, keeping permissions and writing through symlinks.

mod codex;
mod diff;
pub mod json;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::error::{Error, Result};
use crate::fsutil;
use json::{Doc, Json, Kind, Step, path};

/// An agent harness whose config ctx knows how to edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Harness {
    ClaudeCode,
    Codex,
    Cursor,
    Opencode,
}

impl Harness {
    pub const ALL: [Harness; 4] = [Harness::ClaudeCode, Harness::Codex, Harness::Cursor, Harness::Opencode];

    pub fn name(self) -> &'static str {
        match self {
            Harness::ClaudeCode => "claude-code",
            Harness::Codex => "codex",
            Harness::Cursor => "cursor",
            Harness::Opencode => "opencode",
        }
    }

    pub fn parse(name: &str) -> Option<Harness> {
        Harness::ALL.into_iter().find(|harness| harness.name() == name)
    }
}

/// The project's files (committed, shared by a team) or the user's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Project,
    User,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Install,
    Uninstall,
}

/// Where the config files are: the project root and the user's folders.
#[derive(Debug, Clone)]
pub struct Places {
    pub root: PathBuf,
    pub home: Option<PathBuf>,
    /// `$XDG_CONFIG_HOME`, else `~/.config` (OpenCode's user config).
    pub config_home: Option<PathBuf>,
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: Option<PathBuf>,
}

impl Places {
    /// `root`, and the user's folders from `HOME` (or `USERPROFILE`), `XDG_CONFIG_HOME`, `CODEX_HOME`.
    pub fn from_env(root: PathBuf) -> Places {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let home = var("HOME").or_else(|| var("USERPROFILE"));
        Places {
            root,
            config_home: var("XDG_CONFIG_HOME").or_else(|| home.as_ref().map(|h| h.join(".config"))),
            codex_home: var("CODEX_HOME").or_else(|| home.as_ref().map(|h| h.join(".codex"))),
            home,
        }
    }
}

#[derive(Debug, Clone)]
pub struct InstallOptions {
    pub harness: Harness,
    pub scope: Scope,
    pub action: Action,
    /// The program the entries run: `ctx` (found on PATH) unless told otherwise.
    pub command: String,
    /// Plan and report, write nothing.
    pub dry_run: bool,
}

impl InstallOptions {
    pub fn new(harness: Harness, scope: Scope, action: Action) -> InstallOptions {
        InstallOptions { harness, scope, action, command: "ctx".into(), dry_run: false }
    }
}

/// What an install or uninstall did (or, with `dry_run`, would do).
#[derive(Debug, Clone, Serialize)]
pub struct InstallReport {
    pub harness: Harness,
    pub scope: Scope,
    pub action: Action,
    pub dry_run: bool,
    /// Some file was (or would be) written or deleted.
    pub changed: bool,
    pub files: Vec<FileReport>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    pub path: PathBuf,
    /// The path as shown: relative to the project root, or `~/...`.
    pub name: String,
    pub status: FileStatus,
    /// One line per entry added, updated or removed (or left alone, and why).
    pub changes: Vec<String>,
    /// A unified diff of the change; empty when unchanged.
    pub diff: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileStatus {
    Created,
    Updated,
    /// Already as it should be (installed, or holding nothing of ctx's).
    Unchanged,
    Deleted,
    /// No such file, and none needed.
    Absent,
}

/// One config file of a harness and what ctx keeps in it.
#[derive(Debug, Clone)]
pub struct Target {
    pub path: PathBuf,
    pub content: Content,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Content {
    /// A JSON object of servers under `key` holding `ctx`; `jsonc` allows comments.
    McpJson { key: &'static str, entry: EntryShape, jsonc: bool },
    /// Claude Code's `hooks` in a settings file.
    ClaudeHooks,
    /// Codex CLI's `[mcp_servers.ctx]`.
    CodexToml,
}

/// How a harness writes a stdio server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryShape {
    /// `{"type": "stdio", "command": ..., "args": ["mcp"]}` (Claude Code).
    Stdio,
    /// `{"command": ..., "args": ["mcp"]}` (Cursor).
    CommandArgs,
    /// `{"type": "local", "command": [..., "mcp"], "enabled": true}` (OpenCode).
    LocalCommandArray,
}

impl EntryShape {
    fn entry(self, command: &str) -> Json {
        let args = || Json::Arr(vec![Json::str("mcp")]);
        match self {
            EntryShape::Stdio => {
                Json::obj([("type", Json::str("stdio")), ("command", Json::str(command)), ("args", args())])
            }
            EntryShape::CommandArgs => Json::obj([("command", Json::str(command)), ("args", args())]),
            EntryShape::LocalCommandArray => Json::obj([
                ("type", Json::str("local")),
                ("command", Json::Arr(vec![Json::str(command), Json::str("mcp")])),
                ("enabled", Json::Bool(true)),
            ]),
        }
    }
}

/// The Claude Code events ctx hooks: matcher (none: every occurrence) and
/// the time Claude Code gives the command, in seconds (`ctx hook` keeps its
/// own, shorter caps; this is the outer bound).
const CLAUDE_HOOKS: [(&str, Option<&str>, i64); 5] = [
    ("SessionStart", Some("startup|resume|clear|compact"), 10),
    ("UserPromptSubmit", None, 5),
    ("PreCompact", Some("manual|auto"), 30),
    ("Stop", None, 30),
    ("SessionEnd", None, 30),
];

/// The files `harness` reads at `scope`, in the order they are edited.
pub fn targets(harness: Harness, scope: Scope, places: &Places) -> Result<Vec<Target>> {
    let missing = |what: &str| Error::InvalidInput(format!("no {what}: set HOME to install for the user"));
    let home = || places.home.clone().ok_or_else(|| missing("home directory"));
    let mcp =
        |path: PathBuf, key, entry, jsonc| Target { path, content: Content::McpJson { key, entry, jsonc } };
    let root = &places.root;
    Ok(match (harness, scope) {
        (Harness::ClaudeCode, Scope::Project) => vec![
            mcp(root.join(".mcp.json"), "mcpServers", EntryShape::Stdio, false),
            Target { path: root.join(".claude/settings.json"), content: Content::ClaudeHooks },
        ],
        (Harness::ClaudeCode, Scope::User) => vec![
            mcp(home()?.join(".claude.json"), "mcpServers", EntryShape::Stdio, false),
            Target { path: home()?.join(".claude/settings.json"), content: Content::ClaudeHooks },
        ],
        (Harness::Cursor, Scope::Project) => {
            vec![mcp(root.join(".cursor/mcp.json"), "mcpServers", EntryShape::CommandArgs, false)]
        }
        (Harness::Cursor, Scope::User) => {
            vec![mcp(home()?.join(".cursor/mcp.json"), "mcpServers", EntryShape::CommandArgs, false)]
        }
        (Harness::Opencode, scope) => {
            let dir = match scope {
                Scope::Project => root.clone(),
                Scope::User => {
                    places.config_home.clone().ok_or_else(|| missing("config directory"))?.join("opencode")
                }
            };
            // OpenCode reads opencode.json or opencode.jsonc: an existing .jsonc alone is edited.
            let (json, jsonc) = (dir.join("opencode.json"), dir.join("opencode.jsonc"));
            let path = if !json.exists() && jsonc.exists() { jsonc } else { json };
            vec![mcp(path, "mcp", EntryShape::LocalCommandArray, true)]
        }
        (Harness::Codex, Scope::Project) => {
            vec![Target { path: root.join(".codex/config.toml"), content: Content::CodexToml }]
        }
        (Harness::Codex, Scope::User) => {
            let dir = places.codex_home.clone().ok_or_else(|| missing("home directory"))?;
            vec![Target { path: dir.join("config.toml"), content: Content::CodexToml }]
        }
    })
}

/// A file's new text and one line per change.
#[derive(Debug, Clone, PartialEq)]
pub struct Edit {
    pub text: String,
    /// Nothing is left in the file but what install created it with: it can go.
    pub delete: bool,
    pub changes: Vec<String>,
}

/// What `action` makes of a file holding `content`, whose text is `old`
/// (`None`: no such file). Pure; the error is why the file cannot be edited.
pub fn edit(content: Content, action: Action, command: &str, old: Option<&str>) -> Result<Edit, String> {
    match (action, old) {
        (Action::Uninstall, None) => {
            return Ok(Edit { text: String::new(), delete: true, changes: Vec::new() });
        }
        (Action::Install, None) => {
            let empty = if content == Content::CodexToml { "" } else { "{}\n" };
            return edit(content, action, command, Some(empty));
        }
        _ => {}
    }
    let old = old.unwrap_or_default();
    if content == Content::CodexToml {
        return codex::edit(old, command, action);
    }
    let jsonc = matches!(content, Content::McpJson { jsonc: true, .. });
    let mut file = JsonFile { text: old.to_string(), jsonc, changes: Vec::new() };
    file.parse()?; // Refuse a broken file before anything else.
    match (content, action) {
        (Content::McpJson { key, entry, .. }, Action::Install) => {
            let added = file.parse()?.get(&path![key, "ctx"]).is_none();
            if file.ensure(&path![key, "ctx"], &entry.entry(command))? {
                file.changes.push(format!("{key}.ctx: {}", if added { "added" } else { "updated" }));
            }
        }
        (Content::McpJson { key, .. }, Action::Uninstall) => file.remove_server(key)?,
        (Content::ClaudeHooks, Action::Install) => file.install_hooks(command)?,
        (Content::ClaudeHooks, Action::Uninstall) => file.remove_hooks(None)?,
        (Content::CodexToml, _) => unreachable!("handled above"),
    }
    // A file left holding `{}` after ctx's entries went was created for them.
    let emptied = action == Action::Uninstall
        && !file.changes.iter().all(|change| change.ends_with("left alone"))
        && file.parse()?.root.members().is_some_and(<[_]>::is_empty);
    Ok(Edit { text: file.text, delete: emptied, changes: file.changes })
}

/// A JSON file being edited, step by step (each step parses it again).
struct JsonFile {
    text: String,
    jsonc: bool,
    changes: Vec<String>,
}

impl JsonFile {
    fn parse(&self) -> Result<Doc<'_>, String> {
        Doc::parse(&self.text, self.jsonc).map_err(|err| format!("not valid JSON: {err}"))
    }

    /// Make the value at `path` hold `desired` (an object's other keys are
    /// kept); whether anything changed.
    fn ensure(&mut self, path: &[Step], desired: &Json) -> Result<bool, String> {
        let doc = self.parse()?;
        let Some(node) = doc.get(path) else {
            let Some((Step::Key(key), parent)) = path.split_last() else {
                return Err(format!("internal error: cannot create `{}`", dotted(path)));
            };
            return match doc.get(parent).map(|node| &node.kind) {
                Some(Kind::Object(_)) => {
                    self.text = doc.insert_member(parent, key, desired)?;
                    Ok(true)
                }
                Some(_) => Err(format!("`{}` is not an object", dotted(parent))),
                None => self.ensure(parent, &Json::Obj(vec![(key.clone(), desired.clone())])),
            };
        };
        match (desired, &node.kind) {
            (Json::Obj(members), Kind::Object(_)) => {
                let mut changed = false;
                for (key, value) in members {
                    let mut inner = path.to_vec();
                    inner.push(Step::Key(key.clone()));
                    changed |= self.ensure(&inner, value)?;
                }
                Ok(changed)
            }
            _ if node.to_value() == desired.to_value() => Ok(false),
            _ => {
                self.text = doc.replace(path, desired)?;
                Ok(true)
            }
        }
    }

    /// Remove the member or element at `path`, then each container above it,
    /// up to (not including) `keep` steps deep, that this left empty.
    fn remove_emptied(&mut self, path: &[Step], keep: usize) -> Result<(), String> {
        self.text = self.parse()?.remove(path)?;
        let mut path = &path[..path.len() - 1];
        while path.len() > keep {
            let doc = self.parse()?;
            if doc.get(path).is_none_or(|node| {
                node.members().is_some_and(<[_]>::is_empty) || node.items().is_some_and(<[_]>::is_empty)
            }) {
                self.text = doc.remove(path)?;
                path = &path[..path.len() - 1];
            } else {
                break;
            }
        }
        Ok(())
    }

    fn remove_server(&mut self, key: &str) -> Result<(), String> {
        let doc = self.parse()?;
        let Some(entry) = doc.get(&path![key, "ctx"]) else { return Ok(()) };
        let value = entry.to_value();
        // `command` + `args`, or OpenCode's one `command` array.
        let (program, first_arg) = match &value["command"] {
            serde_json::Value::Array(parts) => (parts.first(), parts.get(1)),
            program => (Some(program), value["args"].get(0)),
        };
        let program = program.and_then(serde_json::Value::as_str);
        if !program.is_some_and(is_our_program)
            || first_arg.and_then(serde_json::Value::as_str) != Some("mcp")
        {
            self.changes.push(format!(
                "{key}.ctx: not a ctx server ({}), left alone",
                program.unwrap_or("no command")
            ));
            return Ok(());
        }
        self.remove_emptied(&path![key, "ctx"], 0)?;
        self.changes.push(format!("{key}.ctx: removed"));
        Ok(())
    }

    /// Where ctx's handlers are in `hooks`: (event, group, handler), of one event or all.
    fn our_hooks(&self, event: Option<&str>) -> Result<Vec<(String, usize, usize)>, String> {
        let doc = self.parse()?;
        let Some(hooks) = doc.get(&path!["hooks"]) else { return Ok(Vec::new()) };
        let members = hooks.members().ok_or("`hooks` is not an object")?;
        let mut found = Vec::new();
        for member in members.iter().filter(|m| event.is_none_or(|event| m.key == event)) {
            let Some(groups) = member.value.items() else {
                if event.is_some() {
                    return Err(format!("`hooks.{}` is not an array", member.key));
                }
                continue;
            };
            for (g, group) in groups.iter().enumerate() {
                for (h, handler) in
                    group.member("hooks").and_then(Node::items).unwrap_or_default().iter().enumerate()
                {
                    if handler.member("command").and_then(Node::str).is_some_and(is_our_hook) {
                        found.push((member.key.clone(), g, h));
                    }
                }
            }
        }
        Ok(found)
    }

    fn install_hooks(&mut self, command: &str) -> Result<(), String> {
        for (event, matcher, timeout) in CLAUDE_HOOKS {
            let line = format!("{} hook {event}", shell_word(command));
            let handler = Json::obj([
                ("type", Json::str("command")),
                ("command", Json::str(&line)),
                ("timeout", Json::Int(timeout)),
            ]);
            let ours = self.our_hooks(Some(event))?;
            if let [(_, g, h)] = ours[..] {
                let doc = self.parse()?;
                let group_matcher = doc.get(&path!["hooks", event, g, "matcher"]).and_then(Node::str);
                if group_matcher.filter(|m| !m.is_empty()) == matcher {
                    if self.ensure(&path!["hooks", event, g, "hooks", h], &handler)? {
                        self.changes.push(format!("hooks.{event}: updated `{line}`"));
                    }
                    continue;
                }
            }
            self.remove_hooks(Some(event))?;
            self.changes.retain(|change| !change.starts_with(&format!("hooks.{event}:")));
            let mut group = Vec::new();
            if let Some(matcher) = matcher {
                group.push(("matcher".to_string(), Json::str(matcher)));
            }
            group.push(("hooks".to_string(), Json::Arr(vec![handler])));
            let group = Json::Obj(group);
            let doc = self.parse()?;
            match doc.get(&path!["hooks", event]) {
                Some(_) => self.text = doc.append_element(&path!["hooks", event], &group)?,
                None => {
                    self.ensure(&path!["hooks", event], &Json::Arr(vec![group]))?;
                }
            }
            let verb = if ours.is_empty() { "added" } else { "updated" };
            self.changes.push(format!("hooks.{event}: {verb} `{line}`"));
        }
        Ok(())
    }

    /// Remove ctx's handlers (of `event`, or all), with each group, event
    /// array and `hooks` object that this leaves empty.
    fn remove_hooks(&mut self, event: Option<&str>) -> Result<(), String> {
        while let Some((name, g, h)) = self.our_hooks(event)?.into_iter().next() {
            let handlers = path!["hooks", name.as_str(), g, "hooks"];
            let alone =
                self.parse()?.get(&handlers).and_then(Node::items).is_some_and(|items| items.len() == 1);
            // A group with no handler left goes whole (its matcher was for them).
            let path = if alone {
                path!["hooks", name.as_str(), g].to_vec()
            } else {
                path!["hooks", name.as_str(), g, "hooks", h].to_vec()
            };
            self.remove_emptied(&path, 0)?;
            self.changes.push(format!("hooks.{name}: removed"));
        }
        self.changes.dedup();
        Ok(())
    }
}

use json::Node;

fn dotted(path: &[Step]) -> String {
    let parts: Vec<String> = path
        .iter()
        .map(|step| match step {
            Step::Key(key) => key.clone(),
            Step::Index(i) => i.to_string(),
        })
        .collect();
    parts.join(".")
}

/// A program that is ctx: `ctx`, or a path to it (`/usr/local/bin/ctx`, `ctx.exe`).
fn is_our_program(program: &str) -> bool {
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    name == "ctx" || name.eq_ignore_ascii_case("ctx.exe")
}

/// A hook command ctx wrote: `PROGRAM hook EVENT`, PROGRAM ctx, maybe quoted.
fn is_our_hook(line: &str) -> bool {
    let line = line.trim();
    let (program, rest) = match line.strip_prefix('\'') {
        Some(quoted) => match quoted.split_once('\'') {
            Some((program, rest)) => (program.replace("'\\''", "'"), rest),
            None => return false,
        },
        None => match line.split_once(' ') {
            Some((program, rest)) => (program.to_string(), rest),
            None => return false,
        },
    };
    let words: Vec<&str> = rest.split_whitespace().collect();
    is_our_program(&program) && words.len() == 2 && words[0] == "hook"
}

/// `word` as one shell word: as it is when it can be, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:@%+=,".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// Install or uninstall `options.harness` at `options.scope`: every file is
/// planned (and checked) before any is written; with `dry_run` none is.
pub fn run(options: &InstallOptions, places: &Places) -> Result<InstallReport> {
    let mut files = Vec::new();
    let mut writes = Vec::new();
    for target in targets(options.harness, options.scope, places)? {
        // A symlinked settings file (dotfiles) is edited where it lives.
        let linked = target.path.is_symlink();
        let real = if linked {
            std::fs::canonicalize(&target.path).map_err(|err| Error::io(&target.path, err))?
        } else {
            target.path.clone()
        };
        let old = read_text(&real)?;
        let edited = edit(target.content, options.action, &options.command, old.as_deref())
            .map_err(|message| Error::HarnessConfig { path: target.path.clone(), message })?;
        // A file reached through a link is emptied, never deleted.
        let status = match &old {
            None if edited.delete => FileStatus::Absent,
            None => FileStatus::Created,
            Some(_) if edited.delete && !linked => FileStatus::Deleted,
            Some(old) if *old == edited.text => FileStatus::Unchanged,
            Some(_) => FileStatus::Updated,
        };
        let text = (status != FileStatus::Deleted).then_some(edited.text);
        let name = display(&target.path, options.scope, places);
        let diff = diff::unified(&name, old.as_deref(), text.as_deref());
        if !matches!(status, FileStatus::Absent | FileStatus::Unchanged) {
            writes.push((real, status, text));
        }
        files.push(FileReport { path: target.path, name, status, changes: edited.changes, diff });
    }
    let changed = !writes.is_empty();
    if !options.dry_run {
        for (path, status, text) in writes {
            match text {
                Some(text) => {
                    if status == FileStatus::Created
                        && let Some(dir) = path.parent()
                    {
                        std::fs::create_dir_all(dir).map_err(|err| Error::io(dir, err))?;
                    }
                    fsutil::write_atomic(&path, text.as_bytes())?;
                }
                None => {
                    fsutil::remove_if_exists(&path)?;
                    remove_emptied_dir(&path, places);
                }
            }
        }
    }
    Ok(InstallReport {
        harness: options.harness,
        scope: options.scope,
        action: options.action,
        dry_run: options.dry_run,
        changed,
        files,
    })
}

/// The file's text, `None` when there is no file.
fn read_text(path: &Path) -> Result<Option<String>> {
    match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map(Some)
            .map_err(|_| Error::HarnessConfig { path: path.to_path_buf(), message: "not UTF-8 text".into() }),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(Error::io(path, err)),
    }
}

/// The harness folder (`.claude/`, `.cursor/`, ...) that a deleted file
/// leaves empty goes too; never the project root or a user folder itself.
fn remove_emptied_dir(file: &Path, places: &Places) {
    let Some(dir) = file.parent() else { return };
    let kept = [Some(&places.root), places.home.as_ref(), places.config_home.as_ref()];
    if kept.iter().flatten().any(|keep| dir == keep.as_path()) {
        return;
    }
    // Fails, as it should, when something else is in it.
    let _ = std::fs::remove_dir(dir);
}

fn display(path: &Path, scope: Scope, places: &Places) -> String {
    let base = match scope {
        Scope::Project => Some(places.root.as_path()),
        Scope::User => places.home.as_deref(),
    };
    match base.and_then(|base| path.strip_prefix(base).ok()) {
        Some(rel) if scope == Scope::User => format!("~/{}", rel.display()),
        Some(rel) => rel.display().to_string(),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MCP: Content = Content::McpJson { key: "mcpServers", entry: EntryShape::Stdio, jsonc: false };
    const OPENCODE: Content =
        Content::McpJson { key: "mcp", entry: EntryShape::LocalCommandArray, jsonc: true };

    fn install(content: Content, old: Option<&str>) -> Edit {
        edit(content, Action::Install, "ctx", old).unwrap()
    }

    fn uninstall(content: Content, old: &str) -> Edit {
        edit(content, Action::Uninstall, "ctx", Some(old)).unwrap()
    }

    /// Install twice (the second changes nothing), then uninstall: the original again.
    fn round_trip(content: Content, old: &str) -> String {
        let first = install(content, Some(old));
        assert_ne!(first.text, old);
        let second = install(content, Some(&first.text));
        assert_eq!(second.text, first.text);
        assert!(second.changes.is_empty(), "{:?}", second.changes);
        let back = uninstall(content, &first.text);
        assert!(!back.delete);
        assert_eq!(back.text, old);
        first.text
    }

    #[test]
    fn mcp_entry_joins_other_servers_and_leaves_again() {
        let old = "{\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"x\"]\n    }\n  },\n  \"theme\": \"dark\"\n}\n";
        let text = round_trip(MCP, old);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            value["mcpServers"]["ctx"],
            serde_json::json!({"type": "stdio", "command": "ctx", "args": ["mcp"]})
        );
        assert_eq!(value["mcpServers"]["other"]["command"], "npx");
        assert_eq!(value["theme"], "dark");
    }

    #[test]
    fn a_created_file_is_deleted_again() {
        for content in [MCP, Content::ClaudeHooks, OPENCODE, Content::CodexToml] {
            let created = install(content, None);
            assert!(!created.delete && !created.text.is_empty());
            let gone = uninstall(content, &created.text);
            assert!(gone.delete, "{content:?}: {:?}", gone.text);
        }
        let created = install(MCP, None);
        assert_eq!(
            created.text,
            "{\n  \"mcpServers\": {\n    \"ctx\": {\n      \"type\": \"stdio\",\n      \"command\": \"ctx\",\n      \"args\": [\n        \"mcp\"\n      ]\n    }\n  }\n}\n"
        );
        // A file holding nothing of ctx's is never deleted, even an empty one.
        assert!(!uninstall(MCP, "{}\n").delete);
    }

    #[test]
    fn an_existing_ctx_entry_is_brought_up_to_date_keeping_its_other_keys() {
        let old = "{\"mcpServers\": {\"ctx\": {\"command\": \"ctx\", \"args\": [\"serve\"], \"env\": {\"A\": \"1\"}}}}";
        let edited = install(MCP, Some(old));
        assert_eq!(edited.changes, ["mcpServers.ctx: updated"]);
        assert_eq!(
            edited.text,
            "{\"mcpServers\": {\"ctx\": {\"command\": \"ctx\", \"args\": [\"mcp\"], \"env\": {\"A\": \"1\"}, \"type\": \"stdio\"}}}"
        );
        // A server named ctx that runs something else is not removed.
        let foreign = "{\"mcpServers\": {\"ctx\": {\"command\": \"node\", \"args\": [\"ctx.js\"]}}}";
        let kept = uninstall(MCP, foreign);
        assert_eq!((kept.text.as_str(), kept.delete), (foreign, false));
        assert_eq!(kept.changes, ["mcpServers.ctx: not a ctx server (node), left alone"]);
    }

    #[test]
    fn claude_hooks_join_other_hooks_and_leave_again() {
        let old = r#"{
        "permissions": {"allow": ["Bash(ls)"]},
        "hooks": {
            "SessionStart": [
                {"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}]}
            ],
            "PreToolUse": [
                {"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}
            ]
        }
    }"#;
        let text = round_trip(Content::ClaudeHooks, old);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let hooks = &value["hooks"];
        assert_eq!(hooks["SessionStart"][0]["hooks"][0]["command"], "echo hi");
        assert_eq!(
            hooks["SessionStart"][1],
            serde_json::json!({"matcher": "startup|resume|clear|compact",
                "hooks": [{"type": "command", "command": "ctx hook SessionStart", "timeout": 10}]})
        );
        assert_eq!(hooks["PreCompact"][0]["matcher"], "manual|auto");
        for event in ["UserPromptSubmit", "Stop", "SessionEnd"] {
            assert!(hooks[event][0].get("matcher").is_none(), "{event} takes no matcher");
            assert_eq!(hooks[event][0]["hooks"][0]["command"], format!("ctx hook {event}"));
        }
        assert_eq!(hooks["PreToolUse"][0]["hooks"][0]["command"], "guard.sh");
    }

    #[test]
    fn hooks_with_another_command_are_replaced_not_doubled() {
        let first = edit(Content::ClaudeHooks, Action::Install, "/opt/my tools/ctx", None).unwrap();
        assert!(first.text.contains(r#""command": "'/opt/my tools/ctx' hook Stop""#), "{}", first.text);
        let second = install(Content::ClaudeHooks, Some(&first.text));
        let value: serde_json::Value = serde_json::from_str(&second.text).unwrap();
        assert_eq!(value["hooks"]["Stop"].as_array().unwrap().len(), 1);
        assert_eq!(value["hooks"]["Stop"][0]["hooks"][0]["command"], "ctx hook Stop");
        assert!(second.changes.iter().all(|c| c.contains("updated")), "{:?}", second.changes);
        assert!(uninstall(Content::ClaudeHooks, &second.text).delete);
    }

    #[test]
    fn opencode_jsonc_with_comments_and_trailing_commas() {
        let old = "{\n  \"$schema\": \"https://opencode.ai/config.json\",\n  // tools\n  \"mcp\": {\n    \"other\": {\"type\": \"remote\", \"url\": \"https://x\"},\n  },\n}\n";
        let text = round_trip(OPENCODE, old);
        assert!(text.contains("\"ctx\": {\n      \"type\": \"local\",\n      \"command\": [\n        \"ctx\",\n        \"mcp\"\n      ],\n      \"enabled\": true\n    },\n  },"), "{text}");
    }

    #[test]
    fn codex_toml_keeps_comments_and_order() {
        let old = "# my settings\nmodel = \"o3\"  # fast\n\n[mcp_servers.docs]\ncommand = \"npx\"\nargs = [\"-y\", \"docs\"]\n\n[profiles.work]\nmodel = \"gpt-5\"\n";
        let text = round_trip(Content::CodexToml, old);
        assert!(text.contains("[mcp_servers.ctx]\ncommand = \"ctx\"\nargs = [\"mcp\"]\n"), "{text}");
        let parsed: toml::Table = text.parse().unwrap();
        assert_eq!(parsed["mcp_servers"]["docs"]["command"].as_str(), Some("npx"));
        // With no servers yet; a file without a final newline gets one (toml_edit ends every line).
        round_trip(Content::CodexToml, "model = \"o3\"\n");
        let ended = install(Content::CodexToml, Some("model = \"o3\""));
        assert_eq!(uninstall(Content::CodexToml, &ended.text).text, "model = \"o3\"\n");
        // Inline servers stay inline.
        let inline = round_trip(Content::CodexToml, "mcp_servers = { docs = { command = \"npx\" } }\n");
        assert!(inline.contains(", ctx = { command = \"ctx\", args = [\"mcp\"] } }"), "{inline}");
        let created = install(Content::CodexToml, None);
        assert_eq!(created.text, "[mcp_servers.ctx]\ncommand = \"ctx\"\nargs = [\"mcp\"]\n");
    }

    #[test]
    fn broken_files_are_refused() {
        let err = edit(MCP, Action::Install, "ctx", Some("{\"mcpServers\": {,}}")).unwrap_err();
        assert_eq!(err, "not valid JSON: line 1, column 17: expected a key in double quotes");
        let err = edit(Content::ClaudeHooks, Action::Install, "ctx", Some("// mine\n{}")).unwrap_err();
        assert!(err.contains("comments are not allowed"), "{err}");
        let err = edit(MCP, Action::Install, "ctx", Some("{\"mcpServers\": []}")).unwrap_err();
        assert_eq!(err, "`mcpServers` is not an object");
        let err = edit(Content::ClaudeHooks, Action::Install, "ctx", Some("{\"hooks\": {\"Stop\": {}}}"))
            .unwrap_err();
        assert_eq!(err, "`hooks.Stop` is not an array");
        let err = edit(Content::CodexToml, Action::Install, "ctx", Some("[mcp_servers\n")).unwrap_err();
        assert!(err.starts_with("not valid TOML"), "{err}");
    }

    #[test]
    fn our_commands_are_recognized() {
        assert!(is_our_hook("ctx hook Stop"));
        assert!(is_our_hook("/usr/local/bin/ctx hook SessionStart"));
        assert!(is_our_hook("'/opt/my tools/ctx' hook Stop"));
        assert!(!is_our_hook("ctx hooks Stop"));
        assert!(!is_our_hook("ctxx hook Stop"));
        assert!(!is_our_hook("echo ctx hook Stop"));
        assert_eq!(shell_word("/usr/bin/ctx"), "/usr/bin/ctx");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
    }
}
