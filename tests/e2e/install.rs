//! `ctx install` / `ctx uninstall`: harness config files merged, not
//! rewritten; repeat installs change nothing; uninstall gives back every byte.

use std::path::Path;
use std::process::Output;

use serde_json::{Value, json};

use crate::util::Repo;

/// A project with `.ctx/` (all install needs) and an empty home of its own.
fn project() -> (Repo, tempfile::TempDir) {
    let repo = Repo::new();
    std::fs::create_dir(repo.path(".ctx")).unwrap();
    (repo, tempfile::tempdir().unwrap())
}

/// `ctx ARGS` with HOME at `home` and no other variable pointing at user config.
fn run(repo: &Repo, home: &Path, args: &[&str]) -> Output {
    let mut cmd = repo.cmd(args);
    cmd.env("HOME", home).env_remove("XDG_CONFIG_HOME").env_remove("CODEX_HOME").env_remove("USERPROFILE");
    cmd.output().unwrap()
}

fn ok(repo: &Repo, home: &Path, args: &[&str]) -> String {
    let out = run(repo, home, args);
    assert!(out.status.success(), "ctx {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

fn read(path: impl AsRef<Path>) -> String {
    std::fs::read_to_string(path).unwrap()
}

fn parse(path: impl AsRef<Path>) -> Value {
    serde_json::from_str(&read(path)).unwrap()
}

/// Every file and folder under `dir`, with the bytes of each file.
fn tree(dir: &Path) -> Vec<(String, Option<Vec<u8>>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            let rel = path.strip_prefix(dir).unwrap().display().to_string();
            if path.is_dir() {
                stack.push(path);
                out.push((rel, None));
            } else {
                out.push((rel, Some(std::fs::read(&path).unwrap())));
            }
        }
    }
    out.sort();
    out
}

/// The same settings, as people and tools write them.
fn styles(value: &Value) -> Vec<(&'static str, String)> {
    let two = serde_json::to_string_pretty(value).unwrap();
    let four =
        two.lines().map(|l| format!("{}{l}", &l[..l.len() - l.trim_start().len()])).collect::<Vec<_>>();
    let tabs =
        two.lines().map(|l| l.replacen("  ", "\t", (l.len() - l.trim_start().len()) / 2)).collect::<Vec<_>>();
    vec![
        ("2 spaces, final newline", format!("{two}\n")),
        ("2 spaces, no final newline", two.clone()),
        ("4 spaces", format!("{}\n", four.join("\n"))),
        ("tabs", format!("{}\n", tabs.join("\n"))),
        ("CRLF", format!("{}\r\n", two.replace('\n', "\r\n"))),
        ("compact", serde_json::to_string(value).unwrap()),
        (
            "compact with spaces",
            format!(
                "{}\n",
                serde_json::to_string(value).unwrap().replace("\":", "\": ").replace(",\"", ", \"")
            ),
        ),
    ]
}

#[test]
fn install_merges_in_every_style_and_uninstall_gives_back_every_byte() {
    let servers = json!({"mcpServers": {"github": {"command": "npx", "args": ["-y", "gh-mcp"], "env": {"T": "x"}}}, "z": [1, 2]});
    let settings = json!({
        "permissions": {"allow": ["Bash(cargo test:*)"]},
        "hooks": {
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 3}]}]
        },
        "model": "opus"
    });
    for ((style, mcp), (_, hooks)) in styles(&servers).into_iter().zip(styles(&settings)) {
        let (repo, home) = project();
        repo.write(".mcp.json", &mcp);
        repo.write(".claude/settings.json", &hooks);
        let before = tree(repo.root());

        let out = ok(&repo, home.path(), &["install", "claude-code"]);
        assert!(out.contains(".mcp.json: updated\n  mcpServers.ctx: added"), "{style}: {out}");
        let installed = parse(repo.path(".mcp.json"));
        assert_eq!(installed["mcpServers"]["github"], servers["mcpServers"]["github"], "{style}");
        assert_eq!(
            installed["mcpServers"]["ctx"],
            json!({"type": "stdio", "command": "ctx", "args": ["mcp"]})
        );
        assert_eq!(installed["z"], json!([1, 2]));
        let hooks_now = parse(repo.path(".claude/settings.json"));
        assert_eq!(hooks_now["permissions"], settings["permissions"], "{style}");
        assert_eq!(hooks_now["hooks"]["PreToolUse"], settings["hooks"]["PreToolUse"]);
        assert_eq!(hooks_now["hooks"]["SessionStart"][0], settings["hooks"]["SessionStart"][0]);
        assert_eq!(hooks_now["hooks"]["SessionStart"][1]["hooks"][0]["command"], "ctx hook SessionStart");
        assert_eq!(hooks_now["hooks"]["Stop"][0]["hooks"][0]["command"], "ctx hook Stop");
        // Only ctx's spans were added: the first line and the last bytes are the file's own.
        let text = read(repo.path(".mcp.json"));
        if !style.starts_with("compact") {
            assert_eq!(text.lines().next(), mcp.lines().next(), "{style}");
        }
        assert_eq!(text.ends_with('\n'), mcp.ends_with('\n'), "{style}");
        assert_eq!(text.contains("\r\n"), mcp.contains("\r\n"), "{style}");
        if style.starts_with("compact") {
            assert_eq!(text.trim_end().lines().count(), 1, "{style}: stays on one line: {text}");
        }

        let installed_tree = tree(repo.root());
        let again = ok(&repo, home.path(), &["install", "claude-code"]);
        assert_eq!(again, ".mcp.json: already installed\n.claude/settings.json: already installed\n");
        assert_eq!(tree(repo.root()), installed_tree, "{style}: a second install changes no byte");

        ok(&repo, home.path(), &["uninstall", "claude-code"]);
        assert_eq!(tree(repo.root()), before, "{style}: uninstall gives back every byte");
        assert!(home.path().read_dir().unwrap().next().is_none(), "the project install never touches HOME");
    }
}

