#!/usr/bin/env bash
# ctx in the loop of the real Claude Code: `ctx init && ctx install
# claude-code` in a scratch repository, then one `claude -p` session of the
# published @anthropic-ai/claude-code (npm), pointed at fake_api.py, a
# stand-in for the Anthropic API that logs every request. Checks what Claude
# Code sent the model: ctx's 14 MCP tools (Claude Code's own MCP client
# started `ctx mcp`), the SessionStart and UserPromptSubmit injections, and
# ctx's section of CLAUDE.md; then that the Stop/SessionEnd hooks ingested
# the session's transcript into ctx's memory.
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
trap '[[ -n $server ]] && kill $server 2>/dev/null; rm -rf "$work"' EXIT
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

HOME=$work/home ANTHROPIC_API_KEY=sk-ant-fake ANTHROPIC_BASE_URL=http://127.0.0.1:$port \
  DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 \
  timeout 120 node "$claude" -p "the invoice total rounds the tax wrong, fix invoice_total" >"$work/answer.txt"

"$PYTHON" - "$work/requests.jsonl" "$work/answer.txt" <<'PY'
import json, sys
requests = [json.loads(line) for line in open(sys.argv[1])]
turns = [r["body"] for r in requests if r["path"].startswith("/v1/messages?") and r["body"].get("tools")]
assert turns, f"Claude Code sent no request with tools: {[r['path'] for r in requests]}"
body = turns[-1]
tools = sorted(t["name"] for t in body["tools"] if t["name"].startswith("mcp__ctx__"))
expected = sorted("mcp__ctx__" + name for name in [
    "context", "map", "rank", "search", "timeline", "get", "pack", "frame_push", "frame_pop",
    "frame_context", "task_prompt", "log_decision", "describe_folder", "remember"])
assert tools == expected, f"ctx's MCP tools as Claude Code lists them: {tools}"
texts = [block.get("text", "") for message in body["messages"] if message["role"] == "user"
         for block in (message["content"] if isinstance(message["content"], list) else [{"text": message["content"]}])]
def one(what, test):
    found = [t for t in texts if test(t)]
    assert found, f"{what}: not in what Claude Code sent:\n" + "\n---\n".join(t[:300] for t in texts)
    return found[0]
# 2.x wraps a hook's context in a system reminder, 1.0.x in <session-start-hook> and the like.
start = one("SessionStart's context",
            lambda t: "SessionStart hook additional context" in t or t.startswith("<session-start-hook>"))
assert "ctx: how to get context here" in start and "# Context: /" in start, start
prompt = one("UserPromptSubmit's context",
             lambda t: "UserPromptSubmit hook additional context" in t or t.startswith("<user-prompt-submit-hook>"))
assert "billing/invoice.py: invoice_total" in prompt, prompt
one("ctx's section of CLAUDE.md", lambda t: "BEGIN CTX MANAGED SECTION" in t)
assert open(sys.argv[2]).read().strip(), "Claude Code printed no answer"
print(f"Claude Code sent ctx's {len(tools)} tools, SessionStart's and UserPromptSubmit's context, CLAUDE.md's section")
PY

# The Stop and SessionEnd hooks ingested the session.
hits=$("$CTX" --json search invoice_total --type query)
"$PYTHON" -c 'import json,sys; d=json.loads(sys.argv[1]); assert d["hits"] == 1, d; print("the session is in ctx memory:", d["results"][0]["summary"])' "$hits"
"$CTX" --json search "files here" --type response | "$PYTHON" -c 'import json,sys; assert json.load(sys.stdin)["hits"] == 1, "the answer was not ingested"'
echo "ok: Claude Code $VERSION with ctx"
