//! Codex CLI rollouts: `{"timestamp", "type", "payload"}` a line.
//! `session_meta` (first) names the session (`id`), `cwd`, `cli_version`
//! and `git`; `turn_context` the `model` (and `cwd`) of the turns after it;
//! `response_item`s are the conversation: a `message` (`role` `user`,
//! `assistant` or `developer`; `input_text`/`output_text` blocks), a
//! `function_call`/`custom_tool_call`/`local_shell_call` (`call_id`) and its
//! `*_output`, `reasoning` (not recorded); `compacted` holds a compaction's
//! summary (`message`); `event_msg`s repeat the messages for the UI
//! (`user_message`, `agent_message`: not recorded, the `response_item`s are)
//! and report `token_count`s, whose `last_token_usage` goes in the meta of
//! the answer before it.
//!
//! A rollout's lines carry no ids: a line's key is its session and a hash
//! of its text.

use serde_json::{Map, Value};

use super::{
    Meta, NewRecord, Prepared, UserText, classify, content_text, push, set, string, tool_call, tool_output,
    usage, user_record,
};

/// The line types of a rollout that ctx reads (newer versions add others,
/// such as `world_state`: a line of any type is still the rollout's).
const TYPES: [&str; 5] = ["session_meta", "response_item", "event_msg", "turn_context", "compacted"];

/// What a rollout's earlier lines said.
#[derive(Debug, Default)]
pub(super) struct Context {
    session: Option<String>,
    /// What every record of the rollout carries in its meta (harness, version, cwd, branch, model).
    meta: Meta,
    /// The index in this chunk's records of the last answer (for its token count).
    pub(super) last_response: Option<usize>,
}

impl Context {
    /// The session a rollout's name says (`rollout-<time>-<session uuid>.jsonl`),
    /// for an input read from past its `session_meta` line.
    pub(super) fn new(source: &str) -> Context {
        let stem = source.rsplit(['/', '\\']).next().unwrap_or_default().trim_end_matches(".jsonl");
        let session = stem
            .starts_with("rollout-")
            .then(|| stem.len().checked_sub(36).and_then(|start| stem.get(start..)))
            .flatten()
            .filter(|id| id.chars().filter(|&c| c == '-').count() == 4)
            .map(str::to_string);
        let mut meta = Meta::new();
        meta.insert("harness".into(), "codex".into());
        Context { session, meta, last_response: None }
    }
}

/// Whether a line is a rollout's: a known type with a `payload`, or any
/// type with a `payload` and a `timestamp` and no `text` (a ctx record
/// needs one), so the line types of a newer Codex are not taken for
/// malformed ctx records.
pub(super) fn is_codex(object: &Map<String, Value>) -> bool {
    object.get("payload").is_some_and(Value::is_object)
        && string(object, "type").is_some_and(|kind| {
            TYPES.contains(&kind) || (string(object, "timestamp").is_some() && !object.contains_key("text"))
        })
}

