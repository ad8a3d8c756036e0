//! The work tree: frames and tasks, their assembled context and task
//! prompts, token budgets from the environment and the config, the context
//! cache across processes.

use serde_json::Value;

use crate::util::{Repo, strings};

const TREE: &str = "
//- src/api/routes.rs
pub fn routes() {}
//- src/auth/jwt.rs
pub fn sign() {}
//- src/payments/webhook.rs
pub fn webhook() {}
";

fn repo() -> Repo {
    Repo::init_unbuilt(TREE)
}

/// The `id`s of a JSON array of frames.
fn ids(frames: &Value) -> Vec<String> {
    fields(frames, "id")
}

/// The value of `field` of each frame of a JSON array.
fn fields(frames: &Value, field: &str) -> Vec<String> {
    frames.as_array().unwrap().iter().map(|f| f[field].as_str().unwrap().to_string()).collect()
}

#[test]
fn push_and_pop_move_the_current_frame() {
    let repo = repo();
    assert_eq!(repo.ok(&["frame", "push", "Build the API"]), "pushed F1: Build the API\n");
    let child = repo.json(&["frame", "push", "Add the routes under /api", "--title", "Routes"]);
    assert_eq!(
        (&child["id"], &child["parent"], &child["title"]),
        (&"F2".into(), &"F1".into(), &"Routes".into())
    );
    assert_eq!(child["status"], "in_progress");

    let status = repo.json(&["frame", "status"]);
    assert_eq!(status["current"]["id"], "F2");
    assert_eq!(ids(&status["stack"]), ["F1", "F2"]);
    assert_eq!(
        repo.ok(&["frame", "status"]),
        "F1 [in_progress] Build the API\n  F2 [in_progress] Routes  ← current\n"
    );

    // A frame with work in progress below it cannot end.
    let err = repo.fail(&["frame", "pop", "F1"]);
    assert!(err.contains("F1 has frames in progress (F2)") && err.contains("pop them first"), "{err}");

    let popped = repo.ok(&["frame", "pop", "--summary", "GET and POST routes"]);
    assert_eq!(popped, "popped F2 (completed)\ncurrent frame: F1 [in_progress] Build the API\n");
    let status = repo.json(&["frame", "status"]);
    assert_eq!(status["current"]["id"], "F1");
    assert_eq!(ids(&status["stack"]), ["F1"]);
    let f2 = repo.json(&["frame", "show", "F2"]);
    assert_eq!((&f2["status"], &f2["summary"]), (&"completed".into(), &"GET and POST routes".into()));
    assert!(f2["ended_at"].is_string());

    let err = repo.fail(&["frame", "pop", "F2"]);
    assert!(err.contains("F2 is completed, not in progress"), "{err}");

    let popped = repo.json(&["frame", "pop", "--status", "blocked"]);
    assert_eq!((&popped["id"], &popped["status"]), (&"F1".into(), &"blocked".into()));
    assert_eq!(repo.ok(&["frame", "status"]), "no current frame\n");
    let status = repo.json(&["frame", "status"]);
    assert!(status["current"].is_null() && status["stack"].as_array().unwrap().is_empty(), "{status}");
    let err = repo.fail(&["frame", "pop", "F1"]);
    assert!(err.contains("F1 is blocked, not in progress"), "{err}");
}

