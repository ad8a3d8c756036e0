//! The work tree through `Workspace`: frame life cycle, and the context
//! cache, which must miss after every change the context depends on and
//! only then.

use ctxkeep_core::{FrameStatus, NewAttempt, NewDecision, NewFrame, NewTask, Rendering, Workspace};

const NOW: i64 = 1_900_000_000_000;

fn workspace(config: &str) -> (tempfile::TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let (ws, _) = Workspace::init(dir.path()).unwrap();
    drop(ws);
    std::fs::write(dir.path().join(".ctx/config.toml"), config).unwrap();
    let ws = Workspace::open(dir.path()).unwrap();
    (dir, ws)
}

fn task(ws: &mut Workspace, title: &str, epic: Option<&str>) -> String {
    let new = NewTask { title: title.into(), epic: epic.map(str::to_string), ..Default::default() };
    ws.add_task(&new).unwrap().id
}

fn push(ws: &mut Workspace, goal: &str) -> String {
    ws.push_frame(&NewFrame { goal: goal.into(), ..Default::default() }).unwrap().id
}

#[test]
fn push_pop_and_the_current_frame() {
    let (_dir, mut ws) = workspace("");
    assert!(ws.current_frame().unwrap().is_none());
    assert_eq!(ws.frame(None).unwrap_err().code(), "NO_CURRENT_FRAME");
    let root = push(&mut ws, "Build the application");
    let api = push(&mut ws, "Build the API routes");
    let detail = ws.frame(None).unwrap();
    assert_eq!(detail.frame.id, api);
    assert_eq!(detail.frame.parent.as_deref(), Some(root.as_str()));
    assert_eq!(detail.ancestors.iter().map(|a| a.id.as_str()).collect::<Vec<_>>(), [root.as_str()]);

    // A parent with work in progress below it cannot end.
    let err = ws.pop_frame(Some(&root), FrameStatus::Completed, None).unwrap_err();
    assert_eq!(err.code(), "INVALID_FRAME_STATE");
    assert!(err.to_string().contains(&api), "{err}");

    let popped = ws.pop_frame(None, FrameStatus::Completed, Some("Routes for users and sessions")).unwrap();
    assert_eq!(
        (popped.status, popped.summary.as_str()),
        (FrameStatus::Completed, "Routes for users and sessions")
    );
    assert_eq!(ws.current_frame().unwrap().unwrap().id, root);
    let err = ws.pop_frame(Some(&api), FrameStatus::Completed, None).unwrap_err();
    assert_eq!(err.code(), "INVALID_FRAME_STATE");

    // Popping as failed is an attempt, which a retry's prompt shows.
    let flaky = push(&mut ws, "Make the pool timeout configurable");
    ws.pop_frame(None, FrameStatus::Failed, Some("the setting is read before the config loads")).unwrap();
    let attempts = ws.frame(Some(&flaky)).unwrap().attempts;
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0].reason, "the setting is read before the config loads");
    assert_eq!(ws.frame(Some("F99")).unwrap_err().code(), "UNKNOWN_FRAME");
    assert_eq!(ws.frame(Some("frame one")).unwrap_err().code(), "INVALID_INPUT");
}

