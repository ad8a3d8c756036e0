//! `ctx hook EVENT`: Claude Code's hook payloads on stdin, its JSON answer
//! on stdout, the caps, silence on weak matches, exit 0 on every failure,
//! and the incremental ingest of the transcript (docs/hooks.md).

use std::io::Write;
use std::path::Path;

use serde_json::{Value, json};

use crate::util::Repo;

const FIXTURE: &str = r#"
//- README.md
# shop
An online shop.
//- src/auth/session_token.rs
//! Session tokens: issue, refresh, revoke.
pub struct SessionToken { pub expires_at: u64 }
pub fn refresh_session_token(token: &SessionToken) -> SessionToken { SessionToken { expires_at: token.expires_at + 3600 } }
pub fn revoke_session_token(token: SessionToken) {}
//- src/auth/mod.rs
pub mod session_token;
//- src/billing/invoice.rs
//! Invoices.
pub struct Invoice { pub total_cents: u64 }
pub fn render_invoice_pdf(invoice: &Invoice) -> Vec<u8> { Vec::new() }
//- src/lib.rs
pub mod auth;
pub mod billing;
"#;

/// A hook's answer.
struct Answer {
    status: std::process::ExitStatus,
    stdout: String,
    stderr: String,
}

impl Answer {
    /// The injected text, insisting on the JSON shape Claude Code reads.
    fn context(&self, event: &str) -> String {
        let value: Value = serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("{e}: {:?} (stderr: {:?})", self.stdout, self.stderr));
        assert_eq!(value["hookSpecificOutput"]["hookEventName"], event, "{value}");
        assert_eq!(value.as_object().unwrap().len(), 1, "{value}");
        value["hookSpecificOutput"]["additionalContext"].as_str().expect("additionalContext").to_string()
    }

    /// Exit 0, nothing on stdout.
    fn assert_silent(&self, what: &str) {
        assert!(self.status.success(), "{what}: {:?} {}", self.status, self.stderr);
        assert_eq!(self.stdout, "", "{what}: injected something");
    }
}

/// The payload Claude Code sends for `event` (the common fields, then the
/// event's own), as its hooks reference documents them.
fn payload(event: &str, cwd: &Path, transcript: &Path, extra: Value) -> Value {
    let mut value = json!({
        "session_id": "5f0c3a52-9a41-4c1e-8d52-1f7b2f4a9e10",
        "transcript_path": transcript,
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": event,
    });
    let own = match event {
        "SessionStart" => json!({ "source": "startup" }),
        "UserPromptSubmit" => json!({ "prompt": "" }),
        "PreCompact" => json!({ "trigger": "auto", "custom_instructions": "" }),
        "Stop" => json!({ "stop_hook_active": false }),
        "SessionEnd" => json!({ "reason": "prompt_input_exit" }),
        _ => json!({}),
    };
    for (key, v) in own.as_object().unwrap().iter().chain(extra.as_object().unwrap()) {
        value[key] = v.clone();
    }
    value
}