#[test]
fn goals_artifacts_decisions_and_the_tree() {
    let repo = repo();
    repo.ok(&["frame", "push", "Ship the shop"]);
    repo.ok(&["frame", "push", "Build the API"]);
    repo.ok(&["frame", "push", "Sign tokens", "--type", "task"]);
    repo.ok(&["frame", "pop"]);
    repo.ok(&["frame", "push", "Check tokens"]);

    assert_eq!(repo.ok(&["frame", "goal"]), "Check tokens\n");
    assert_eq!(
        repo.ok(&["frame", "goal", "Check tokens on every request"]),
        "goal of F4: Check tokens on every request\n"
    );
    repo.ok(&["frame", "goal", "Ship the shop by Friday", "--frame", "F1"]);
    assert_eq!(repo.json(&["frame", "goal", "--frame", "F1"])["goal"], "Ship the shop by Friday");

    // Artifact paths are relative to the current directory.
    let mut cmd = repo.cmd(&["--json", "frame", "artifact", "add", "jwt.rs", "../api"]);
    cmd.current_dir(repo.path("src/auth"));
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let frame: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(strings(&frame["artifacts"]), ["src/api", "src/auth/jwt.rs"]);
    let err = repo.fail(&["frame", "artifact", "add", "../elsewhere"]);
    assert!(err.contains("outside the workspace root"), "{err}");

    let decision = repo.json(&[
        "frame",
        "decision",
        "add",
        "Tokens live 15 minutes",
        "--rationale",
        "Short enough to leak",
        "--tag",
        "Architectural",
        "--frame",
        "F2",
    ]);
    assert_eq!((&decision["frame"], &decision["title"]), (&"F2".into(), &"Tokens live 15 minutes".into()));
    assert!(decision["folder"].is_null());
    assert_eq!(strings(&decision["tags"]), ["architectural"]);
    let logged = repo.ok(&["frame", "decision", "add", "Check in middleware"]);
    assert!(logged.starts_with("logged D-") && logged.ends_with(" on F4\n"), "{logged}");
    // `ctx log list` names a frame's decision by its frame.
    assert!(repo.ok(&["log", "list"]).contains("Tokens live 15 minutes  (F2)"));

    let f2 = repo.json(&["frame", "show", "F2"]);
    assert_eq!(ids(&f2["ancestors"]), ["F1"]);
    assert_eq!(ids(&f2["subframes"]), ["F3", "F4"]);
    assert_eq!(fields(&f2["subframes"], "type"), ["task", "frame"]);
    assert_eq!(f2["decisions"][0]["rationale"], "Short enough to leak");
    assert_eq!(f2["is_current"], false);
    let f4 = repo.ok(&["frame", "show"]);
    assert!(
        f4.starts_with("F4 [in_progress] Check tokens  ← current\ngoal: Check tokens on every request\n"),
        "{f4}"
    );
    assert!(f4.contains("artifacts: src/api, src/auth/jwt.rs\n"), "{f4}");
    assert!(
        f4.contains(
            "ancestors (root first):\n  F1 [in_progress] Ship the shop\n  F2 [in_progress] Build the API\n"
        ),
        "{f4}"
    );

    assert_eq!(
        repo.ok(&["frame", "tree"]),
        "F1 [in_progress] Ship the shop
└─ F2 [in_progress] Build the API
   ├─ F3 [completed] task: Sign tokens
   └─ F4 [in_progress] Check tokens  ← current
"
    );
    assert_eq!(
        repo.ok(&["frame", "tree", "--depth", "1"]),
        "F1 [in_progress] Ship the shop\n└─ F2 [in_progress] Build the API\n   └─ (2 more below)\n"
    );
    let tree = repo.json(&["frame", "tree", "F2", "--depth", "0"]);
    assert_eq!(ids(&tree), ["F2"]);
    assert_eq!(tree[0]["children_not_shown"], 2);
}

/// The first child element of `parent` called `name`.
fn child<'a, 'i>(parent: roxmltree::Node<'a, 'i>, name: &str) -> roxmltree::Node<'a, 'i> {
    parent
        .children()
        .find(|n| n.has_tag_name(name))
        .unwrap_or_else(|| panic!("no <{name}> in <{}>", parent.tag_name().name()))
}

/// An epic and four tasks: F2 and F3 done (F3 first), F4 failed once, F5 planned.
fn epic_with_tasks(repo: &Repo) {
    let epic =
        repo.ok(&["task", "add", "Tokens", "--type", "epic", "--description", "JWT auth for the API."]);
    assert_eq!(epic, "added F1: Tokens (planned)\n");
    for title in ["Sign tokens", "Refresh tokens", "Check expiry", "Revoke tokens"] {
        repo.ok(&["task", "add", title, "--epic", "F1"]);
    }
    repo.ok(&["task", "start", "F3"]);
    repo.ok(&["task", "done", "F3", "--summary", "Refresh endpoint"]);
    repo.ok(&["task", "start", "F2"]);
    assert_eq!(repo.ok(&["task", "done", "F2"]), "done F2: Sign tokens (completed)\n");
    repo.ok(&["task", "start", "F4"]);
    let failed = repo.ok(&[
        "task",
        "fail",
        "F4",
        "--reason",
        "clock skew breaks expiry",
        "--observation",
        "tokens expire early",
        "--observation",
        "the server clock runs ahead",
        "--avoid",
        "sleeping in tests",
    ]);
    assert_eq!(failed, "failed F4: Check expiry (failed)\n");
}