#[test]
fn artifacts_are_repository_paths_and_tasks_keep_their_attempts() {
    let (dir, mut ws) = workspace("");
    let epic = task(&mut ws, "Checkout", None);
    let pay = task(&mut ws, "Card payments", Some(&epic));
    ws.start_task(&pay).unwrap();
    let absolute = dir.path().canonicalize().unwrap().join("src/pay/../pay/card.rs");
    let frame = ws.add_frame_artifacts(None, &[absolute.display().to_string(), "src/pay/*".into()]).unwrap();
    assert_eq!(frame.artifacts, ["src/pay/*", "src/pay/card.rs"]);
    let err = ws.add_frame_artifacts(None, &["../elsewhere.rs".into()]).unwrap_err();
    assert_eq!(err.code(), "OUTSIDE_ROOT");
    // A list reads every frame's artifacts and children in bulk: each gets its own.
    let other = task(&mut ws, "Refunds", Some(&epic));
    ws.add_frame_artifacts(Some(&other), &["src/refunds.rs".into()]).unwrap();
    let all = ws.tasks(&ctxkeep_core::TaskFilter::default()).unwrap();
    let summary: Vec<(&str, usize, Vec<String>)> =
        all.iter().map(|f| (f.id.as_str(), f.children, f.artifacts.clone())).collect();
    assert_eq!(
        summary,
        [
            (epic.as_str(), 2, vec![]),
            (pay.as_str(), 0, vec!["src/pay/*".to_string(), "src/pay/card.rs".to_string()]),
            (other.as_str(), 0, vec!["src/refunds.rs".to_string()]),
        ]
    );
    let filter = ctxkeep_core::TaskFilter { epic: Some(epic.clone()), status: Some(FrameStatus::Planned) };
    let planned: Vec<String> = ws.tasks(&filter).unwrap().into_iter().map(|f| f.id).collect();
    assert_eq!(planned, std::slice::from_ref(&other));

    let attempt = NewAttempt {
        reason: "the provider's sandbox rejects test cards".into(),
        observations: vec!["cards need 3-D Secure".into(), " ".into()],
        avoid: vec!["mocking the provider".into()],
    };
    let failed = ws.fail_task(&pay, &attempt).unwrap();
    assert_eq!(failed.status, FrameStatus::Failed);
    ws.start_task(&pay).unwrap();
    let attempts = ws.frame(Some(&pay)).unwrap().attempts;
    assert_eq!(attempts[0].observations, ["cards need 3-D Secure"]);
    let prompt = ws.task_prompt(&pay).unwrap().text;
    for expected in
        ["## PREVIOUS ATTEMPT", attempt.reason.as_str(), "- cards need 3-D Secure", "- mocking the provider"]
    {
        assert!(prompt.contains(expected), "{expected} in {prompt}");
    }
    ws.finish_task(&pay, Some("Payments through the hosted form")).unwrap();
    assert_eq!(ws.start_task(&pay).unwrap_err().code(), "INVALID_FRAME_STATE");
    // A completed task's prompt is no retry.
    assert!(!ws.task_prompt(&pay).unwrap().text.contains("PREVIOUS ATTEMPT"));
    let decision =
        ws.add_frame_decision(Some(&pay), &NewDecision { title: "Hosted form".into(), ..Default::default() });
    assert_eq!(decision.unwrap().frame.as_deref(), Some(pay.as_str()));
    // Folder decisions and frame decisions live side by side.
    assert_eq!(ws.decisions(None).unwrap().len(), 1);
}

/// A frame `F5` (in progress) under `F4`, under `F1`; `F2` and `F3` are
/// F4's siblings; `F6`, `F7` are F5's siblings; `F8` is elsewhere.
fn tree(ws: &mut Workspace) {
    let mission = push(ws, "Ship the shop");
    let other = task(ws, "Marketing site", Some(&mission));
    task(ws, "Legal pages", Some(&other));
    let checkout = task(ws, "Checkout", Some(&mission));
    let webhook = task(ws, "Payment webhook", Some(&checkout));
    let done = task(ws, "Card form", Some(&checkout));
    task(ws, "Receipts", Some(&checkout));
    task(ws, "Newsletter", Some(&other));
    ws.start_task(&done).unwrap();
    ws.finish_task(&done, Some("Hosted card form")).unwrap();
    ws.start_task(&webhook).unwrap();
    assert_eq!(webhook, "F5");
}

/// Whether the next context of F5 is served from the cache.
fn hit(ws: &Workspace, rendering: Rendering, now: i64) -> bool {
    ws.frame_context_at(Some("F5"), rendering, now).unwrap().cache.hit
}