/// Run `ctx hook EVENT` in `dir` with `stdin` (`ctx hook` alone when `event` is empty).
fn hook_in(dir: &Path, event: &str, stdin: &[u8]) -> Answer {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin!("ctx"))
        .arg("hook")
        .args(Some(event).filter(|e| !e.is_empty()))
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn ctx");
    let mut input = child.stdin.take().unwrap();
    let _ = input.write_all(stdin);
    drop(input);
    let out = child.wait_with_output().unwrap();
    Answer {
        status: out.status,
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn hook(repo: &Repo, event: &str, payload: &Value) -> Answer {
    hook_in(repo.root(), event, payload.to_string().as_bytes())
}

/// What UserPromptSubmit injects for `prompt` (with no transcript yet).
fn prompt_context(repo: &Repo, prompt: &str) -> String {
    let transcript = repo.path("t.jsonl");
    let payload = payload("UserPromptSubmit", repo.root(), &transcript, json!({ "prompt": prompt }));
    hook(repo, "UserPromptSubmit", &payload).context("UserPromptSubmit")
}

fn tokens(text: &str) -> usize {
    ctxkeep_core::tokens::TokenizerKind::O200k.get().count(text)
}

/// A Claude Code transcript line of a person's prompt.
fn line(uuid: &str, text: &str) -> String {
    json!({
        "type": "user",
        "message": { "role": "user", "content": text },
        "uuid": uuid,
        "sessionId": "5f0c3a52-9a41-4c1e-8d52-1f7b2f4a9e10",
        "timestamp": "2026-03-01T10:00:00.000Z",
    })
    .to_string()
        + "\n"
}

fn records(repo: &Repo) -> u64 {
    repo.json(&["status"])["records"].as_u64().unwrap()
}

#[test]
fn session_start_injects_boot_the_folders_context_and_the_pack_within_the_cap() {
    let repo = Repo::init(FIXTURE);
    let transcript = repo.path("t.jsonl");
    // A fresh memory: no pack of "(none)"s. Claude Code has read ctx's
    // section of CLAUDE.md (init wrote it): boot.md's five-line reminder only.
    let text = hook(&repo, "SessionStart", &payload("SessionStart", repo.root(), &transcript, json!({})))
        .context("SessionStart");
    assert!(text.contains("## ctx: how to get context here") && !text.contains("CONTEXTFS"), "{text}");
    assert!(!text.contains("How to get context in this repository"), "{text}");
    // Without that section, boot.md itself.
    repo.remove("CLAUDE.md");

    repo.ok(&["pin", "add", "Never log a session token"]);
    repo.ok(&["folder", "describe", "src/auth", "--description", "Who may do what: sessions and tokens"]);
    repo.ok(&["build"]);
    for source in ["startup", "resume", "clear", "compact"] {
        let answer = hook(
            &repo,
            "SessionStart",
            &payload("SessionStart", &repo.path("src/auth"), &transcript, json!({ "source": source })),
        );
        assert!(answer.status.success() && answer.stderr.is_empty(), "{}", answer.stderr);
        let text = answer.context("SessionStart");
        assert!(text.contains("How to get context in this repository"), "boot.md:\n{text}");
        assert!(text.contains("Who may do what: sessions and tokens"), "the folder's context:\n{text}");
        assert!(
            text.contains("<<<CONTEXTFS:BEGIN>>>") && text.contains("Never log a session token"),
            "{text}"
        );
        assert!(tokens(&text) <= 2000, "{} tokens", tokens(&text));
    }

    // A tight cap: boot.md gives way to its short version or goes, the pack stays.
    repo.write(".ctx/config.toml", "[hooks.session_start]\ntokens = 400\n");
    let text =
        hook(&repo, "SessionStart", &payload("SessionStart", &repo.path("src/auth"), &transcript, json!({})))
            .context("SessionStart");
    assert!(tokens(&text) <= 400, "{} tokens:\n{text}", tokens(&text));
    assert!(!text.contains("How to get context in this repository"), "{text}");
    assert!(text.contains("Never log a session token"), "the pack goes last:\n{text}");

    // What is injected, and in which order, is configured.
    repo.write(".ctx/config.toml", "[hooks.session_start]\ninject = [\"folder\"]\n");
    let text = hook(&repo, "SessionStart", &payload("SessionStart", repo.root(), &transcript, json!({})))
        .context("SessionStart");
    assert!(
        text.starts_with("# Context: /\n") || text.contains("# Context: /\n"),
        "the root's context:\n{text}"
    );
    assert!(!text.contains("CONTEXTFS") && !text.contains("How to get context"), "{text}");
    // Without what only the file needs: when it was made, its hash, how to change it.
    assert!(text.contains("> Tier: minimal"), "{text}");
    for only_the_file in ["> Generated: ", "> Source hash: ", "Generated by ctx from"] {
        assert!(!text.contains(only_the_file), "{only_the_file}:\n{text}");
    }
}

#[test]
fn user_prompt_injects_relevant_files_and_records_within_the_cap() {
    let repo = Repo::init(FIXTURE);
    let transcript = repo.path("t.jsonl");
    std::fs::write(
        &transcript,
        line("u1", "the session token refresh must keep the expiry in seconds")
            + &line("u2", "ship the invoice pdf"),
    )
    .unwrap();
    hook(&repo, "Stop", &payload("Stop", repo.root(), &transcript, json!({}))).assert_silent("Stop");
    let ask = |prompt: &str| {
        hook(
            &repo,
            "UserPromptSubmit",
            &payload("UserPromptSubmit", repo.root(), &transcript, json!({ "prompt": prompt })),
        )
    };
    let answer = ask("refreshing a session token loses its expiry");
    let text = answer.context("UserPromptSubmit");
    assert!(text.contains("src/auth/session_token.rs: refresh_session_token"), "{text}");
    assert!(!text.contains("invoice"), "only what is relevant:\n{text}");
    assert!(text.contains("the session token refresh must keep the expiry"), "the record:\n{text}");
    assert!(tokens(&text) <= 600);
    // The hook's search is not the agent's: the pack's "last search" stays the agent's own.
    assert!(!repo.ok(&["pack"]).contains("last search"), "{}", repo.ok(&["pack"]));
    repo.ok(&["search", "invoice"]);
    ask("refreshing a session token loses its expiry").context("UserPromptSubmit");
    assert!(repo.ok(&["pack"]).contains("last search: \"invoice\""), "{}", repo.ok(&["pack"]));

    // A small cap: the records go first, then the files from the last.
    repo.write(".ctx/config.toml", "[hooks.user_prompt_submit]\ntokens = 60\n");
    let text = ask("refreshing a session token loses its expiry").context("UserPromptSubmit");
    assert!(tokens(&text) <= 60, "{} tokens:\n{text}", tokens(&text));
    assert!(text.contains("session_token.rs") && !text.contains("past sessions"), "{text}");

    // The per-turn pack (the contract's autoInject) as a choice.
    repo.ok(&["pin", "add", "Money is in cents"]);
    repo.write(".ctx/config.toml", "[hooks.user_prompt_submit]\ninject = [\"pack\"]\ntokens = 300\n");
    let text = ask("yes").context("UserPromptSubmit");
    assert!(text.contains("<<<CONTEXTFS:BEGIN>>>") && text.contains("Money is in cents"), "{text}");
    assert!(tokens(&text) <= 300);
}

#[test]
fn user_prompt_orders_its_files_as_rank_does() {
    let repo = Repo::with_files(
        r#"
//- src/pager.rs
//! Runs the pager the user asks for in BAT_PAGER, its arguments split as a shell would.
pub fn get_pager_executable(config: Option<&str>) -> Option<String> {
    let command = std::env::var("BAT_PAGER").ok()?;
    shell_words::split(&command).ok()?.first().cloned()
}
//- tests/integration_tests.rs
fn pager_env_bat_pager_quoted_args_split() {}
fn pager_env_bat_pager_quoted_arguments() {}
//- src/lib.rs
pub mod pager;
"#,
    );
    repo.git(&["init", "--quiet"]);
    repo.git(&["add", "."]);
    repo.git(&["commit", "--quiet", "-m", "Start"]);
    let pager = std::fs::read_to_string(repo.path("src/pager.rs")).unwrap();
    repo.write("src/pager.rs", &pager.replace("first()", "into_iter().next()"));
    repo.git(&["commit", "--quiet", "-am", "Fix quoting of BAT_PAGER arguments"]);
    // `ctx init` alone, as a user runs it: it keeps what the hook ranks with (the
    // words of every file, the history at this HEAD); no `ctx rank` warms the store.
    repo.ok(&["init", "--no-agents"]);
    let transcript = repo.path("t.jsonl");
    let prompt = "BAT_PAGER with quoted arguments is split wrong";
    let answer = hook(
        &repo,
        "UserPromptSubmit",
        &payload("UserPromptSubmit", repo.root(), &transcript, json!({ "prompt": prompt })),
    );
    let text = answer.context("UserPromptSubmit");
    // The test's names hold more of the prompt's words; the code that does it, changed
    // by a commit described like the prompt, comes first all the same.
    let first = text.lines().find(|l| l.starts_with("- ")).unwrap_or_default();
    assert!(first.starts_with("- src/pager.rs: get_pager_executable"), "{text}");
}

#[test]
fn user_prompt_reads_the_area_a_commit_style_prompt_names() {
    let repo = Repo::with_files(
        r#"
//- examples/server.js
const express = require('express')
const app = express()
app.listen(3000)
//- lib/adapters/http.js
function httpAdapter (config) {
  return config
}
module.exports = { httpAdapter }
"#,
    );
    repo.ok(&["init", "--no-agents"]);
    // No word of it names a file or a definition; its area names a folder.
    let text = prompt_context(&repo, "fix(examples): application crashed when navigating in browser");
    assert!(text.contains("- examples/server.js"), "{text}");
    assert!(!text.contains("http.js"), "{text}");
    // Without it, nothing.
    let transcript = repo.path("none.jsonl");
    let prompt = json!({ "prompt": "fix: application crashed when navigating in browser" });
    let payload = payload("UserPromptSubmit", repo.root(), &transcript, prompt);
    hook(&repo, "UserPromptSubmit", &payload).assert_silent("no area");
}

#[test]
fn user_prompt_shows_the_file_it_gives_by_path_first_without_pushing_out_the_others() {
    let repo = Repo::with_files(
        r#"
//- src/auth/store.rs
//! Refreshes a session token, keeping its expiry.
pub fn refresh_session_token(token: &str, expiry_seconds: u64) -> String { token.into() }
//- src/auth/clock.rs
pub fn now() -> u64 { 0 }
//- src/billing/invoice.rs
pub fn render_invoice_pdf() {}
"#,
    );
    repo.ok(&["init", "--no-agents"]);
    let prompt = "refreshing a session token loses its expiry; the time comes from src/auth/clock.rs";
    let text = prompt_context(&repo, prompt);
    let files: Vec<&str> = text.lines().filter(|l| l.starts_with("- src/")).collect();
    // The file given by path leads; the one the prompt's words describe is still shown.
    assert!(files.first().is_some_and(|l| l.starts_with("- src/auth/clock.rs")), "{text}");
    assert!(files.iter().any(|l| l.starts_with("- src/auth/store.rs")), "{text}");
    assert!(!text.contains("invoice"), "{text}");
    // A path alone: that file, with what it defines that matters most (the prompt's
    // words name none of it), and none that nothing points to.
    let text = prompt_context(&repo, "read src/auth/clock.rs first");
    let files: Vec<&str> = text.lines().filter(|l| l.starts_with("- src/")).collect();
    assert_eq!(files, ["- src/auth/clock.rs: now (l. 1)"], "{text}");
}

#[test]
fn user_prompt_shows_what_rank_finds_not_only_what_is_named_like_the_prompt() {
    let repo = Repo::with_files(
        r#"
//- src/networks.rs
//! Addresses: a URL compared for equality with foreign types returns NotImplemented,
//! so the other side may answer; equality of two URLs compares their parts.
pub struct Address { parts: Vec<String> }
pub fn compare(a: &Address, other: &dyn std::any::Any) -> Option<bool> { None }
//- tests/url_equality.rs
fn url_equality_with_foreign_types() {}
fn url_equality_of_two_urls() {}
//- src/lib.rs
pub mod networks;
"#,
    );
    repo.ok(&["init", "--no-agents"]);
    let prompt = "URL equality with foreign types should return NotImplemented";
    let text = prompt_context(&repo, prompt);
    // networks.rs holds the prompt's words in its text, none in its path or names; the
    // test names them all. Both are rank's first, and the hook shows both: networks.rs
    // with its most important definitions, since the words name none of them.
    assert!(text.contains("- tests/url_equality.rs: url_equality_with_foreign_types"), "{text}");
    assert!(text.lines().any(|l| l == "- src/networks.rs: Address (l. 3), compare (l. 4)"), "{text}");
}

#[test]
fn after_init_alone_the_prompt_hook_ranks_a_large_tree_on_its_contents() {
    // More files than a hook reads for their words itself (black's 482: its test
    // cases named like every task about parentheses); `ctx init` alone before it.
    let mut fixture = String::from(
        "//- src/linegen.py\n\
         def normalize_invisible_parens(node, parens_after):\n\
         \x20   \"\"\"Make existing optional parentheses invisible, or create new ones.\n\
         \n\
         \x20   Rescans each child once: a quadratic rescan of every child made long files slow.\n\
         \x20   \"\"\"\n\
         \x20   for child in node.children:\n\
         \x20       child.invisible = True\n",
    );
    for i in 0..300 {
        fixture.push_str(&format!("//- tests/data/cases/remove_parens_{i}.py\nprint((({i})))\n"));
    }
    let repo = Repo::with_files(&fixture);
    repo.ok(&["init", "--no-agents"]);
    let prompt = "avoid quadratic child rescan in normalize_invisible_parens";
    let payload =
        payload("UserPromptSubmit", repo.root(), &repo.path("t.jsonl"), json!({ "prompt": prompt }));
    let text = hook(&repo, "UserPromptSubmit", &payload).context("UserPromptSubmit");
    let first = text.lines().find(|l| l.starts_with("- ")).unwrap_or_default();
    assert_eq!(first, "- src/linegen.py: normalize_invisible_parens (l. 1)", "{text}");
}

#[test]
fn user_prompt_sees_the_tree_and_history_as_they_are_now_not_as_at_init() {
    let repo = Repo::with_files(
        r#"
//- src/lib.rs
pub mod render;
//- src/render.rs
//! Renders pages.
pub fn render_page(title: &str) -> String { title.to_string() }
"#,
    );
    repo.git(&["init", "--quiet"]);
    repo.git(&["add", "."]);
    repo.git(&["commit", "--quiet", "-m", "Start"]);
    repo.ok(&["init", "--no-agents"]);
    // After `ctx init`, with no other ctx command: a commit, and a file the agent
    // wrote in its last turn, neither scanned nor parsed yet.
    repo.write(
        "src/stripes.rs",
        "//! Zebra stripes.\npub fn paint_zebra_stripes(width: usize) -> Vec<u8> { vec![0; width] }\n",
    );
    repo.git(&["add", "src/stripes.rs"]);
    repo.git(&["commit", "--quiet", "-m", "Paint zebra stripes across the page width"]);
    repo.write(
        "src/palette.rs",
        "//! Colours.\npub fn alternate_stripe_colours(n: usize) -> Vec<u8> { (0..n).map(|i| (i % 2) as u8).collect() }\n",
    );
    let transcript = repo.path("t.jsonl");
    let ask = |prompt: &str| {
        let payload = payload("UserPromptSubmit", repo.root(), &transcript, json!({ "prompt": prompt }));
        hook(&repo, "UserPromptSubmit", &payload).context("UserPromptSubmit")
    };
    let text = ask("alternate colours are off by one");
    let first = text.lines().find(|l| l.starts_with("- ")).unwrap_or_default();
    assert_eq!(first, "- src/palette.rs: alternate_stripe_colours (l. 2)", "{text}");
    // The commit made after init is in the history the hook ranks with: a prompt
    // described like it finds the file it added, by the words of its message too.
    let text = ask("zebra stripes across the page width look wrong");
    let first = text.lines().find(|l| l.starts_with("- ")).unwrap_or_default();
    assert_eq!(first, "- src/stripes.rs: paint_zebra_stripes (l. 2)", "{text}");
}

#[test]
fn user_prompt_puts_the_code_before_the_docs_site_examples_and_tests_that_say_its_words() {
    // jotai's shape: a Gatsby site and an example that say a user's words more
    // often than the code that keeps the value, and a test named for it.
    let repo = Repo::with_files(
        r#"
//- src/utils/storage.ts
export function atomWithStorage(key: string, initialValue: unknown, storage: Storage) {
  const saved = storage.getItem(key)
  return saved === null ? initialValue : JSON.parse(saved)
}
//- src/store.ts
export function createStore() { return new Map() }
//- website/src/pages/saving.js
export default function SavingPage() { return 'Reloading the page keeps the saved value: the saved value is read back from storage after a reload of the page' }
//- examples/persist/index.js
export const reloadPage = () => { const saved = localStorage.getItem('saved'); return saved || 'the saved value after reloading the page' }
//- tests/storage.test.ts
test('the saved value is read back after reloading the page', () => {})
"#,
    );
    repo.ok(&["init", "--no-agents"]);
    let text = prompt_context(&repo, "after reloading the page the value I saved in storage is gone");
    let files: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("- ")?.split(':').next()).collect();
    assert_eq!(files.first(), Some(&"src/utils/storage.ts"), "{text}");
    let place = |path: &str| files.iter().position(|f| *f == path).unwrap_or(usize::MAX);
    for other in ["website/src/pages/saving.js", "examples/persist/index.js", "tests/storage.test.ts"] {
        assert!(place(other) > place("src/utils/storage.ts"), "{other}: {text}");
    }
    // Unless the prompt points there.
    let text = prompt_context(&repo, "the example that reloads the page loses the saved value");
    let first = text.lines().find(|l| l.starts_with("- ")).unwrap_or_default();
    assert!(first.starts_with("- examples/persist/index.js"), "{text}");
}