#[test]
fn tasks_start_finish_fail_and_retry_with_the_attempt_in_the_prompt() {
    let repo = repo();
    epic_with_tasks(&repo);

    let tasks = repo.json(&["task", "list"]);
    assert_eq!(ids(&tasks), ["F1", "F2", "F3", "F4", "F5"]);
    assert_eq!(fields(&tasks, "status"), ["planned", "completed", "completed", "failed", "planned"]);
    assert_eq!(fields(&tasks, "type"), ["epic", "task", "task", "task", "task"]);
    assert_eq!(
        repo.ok(&["task", "list"]),
        "F1 [planned] epic: Tokens
  F2 [completed] task: Sign tokens
  F3 [completed] task: Refresh tokens
  F4 [failed] task: Check expiry
  F5 [planned] task: Revoke tokens
"
    );
    assert_eq!(ids(&repo.json(&["task", "list", "--epic", "F1", "--status", "completed"])), ["F2", "F3"]);
    assert_eq!(repo.ok(&["task", "list", "--status", "in-progress"]), "no tasks\n");

    let attempts = &repo.json(&["frame", "show", "F4"])["attempts"];
    assert_eq!(attempts[0]["number"], 1);
    assert_eq!(strings(&attempts[0]["observations"]), ["tokens expire early", "the server clock runs ahead"]);

    assert_eq!(repo.ok(&["task", "start", "F4"]), "started F4: Check expiry (in_progress)\n");
    let prompt = repo.ok(&["task", "prompt", "F4"]);
    for needle in [
        "Task ID: F4",
        "Epic: F1 - Tokens",
        "## PREVIOUS ATTEMPT",
        "Failure reason: clock skew breaks expiry",
        "- tokens expire early",
        "- the server clock runs ahead",
        "- sleeping in tests",
    ] {
        assert!(prompt.contains(needle), "{needle:?} not in:\n{prompt}");
    }
    // F2 was done after F3: most recent first.
    let completed = prompt.split("Completed tasks in this epic:\n").nth(1).expect(&prompt);
    assert!(completed.trim_start().starts_with("- F2: Sign tokens\n- F3: Refresh tokens\n"), "{prompt}");
    let remaining = prompt.split("Remaining tasks after this one:\n").nth(1).expect(&prompt);
    assert!(remaining.trim_start().starts_with("- F5: Revoke tokens\n"), "{prompt}");

    let json = repo.json(&["task", "prompt", "F4"]);
    assert_eq!((&json["frame"], &json["rendering"]), (&"F4".into(), &"prompt".into()));
    assert_eq!(json["text"], prompt.as_str());
    assert_eq!(json["report"]["siblings"]["candidates"], 2);
    assert_eq!(json["report"]["siblings"]["remaining_included"], 1);

    // The current task is the context's default frame.
    assert_eq!(repo.json(&["frame", "status"])["current"]["id"], "F4");
    let err = repo.fail(&["task", "fail", "F2", "--reason", "late"]);
    assert!(err.contains("F2 is completed"), "{err}");
}

#[test]
fn frame_context_is_well_formed_xml_markdown_and_json() {
    let repo = repo();
    repo.ok(&["frame", "push", "Ship the shop"]);
    repo.ok(&["frame", "push", "Build the API & its auth"]);
    repo.ok(&["frame", "push", "Sign tokens for the API"]);
    repo.ok(&["frame", "pop", "--summary", "HS256 signing for the API"]);
    repo.ok(&["frame", "push", "Check <token> expiry in the API"]);

    let xml = repo.ok(&["frame", "context"]);
    assert!(xml.ends_with("</ctx-context>\n") && !xml.ends_with("\n\n"), "{xml}");
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}:\n{xml}"));
    let root = doc.root_element();
    assert_eq!((root.tag_name().name(), root.attribute("frame")), ("ctx-context", Some("F4")));
    let budget = child(child(root, "metadata"), "budget");
    assert_eq!(budget.attribute("total"), Some("4000"));
    let ancestors: Vec<_> = child(root, "ancestors")
        .children()
        .filter(|n| n.has_tag_name("frame"))
        .map(|n| n.attribute("id"))
        .collect();
    assert_eq!(ancestors, [Some("F1"), Some("F2")]);
    let siblings: Vec<_> = child(root, "completed-siblings")
        .children()
        .filter(|n| n.has_tag_name("frame"))
        .map(|n| n.attribute("id"))
        .collect();
    assert_eq!(siblings, [Some("F3")]);
    let current = child(root, "current-frame");
    assert_eq!(current.attribute("id"), Some("F4"));
    assert_eq!(child(current, "goal").text(), Some("Check <token> expiry in the API"));

    // Naming the frame gives the same text; --json wraps it with its report.
    assert_eq!(repo.ok(&["frame", "context", "F4"]), xml);
    let context = repo.json(&["frame", "context", "F4"]);
    assert_eq!((&context["frame"], &context["rendering"]), (&"F4".into(), &"xml".into()));
    assert_eq!(context["text"], xml.as_str());
    let tokens = &context["report"]["tokens"];
    assert!(tokens["total"].as_u64().unwrap() <= 4000);
    assert_eq!(context["report"]["ancestors"]["included"], 2);

    let json = repo.ok(&["frame", "context", "--format", "json"]);
    let value: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}:\n{json}"));
    assert_eq!(value["frame"], "F4");
    assert_eq!(value["metadata"]["budget"]["total"], 4000);
    assert_eq!(ids(&value["ancestors"]["frames"]), ["F1", "F2"]);
    assert_eq!(value["current_frame"]["id"], "F4");

    let md = repo.ok(&["frame", "context", "F2", "--format", "md"]);
    assert!(md.starts_with("# Work context: F2 Build the API & its auth\n"), "{md}");
    assert_eq!(
        repo.ok(&["frame", "preview", "--format", "md"]),
        repo.ok(&["frame", "context", "--format", "md"])
    );
}