#[test]
fn the_cache_misses_after_each_change_the_context_depends_on_and_only_then() {
    let (dir, mut ws) = workspace("[cache]\nttl_seconds = 60\n");
    tree(&mut ws);
    let first = ws.frame_context_at(Some("F5"), Rendering::Xml, NOW).unwrap();
    assert!(!first.cache.hit && first.cache.stored);
    let again = ws.frame_context_at(Some("F5"), Rendering::Xml, NOW + 1000).unwrap();
    assert!(again.cache.hit, "a repeated call within the TTL");
    assert_eq!((again.text, again.report), (first.text, first.report));
    // Each rendering is its own entry.
    assert!(!hit(&ws, Rendering::Md, NOW));
    assert!(hit(&ws, Rendering::Md, NOW));

    type Change = Box<dyn Fn(&mut Workspace)>;
    let changes: Vec<(&str, Change)> = vec![
        (
            "the frame's goal",
            Box::new(|ws| drop(ws.set_frame_goal(Some("F5"), "Verify and apply webhooks").unwrap())),
        ),
        (
            "an artifact",
            Box::new(|ws| drop(ws.add_frame_artifacts(Some("F5"), &["src/webhook.rs".into()]).unwrap())),
        ),
        (
            "a decision",
            Box::new(|ws| {
                ws.add_frame_decision(
                    Some("F5"),
                    &NewDecision { title: "Raw body".into(), ..Default::default() },
                )
                .unwrap();
            }),
        ),
        ("a new sibling", Box::new(|ws| drop(task(ws, "Refunds", Some("F4"))))),
        (
            "a sibling ending",
            Box::new(|ws| {
                ws.start_task("F7").unwrap();
                ws.finish_task("F7", Some("Receipts by email")).unwrap();
            }),
        ),
        ("the parent", Box::new(|ws| drop(ws.set_frame_goal(Some("F4"), "Take payments").unwrap()))),
        ("the root", Box::new(|ws| drop(ws.add_frame_artifacts(Some("F1"), &["README.md".into()]).unwrap()))),
    ];
    for (what, change) in changes {
        assert!(hit(&ws, Rendering::Xml, NOW), "warm before {what}");
        change(&mut ws);
        assert!(!hit(&ws, Rendering::Xml, NOW), "a miss after {what}");
    }

    // Its own sub-work: a finished subframe is shown in the current frame.
    assert!(hit(&ws, Rendering::Xml, NOW));
    push(&mut ws, "Look up the signature scheme");
    assert!(hit(&ws, Rendering::Xml, NOW), "a subframe in progress is not shown");
    ws.pop_frame(None, FrameStatus::Completed, Some("HMAC-SHA256")).unwrap();
    let context = ws.frame_context_at(Some("F5"), Rendering::Xml, NOW).unwrap();
    assert!(!context.cache.hit, "a miss after a subframe ended");
    assert!(context.text.contains("<summary>HMAC-SHA256</summary>"), "{}", context.text);
    assert_eq!((context.report.subframes.total, context.report.subframes.included), (1, 1));

    // Changes the context does not depend on leave it cached: a sibling's
    // child, the parent's siblings' children, a frame elsewhere.
    assert!(hit(&ws, Rendering::Xml, NOW));
    task(&mut ws, "Sub-step of receipts", Some("F7"));
    task(&mut ws, "Cookie banner", Some("F2"));
    ws.set_frame_goal(Some("F8"), "Monthly newsletter").unwrap();
    assert!(hit(&ws, Rendering::Xml, NOW), "unrelated changes");

    // The TTL, and clearing.
    assert!(!hit(&ws, Rendering::Xml, NOW + 61_000), "past the TTL");
    assert!(hit(&ws, Rendering::Xml, NOW + 61_000));
    assert!(ws.clear_context_cache(Some("F5")).unwrap() >= 1);
    assert!(!hit(&ws, Rendering::Xml, NOW));
    assert_eq!(ws.clear_context_cache(Some("F99")).unwrap_err().code(), "UNKNOWN_FRAME");

    // A failed attempt changes the prompt.
    assert!(!hit(&ws, Rendering::Prompt, NOW) && hit(&ws, Rendering::Prompt, NOW));
    ws.fail_task("F5", &NewAttempt { reason: "bad signature".into(), ..Default::default() }).unwrap();
    assert!(!hit(&ws, Rendering::Prompt, NOW), "a miss after an attempt");

    // A template override and a budget change: the output depends on them too.
    assert!(!hit(&ws, Rendering::Xml, NOW), "the attempt changed F5 itself");
    assert!(hit(&ws, Rendering::Xml, NOW));
    std::fs::create_dir_all(dir.path().join(".ctx/templates")).unwrap();
    let override_path = dir.path().join(".ctx/templates/frame.xml.hbs");
    std::fs::write(&override_path, "    <frame id=\"{{id}}\" />\n").unwrap();
    assert!(!hit(&ws, Rendering::Xml, NOW), "a miss after a template override");
    assert!(hit(&ws, Rendering::Xml, NOW));
    std::fs::write(
        dir.path().join(".ctx/config.toml"),
        "[cache]\nttl_seconds = 60\n[budget]\nsiblings = 1000\n",
    )
    .unwrap();
    ws.reload_config().unwrap();
    let context = ws.frame_context_at(Some("F5"), Rendering::Xml, NOW).unwrap();
    assert!(!context.cache.hit, "a miss after a budget change");
    assert_eq!(context.report.budget.siblings, 1000);
    assert_eq!(context.report.budget_sources.siblings, ".ctx/config.toml [budget] siblings");
}

