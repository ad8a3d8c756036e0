"""A stand-in for the Anthropic Messages API, for tests/claude-code/run.sh:
answers every request with a short text (streamed when asked) and logs
each request (path and JSON body) to a file. Usage: fake_api.py PORT LOG"""
import json, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = sys.argv[2]
REPLY = "The files here are README.md."

class Handler(BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        self.send_response(200); self.send_header("content-type", "application/json"); self.end_headers()
        self.wfile.write(b'{"data":[],"has_more":false}')
    def do_HEAD(self):
        self.send_response(200); self.end_headers()
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        with open(LOG, "a") as f:
            f.write(json.dumps({"path": self.path, "body": json.loads(body or b"{}")}) + "\n")
        req = json.loads(body or b"{}")
        if "count_tokens" in self.path:
            return self.json({"input_tokens": 100})
        msg = {"id": "msg_fake", "type": "message", "role": "assistant", "model": req.get("model", "m"),
               "content": [], "stop_reason": None, "stop_sequence": None,
               "usage": {"input_tokens": 100, "output_tokens": 0}}
        if not req.get("stream"):
            msg["content"] = [{"type": "text", "text": REPLY}]; msg["stop_reason"] = "end_turn"
            msg["usage"]["output_tokens"] = 8
            return self.json(msg)
        self.send_response(200)
        self.send_header("content-type", "text/event-stream"); self.end_headers()
        def ev(name, data):
            self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()); self.wfile.flush()
        ev("message_start", {"type": "message_start", "message": msg})
        ev("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
        ev("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": REPLY}})
        ev("content_block_stop", {"type": "content_block_stop", "index": 0})
        ev("message_delta", {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {"output_tokens": 8}})
        ev("message_stop", {"type": "message_stop"})
    def json(self, obj):
        data = json.dumps(obj).encode()
        self.send_response(200); self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data))); self.end_headers(); self.wfile.write(data)

ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