#[test]
fn the_budget_comes_from_the_environment_then_the_config() {
    let repo = repo();
    repo.ok(&["frame", "push", "Build the API"]);
    let total = |xml: &str| {
        let doc = roxmltree::Document::parse(xml).unwrap();
        let budget = doc.descendants().find(|n| n.has_tag_name("budget")).unwrap();
        budget.attribute("total").unwrap().to_string()
    };
    assert_eq!(total(&repo.ok_with(&["frame", "context"], &[("CTX_TOKEN_BUDGET_TOTAL", "8000")])), "8000");
    let info = repo.ok_with(&["frame", "info"], &[("CTX_TOKEN_BUDGET_TOTAL", "8000")]);
    assert!(info.contains("of   8000  (CTX_TOKEN_BUDGET_TOTAL)"), "{info}");
    // A total alone scales the default shares.
    assert!(info.contains("siblings        0 of   3000  (default, scaled to the total)"), "{info}");

    let err = repo.fail_with(&["frame", "context"], &[("CTX_TOKEN_BUDGET_SIBLINGS", "abc")]);
    assert!(err.contains("CTX_TOKEN_BUDGET_SIBLINGS") && err.contains("\"abc\""), "{err}");

    let err = repo.fail_with(&["frame", "context"], &[("CTX_TOKEN_BUDGET_ANCESTORS", "3000")]);
    assert!(err.contains("ancestors 3000 from CTX_TOKEN_BUDGET_ANCESTORS"), "{err}");
    assert!(err.contains("over the total 4000 from default"), "{err}");

    repo.write(".ctx/config.toml", "[budget]\ntotal = 0\n");
    let err = repo.fail(&["frame", "context"]);
    assert!(err.contains(".ctx/config.toml [budget] total") && err.contains("above 0"), "{err}");
    let out = repo.run(&["--json", "frame", "context"]);
    let err: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(err["error"]["code"], "INVALID_BUDGET");
    // The environment wins over the config.
    assert_eq!(total(&repo.ok_with(&["frame", "context"], &[("CTX_TOKEN_BUDGET_TOTAL", "5000")])), "5000");

    repo.write(".ctx/config.toml", "[budget]\ntotal = 6000\n");
    let context = repo.json(&["frame", "context"]);
    assert_eq!(context["report"]["budget"]["total"], 6000);
    assert_eq!(context["report"]["budget_sources"]["total"], ".ctx/config.toml [budget] total");
}