#[test]
fn least_recently_used_entries_are_evicted() {
    let (_dir, mut ws) = workspace("[cache]\nmax_entries = 4\nevict_to = 2\n");
    let ids: Vec<String> = (0..5).map(|i| task(&mut ws, &format!("Task {i}"), None)).collect();
    for (i, id) in ids.iter().enumerate() {
        let context = ws.frame_context_at(Some(id), Rendering::Xml, NOW + i as i64).unwrap();
        assert!(context.cache.stored);
    }
    // The fifth store went past four entries: the two used last stay.
    let context = ws.frame_context_at(Some(&ids[4]), Rendering::Xml, NOW + 10).unwrap();
    assert!(context.cache.hit);
    assert_eq!(context.cache.entries, 2);
    assert!(ws.frame_context_at(Some(&ids[3]), Rendering::Xml, NOW + 11).unwrap().cache.hit);
    assert!(!ws.frame_context_at(Some(&ids[0]), Rendering::Xml, NOW + 12).unwrap().cache.hit);
}

#[test]
fn a_zero_ttl_never_reads_nor_writes_the_cache() {
    let (_dir, mut ws) = workspace("[cache]\nttl_seconds = 0\n");
    let id = task(&mut ws, "Only task", None);
    for _ in 0..2 {
        let context = ws.frame_context_at(Some(&id), Rendering::Json, NOW).unwrap();
        assert!(!context.cache.hit && !context.cache.stored && context.cache.entries == 0);
    }
}

#[test]
fn a_writer_holding_the_lock_does_not_hold_up_a_context() {
    let (dir, mut ws) = workspace("");
    let id = task(&mut ws, "Only task", None);
    // Another process (a long build) holds the write lock.
    let other = rusqlite::Connection::open(dir.path().join(".ctx/ctx.db")).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let started = std::time::Instant::now();
    let context = ws.frame_context_at(Some(&id), Rendering::Xml, NOW).unwrap();
    // Served without the cache, not after the 60 s a writer waits for a writer.
    assert!(!context.cache.stored && started.elapsed() < std::time::Duration::from_secs(10));
    other.execute_batch("COMMIT").unwrap();
    assert!(ws.frame_context_at(Some(&id), Rendering::Xml, NOW).unwrap().cache.stored);
}
