//! `ctx record add`, `ctx ingest`, `ctx search`: session memory.

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use ctxkeep_core::{
    IngestReport, NewRecord, SearchMode, SearchOptions, SearchScope, TimelineSession, TimelineThread,
};

use super::Env;
use crate::args::{
    ArchiveArgs, GetArgs, IngestArgs, PackArgs, PinCommand, RecordCommand, SearchArgs, TimelineArgs,
};
use crate::output;
use ctxkeep_core::wording::count;

pub fn record(env: &Env, command: RecordCommand) -> anyhow::Result<()> {
    let RecordCommand::Add { record_type, role, text, refs, tags, session } = command;
    let mut ws = env.workspace()?;
    let text = if text == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).context("cannot read the text from standard input")?;
        text
    } else {
        text
    };
    let new = NewRecord { record_type, role, text, refs, tags, session_id: session, ..Default::default() };
    let record = ws.add_record(&new)?;
    if env.json {
        return output::json(&record);
    }
    writeln!(std::io::stdout().lock(), "{}", record.id)?;
    Ok(())
}

/// `ctx ingest`: every input resolved first (a name that names nothing is
/// an error before anything is written), then each ingested in its own
/// transaction; a file that fails stops the rest, and the error names those
/// already ingested (ingesting them again adds nothing).
pub fn ingest(env: &Env, args: &IngestArgs) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    let stdin = args.files.iter().any(|f| f == Path::new("-"));
    if stdin && args.files.len() > 1 {
        anyhow::bail!("`-` (standard input) cannot be ingested with other inputs");
    }
    let mut files =
        if stdin { Vec::new() } else { ctxkeep_core::memory::discover::expand_inputs(&args.files)? };
    let home = || std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")).map(PathBuf::from);
    if args.claude_code {
        let home = home().context("--claude-code: $HOME is not set")?;
        let dir = ctxkeep_core::memory::discover::claude_code_dir(&home, ws.root());
        let found =
            if dir.is_dir() { ctxkeep_core::memory::discover::jsonl_files(&dir)? } else { Vec::new() };
        if found.is_empty() {
            anyhow::bail!(
                "--claude-code: no Claude Code transcripts of {} in {}",
                ws.root().display(),
                dir.display()
            );
        }
        files.extend(found.into_iter().filter(|f| !files.contains(f)).collect::<Vec<_>>());
    }
    if args.codex {
        let codex_home = match std::env::var_os("CODEX_HOME") {
            Some(dir) => PathBuf::from(dir),
            None => home().context("--codex: $HOME is not set")?.join(".codex"),
        };
        let found = ctxkeep_core::memory::discover::codex_rollouts(&codex_home, ws.root())?;
        if found.is_empty() {
            anyhow::bail!(
                "--codex: no Codex CLI session started in {} under {}",
                ws.root().display(),
                codex_home.join("sessions").display()
            );
        }
        files.extend(found.into_iter().filter(|f| !files.contains(f)).collect::<Vec<_>>());
    }
    let mut reports = Vec::new();
    if stdin {
        reports.push(ws.ingest(&mut std::io::stdin().lock(), "-")?);
    }
    for file in &files {
        let name = file.display().to_string();
        let report = std::fs::File::open(file)
            .with_context(|| format!("{name}: cannot open"))
            .and_then(|f| Ok(ws.ingest(&mut BufReader::new(f), &name)?));
        match report {
            Ok(report) => reports.push(report),
            Err(err) if reports.is_empty() => return Err(err),
            Err(err) => {
                let done: Vec<&str> = reports.iter().map(|r| r.source.as_str()).collect();
                return Err(err.context(format!(
                    "ingested before it (kept; ingesting them again adds nothing): {}",
                    done.join(", ")
                )));
            }
        }
    }
    let source = match reports.as_slice() {
        [one] => one.source.clone(),
        many => count(many.len(), "file"),
    };
    let total = IngestReport::total(&source, &reports);
    if env.json {
        return output::json(&IngestOutput { total: &total, files: &reports });
    }
    for report in &reports {
        for error in &report.errors {
            output::warn(&format!("{}:{}: {}", report.source, error.line, error.message));
        }
        env.report(format_args!("{}", report_line(report)))?;
    }
    if reports.len() > 1 {
        env.report(format_args!("{}", report_line(&total)))?;
    }
    Ok(())
}

/// `ctx ingest --json`: the total (the report of one input, as before) and each file's.
#[derive(serde::Serialize)]
struct IngestOutput<'a> {
    #[serde(flatten)]
    total: &'a IngestReport,
    files: &'a [IngestReport],
}

fn report_line(report: &IngestReport) -> String {
    let types: Vec<String> = report.types.iter().map(|(kind, n)| format!("{n} {kind}")).collect();
    format!(
        "{}: {} ({} ctx, {} Claude Code, {} Codex): {} added, {} already there, {} with nothing to record, {} malformed{}",
        report.source,
        count(report.lines, "line"),
        report.ctx_lines,
        report.claude_code_lines,
        report.codex_lines,
        count(report.added, "record"),
        report.duplicates,
        report.empty,
        report.errors.len(),
        if types.is_empty() { String::new() } else { format!(" [{}]", types.join(", ")) }
    )
}