#[test]
fn the_context_cache_is_shared_between_processes() {
    let repo = repo();
    // A long TTL: a slow machine must not turn a hit into a miss.
    repo.write(".ctx/config.toml", "[cache]\nttl_seconds = 3600\n");
    repo.ok(&["frame", "push", "Build the API"]);
    repo.ok(&["frame", "push", "Add the routes"]);
    let cache = |repo: &Repo| repo.json(&["frame", "info"])["cache"].clone();

    let first = cache(&repo);
    assert_eq!((&first["hit"], &first["stored"]), (&false.into(), &true.into()), "{first}");
    let second = cache(&repo);
    assert_eq!(second["hit"], true, "{second}");
    assert!(second["age_ms"].is_u64());
    assert_eq!(second["ttl_seconds"], 3600);
    let info = repo.ok(&["frame", "info"]);
    assert!(
        info.contains("cache: hit (assembled ") && info.contains("TTL 3600 s; 1 of 50 entries"),
        "{info}"
    );
    // `--json` leaves the text out.
    assert!(repo.json(&["frame", "info"]).get("text").is_none());

    repo.ok(&["frame", "decision", "add", "Routes are versioned"]);
    assert_eq!(cache(&repo)["hit"], false);
    assert_eq!(cache(&repo)["hit"], true);
    // A change to the parent is a change to the context too.
    repo.ok(&["frame", "goal", "Build the API, versioned", "--frame", "F1"]);
    assert_eq!(cache(&repo)["hit"], false);

    repo.ok(&["task", "prompt", "F2"]);
    assert_eq!(repo.ok(&["cache", "clear", "F1"]), "cleared 0 cached contexts\n");
    assert_eq!(repo.ok(&["cache", "clear"]), "cleared 2 cached contexts\n");
    let after = cache(&repo);
    assert_eq!((&after["hit"], &after["entries"]), (&false.into(), &1.into()), "{after}");
    assert_eq!(repo.json(&["cache", "clear", "F2"])["cleared"], 1);

    // A TTL of 0 turns the cache off.
    repo.write(".ctx/config.toml", "[cache]\nttl_seconds = 0\n");
    for _ in 0..2 {
        let off = cache(&repo);
        assert_eq!((&off["hit"], &off["stored"]), (&false.into(), &false.into()), "{off}");
    }
}

/// A fixed work tree: an epic with two completed tasks (summaries,
/// artifacts), a task that failed once and is being retried (criteria,
/// decisions, artifacts) and two remaining tasks.
fn checkout_fixture() -> Repo {
    let repo = repo();
    let run = |args: &[&str]| {
        repo.ok(args);
    };
    run(&[
        "task",
        "add",
        "Checkout",
        "--type",
        "epic",
        "--description",
        "Let customers pay for their cart by card and get a receipt by email.",
    ]);
    run(&["task", "start", "F1"]);
    run(&[
        "task",
        "add",
        "Cart totals",
        "--epic",
        "F1",
        "--description",
        "Sum the cart with taxes and discounts.",
    ]);
    run(&["task", "add", "Card payment form", "--epic", "F1", "--type", "feature"]);
    run(&[
        "task",
        "add",
        "Payment webhook",
        "--epic",
        "F1",
        "--description",
        "Receive the provider's payment events and mark orders paid.",
        "--criteria",
        "Events with a bad signature are rejected with 400",
        "--criteria",
        "A replayed event changes nothing",
    ]);
    run(&["task", "add", "Email receipt", "--epic", "F1"]);
    run(&["task", "add", "Refunds", "--epic", "F1", "--type", "feature"]);

    run(&["task", "start", "F2"]);
    run(&["frame", "artifact", "add", "src/api/routes.rs"]);
    run(&["task", "done", "F2", "--summary", "Totals in cents; taxes per line; discounts last."]);
    run(&["task", "start", "F3"]);
    run(&["frame", "artifact", "add", "src/payments", "--frame", "F3"]);
    run(&["task", "done", "F3", "--summary", "The provider's hosted card form; no card data touches us."]);

    run(&["task", "start", "F4"]);
    run(&["frame", "artifact", "add", "src/payments/webhook.rs"]);
    run(&[
        "frame",
        "decision",
        "add",
        "Verify signatures with the provider's SDK",
        "--rationale",
        "Timing-safe",
    ]);
    run(&[
        "task",
        "fail",
        "F4",
        "--reason",
        "Signature checks failed on every event",
        "--observation",
        "The body was parsed before the signature check",
        "--observation",
        "The raw bytes are needed",
        "--avoid",
        "Re-serializing the JSON body",
    ]);
    run(&["task", "start", "F4"]);
    run(&["frame", "decision", "add", "Keep the raw body for the signature check"]);
    repo
}

/// Whether `text` holds an ISO-8601 time (`2026-11-23T15:41`).
fn has_timestamp(text: &str) -> bool {
    text.as_bytes().windows(11).any(|w| {
        let digits = |r: std::ops::Range<usize>| w[r].iter().all(u8::is_ascii_digit);
        digits(0..4) && w[4] == b'-' && digits(5..7) && w[7] == b'-' && digits(8..10) && w[10] == b'T'
    })
}