#[test]
fn dry_run_shows_the_diff_and_writes_nothing() {
    let (repo, home) = project();
    repo.write(".cursor/mcp.json", "{\n  \"mcpServers\": {}\n}\n");
    let before = tree(repo.root());
    let out = ok(&repo, home.path(), &["install", "cursor", "--dry-run"]);
    assert_eq!(
        out,
        ".cursor/mcp.json: updated\n  mcpServers.ctx: added\n--- a/.cursor/mcp.json\n+++ b/.cursor/mcp.json\n\
         @@ -1,3 +1,10 @@\n {\n-  \"mcpServers\": {}\n+  \"mcpServers\": {\n+    \"ctx\": {\n+      \"command\": \"ctx\",\n\
         +      \"args\": [\n+        \"mcp\"\n+      ]\n+    }\n+  }\n }\ndry run: nothing written\n"
    );
    let out = ok(&repo, home.path(), &["install", "claude-code", "--dry-run"]);
    assert!(out.contains("--- /dev/null\n+++ b/.claude/settings.json\n"), "{out}");
    assert!(out.contains("+            \"command\": \"ctx hook UserPromptSubmit\",\n"), "{out}");
    let report: Value =
        serde_json::from_str(&ok(&repo, home.path(), &["--json", "install", "codex", "--dry-run"])).unwrap();
    assert_eq!((report["dry_run"].clone(), report["changed"].clone()), (json!(true), json!(true)));
    assert_eq!(report["files"][0]["status"], "created");
    assert_eq!(report["files"][0]["name"], ".codex/config.toml");
    assert_eq!(tree(repo.root()), before, "a dry run writes nothing");
}

#[test]
fn every_harness_installs_and_uninstalls_leaving_no_trace() {
    let (repo, home) = project();
    let before = tree(repo.root());
    let files = [
        ("claude-code", ".mcp.json"),
        ("claude-code", ".claude/settings.json"),
        ("codex", ".codex/config.toml"),
        ("cursor", ".cursor/mcp.json"),
        ("opencode", "opencode.json"),
    ];
    for harness in ["claude-code", "codex", "cursor", "opencode"] {
        ok(&repo, home.path(), &["install", harness]);
    }
    for (_, file) in files {
        assert!(repo.path(file).is_file(), "{file}");
    }
    assert_eq!(
        parse(repo.path("opencode.json"))["mcp"]["ctx"],
        json!({"type": "local", "command": ["ctx", "mcp"], "enabled": true})
    );
    assert_eq!(
        read(repo.path(".codex/config.toml")),
        "[mcp_servers.ctx]\ncommand = \"ctx\"\nargs = [\"mcp\"]\n"
    );
    for harness in ["claude-code", "codex", "cursor", "opencode"] {
        let out = ok(&repo, home.path(), &["uninstall", harness]);
        assert!(out.contains("deleted"), "{out}");
    }
    assert_eq!(tree(repo.root()), before, "the files and folders install created are gone");
    let out = ok(&repo, home.path(), &["uninstall", "cursor"]);
    assert_eq!(out, ".cursor/mcp.json: nothing of ctx's\n");
}

#[test]
fn user_scope_edits_the_files_in_home() {
    let (repo, home) = project();
    // Claude Code's own state file: large, private, written on one line by some versions.
    let state = json!({"numStartups": 12, "projects": {"/w": {"allowedTools": []}}, "mcpServers": {"mem": {"type": "stdio", "command": "mem"}}});
    let claude_json = home.path().join(".claude.json");
    std::fs::write(&claude_json, serde_json::to_string_pretty(&state).unwrap()).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&claude_json, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    let before = tree(home.path());
    ok(&repo, home.path(), &["install", "claude-code", "--user"]);
    ok(&repo, home.path(), &["install", "codex", "--user"]);
    ok(&repo, home.path(), &["install", "opencode", "--user"]);
    ok(&repo, home.path(), &["install", "cursor", "--user"]);
    assert_eq!(parse(&claude_json)["mcpServers"]["ctx"]["command"], "ctx");
    assert_eq!(parse(&claude_json)["mcpServers"]["mem"]["command"], "mem");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&claude_json).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the private file stays private");
    }
    assert_eq!(
        parse(home.path().join(".claude/settings.json"))["hooks"]["SessionEnd"][0]["hooks"][0]["command"],
        "ctx hook SessionEnd"
    );
    assert!(home.path().join(".codex/config.toml").is_file());
    assert!(home.path().join(".config/opencode/opencode.json").is_file());
    assert!(home.path().join(".cursor/mcp.json").is_file());
    assert_eq!(tree(repo.root()), vec![(".ctx".to_string(), None)], "nothing in the project");

    for harness in ["claude-code", "codex", "opencode", "cursor"] {
        ok(&repo, home.path(), &["uninstall", harness, "--user"]);
    }
    // ~/.config itself stays (install may not have made it; only the harness's folder goes).
    let mut after = tree(home.path());
    after.retain(|(path, _)| path != ".config");
    assert_eq!(after, before);
}

