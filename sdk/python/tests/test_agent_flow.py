"""The Python SDK driving an agent flow (`app: agent`) through the real CLI: a real agent program
(the official `openai` package, run by Bun) recorded against a scripted local model, then
replayed with no upstream: the model is not asked again and the conversation is in result.json."""
import json
import os
import shutil
import sys
import tempfile
import threading
import unittest
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flowproof import Flow  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
BUN = REPO / "node_modules" / ".bin" / "bun"
AGENT = REPO / "test" / "fixtures" / "agents" / "openai-agent.mjs"
KEY = "sk-canary-py-4e8d1a"


class _Model(BaseHTTPRequestHandler):
    """OpenAI chat-completions: a book_flight call first, then the final reply; counts requests."""

    requests = []

    def log_message(self, *args):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        type(self).requests.append({"body": body, "authorization": self.headers.get("authorization")})
        answered = any(m.get("role") == "tool" for m in body["messages"])
        message = {"role": "assistant", "content": "Booked KQ311 for Ada."} if answered else {
            "role": "assistant", "content": None,
            "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "book_flight", "arguments": json.dumps({"flight": {"id": "KQ311"}, "passengers": [{"name": "Ada"}]})}}]}
        out = json.dumps({"id": "c", "object": "chat.completion", "created": 0, "model": body["model"],
                          "choices": [{"index": 0, "message": message, "finish_reason": "stop" if answered else "tool_calls"}]}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


class AgentFlowTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = ThreadingHTTPServer(("127.0.0.1", 0), _Model)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.upstream = f"http://127.0.0.1:{cls.server.server_address[1]}/v1"
        cls.dir = tempfile.mkdtemp(prefix="flowproof-py-agent-")

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def test_records_an_agent_flow_and_replays_it_with_no_model(self):
        spec = Path(self.dir) / "book.flow.yaml"
        spec.write_text("\n".join([
            "name: Book a flight", "app: agent", f"agent: {{command: {BUN} {AGENT}}}", "steps:",
            "  - prompt: Book KQ311 for Ada",
            "  - assert_tool_call: book_flight where flight.id equals KQ311 and passengers.0.name is Ada",
            "  - assert: reply contains Booked KQ311", ""]))
        base = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_", "FLOWPROOF_AGENT"))}
        recorded = Flow(spec, env={**base, "FLOWPROOF_AGENT_UPSTREAM": self.upstream, "FLOWPROOF_AGENT_KEY": KEY}).record()
        self.assertTrue(recorded.ok)
        self.assertEqual(len(_Model.requests), 2)
        self.assertEqual(_Model.requests[-1]["authorization"], f"Bearer {KEY}")
        result = Flow(spec, env=base).run()
        self.assertTrue(result.passed)
        self.assertEqual(len(_Model.requests), 2)
        with open(result.report_path) as f:
            agent = json.load(f)["steps"][0]["agent"]
        self.assertEqual([c["name"] for c in agent["calls"]], ["book_flight"])
        self.assertEqual(agent["reply"], "Booked KQ311 for Ada.")
        for path in Path(self.dir).rglob("*"):
            if path.is_file():
                self.assertNotIn(KEY, path.read_text(errors="replace"))


if __name__ == "__main__":
    unittest.main()