/// Add the records of one line (`text`, as read: its hash keys them).
pub(super) fn line(
    object: &Map<String, Value>,
    text: &str,
    context: &mut Context,
    records: &mut Vec<Prepared>,
) -> Result<(), String> {
    let payload = object.get("payload").and_then(Value::as_object).ok_or("no \"payload\" object")?;
    if context.meta.is_empty() {
        context.meta.insert("harness".into(), "codex".into());
    }
    match string(object, "type").unwrap_or_default() {
        "session_meta" => {
            if let Some(id) = string(payload, "id") {
                context.session = Some(id.to_string());
            }
            set(&mut context.meta, "version", string(payload, "cli_version"));
            set(&mut context.meta, "cwd", string(payload, "cwd"));
            let branch = payload.get("git").and_then(Value::as_object).and_then(|git| string(git, "branch"));
            set(&mut context.meta, "git_branch", branch);
            return Ok(());
        }
        "turn_context" => {
            set(&mut context.meta, "model", string(payload, "model"));
            set(&mut context.meta, "cwd", string(payload, "cwd"));
            return Ok(());
        }
        "event_msg" => {
            if string(payload, "type") == Some("token_count") {
                let last = payload.get("info").and_then(|info| info.get("last_token_usage"));
                if let (Some(usage), Some(index)) = (usage(last), context.last_response.take()) {
                    records[index].record.meta.insert("usage".into(), usage);
                }
            }
            return Ok(());
        }
        _ => {}
    }
    let session = context.session.clone().unwrap_or_default();
    let base = NewRecord {
        session_id: context.session.clone(),
        ts: Some(string(object, "timestamp").unwrap_or("n/a").to_string()),
        meta: context.meta.clone(),
        ..Default::default()
    };
    let hash = blake3::hash(text.as_bytes()).to_hex();
    let key = |index: usize| format!("codex:{session}:{}:{index}", &hash[..32]);
    let call_key = |payload: &Map<String, Value>| {
        string(payload, "call_id").map(|call| format!("codex-tool:{session}:{call}"))
    };
    match string(object, "type").unwrap_or_default() {
        "compacted" => {
            let summary = string(payload, "message").unwrap_or_default();
            return push(records, key(0), user_record(&UserText::Summary, summary, &base, &[]));
        }
        "response_item" => {}
        // A line type of a newer Codex: nothing ctx reads.
        _ => return Ok(()),
    }
    match string(payload, "type").unwrap_or_default() {
        "message" => {
            let role = string(payload, "role").unwrap_or("unknown");
            let Some(Value::Array(blocks)) = payload.get("content") else { return Ok(()) };
            for (index, block) in blocks.iter().enumerate() {
                let text = block.get("text").and_then(Value::as_str).unwrap_or_default();
                let new = match (role, classify(text)) {
                    ("assistant", _) => NewRecord {
                        record_type: "response".into(),
                        role: Some("assistant".into()),
                        text: text.to_string(),
                        ..base.clone()
                    },
                    // The harness's own instructions to the model (its system
                    // prompt, sandbox rules, a copy of AGENTS.md): the same
                    // kilobytes every session, and ctx has their sources.
                    ("developer" | "system", _) | (_, UserText::System("instructions")) => continue,
                    (_, class) => user_record(&class, text, &base, &[]),
                };
                let answer = new.record_type == "response";
                let before = records.len();
                push(records, key(index), new)?;
                if answer && records.len() > before {
                    context.last_response = Some(before);
                }
            }
            Ok(())
        }
        "function_call" | "custom_tool_call" => {
            let name = string(payload, "name").unwrap_or("tool");
            let input = match payload.get("arguments").or_else(|| payload.get("input")) {
                Some(Value::String(input)) => input.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            let key = call_key(payload).unwrap_or_else(|| key(0));
            push(records, key, tool_call(name, &input, &base))
        }
        "local_shell_call" => {
            let command = payload.get("action").and_then(|a| a.get("command")).map(Value::to_string);
            let key = call_key(payload).unwrap_or_else(|| key(0));
            push(records, key, tool_call("local_shell", &command.unwrap_or_default(), &base))
        }
        "function_call_output" | "custom_tool_call_output" | "local_shell_call_output" => {
            let (text, error) = output_text(payload.get("output"));
            push(records, key(0), tool_output(text, call_key(payload), error, &base))
        }
        // Reasoning, web searches, snapshots, anything else: nothing to record.
        _ => Ok(()),
    }
}

/// A tool output's text and whether it failed: the `output` of a shell
/// call's JSON (`{"output": ..., "metadata": {"exit_code": ...}}`), else the
/// text as it is (or its blocks').
fn output_text(output: Option<&Value>) -> (String, bool) {
    let Some(Value::String(text)) = output else { return (content_text(output), false) };
    if text.starts_with('{')
        && let Ok(Value::Object(json)) = serde_json::from_str::<Value>(text)
        && let Some(inner) = json.get("output").and_then(Value::as_str)
    {
        let exit = json.get("metadata").and_then(|m| m.get("exit_code")).and_then(Value::as_i64);
        return (inner.to_string(), exit.is_some_and(|code| code != 0));
    }
    (text.clone(), false)
}