#[test]
fn user_prompt_finds_a_module_its_tests_are_named_for_and_a_method_only_one_file_calls() {
    // express's and fastify's shapes: `lib/validation.js` and the tests named for
    // it; a builtin method (`trimRight`) that one file calls and none defines.
    let repo = Repo::with_files(
        r#"
//- lib/validation.js
function compileSchemas (context) { return context.schema }
module.exports = { compileSchemas }
//- lib/request.js
function host (req) { return req.headers.host.trimRight() }
module.exports = { host }
//- lib/response.js
function send (res, body) { res.end(body) }
module.exports = { send }
//- test/validation.test.js
test('compiles', () => {})
//- test/validation-errors.test.js
test('reports', () => {})
//- test/internals/validation.test.js
test('internals', () => {})
"#,
    );
    repo.ok(&["init", "--no-agents"]);
    let first = |prompt: &str| {
        let text = prompt_context(&repo, prompt);
        text.lines().find(|l| l.starts_with("- ")).unwrap_or_default().to_string()
    };
    assert!(first("fix(validation): preserve coerced root values").starts_with("- lib/validation.js"));
    assert!(first("replace deprecated trimRight() with trimEnd()").starts_with("- lib/request.js"));
}

#[test]
fn user_prompt_injects_nothing_for_a_workflow_prompt_even_where_the_code_uses_its_words() {
    // A version-control tool: its code speaks of commits, pushes and tests.
    let repo = Repo::with_files(
        r#"
//- src/commit.rs
//! Writing a commit and pushing it to a remote.
pub fn commit_tree(message: &str) -> String { message.into() }
pub fn push_commit(remote: &str) {}
//- src/run.rs
pub fn run_tests() {}
//- src/message.rs
pub fn wrap_commit_message(message: &str) -> String { message.into() }
"#,
    );
    repo.ok(&["init", "--no-agents"]);
    let transcript = repo.path("none.jsonl");
    for prompt in ["commit this and push", "run the tests", "run cargo fmt and push"] {
        let payload = payload("UserPromptSubmit", repo.root(), &transcript, json!({ "prompt": prompt }));
        hook(&repo, "UserPromptSubmit", &payload).assert_silent(prompt);
    }
    // A word of the code besides, and the workflow's words count with it.
    let text = prompt_context(&repo, "commit messages are pushed unwrapped");
    assert!(text.contains("- src/message.rs") && text.contains("- src/commit.rs"), "{text}");
}

