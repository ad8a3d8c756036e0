//! `ctx hook EVENT`: Claude Code's hooks (docs/hooks.md). The hook's JSON
//! comes on stdin; SessionStart and UserPromptSubmit answer with
//! `{"hookSpecificOutput": {"hookEventName", "additionalContext"}}` on
//! stdout (nothing at all when there is nothing worth injecting), PreCompact,
//! Stop and SessionEnd ingest the transcript's new lines and print nothing.
//!
//! A hook must never break the session: every failure (no `.ctx/`, a
//! damaged store, a missing transcript, bad JSON, the time cap) is one line
//! on stderr, no output, and exit 0. The work runs on a thread; past the
//! time cap the process exits without waiting for it.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context as _;
use ctxkeep_core::Workspace;
use serde::Deserialize;

use super::Env;
use crate::args::HookArgs;
use crate::output;

/// The hook's input fields ctx reads (Claude Code sends more; they are ignored).
#[derive(Debug, Default, Deserialize)]
struct Payload {
    hook_event_name: Option<String>,
    cwd: Option<PathBuf>,
    transcript_path: Option<PathBuf>,
    prompt: Option<String>,
}

/// Stdin larger than this is no hook payload.
const MAX_PAYLOAD: u64 = 16 * 1024 * 1024;

/// What the worker tells the waiting thread.
enum Message {
    /// The workspace's time cap, once its configuration is read.
    Timeout(Duration),
    /// The event answered and the text to inject (`None`: nothing), or why there is none.
    Done(anyhow::Result<Option<(Event, String)>>),
}

pub fn run(env: &Env, args: &HookArgs) -> ExitCode {
    // Named on the command line, else read from the payload by the worker.
    let kind = match args.event.as_deref() {
        Some(name) => match Event::parse(name) {
            Some(kind) => Some(kind),
            None => {
                // Another of Claude Code's events is nothing to do; a name nobody sends is
                // a mistake in the hook's configuration, said once, yet never an error.
                if !Event::is_other(name) {
                    eprintln!(
                        "ctx hook: unknown event `{name}`: ctx answers SessionStart, UserPromptSubmit, \
                         PreCompact, Stop and SessionEnd"
                    );
                }
                return ExitCode::SUCCESS;
            }
        },
        None => None,
    };
    let who = args.event.as_ref().map_or_else(|| "ctx hook".to_string(), |name| format!("ctx hook {name}"));
    let started = Instant::now();
    // One line for a panic too: the session's stderr is no place for a backtrace.
    std::panic::set_hook(Box::new(|info| eprintln!("ctx hook: internal error: {info}")));
    let (send, receive) = mpsc::channel();
    let (cwd, root) = (env.cwd.clone(), env.root.clone());
    std::thread::spawn(move || {
        let timeout = |d| {
            let _ = send.send(Message::Timeout(d));
        };
        let result = answer(kind, &cwd, root.as_deref(), started, &timeout);
        let _ = send.send(Message::Done(result));
    });
    let mut deadline = started + Duration::from_millis(ctxkeep_core::HooksConfig::default().timeout_ms);
    let late = |deadline: Instant| -> ! {
        let ms = deadline.duration_since(started).as_millis();
        give_up(&format!("{who}: gave up after {ms} ms ([hooks] timeout_ms); nothing injected"))
    };
    let result = loop {
        match receive.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Message::Timeout(timeout)) => {
                deadline = started + timeout;
                if Instant::now() >= deadline {
                    late(deadline)
                }
            }
            Ok(Message::Done(result)) => break result,
            Err(mpsc::RecvTimeoutError::Timeout) => late(deadline),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                break Err(anyhow::anyhow!("the hook's worker failed"));
            }
        }
    };
    match result {
        Ok(Some((kind, text))) => {
            let answer = serde_json::json!({
                "hookSpecificOutput": { "hookEventName": kind.name(), "additionalContext": text }
            });
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{answer}").and_then(|()| out.flush());
        }
        Ok(None) => {}
        Err(err) => eprintln!("{who}: {}", output::error_message(&err)),
    }
    ExitCode::SUCCESS
}

/// Exit 0 now, with `message` on stderr, whatever the worker is doing.
fn give_up(message: &str) -> ! {
    eprintln!("{message}");
    let _ = std::io::stderr().flush();
    std::process::exit(0)
}

/// Read what the earlier sessions' transcripts beside `transcript` gained
/// after their last hook, before the pack is made (so it shows their last
/// turns). A failure here costs the catch-up, not the injection: one line
/// on stderr.
fn catch_up(ws: &mut Workspace, transcript: Option<&Path>, until: Instant) {
    let Some(dir) = transcript.and_then(Path::parent).filter(|dir| dir.is_dir()) else { return };
    if let Err(err) = ws.catch_up_transcripts(dir, Some(until)) {
        eprintln!(
            "ctx hook SessionStart: catching up {}: {}",
            dir.display(),
            output::error_message(&err.into())
        );
    }
}

