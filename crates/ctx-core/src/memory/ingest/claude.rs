//! Claude Code transcripts: one JSON line per message or event. A message
//! line (`type` `user` or `assistant`) has a `message` with `role` and
//! `content` (a string, or blocks: `text`, `thinking`, `tool_use`,
//! `tool_result`, `image`), `uuid`, `sessionId`, `timestamp`, and where it
//! ran: `version`, `cwd`, `gitBranch`, `isSidechain` (a subagent's turn;
//! 2.x adds its `agentId` and writes it to `<session>/subagents/agent-<id>.jsonl`),
//! `isMeta` (text Claude Code wrote, not the person: command expansions),
//! `isCompactSummary` (the summary a compaction left); an assistant's
//! `message` has its `model` and `usage`. `summary` lines title a
//! conversation by its last message (`leafUuid`). Other lines (`system`
//! notices such as `compact_boundary`, `file-history-snapshot`,
//! `queue-operation`, `progress`) hold no turn. Thinking blocks and images
//! are not recorded.

use serde_json::{Map, Value};

use super::{
    Meta, NewRecord, Prepared, UserText, classify, content_text, push, set, string, tool_call, tool_output,
    usage, user_record,
};

/// Whether a line is Claude Code's: its lines carry its ids, ctx's have `text`.
pub(super) fn is_claude_code(object: &Map<String, Value>) -> bool {
    !object.contains_key("text")
        && ["message", "sessionId", "uuid", "leafUuid", "messageId"]
            .iter()
            .any(|key| object.contains_key(*key))
}

/// Add the records of one line.
pub(super) fn line(object: &Map<String, Value>, records: &mut Vec<Prepared>) -> Result<(), String> {
    let session = string(object, "sessionId");
    // A turn without a time is not a turn of now: the contract's `n/a`.
    let ts = Some(string(object, "timestamp").unwrap_or("n/a").to_string());
    if string(object, "type") == Some("summary") {
        let Some(summary) = string(object, "summary").filter(|s| !s.trim().is_empty()) else { return Ok(()) };
        let leaf = string(object, "leafUuid").unwrap_or_default();
        let mut meta = Meta::new();
        meta.insert("harness".into(), "claude-code".into());
        set(&mut meta, "leaf_uuid", Some(leaf).filter(|l| !l.is_empty()));
        let key = format!("cc-summary:{leaf}:{}", blake3::hash(summary.as_bytes()).to_hex());
        // No session: a summary line titles the conversation its leaf is in,
        // often an earlier session's (the pack looks the leaf up).
        let new = NewRecord {
            record_type: "note".into(),
            text: summary.to_string(),
            tags: vec!["summary".into()],
            ts,
            meta,
            ..Default::default()
        };
        return push(records, key, new);
    }
    // Lines without a message (snapshots of edited files, system notices) hold no turn.
    let Some(message) = object.get("message") else { return Ok(()) };
    let message = message.as_object().ok_or("\"message\" is not an object")?;
    let uuid = string(object, "uuid").ok_or("no \"uuid\"")?;
    let role = message.get("role").and_then(Value::as_str).unwrap_or("unknown");
    let flag = |key: &str| object.get(key).and_then(Value::as_bool) == Some(true);
    let sidechain = flag("isSidechain");
    let session_key = session.unwrap_or_default();
    let base = NewRecord {
        session_id: session.map(str::to_string),
        ts,
        meta: meta(object, message, sidechain),
        ..Default::default()
    };
    // A subagent's records are told apart from the main thread's.
    let extra: &[&str] = if sidechain { &["subagent"] } else { &[] };
    let block_key = |index: usize| format!("cc:{session_key}:{uuid}:{index}");
    let text_record = |text: &str| -> NewRecord {
        if role == "assistant" {
            let mut tags: Vec<String> = extra.iter().map(|t| t.to_string()).collect();
            if flag("isApiErrorMessage") {
                tags.push("error".into());
            }
            return NewRecord {
                record_type: "response".into(),
                role: Some("assistant".into()),
                text: text.to_string(),
                tags,
                ..base.clone()
            };
        }
        let kind = match classify(text) {
            _ if flag("isCompactSummary") => UserText::Summary,
            // In a subagent's thread the main agent wrote the prompts.
            UserText::Query if sidechain => UserText::System("prompt"),
            // Text Claude Code marks as not the person's: a command's expansion.
            UserText::Query if flag("isMeta") => UserText::System("command"),
            kind => kind,
        };
        user_record(&kind, text, &base, extra)
    };
    let with_extra = |mut new: NewRecord| {
        new.tags.extend(extra.iter().map(|t| t.to_string()));
        new
    };
    match message.get("content") {
        Some(Value::String(text)) => push(records, block_key(0), text_record(text))?,
        Some(Value::Array(blocks)) => {
            for (index, block) in blocks.iter().enumerate() {
                let kind = block.get("type").and_then(Value::as_str).unwrap_or_default();
                let (key, new) = match kind {
                    "text" => (
                        block_key(index),
                        text_record(block.get("text").and_then(Value::as_str).unwrap_or_default()),
                    ),
                    "tool_use" => {
                        let name = block.get("name").and_then(Value::as_str).unwrap_or("tool");
                        let input = block.get("input").map(Value::to_string).unwrap_or_default();
                        let call = block.get("id").and_then(Value::as_str).unwrap_or_default();
                        // Keyed by its call id, so that its result can name it.
                        let key =
                            if call.is_empty() { block_key(index) } else { tool_call_key(session_key, call) };
                        (key, with_extra(tool_call(name, &input, &base)))
                    }
                    "tool_result" => {
                        let call = block.get("tool_use_id").and_then(Value::as_str).unwrap_or_default();
                        let error = block.get("is_error").and_then(Value::as_bool) == Some(true);
                        let call_key = (!call.is_empty()).then(|| tool_call_key(session_key, call));
                        let text = content_text(block.get("content"));
                        (block_key(index), with_extra(tool_output(text, call_key, error, &base)))
                    }
                    // Thinking, images, anything else: nothing to record.
                    _ => continue,
                };
                push(records, key, new)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Where a message line came from: the harness and its version, the
/// model and its token usage, the working directory and git branch, and
/// whether a subagent ran it (and which).
fn meta(object: &Map<String, Value>, message: &Map<String, Value>, sidechain: bool) -> Meta {
    let mut meta = Meta::new();
    meta.insert("harness".into(), "claude-code".into());
    set(&mut meta, "version", string(object, "version"));
    // `<synthetic>` marks messages Claude Code made up (an interruption), not a model's.
    set(&mut meta, "model", string(message, "model").filter(|m| !m.starts_with('<')));
    set(&mut meta, "cwd", string(object, "cwd"));
    set(&mut meta, "git_branch", string(object, "gitBranch"));
    if let Some(usage) = usage(message.get("usage")) {
        meta.insert("usage".into(), usage);
        // 2.x writes one line per content block, each with the message's usage: its id tells them apart.
        set(&mut meta, "message_id", string(message, "id"));
    }
    if sidechain {
        meta.insert("sidechain".into(), true.into());
        set(&mut meta, "agent_id", string(object, "agentId"));
    }
    meta
}

/// The dedup key of the tool call with `tool_use` id `call` in `session`.
fn tool_call_key(session: &str, call: &str) -> String {
    format!("cc-tool:{session}:{call}")
}
