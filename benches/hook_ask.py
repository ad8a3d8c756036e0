"""`ctx hook UserPromptSubmit` as Claude Code runs it: the payload on stdin, the
injected text from its JSON answer. Shared by benches/hook_eval.py (commit
messages) and benches/hook_plain.py (users' reports)."""
import json
import os
import re
import subprocess


def run(*args, **kw):
    """Run a command, insisting on success; its output as text."""
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw)


def ask(ctx, work, prompt, env, scratch):
    """The text the hook injects for `prompt` in the workspace `work` ('' for none)."""
    payload = {
        "hook_event_name": "UserPromptSubmit",
        "session_id": "hook-bench",
        "cwd": work,
        "prompt": prompt,
        "transcript_path": os.path.join(scratch, "none.jsonl"),
    }
    out = run(ctx, "hook", "UserPromptSubmit", input=json.dumps(payload), env=env, cwd=work).stdout
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""


def files_shown(text):
    """The paths of the files an injection lists (`- path: Name (l. 12), …`)."""
    return [f for f in re.findall(r"^- ([^\s:]+)", text, re.M) if "/" in f or "." in f]
