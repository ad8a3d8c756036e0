#!/usr/bin/env python3
"""A minimal MCP client for timing `ctx mcp`: newline-delimited JSON-RPC on
the server's stdin/stdout, one request at a time, each round trip timed from
writing the request to reading its answer (no SDK, so the client adds little).

    benches/mcp_client.py CTX QUERIES FOLDERS [--warmup N] [--calls N]

QUERIES: a file of search queries, one a line; FOLDERS: folder keys for
`context`, one a line. Prints p50/p90/p99/max per tool, in ms.
"""

import argparse
import json
import subprocess
import sys
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ctx")
    parser.add_argument("queries")
    parser.add_argument("folders")
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--calls", type=int, default=1000)
    args = parser.parse_args()
    queries = [q for q in open(args.queries).read().splitlines() if q.strip()]
    folders = [f for f in open(args.folders).read().splitlines() if f.strip()]

    server = subprocess.Popen([args.ctx, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    next_id = 0

    def rpc(method, params=None, notify=False):
        nonlocal next_id
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if not notify:
            next_id += 1
            message["id"] = next_id
        server.stdin.write(json.dumps(message) + "\n")
        server.stdin.flush()
        if notify:
            return None
        answer = json.loads(server.stdout.readline())
        if "error" in answer:
            sys.exit(f"{method}: {answer['error']}")
        return answer["result"]

    rpc("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "bench", "version": "0"}})
    rpc("notifications/initialized", notify=True)

    def call(tool, arguments):
        start = time.perf_counter()
        result = rpc("tools/call", {"name": tool, "arguments": arguments})
        elapsed = (time.perf_counter() - start) * 1000
        if result.get("isError"):
            sys.exit(f"{tool} {arguments}: {result['content'][0]['text']}")
        return elapsed

    plans = {
        "context": lambda i: {"folder": folders[i % len(folders)]},
        "search": lambda i: {"query": queries[i % len(queries)], "k": 10},
    }
    for tool, arguments in plans.items():
        for i in range(args.warmup):
            call(tool, arguments(i))
    for tool, arguments in plans.items():
        times = sorted(call(tool, arguments(i)) for i in range(args.calls))

        def p(q):
            return times[min(len(times) - 1, int(len(times) * q))]

        print(f"{tool:8} {args.calls} calls after {args.warmup} warm-up: "
              f"p50 {p(0.5):.2f} ms, p90 {p(0.9):.2f} ms, p99 {p(0.99):.2f} ms, max {times[-1]:.2f} ms")
    server.stdin.close()
    server.wait(timeout=10)


if __name__ == "__main__":
    main()