/// The transcripts of a session's subagents: Claude Code 2.x writes them
/// beside the session's own, in `<session>/subagents/agent-*.jsonl` (1.x kept
/// them inline), but its background forks (prompt suggestions and the
/// like: see `is_background_fork`). Sorted, so they are read in the same
/// order every time.
fn subagent_transcripts(transcript: &Path) -> Vec<PathBuf> {
    let folder = transcript.with_extension("").join("subagents");
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl") && path.is_file())
        .filter(|path| !ctxkeep_core::memory::discover::is_background_fork(path))
        .collect();
    paths.sort();
    paths
}

/// An event's name lowercased, without separators: how names are compared.
fn squashed(name: &str) -> String {
    name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    SessionStart,
    UserPromptSubmit,
    PreCompact,
    Stop,
    SessionEnd,
}

impl Event {
    /// The events ctx answers, however written (`UserPromptSubmit`,
    /// `user-prompt-submit`); `None` for the others (they do nothing).
    fn parse(name: &str) -> Option<Event> {
        Some(match squashed(name).as_str() {
            "sessionstart" => Event::SessionStart,
            "userpromptsubmit" => Event::UserPromptSubmit,
            "precompact" => Event::PreCompact,
            "stop" => Event::Stop,
            "sessionend" => Event::SessionEnd,
            _ => return None,
        })
    }

    /// Whether `name` is one of Claude Code's events that ctx leaves alone.
    fn is_other(name: &str) -> bool {
        const OTHERS: &[&str] = &[
            "pretooluse",
            "posttooluse",
            "posttoolusefailure",
            "permissionrequest",
            "notification",
            "subagentstart",
            "subagentstop",
        ];
        OTHERS.contains(&squashed(name).as_str())
    }

    fn name(self) -> &'static str {
        match self {
            Event::SessionStart => "SessionStart",
            Event::UserPromptSubmit => "UserPromptSubmit",
            Event::PreCompact => "PreCompact",
            Event::Stop => "Stop",
            Event::SessionEnd => "SessionEnd",
        }
    }
}

/// The worker: read the payload, open the workspace, do the event's work
/// (`event`'s, else the one the payload names).
fn answer(
    event: Option<Event>,
    process_cwd: &Path,
    root: Option<&Path>,
    started: Instant,
    timeout: &dyn Fn(Duration),
) -> anyhow::Result<Option<(Event, String)>> {
    let mut input = Vec::new();
    std::io::stdin().take(MAX_PAYLOAD).read_to_end(&mut input).context("cannot read stdin")?;
    let payload: Payload = serde_json::from_slice(&input).context("stdin is not a hook's JSON payload")?;
    let event = match (event, payload.hook_event_name.as_deref()) {
        (Some(event), _) => event,
        (None, Some(name)) => match Event::parse(name) {
            Some(event) => event,
            // An event ctx does not answer: nothing to do, as when it is named.
            None => return Ok(None),
        },
        (None, None) => {
            anyhow::bail!("no event: name it (`ctx hook SessionStart`) or send the payload's hook_event_name")
        }
    };
    // The session's directory (it follows `cd`), else ours.
    let cwd = payload.cwd.as_deref().filter(|c| c.is_dir()).unwrap_or(process_cwd);
    let mut ws = match root {
        Some(root) => Workspace::open(root)?,
        None => Workspace::discover(cwd)?,
    };
    let config = ws.config().hooks.clone();
    timeout(Duration::from_millis(config.timeout_ms));
    let text = match event {
        Event::SessionStart => {
            if config.ingest.session_start {
                let until = started + Duration::from_millis(config.timeout_ms / 4);
                catch_up(&mut ws, payload.transcript_path.as_deref(), until);
            }
            ctxkeep_map::hook::session_start(&ws, cwd)?.text
        }
        Event::UserPromptSubmit => {
            ctxkeep_map::hook::user_prompt(&mut ws, payload.prompt.as_deref().unwrap_or(""))?.text
        }
        Event::PreCompact | Event::Stop | Event::SessionEnd => {
            let on = match event {
                Event::PreCompact => config.ingest.pre_compact,
                Event::Stop => config.ingest.stop,
                _ => config.ingest.session_end,
            };
            if on {
                let path = payload.transcript_path.context("the payload has no transcript_path")?;
                // Half the time cap for new slices: a first read of a long
                // transcript goes on at the next hook instead of timing out.
                let until = started + Duration::from_millis(config.timeout_ms / 2);
                ws.ingest_transcript(&path, Some(until))?;
                for subagent in subagent_transcripts(&path) {
                    ws.ingest_transcript(&subagent, Some(until))?;
                }
            }
            String::new()
        }
    };
    Ok((!text.is_empty()).then_some((event, text)))
}