#[test]
fn user_prompt_injects_nothing_for_unrelated_or_trivial_prompts() {
    let repo = Repo::init(FIXTURE);
    let transcript = repo.path("t.jsonl");
    std::fs::write(&transcript, line("u1", "the session token refresh must keep the expiry")).unwrap();
    hook(&repo, "Stop", &payload("Stop", repo.root(), &transcript, json!({}))).assert_silent("Stop");
    for prompt in [
        "what is a good recipe for banana bread",
        "write a poem about the sea",
        "yes",
        "continue",
        "ok, go ahead",
        "/compact",
        "/review src/auth",
        "",
    ] {
        let answer = hook(
            &repo,
            "UserPromptSubmit",
            &payload("UserPromptSubmit", repo.root(), &transcript, json!({ "prompt": prompt })),
        );
        answer.assert_silent(prompt);
        assert_eq!(answer.stderr, "", "{prompt}");
    }
}

#[test]
fn every_failure_exits_0_with_one_line_on_stderr_and_nothing_injected() {
    let events = ["SessionStart", "UserPromptSubmit", "PreCompact", "Stop", "SessionEnd"];
    let check = |answer: Answer, what: &str| {
        answer.assert_silent(what);
        assert_eq!(answer.stderr.lines().count(), 1, "{what}: {:?}", answer.stderr);
    };
    // No .ctx/ anywhere above.
    let bare = tempfile::tempdir().unwrap();
    for event in events {
        let input =
            payload(event, bare.path(), &bare.path().join("t.jsonl"), json!({ "prompt": "session token" }));
        let answer = hook_in(bare.path(), event, input.to_string().as_bytes());
        assert!(answer.stderr.contains("ctx hook"), "{}", answer.stderr);
        check(answer, &format!("{event} without .ctx/"));
    }

    let repo = Repo::init(FIXTURE);
    let transcript = repo.path("t.jsonl");
    // Not JSON, or not an object; a payload without a transcript, or with one that is missing.
    for event in events {
        check(hook_in(repo.root(), event, b"{not json"), &format!("{event} on bad JSON"));
        check(hook_in(repo.root(), event, b"[1, 2]"), &format!("{event} on a JSON array"));
    }
    for event in ["PreCompact", "Stop", "SessionEnd"] {
        let mut input = payload(event, repo.root(), &transcript, json!({}));
        check(hook(&repo, event, &input), &format!("{event}: missing transcript"));
        input.as_object_mut().unwrap().remove("transcript_path");
        check(hook(&repo, event, &input), &format!("{event}: no transcript_path"));
    }
    // A transcript that is not JSON lines at all.
    std::fs::write(&transcript, b"\x00\x01binary\n").unwrap();
    check(hook(&repo, "Stop", &payload("Stop", repo.root(), &transcript, json!({}))), "binary transcript");

    // The time cap: past it, nothing, whatever the work was doing.
    repo.write(".ctx/config.toml", "[hooks]\ntimeout_ms = 1\n");
    let answer = hook(&repo, "SessionStart", &payload("SessionStart", repo.root(), &transcript, json!({})));
    assert!(answer.stderr.contains("gave up after 1 ms"), "{}", answer.stderr);
    check(answer, "timeout");
    // A configuration that does not parse.
    repo.write(".ctx/config.toml", "[hooks]\nbogus = 1\n");
    check(
        hook(&repo, "SessionStart", &payload("SessionStart", repo.root(), &transcript, json!({}))),
        "bad config",
    );
    repo.remove(".ctx/config.toml");

    // A damaged store: garbage where the database was.
    std::fs::write(repo.path(".ctx/ctx.db"), vec![0xA5u8; 64 * 1024]).unwrap();
    for event in events {
        let input = payload(event, repo.root(), &transcript, json!({ "prompt": "session token refresh" }));
        check(hook(&repo, event, &input), &format!("{event} on a damaged store"));
    }

    // Claude Code's events ctx does not answer: nothing at all.
    for event in ["Notification", "PreToolUse", "SubagentStop"] {
        let answer = hook(&repo, event, &payload(event, repo.root(), &transcript, json!({})));
        answer.assert_silent(event);
        assert_eq!(answer.stderr, "", "{event}");
    }
    // A name no harness sends is a mistake in the hook's configuration: one line says so.
    let answer = hook(&repo, "bogus", &payload("bogus", repo.root(), &transcript, json!({})));
    answer.assert_silent("bogus");
    assert!(
        answer.stderr.starts_with("ctx hook: unknown event `bogus`") && answer.stderr.lines().count() == 1,
        "{}",
        answer.stderr
    );
}

