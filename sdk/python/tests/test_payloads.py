"""How the SDK maps the CLI's --json documents it cannot provoke cheaply from a real app: a
clarification (exit 2 with ``needs_clarification``) and heal reports. A stand-in executable prints
a fixed document and exits with a fixed code; it also records the arguments it was given."""
import json
import os
import shutil
import stat
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flowproof import ClarificationNeeded, Flow, FlowproofError, HealResult  # noqa: E402


class PayloadTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="flowproof-py-payload-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def standin(self, document, code):
        """An executable printing `document` as JSON and exiting `code`; its argv lands in args.json."""
        script = Path(self.dir) / "flowproof-standin"
        args_file = Path(self.dir) / "args.json"
        script.write_text(
            f"#!{sys.executable}\nimport json, sys\n"
            f"open({str(args_file)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
            f"print({json.dumps(json.dumps(document))})\nsys.exit({code})\n"
        )
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
        return [str(script)], args_file

    def test_a_clarification_raises_with_its_payload(self):
        payload = {
            "step": "Enter it in the Reference field", "step_index": 3, "stage": "pronoun",
            "reason": "`it` could mean more than one remembered value", "completed_steps": 2,
            "scene": [], "hint": "name the value: `Enter the order number in …`", "candidates": ["order_number", "total"],
        }
        command, args_file = self.standin({"needs_clarification": payload}, 2)
        with self.assertRaises(ClarificationNeeded) as caught:
            Flow("checkout.flow.yaml", executable=command).record(author="llm", reuse=True, verify=True)
        error = caught.exception
        self.assertIsInstance(error, FlowproofError)
        self.assertEqual(error.payload, payload)
        self.assertEqual((error.step, error.step_index, error.hint), (payload["step"], 3, payload["hint"]))
        self.assertEqual(error.exit_code, 2)
        args = json.loads(args_file.read_text())
        self.assertEqual(args[:2], ["record", "checkout.flow.yaml"])
        for flag in ("--reuse", "--verify", "--json"):
            self.assertIn(flag, args)
        self.assertEqual(args[args.index("--author") + 1], "llm")

    def test_a_heal_with_changes_is_a_result(self):
        report = {
            "changed": True,
            "steps_changed": [{"id": "s0002", "intent": "Click \"Save\"", "fields": ["selectors"], "old": [{"tier": "text_anchor"}], "new": [{"tier": "native_id"}]}],
            "steps_added": 1, "steps_removed": 0, "proposed_path": "/p/checkout.proposed.jsonl", "diff_html": "/p/checkout.heal.html",
            "routing": [{"step": 1, "intent": "Go to /", "route": "rules"}],
        }
        command, args_file = self.standin({"report": report, "applied": False}, 1)
        healed = Flow("checkout.flow.yaml", executable=command).heal()
        self.assertIsInstance(healed, HealResult)
        self.assertTrue(healed.changed)
        self.assertFalse(healed.applied)
        self.assertEqual(healed.exit_code, 1)
        self.assertEqual([(c["id"], c["fields"]) for c in healed.steps_changed], [("s0002", ["selectors"])])
        self.assertEqual((healed.steps_added, healed.steps_removed), (1, 0))
        self.assertEqual(healed.diff_html, "/p/checkout.heal.html")
        self.assertEqual(healed.routing[0].route, "rules")
        self.assertEqual(json.loads(args_file.read_text()), ["heal", "checkout.flow.yaml", "--json"])

    def test_an_applied_heal(self):
        command, args_file = self.standin({"report": {"changed": True, "steps_changed": [], "steps_added": 0, "steps_removed": 1, "routing": []}, "applied": True}, 0)
        healed = Flow("checkout.flow.yaml", executable=command).heal(apply=True)
        self.assertTrue(healed.applied)
        self.assertEqual(healed.steps_removed, 1)
        self.assertIn("--apply", json.loads(args_file.read_text()))

    def test_a_grid_travels_in_the_environment_and_the_node_comes_back(self):
        script = Path(self.dir) / "flowproof-grid-standin"
        seen = Path(self.dir) / "seen.json"
        report = {
            "name": "Checkout", "trace_id": "t", "passed": True, "steps": [], "duration_ms": 1, "started_at": "2026-01-01T00:00:00Z",
            "flowproof_version": "0", "spec_path": "c.flow.yaml", "trace_path": "c.trace.jsonl",
            "ran_on": {"grid": "https://***@grid.example", "node": "http://10.0.0.7:5555", "session": "abc"},
        }
        document = {"report": report, "report_path": "r/result.json", "run_dir": "r", "junit_path": "r/junit.xml", "html_path": "r/report.html"}
        script.write_text(
            f"#!{sys.executable}\nimport json, os, sys\n"
            f"open({str(seen)!r}, 'w').write(json.dumps([sys.argv[1:], os.environ.get('FLOWPROOF_GRID_URL')]))\n"
            f"print({json.dumps(json.dumps(document))})\n"
        )
        script.chmod(script.stat().st_mode | stat.S_IEXEC)
        flow = Flow("c.flow.yaml", executable=[str(script)], grid="https://ci:k3y@grid.example")
        result = flow.run()
        argv, grid = json.loads(seen.read_text())
        self.assertEqual(grid, "https://ci:k3y@grid.example")
        self.assertFalse(any("k3y" in a for a in argv))
        self.assertEqual(result.ran_on["node"], "http://10.0.0.7:5555")
        # One call's grid wins over the flow's; "local" keeps it local.
        flow.run(grid="local")
        self.assertEqual(json.loads(seen.read_text())[1], "local")


if __name__ == "__main__":
    unittest.main()