#[test]
fn a_ctx_entry_with_other_args_is_updated_and_a_custom_command_is_written() {
    let (repo, home) = project();
    repo.write(
        ".mcp.json",
        "{\"mcpServers\": {\"ctx\": {\"command\": \"ctx\", \"args\": [\"serve\", \"--old\"]}}}\n",
    );
    let out = ok(&repo, home.path(), &["install", "claude-code", "--command", "/opt/ctx tools/bin/ctx"]);
    assert!(out.contains("mcpServers.ctx: updated"), "{out}");
    let servers = parse(repo.path(".mcp.json"));
    assert_eq!(
        servers["mcpServers"]["ctx"],
        json!({"command": "/opt/ctx tools/bin/ctx", "args": ["mcp"], "type": "stdio"})
    );
    let hooks = parse(repo.path(".claude/settings.json"));
    assert_eq!(hooks["hooks"]["Stop"][0]["hooks"][0]["command"], "'/opt/ctx tools/bin/ctx' hook Stop");
    // Back to plain `ctx`: replaced, not doubled; and uninstall knows both.
    ok(&repo, home.path(), &["install", "claude-code"]);
    let hooks = parse(repo.path(".claude/settings.json"));
    assert_eq!(hooks["hooks"]["Stop"].as_array().unwrap().len(), 1);
    assert_eq!(hooks["hooks"]["Stop"][0]["hooks"][0]["command"], "ctx hook Stop");
    ok(&repo, home.path(), &["uninstall", "claude-code"]);
    assert!(!repo.path(".claude").exists());
    // The file held ctx's server alone: it goes (the old `serve` entry is not brought back).
    assert!(!repo.path(".mcp.json").exists());
}

#[test]
fn a_broken_file_is_refused_and_nothing_is_written() {
    let (repo, home) = project();
    repo.write(".mcp.json", "{\"mcpServers\": {}}\n");
    repo.write(".claude/settings.json", "{\n  \"hooks\": {\n    \"Stop\": [\n  }\n}\n");
    let before = tree(repo.root());
    let out = run(&repo, home.path(), &["install", "claude-code"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            ".claude/settings.json: not valid JSON: line 4, column 3: expected a value; nothing was written"
        ),
        "{stderr}"
    );
    assert_eq!(tree(repo.root()), before, ".mcp.json, planned first, was not written either");

    repo.write(".claude/settings.json", "{\n  // mine\n  \"model\": \"opus\"\n}\n");
    let out = run(&repo, home.path(), &["--json", "install", "claude-code"]);
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"]["code"], "INVALID_HARNESS_CONFIG");
    assert!(error["error"]["message"].as_str().unwrap().contains("comments are not allowed"));

    // A project install needs the workspace (or --root).
    let bare = Repo::new();
    let out = run(&bare, home.path(), &["--json", "install", "cursor"]);
    let error: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(error["error"]["code"], "NOT_A_WORKSPACE");
}

#[test]
fn install_warns_when_the_harness_could_not_start_the_command() {
    let (repo, home) = project();
    let binary = assert_cmd::cargo::cargo_bin!("ctx");
    let warned = |args: &[&str], path: &std::ffi::OsStr| {
        let out = repo.cmd(args).env("HOME", home.path()).env("PATH", path).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stderr).unwrap().contains("not an executable on PATH")
    };
    let bin_dir = binary.parent().unwrap().as_os_str();
    // `ctx` on PATH, or an absolute path to it: no warning.
    assert!(!warned(&["install", "cursor"], bin_dir));
    assert!(!warned(&["install", "cursor", "--command", binary.to_str().unwrap()], "/nowhere".as_ref()));
    // Neither: the entry is written, and the user is told the harness will not find it.
    assert!(warned(&["install", "cursor"], "/nowhere".as_ref()));
    assert!(warned(&["install", "cursor", "--command", "/opt/missing/ctx"], bin_dir));
    assert!(repo.path(".cursor/mcp.json").exists());
    // Uninstalling needs no program.
    assert!(!warned(&["uninstall", "cursor"], "/nowhere".as_ref()));
}