pub fn search(env: &Env, args: &SearchArgs) -> anyhow::Result<()> {
    let ws = env.workspace()?;
    let options = SearchOptions {
        query: args.query.join(" "),
        k: args.k,
        // clap checked the values.
        scope: SearchScope::parse(&args.scope).unwrap_or_default(),
        session: (args.session != "all").then(|| args.session.clone()),
        mode: SearchMode::parse(&args.mode).unwrap_or_default(),
        types: args.types.clone(),
        tags: args.tags.clone(),
        since: args.since.clone(),
        until: args.until.clone(),
        ..Default::default()
    };
    let response = ws.search(&options)?;
    if env.json {
        return output::json(&response);
    }
    if env.verbose {
        let r = &response.retrieval;
        env.note(&format!(
            "{} search: {} lexical, {} vector, {} fused hits; {} ms (lexical {}, vector {}, fusion {})",
            r.mode.as_str(),
            r.lexical_hits,
            r.vector_hits,
            r.fused_hits,
            r.latency_ms.total,
            r.latency_ms.lexical,
            r.latency_ms.vector,
            r.latency_ms.fusion
        ));
    }
    let mut out = std::io::stdout().lock();
    let retrieval = &response.retrieval;
    if retrieval.mode != retrieval.requested_mode {
        let reason = retrieval.vector_fallback_reason.as_ref().or(retrieval.lexical_fallback_reason.as_ref());
        let served = retrieval.mode.as_str();
        output::warn(&format!(
            "served {served}: {}",
            reason.map_or("a channel could not serve", |r| r.as_str())
        ));
    }
    if response.results.is_empty() {
        writeln!(out, "no records match")?;
    }
    for row in &response.results {
        let date = row.ts.get(..16).unwrap_or(&row.ts);
        writeln!(out, "{}  {date:<16}  {:<11}  {}", row.id, row.record_type, row.summary)?;
    }
    Ok(())
}

pub fn timeline(env: &Env, args: &TimelineArgs) -> anyhow::Result<()> {
    let ws = env.workspace()?;
    let session = match args.session.as_deref() {
        None => TimelineSession::Anchor,
        Some("all") => TimelineSession::All,
        Some(id) => TimelineSession::Id(id.to_string()),
    };
    // clap checked the value.
    let thread = TimelineThread::parse(&args.thread).unwrap_or_default();
    let timeline = ws.timeline_in(&args.id, args.before, args.after, &session, &thread)?;
    if env.json {
        return output::json(&timeline);
    }
    let mut out = std::io::stdout().lock();
    for row in &timeline.results {
        let mark = if row.id == timeline.anchor { ">" } else { " " };
        let date = row.ts.get(..16).unwrap_or(&row.ts);
        writeln!(out, "{mark} {}  {date:<16}  {:<11}  {}", row.id, row.record_type, row.summary)?;
    }
    Ok(())
}

pub fn get(env: &Env, args: &GetArgs) -> anyhow::Result<()> {
    let ws = env.workspace()?;
    let mut out = std::io::stdout().lock();
    if env.json {
        // Compact, as budgeted: the contract's L2 JSON within --head characters.
        writeln!(out, "{}", ws.record_json(&args.id, args.head)?)?;
        return Ok(());
    }
    let record = ws.record(&args.id)?;
    let session = record.session_id.as_deref().map(|s| format!("  session {s}")).unwrap_or_default();
    writeln!(out, "{}  {}  {} ({}){session}", record.id, record.ts, record.record_type, record.role)?;
    if !record.refs.is_empty() {
        writeln!(out, "refs: {}", record.refs.join(", "))?;
    }
    if !record.tags.is_empty() {
        writeln!(out, "tags: {}", record.tags.join(", "))?;
    }
    let text: String = match args.head {
        Some(head) if record.text.chars().count() > head => {
            format!(
                "{}… [{} of {} characters]",
                record.text.chars().take(head).collect::<String>(),
                head,
                record.text.chars().count()
            )
        }
        _ => record.text.clone(),
    };
    writeln!(out, "\n{}", text.trim_end())?;
    Ok(())
}

pub fn archive(env: &Env, args: &ArchiveArgs) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    let moved = ws.archive(args.older_than)?;
    if env.json {
        return output::json(&serde_json::json!({ "archived": moved }));
    }
    env.report(format_args!("archived {}", count(moved, "record")))?;
    Ok(())
}

pub fn pack(env: &Env, args: &PackArgs) -> anyhow::Result<()> {
    let ws = env.workspace()?;
    let pack = ws.pack(args.tokens)?;
    if env.json {
        return output::json(&pack);
    }
    write!(std::io::stdout().lock(), "{}", pack.text)?;
    Ok(())
}

pub fn pin(env: &Env, command: PinCommand) -> anyhow::Result<()> {
    let mut ws = env.workspace()?;
    let mut out = std::io::stdout().lock();
    match command {
        PinCommand::Add { text } => {
            let record = ws.pin(&text)?;
            if env.json {
                return output::json(&record);
            }
            writeln!(out, "{}", record.id)?;
        }
        PinCommand::Rm { id } => {
            ws.unpin(&id)?;
            if env.json {
                return output::json(&serde_json::json!({ "removed": id }));
            }
            env.report(format_args!("unpinned {id}"))?;
        }
        PinCommand::List => {
            let pins = ws.pins()?;
            if env.json {
                return output::json(&pins);
            }
            if pins.is_empty() {
                writeln!(out, "nothing pinned")?;
            }
            for pin in &pins {
                writeln!(out, "{}  {}", pin.id, pin.text.replace('\n', " "))?;
            }
        }
    }
    Ok(())
}
