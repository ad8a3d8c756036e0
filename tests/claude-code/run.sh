#!/usr/bin/env bash
# ctx in the loop of the real Claude Code: `ctx init && ctx install
# claude-code` in a scratch repository, then two `claude -p` sessions of the
# published @anthropic-ai/claude-code (npm), pointed at fake_api.py, a
# stand-in for the Anthropic API that logs every request. Checks what Claude
# Code sent the model: ctx's 18 MCP tools (Claude Code's own MCP client
# started `ctx mcp`), the SessionStart and UserPromptSubmit injections and
# ctx's section of CLAUDE.md; that the second session started with the
# first one's turns in its pack and that its "thanks" got nothing; and that
# the hooks put both sessions in ctx's memory, typed prompts as the only
# queries.
#
# Usage: tests/claude-code/run.sh [CTX]   (default target/debug/ctx)
# Env:   CLAUDE_CODE_VERSION (default 2.1.39; 1.0.98 passes too)
# Needs node and npm (skips, exit 0, without them or without the registry).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
CTX=$(realpath "${1:-$here/../../target/debug/ctx}")
VERSION=${CLAUDE_CODE_VERSION:-2.1.39}
PYTHON=${PYTHON:-python3}
skip() { echo "skipped: $*" >&2; exit 0; }
command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are needed to run Claude Code"
node_major=$(node -p 'process.versions.node.split(".")[0]')
((node_major >= 18)) || skip "Claude Code needs node 18 or later (this is $(node --version))"

work=$(mktemp -d)
server=""
trap '[[ -n $server ]] && kill $server 2>/dev/null; [[ -n ${KEEP:-} ]] || rm -rf "$work"' EXIT
cd "$work"
npm pack --silent "@anthropic-ai/claude-code@$VERSION" >/dev/null 2>npm.err || skip "cannot fetch @anthropic-ai/claude-code@$VERSION from npm: $(tail -1 npm.err)"
tar xzf anthropic-ai-claude-code-*.tgz
claude=$work/package/cli.js

port=$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PYTHON" "$here/fake_api.py" "$port" "$work/requests.jsonl" &
server=$!

mkdir -p home repo/billing
cd repo
git init -q
printf '# shop\n' >README.md
cat >billing/invoice.py <<'PY'
"""Invoices: totals, taxes and PDF rendering."""


def invoice_total(lines, tax_rate):
    """Sum the lines and add the tax."""
    subtotal = sum(line.price * line.quantity for line in lines)
    return round(subtotal * (1 + tax_rate), 2)


def render_invoice_pdf(invoice):
    return b""
PY
"$CTX" init >/dev/null
"$CTX" install claude-code --command "$CTX" >/dev/null
# Project MCP servers wait for the user's approval; a test approves them.
printf '{"enableAllProjectMcpServers": true}\n' >.claude/settings.local.json

# Two sessions, one after the other, as a person would run them.
session() { # PROMPT REQUESTS_LOG
  HOME=$work/home ANTHROPIC_API_KEY=sk-ant-fake ANTHROPIC_BASE_URL=http://127.0.0.1:$port \
    DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 \
    timeout 120 node "$claude" -p "$1" >"$work/answer.txt"
  [[ -s $work/answer.txt ]] || { echo "Claude Code printed no answer" >&2; exit 1; }
  mv "$work/requests.jsonl" "$2"
}
session "the invoice total rounds the tax wrong, fix invoice_total" "$work/first.jsonl"
session "thanks" "$work/second.jsonl"

"$PYTHON" - "$work/first.jsonl" "$work/second.jsonl" <<'PY'
import json, sys

def last_turn(log):
    """What Claude Code sent the model in a session's last request with tools: tool names, user texts."""
    requests = [json.loads(line) for line in open(log)]
    turns = [r["body"] for r in requests if r["path"].startswith("/v1/messages?") and r["body"].get("tools")]
    assert turns, f"Claude Code sent no request with tools: {[r['path'] for r in requests]}"
    body = turns[-1]
    texts = [block.get("text", "") for message in body["messages"] if message["role"] == "user"
             for block in (message["content"] if isinstance(message["content"], list) else [{"text": message["content"]}])]
    return [t["name"] for t in body["tools"]], texts

# 2.x wraps a hook's context in a system reminder, 1.0.x in <session-start-hook> and the like.
def is_start(text): return "SessionStart hook additional context" in text or text.startswith("<session-start-hook>")
def is_prompt(text): return "UserPromptSubmit hook additional context" in text or text.startswith("<user-prompt-submit-hook>")

def one(texts, what, test):
    found = [t for t in texts if test(t)]
    assert found, f"{what}: not in what Claude Code sent:\n" + "\n---\n".join(t[:300] for t in texts)
    return found[0]

tools, texts = last_turn(sys.argv[1])
ours = sorted(name for name in tools if name.startswith("mcp__ctx__"))
expected = sorted("mcp__ctx__" + name for name in [
    "context", "map", "rank", "search", "timeline", "get", "pack", "frame_push", "frame_pop",
    "frame_context", "task_prompt", "log_decision", "describe_folder", "remember",
    "artifact_context", "artifact_apply", "artifact_resolve", "artifact_prompt"])
assert ours == expected, f"ctx's MCP tools as Claude Code lists them: {ours}"
start = one(texts, "SessionStart's context", is_start)
assert "ctx: how to get context here" in start and "# Context: /" in start, start
prompt = one(texts, "UserPromptSubmit's context", is_prompt)
assert "billing/invoice.py: invoice_total" in prompt, prompt
one(texts, "ctx's section of CLAUDE.md", lambda t: "BEGIN CTX MANAGED SECTION" in t)

# The second session starts with the first one's turns in its pack, and "thanks" gets nothing.
_, texts = last_turn(sys.argv[2])
start = one(texts, "SessionStart's context", is_start)
assert "the invoice total rounds the tax wrong" in start, f"the first session in the pack:\n{start}"
assert not any(is_prompt(t) for t in texts), "a trivial prompt injects nothing"
print(f"Claude Code sent ctx's {len(ours)} tools, both hooks' context and CLAUDE.md's section; "
      "the next session started with the first in its pack; 'thanks' got nothing")
PY

# The hooks put both sessions in ctx's memory, the typed prompts as the only queries.
"$CTX" --json search invoice_total --type query |
  "$PYTHON" -c 'import json,sys; d=json.load(sys.stdin); assert d["hits"] == 1, d; print("in ctx memory:", d["results"][0]["summary"])'
"$CTX" --json search "files here" --type response |
  "$PYTHON" -c 'import json,sys; assert json.load(sys.stdin)["hits"] >= 1, "the answers were not ingested"'
echo "ok: Claude Code $VERSION with ctx"
