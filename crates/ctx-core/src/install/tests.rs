use super::*;

const MCP: Content = Content::McpJson { key: "mcpServers", entry: EntryShape::Stdio, jsonc: false };
const OPENCODE: Content = Content::McpJson { key: "mcp", entry: EntryShape::LocalCommandArray, jsonc: true };

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
    let old =
        "{\"mcpServers\": {\"ctx\": {\"command\": \"ctx\", \"args\": [\"serve\"], \"env\": {\"A\": \"1\"}}}}";
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
    let err =
        edit(Content::ClaudeHooks, Action::Install, "ctx", Some("{\"hooks\": {\"Stop\": {}}}")).unwrap_err();
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