#[test]
fn snapshots_of_a_task_context_and_prompt() {
    let repo = checkout_fixture();
    let xml = repo.ok(&["frame", "context", "F4"]);
    let prompt = repo.ok(&["task", "prompt", "F4"]);
    // Nothing of the clock reaches either text: the snapshots hold on any day.
    for text in [&xml, &prompt] {
        assert!(!has_timestamp(text), "a timestamp in:\n{text}");
        assert!(!text.contains("A-") && !text.contains("D-"), "a record id in:\n{text}");
    }
    roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{e}:\n{xml}"));
    insta::assert_snapshot!("checkout_webhook_xml", xml);
    insta::assert_snapshot!("checkout_webhook_prompt", prompt);
}

#[test]
fn bad_input_is_an_error_and_changes_nothing() {
    let repo = repo();
    // Without a current frame.
    let err = repo.fail(&["frame", "context"]);
    assert!(err.contains("no current frame") && err.contains("ctx frame push"), "{err}");
    let out = repo.run(&["--json", "frame", "context"]);
    let json: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(json["error"]["code"], "NO_CURRENT_FRAME");
    for args in
        [&["frame", "pop"][..], &["frame", "goal"], &["frame", "decision", "add", "x"], &["frame", "show"]]
    {
        assert!(repo.fail(args).contains("no current frame"), "ctx {args:?}");
    }
    // The preview (what a hook injects) is empty then.
    let out = repo.run(&["frame", "preview"]);
    assert!(out.status.success() && out.stdout.is_empty());
    assert_eq!(repo.json(&["frame", "preview"]), Value::Null);
    assert_eq!(
        repo.ok(&["frame", "tree"]),
        "no frames yet: push one with `ctx frame push GOAL` or add a task\n"
    );

    repo.ok(&["task", "add", "Sign tokens"]);
    repo.ok(&["task", "start", "F1"]);
    repo.ok(&["task", "done", "F1"]);
    let before = (repo.json(&["frame", "tree"]), repo.json(&["frame", "show", "F1"]));
    let cases: &[(&[&str], &str)] = &[
        (&["frame", "show", "F99"], "F99: unknown frame"),
        (&["frame", "context", "F99"], "unknown frame"),
        (&["task", "start", "7"], "F7: unknown frame"),
        (&["task", "add", "x", "--epic", "F99"], "unknown frame"),
        (&["frame", "push", "x", "--parent", "F99"], "unknown frame"),
        (&["cache", "clear", "F99"], "unknown frame"),
        (&["frame", "show", "X1"], "a frame id is F and a number"),
        (&["frame", "push", "  "], "needs a goal"),
        (&["frame", "push", "x", "--type", "two words"], "a type is"),
        (&["task", "add", " "], "cannot be empty"),
        (&["task", "start", "F1"], "F1 is completed"),
        (&["task", "fail", "F1", "--reason", " "], "needs a reason"),
        (&["frame", "pop", "F1"], "not in progress"),
        (&["frame", "pop", "F1", "--status", "planned"], "popped as completed, failed or blocked"),
        (&["frame", "artifact", "add", "/etc", "--frame", "F1"], "outside the workspace root"),
    ];
    for (args, expect) in cases {
        let err = repo.fail(args);
        assert!(err.contains(expect), "ctx {args:?}: expected {expect:?} in {err:?}");
    }
    assert_eq!(before, (repo.json(&["frame", "tree"]), repo.json(&["frame", "show", "F1"])));
    repo.integrity_ok();

    let out = repo.run(&["--json", "frame", "show", "F99"]);
    let json: Value = serde_json::from_slice(&out.stderr).unwrap();
    assert_eq!(json["error"]["code"], "UNKNOWN_FRAME");
}

#[test]
fn usage_errors_exit_with_2() {
    let repo = repo();
    for args in [
        &["task", "list", "--status", "done"][..],
        &["frame", "pop", "--status", "done"],
        &["frame", "context", "--format", "yaml"],
        &["task", "fail", "F1"],
        &["frame", "artifact", "add"],
        &["frame", "push"],
        &["task", "start"],
        &["frame", "tree", "--depth", "-1"],
    ] {
        let out = repo.run(args);
        assert_eq!(out.status.code(), Some(2), "ctx {args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        if args.contains(&"--status") {
            assert!(
                stderr.contains("the statuses are planned, in_progress, completed, failed, blocked"),
                "{stderr}"
            );
        }
    }
}