#[test]
fn an_event_is_named_however_it_is_written() {
    let repo = Repo::init(FIXTURE);
    let prompt = json!({ "prompt": "refreshing a session token loses its expiry" });
    let input = payload("UserPromptSubmit", repo.root(), &repo.path("t.jsonl"), prompt);
    for name in ["UserPromptSubmit", "user-prompt-submit", "user_prompt_submit"] {
        let context = hook(&repo, name, &input).context("UserPromptSubmit");
        assert!(context.contains("src/auth/session_token.rs"), "{name}: {context}");
    }
}

#[test]
fn without_an_event_argument_the_payload_names_the_event() {
    let repo = Repo::init(FIXTURE);
    let transcript = repo.path("t.jsonl");
    let start = hook(&repo, "", &payload("SessionStart", repo.root(), &transcript, json!({})));
    assert!(start.context("SessionStart").contains("## ctx: how to get context here"), "{}", start.stdout);
    let prompt = json!({ "prompt": "refresh_session_token keeps the expiry of a revoked token" });
    let answer = hook(&repo, "", &payload("UserPromptSubmit", repo.root(), &transcript, prompt));
    assert!(answer.context("UserPromptSubmit").contains("refresh_session_token"), "{}", answer.stdout);
    // An event ctx does not answer, named only in the payload: nothing, as when named.
    let answer = hook(&repo, "", &payload("Notification", repo.root(), &transcript, json!({})));
    answer.assert_silent("Notification in the payload");
    assert_eq!(answer.stderr, "");
    // Named nowhere: one line says how to name it, and the session goes on.
    let mut input = payload("SessionStart", repo.root(), &transcript, json!({}));
    input.as_object_mut().unwrap().remove("hook_event_name");
    let answer = hook(&repo, "", &input);
    answer.assert_silent("no event anywhere");
    assert!(answer.stderr.starts_with("ctx hook: no event: name it"), "{}", answer.stderr);
    // The argument wins over the payload.
    let answer = hook(&repo, "Stop", &payload("SessionStart", repo.root(), &transcript, json!({})));
    answer.assert_silent("Stop named, SessionStart in the payload");
}

