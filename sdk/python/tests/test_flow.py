"""The Python SDK against the real flowproof CLI and real Chromium: record, run, get_trace,
failing flows as results, bad flows as FlowproofError, and how the executable is found."""
import functools
import http.server
import json
import os
import shutil
import stat
import sys
import tempfile
import threading
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from flowproof import ClarificationNeeded, Flow, FlowproofError, HealResult, RecordResult, RunResult, StepResult, find_executable  # noqa: E402

REPO = Path(__file__).resolve().parents[3]
PAGES = REPO / "test" / "fixtures" / "pages"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # the test output stays readable
        pass


def flow_yaml(name, url, steps):
    return f"name: {json.dumps(name)}\napp: web\nurl: {url}\nsteps:\n" + "".join(f"  - {s}\n" for s in steps)


class FlowTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        handler = functools.partial(_Quiet, directory=str(PAGES))
        cls.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=cls.server.serve_forever, daemon=True).start()
        cls.url = f"http://127.0.0.1:{cls.server.server_address[1]}"
        cls.dir = tempfile.mkdtemp(prefix="flowproof-py-")

    @classmethod
    def tearDownClass(cls):
        cls.server.shutdown()
        cls.server.server_close()
        shutil.rmtree(cls.dir, ignore_errors=True)

    def write(self, name, text):
        path = Path(self.dir) / name
        path.write_text(text)
        return str(path)

    def test_records_runs_and_reads_the_trace(self):
        flow = Flow(self.write("greet.flow.yaml", flow_yaml("Greet", f"{self.url}/greeter.html", [
            'rules: Type Ada into the "Your name" field', 'rules: Press the "Greet" button', "assert: page shows Hello, Ada!"])))
        recorded = flow.record(author="rules")
        self.assertIsInstance(recorded, RecordResult)
        self.assertTrue(recorded.ok)
        self.assertEqual(recorded.steps, 3)
        self.assertEqual([r.route for r in recorded.routing], ["rules", "rules", "rules"])
        trace = flow.get_trace()
        self.assertEqual(trace.trace_path, recorded.trace_path)
        self.assertEqual(trace.header["format"], "flowproof-trace")
        self.assertEqual([s["action"]["type"] for s in trace.steps], ["type_text", "click", "assert"])
        result = flow.run()
        self.assertIsInstance(result, RunResult)
        self.assertTrue(result.passed)
        self.assertEqual([s.status for s in result.steps], ["passed"] * 3)
        self.assertIsInstance(result.steps[0], StepResult)
        self.assertTrue(Path(result.report_path).is_file())
        with open(result.report_path) as f:
            self.assertEqual(json.load(f)["trace_id"], result.trace_id)

    def test_passes_the_recording_controls_through(self):
        flow = Flow(self.write("controls.flow.yaml", flow_yaml("Controls", f"{self.url}/greeter.html", [
            'rules: Press the "Greet" button'])))
        self.assertTrue(flow.record(author="rules", recording_detail="off").ok)
        off = flow.run(recording_detail="off")
        self.assertTrue(off.passed)
        self.assertIsNone(off.recording)
        filmed = flow.run(recording_detail="low", video=True, highlight_cursor=True)
        self.assertTrue(filmed.passed)
        self.assertEqual(filmed.recording["format"], "filmstrip/1")
        self.assertTrue(filmed.recording.get("gif"))

    def test_an_ambiguous_pronoun_raises_clarification_needed(self):
        spec = self.write("pronoun.flow.yaml", flow_yaml("Pronoun", f"{self.url}/greeter.html", [
            'rules: Remember the "id:greet" as first', 'rules: Remember the "id:greet" as second', 'Enter it in the "Your name" field',
        ]))
        # A model is configured (never reached: the ambiguity is found before any request).
        env = {**__import__("os").environ, "FLOWPROOF_AI_BASE_URL": "http://127.0.0.1:9/v1", "FLOWPROOF_AI_MODEL": "m"}
        with self.assertRaises(ClarificationNeeded) as caught:
            Flow(spec, env=env).record()
        c = caught.exception.clarification
        self.assertEqual(c["capture_candidates"], ["first", "second"])
        self.assertEqual(c["step_index"], 3)
        self.assertEqual(caught.exception.exit_code, 2)

    def test_heal_reports_a_healthy_flow(self):
        spec = self.write("healthy.flow.yaml", flow_yaml("Healthy", f"{self.url}/greeter.html", ['rules: Type Ada into the "Your name" field', 'rules: Press the "Greet" button']))
        flow = Flow(spec)
        self.assertTrue(flow.record(author="rules").ok)
        healed = flow.heal(author="rules")
        self.assertIsInstance(healed, HealResult)
        self.assertFalse(healed.changed)
        self.assertFalse(healed.applied)
        self.assertIsNone(healed.proposed_path)
        self.assertEqual([r.route for r in healed.routing], ["rules", "rules"])

    def test_an_unsealed_trace_is_refused_unless_allow_unsealed(self):
        spec = self.write("unsealed.flow.yaml", flow_yaml("Unsealed", f"{self.url}/greeter.html", ['rules: Type Ada into the "Your name" field', 'rules: Press the "Greet" button']))
        env = {k: v for k, v in os.environ.items() if k != "FLOWPROOF_ALLOW_UNSEALED"}
        flow = Flow(spec, env=env)
        recorded = flow.record(author="rules", recording_detail="off")
        self.assertTrue(recorded.ok)
        # The seal taken off: a trace as an older flowproof wrote it.
        lines = Path(recorded.trace_path).read_text().splitlines()
        header = json.loads(lines[0])
        self.assertIn("integrity", header)
        del header["integrity"]
        Path(recorded.trace_path).write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
        for call in (lambda: flow.run(recording_detail="off"), lambda: flow.heal(author="rules")):
            with self.assertRaises(FlowproofError) as caught:
                call()
            self.assertEqual(caught.exception.code, "unsealed-trace")
            self.assertEqual(caught.exception.exit_code, 2)
            self.assertIn("--allow-unsealed", caught.exception.diagnostics[0].get("hint", ""))
        self.assertTrue(flow.run(recording_detail="off", allow_unsealed=True).passed)
        self.assertFalse(flow.heal(author="rules", allow_unsealed=True).changed)

    def test_a_failing_record_is_a_result_not_an_exception(self):
        flow = Flow(self.write("fails.flow.yaml", flow_yaml("Fails", f"{self.url}/greeter.html", ["assert: page shows Goodbye within 1s"])))
        recorded = flow.record(author="rules")
        self.assertFalse(recorded.ok)
        self.assertIsNone(recorded.trace_path)
        self.assertEqual(recorded.exit_code, 1)
        self.assertEqual([s.status for s in recorded.step_results], ["failed"])

    def test_a_bad_flow_raises_with_every_diagnostic(self):
        flow = Flow(self.write("bad.flow.yaml", 'name: Bad\napp: web\nurl: http://127.0.0.1:1/\nsteps:\n  - rules: Blur the "Email" field\n  - colour: red\n'))
        with self.assertRaises(FlowproofError) as caught:
            flow.validate()
        self.assertEqual(caught.exception.code, "refused-step")
        self.assertEqual([(d["code"], d["line"]) for d in caught.exception.diagnostics], [("refused-step", 5), ("unknown-key", 6)])

    def test_a_missing_trace_raises_missing_trace(self):
        flow = Flow(self.write("never.flow.yaml", flow_yaml("Never", f"{self.url}/greeter.html", ["assert: page shows Greeter"])))
        with self.assertRaises(FlowproofError) as caught:
            flow.get_trace()
        self.assertEqual(caught.exception.code, "missing-trace")


class FindExecutableTest(unittest.TestCase):
    def test_prefers_flowproof_bin_then_path_then_the_repository_launcher(self):
        with tempfile.TemporaryDirectory() as d:
            exe = Path(d) / "flowproof"
            exe.write_text("#!/bin/sh\n")
            exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
            self.assertEqual(find_executable({"FLOWPROOF_BIN": str(exe), "PATH": ""}), [str(exe)])
            self.assertEqual(find_executable({"PATH": d}), [str(exe)])
        with tempfile.TemporaryDirectory() as empty:
            launcher = find_executable({"PATH": empty})
        self.assertEqual(launcher[-1], str(REPO / "bin" / "flowproof.js"))

    def test_a_wrong_flowproof_bin_is_an_error(self):
        with self.assertRaises(FlowproofError) as caught:
            find_executable({"FLOWPROOF_BIN": "/nowhere/flowproof"})
        self.assertEqual(caught.exception.code, "no-flowproof")


if __name__ == "__main__":
    unittest.main()