#[test]
fn transcripts_are_ingested_incrementally() {
    let repo = Repo::init(FIXTURE);
    let transcript = repo.path("session.jsonl");
    std::fs::write(&transcript, line("u1", "first prompt") + &line("u2", "second prompt")).unwrap();
    let stop = payload("Stop", repo.root(), &transcript, json!({}));
    hook(&repo, "Stop", &stop).assert_silent("Stop");
    assert_eq!(records(&repo), 2);
    let cursor =
        || repo.db().query_row("SELECT read_to FROM transcript_cursors", [], |r| r.get::<_, i64>(0)).unwrap();
    let read_to = cursor();

    // The same payload again: nothing new, nothing read.
    hook(&repo, "Stop", &stop).assert_silent("Stop again");
    assert_eq!((records(&repo), cursor()), (2, read_to));

    // Appended lines, the last one half-written: the complete one only.
    let third = line("u3", "third prompt");
    let fourth = line("u4", "fourth prompt");
    let mut file = std::fs::OpenOptions::new().append(true).open(&transcript).unwrap();
    file.write_all(third.as_bytes()).unwrap();
    file.write_all(&fourth.as_bytes()[..30]).unwrap();
    hook(&repo, "PreCompact", &payload("PreCompact", repo.root(), &transcript, json!({})))
        .assert_silent("PreCompact");
    assert_eq!(records(&repo), 3);
    assert_eq!(cursor(), read_to + third.len() as i64, "the half line waits");
    file.write_all(&fourth.as_bytes()[30..]).unwrap();
    hook(&repo, "SessionEnd", &payload("SessionEnd", repo.root(), &transcript, json!({})))
        .assert_silent("SessionEnd");
    assert_eq!(records(&repo), 4);
    assert!(repo.ok(&["search", "fourth"]).contains("fourth prompt"));

    // Rewritten (shorter, other lines): read again from the start, idempotently.
    std::fs::write(&transcript, line("u1", "first prompt") + &line("u5", "after a rewrite")).unwrap();
    hook(&repo, "Stop", &stop).assert_silent("Stop after a rewrite");
    assert_eq!(records(&repo), 5);
    assert!(repo.ok(&["search", "rewrite"]).contains("after a rewrite"));

    // Ingest switched off for an event.
    repo.write(".ctx/config.toml", "[hooks.ingest]\nstop = false\n");
    let mut file = std::fs::OpenOptions::new().append(true).open(&transcript).unwrap();
    file.write_all(line("u6", "not now").as_bytes()).unwrap();
    hook(&repo, "Stop", &stop).assert_silent("Stop switched off");
    assert_eq!(records(&repo), 5);
    hook(&repo, "SessionEnd", &payload("SessionEnd", repo.root(), &transcript, json!({})))
        .assert_silent("SessionEnd");
    assert_eq!(records(&repo), 6);
}

#[test]
fn session_start_catches_up_the_last_turns_an_earlier_session_wrote_after_its_last_hook() {
    let repo = Repo::init(FIXTURE);
    std::fs::create_dir_all(repo.path("projects")).unwrap();
    let earlier = repo.path("projects/earlier.jsonl");
    std::fs::write(&earlier, line("u1", "first prompt")).unwrap();
    hook(&repo, "SessionEnd", &payload("SessionEnd", repo.root(), &earlier, json!({})))
        .assert_silent("SessionEnd");
    assert_eq!(records(&repo), 1);
    // Claude Code exited before its last turn reached the transcript: no hook saw it.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&earlier)
        .unwrap()
        .write_all(line("u2", "the zeppelin turn nobody ingested").as_bytes())
        .unwrap();
    // The next session, in the same folder, catches up, and its pack shows that turn.
    let next = repo.path("projects/next.jsonl");
    let start = payload("SessionStart", repo.root(), &next, json!({ "source": "startup" }));
    let answer = hook(&repo, "SessionStart", &start);
    assert!(answer.stderr.is_empty(), "{}", answer.stderr);
    assert_eq!(records(&repo), 2);
    assert!(answer.context("SessionStart").contains("the zeppelin turn nobody ingested"));
    // Switched off, it does not.
    repo.write(".ctx/config.toml", "[hooks.ingest]\nsession_start = false\n");
    std::fs::OpenOptions::new()
        .append(true)
        .open(&earlier)
        .unwrap()
        .write_all(line("u3", "later").as_bytes())
        .unwrap();
    hook(&repo, "SessionStart", &start).context("SessionStart");
    assert_eq!(records(&repo), 2);
}

#[test]
fn stop_also_ingests_the_sessions_subagent_transcripts() {
    let repo = Repo::init(FIXTURE);
    // Claude Code 2.x: the session's transcript, and its subagents' in <session>/subagents/.
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/transcripts/claude-code-2.1.39");
    let session = "7d2e9b14-6a3f-4c85-b1d0-2f9e8c7a6b02";
    let projects = repo.path("projects");
    std::fs::create_dir_all(projects.join(session).join("subagents")).unwrap();
    let transcript = projects.join(format!("{session}.jsonl"));
    std::fs::copy(fixture.join(format!("{session}.jsonl")), &transcript).unwrap();
    let stop = payload("Stop", repo.root(), &transcript, json!({}));
    hook(&repo, "Stop", &stop).assert_silent("Stop");
    let main_only = records(&repo);
    assert_eq!(repo.json(&["search", "events", "--tag", "subagent"])["hits"], 0);

    for entry in std::fs::read_dir(fixture.join(session).join("subagents")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, projects.join(session).join("subagents").join(path.file_name().unwrap()))
            .unwrap();
    }
    // A background fork of Claude Code's (here: prompt suggestions) is plumbing: left alone.
    std::fs::write(
        projects.join(session).join("subagents").join("agent-aprompt_suggestion-0a1b2c.jsonl"),
        line("f1", "suggest: zeppelin maintenance"),
    )
    .unwrap();
    hook(&repo, "Stop", &stop).assert_silent("Stop with subagents");
    assert!(records(&repo) > main_only);
    assert_eq!(repo.json(&["search", "zeppelin"])["hits"], 0);
    assert!(repo.json(&["search", "events", "--tag", "subagent"])["hits"].as_u64().unwrap() > 0);
    let cursors: i64 =
        repo.db().query_row("SELECT count(*) FROM transcript_cursors", [], |r| r.get(0)).unwrap();
    assert_eq!(cursors, 3, "one cursor per transcript");
    // Replayed: nothing new.
    let all = records(&repo);
    hook(&repo, "SessionEnd", &payload("SessionEnd", repo.root(), &transcript, json!({})))
        .assert_silent("SessionEnd");
    assert_eq!(records(&repo), all);
}

#[test]
fn the_workspace_is_the_payloads_cwd_and_injected_text_is_redacted() {
    // No CLAUDE.md section: SessionStart injects boot.md itself.
    let repo = Repo::init_without_agents(FIXTURE);
    // boot.md is anyone's to edit: a secret pasted there is not injected.
    let token = format!("gh{}_{}", "p", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5");
    let boot = std::fs::read_to_string(repo.path(".ctx/boot.md")).unwrap();
    repo.write(".ctx/boot.md", &format!("{boot}\nDeploy with GITHUB_TOKEN={token}\n"));
    // Run from elsewhere: the payload's cwd finds the workspace.
    let elsewhere = tempfile::tempdir().unwrap();
    let input = payload("SessionStart", &repo.path("src/billing"), &repo.path("t.jsonl"), json!({}));
    let answer = hook_in(elsewhere.path(), "SessionStart", input.to_string().as_bytes());
    let text = answer.context("SessionStart");
    assert!(!text.contains(&token), "{text}");
    assert!(text.contains("[REDACTED:"), "{text}");
    assert!(text.contains("# Context: /src/billing"), "the folder of the payload's cwd:\n{text}");
}
