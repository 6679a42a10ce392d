"""The Flow client: finds the flowproof executable, runs it with --json, returns dataclasses.

Stdlib only; no parsing of human output. The field names are result.json's own (snake_case).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence

#: Exit codes of the flowproof CLI (docs/cli.md).
EXIT_PASS, EXIT_FAILED, EXIT_ERROR = 0, 1, 2


class FlowproofError(Exception):
    """The command could not run at all: a bad flow, a missing trace, a broken plugin, no browser.

    ``code`` is the stable diagnostic code (docs/errors.md); ``diagnostics`` lists every problem,
    each a dict with ``code``, ``message`` and, for flow problems, ``file``, ``line``, ``column``,
    ``hint``.
    """

    def __init__(self, code: str, message: str, diagnostics: Sequence[Mapping[str, Any]] = (), exit_code: int = EXIT_ERROR):
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.diagnostics = [dict(d) for d in diagnostics]
        self.exit_code = exit_code


@dataclass(frozen=True)
class StepResult:
    """One step of a run, as in result.json ``steps[]``."""

    id: str
    intent: str
    status: str  # "passed" | "failed" | "skipped" | "errored"
    started_ms: int
    duration_ms: int
    detail: Optional[str] = None
    selector_tier: Optional[str] = None
    degraded: Optional[bool] = None

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "StepResult":
        return cls(
            id=d["id"], intent=d["intent"], status=d["status"], started_ms=d["started_ms"], duration_ms=d["duration_ms"],
            detail=d.get("detail"), selector_tier=d.get("selector_tier"), degraded=d.get("degraded"),
        )


@dataclass(frozen=True)
class RunResult:
    """A replay, mirroring result.json plus where the run bundle was written."""

    name: str
    trace_id: str
    passed: bool
    steps: List[StepResult]
    duration_ms: int
    started_at: str
    flowproof_version: str
    spec_path: str
    trace_path: str
    report_path: str
    run_dir: str
    junit_path: str
    html_path: str
    error: Optional[str] = None
    degraded: Optional[bool] = None
    hint: Optional[str] = None
    exit_code: int = EXIT_PASS
    #: result.json's ``recording`` (frames, step ranges, gif), or None with ``recording_detail="off"``.
    recording: Optional[Dict[str, Any]] = None
    #: result.json's ``ran_on`` (``{"grid", "node", "session"}``) when the browser ran on a Selenium Grid.
    ran_on: Optional[Dict[str, str]] = None

    @property
    def failed_steps(self) -> List[StepResult]:
        return [s for s in self.steps if s.status in ("failed", "errored")]

    @classmethod
    def from_json(cls, d: Mapping[str, Any], exit_code: int) -> "RunResult":
        r = d["report"]
        return cls(
            name=r["name"], trace_id=r["trace_id"], passed=r["passed"], steps=[StepResult.from_json(s) for s in r["steps"]],
            duration_ms=r["duration_ms"], started_at=r["started_at"], flowproof_version=r["flowproof_version"],
            spec_path=r["spec_path"], trace_path=r["trace_path"], report_path=d["report_path"], run_dir=d["run_dir"],
            junit_path=d["junit_path"], html_path=d["html_path"], error=r.get("error"), degraded=r.get("degraded"),
            hint=d.get("hint"), exit_code=exit_code, recording=r.get("recording"), ran_on=r.get("ran_on"),
        )


@dataclass(frozen=True)
class RoutingEntry:
    """How one step was authored: ``rules``, ``llm``, ``reused`` or ``fallback``."""

    step: int
    intent: str
    route: str
    warning: Optional[str] = None


@dataclass(frozen=True)
class RecordResult:
    """A recording: ``ok`` is True when every step passed and the trace was written."""

    ok: bool
    trace_path: Optional[str]
    steps: int
    reused_steps: int
    routing: List[RoutingEntry]
    warnings: List[str] = field(default_factory=list)
    error: Optional[str] = None
    step_results: List[StepResult] = field(default_factory=list)
    exit_code: int = EXIT_PASS
    #: ``{"backend", "model"}`` when an authoring model grounded a step.
    agent: Optional[Dict[str, str]] = None
    #: With ``verify=True``: whether the fresh trace replayed to PASS.
    verified: Optional[bool] = None

    @classmethod
    def from_json(cls, d: Mapping[str, Any], exit_code: int) -> "RecordResult":
        return cls(
            ok=exit_code == EXIT_PASS and d.get("error") is None, trace_path=d.get("trace_path"), steps=d["steps"],
            reused_steps=d["reused_steps"],
            routing=[RoutingEntry(step=r["step"], intent=r["intent"], route=r["route"], warning=r.get("warning")) for r in d["routing"]],
            warnings=list(d.get("warnings", [])), error=d.get("error"),
            step_results=[StepResult.from_json(s) for s in d.get("step_results", [])], exit_code=exit_code,
            agent=d.get("agent"), verified=d.get("verified"),
        )


class ClarificationNeeded(FlowproofError):
    """A plain step was too ambiguous to author; ``.clarification`` is the payload (docs/cli.md).

    It carries ``step``, ``step_index``, ``stage``, ``reason``, ``completed_steps``, ``scene`` and
    ``hint`` (and ``capture_reference`` / ``capture_candidates`` for an ambiguous pronoun). Rewrite
    the step and record again.
    """

    def __init__(self, clarification: Mapping[str, Any], exit_code: int = EXIT_ERROR):
        super().__init__("needs-clarification", str(clarification.get("reason", "the step needs clarification")), (), exit_code=exit_code)
        self.clarification: Dict[str, Any] = dict(clarification)

    @property
    def payload(self) -> Dict[str, Any]:
        """The same payload as ``clarification``."""
        return self.clarification

    @property
    def step(self) -> Optional[str]:
        return self.clarification.get("step")

    @property
    def step_index(self) -> Optional[int]:
        return self.clarification.get("step_index")

    @property
    def reason(self) -> str:
        return self.message

    @property
    def hint(self) -> Optional[str]:
        return self.clarification.get("hint")


@dataclass(frozen=True)
class HealResult:
    """A heal proposal: ``changed`` is False when the live app still matches the trace."""

    changed: bool
    steps_changed: List[Dict[str, Any]]
    steps_added: int
    steps_removed: int
    proposed_path: Optional[str]
    applied: bool
    routing: List[RoutingEntry]
    diff_html: Optional[str]
    exit_code: int = EXIT_PASS

    @classmethod
    def from_json(cls, d: Mapping[str, Any], exit_code: int) -> "HealResult":
        r = d["report"]
        return cls(
            changed=r["changed"], steps_changed=list(r["steps_changed"]), steps_added=r["steps_added"], steps_removed=r["steps_removed"],
            proposed_path=r.get("proposed_path"), applied=bool(d.get("applied")), diff_html=r.get("diff_html"),
            routing=[RoutingEntry(step=e["step"], intent=e["intent"], route=e["route"], warning=e.get("warning")) for e in r.get("routing", [])],
            exit_code=exit_code,
        )


@dataclass(frozen=True)
class Trace:
    """A recorded trace: the header line and the step lines, as JSON objects (docs/trace-format.md)."""

    trace_path: str
    header: Dict[str, Any]
    steps: List[Dict[str, Any]]


def _repo_launcher() -> Optional[List[str]]:
    """The repository's own ``bin/flowproof.js`` (this SDK lives in ``sdk/python`` of it), run with node."""
    launcher = Path(__file__).resolve().parents[3] / "bin" / "flowproof.js"
    node = shutil.which("node")
    if launcher.is_file() and node:
        return [node, str(launcher)]
    return None


def find_executable(env: Optional[Mapping[str, str]] = None) -> List[str]:
    """The command that runs flowproof: ``FLOWPROOF_BIN``, then ``flowproof`` on PATH, then the repository's own launcher."""
    env = os.environ if env is None else env
    explicit = env.get("FLOWPROOF_BIN")
    if explicit:
        if not (Path(explicit).is_file() or shutil.which(explicit)):
            raise FlowproofError("no-flowproof", f"FLOWPROOF_BIN={explicit} does not exist")
        return [explicit]
    on_path = shutil.which("flowproof", path=env.get("PATH"))
    if on_path:
        return [on_path]
    repo = _repo_launcher()
    if repo:
        return repo
    raise FlowproofError("no-flowproof", "flowproof not found: set FLOWPROOF_BIN to the executable, or put `flowproof` on PATH")


class Flow:
    """One flow file, driven the way the command line drives it.

    >>> flow = Flow("checkout.flow.yaml")
    >>> flow.record(author="rules").ok
    >>> result = flow.run()
    >>> result.passed, [s.status for s in result.steps]
    """

    def __init__(self, spec: str | os.PathLike, *, executable: Optional[Sequence[str]] = None, env: Optional[Mapping[str, str]] = None, cwd: Optional[str | os.PathLike] = None, grid: Optional[str] = None):
        """``grid``: a Selenium Grid URL every web flow's browser runs on (``--grid``; docs/grid.md); ``"local"`` runs
        a local browser whatever the flow or ``FLOWPROOF_GRID_URL`` say. It travels in the environment, never on the
        command line, so credentials in it (``https://user:key@grid``) stay out of the process list."""
        self.spec = os.fspath(spec)
        self._env = dict(os.environ if env is None else env)
        if grid is not None:
            self._env["FLOWPROOF_GRID_URL"] = grid
        self._command = list(executable) if executable else find_executable(self._env)
        self._cwd = os.fspath(cwd) if cwd is not None else None

    def _call(self, args: Sequence[str], grid: Optional[str] = None) -> tuple[Dict[str, Any], int]:
        env = self._env if grid is None else {**self._env, "FLOWPROOF_GRID_URL": grid}
        proc = subprocess.run([*self._command, *args, "--json"], cwd=self._cwd, env=env, capture_output=True, text=True)
        try:
            out = json.loads(proc.stdout)
        except json.JSONDecodeError:
            raise FlowproofError("io-error", f"flowproof printed no JSON (exit {proc.returncode}): {(proc.stderr or proc.stdout).strip()[:500]}", exit_code=proc.returncode) from None
        if isinstance(out, dict) and isinstance(out.get("needs_clarification"), dict):
            raise ClarificationNeeded(out["needs_clarification"], exit_code=proc.returncode)
        if isinstance(out, dict) and isinstance(out.get("error"), dict) and "code" in out["error"]:
            e = out["error"]
            raise FlowproofError(e["code"], e.get("message", ""), e.get("diagnostics", []), exit_code=proc.returncode)
        return out, proc.returncode

    @staticmethod
    def _controls(recording_detail: str, video: bool, highlight_cursor: bool) -> List[str]:
        args = ["--recording-detail", recording_detail]
        if video:
            args.append("--video")
        if highlight_cursor:
            args.append("--highlight-cursor")
        return args

    def record(self, *, author: Optional[str] = None, out: Optional[str] = None, recording_detail: str = "full", video: bool = False, highlight_cursor: bool = False, reuse: bool = False, verify: bool = False, grid: Optional[str] = None) -> RecordResult:
        """Performs the flow once and writes its trace. A failing step gives ``ok=False``, not an exception;
        a plain step too ambiguous to author raises :class:`ClarificationNeeded`."""
        args = ["record", self.spec] + self._controls(recording_detail, video, highlight_cursor)
        if author:
            args += ["--author", author]
        if out:
            args += ["--out", out]
        if reuse:
            args.append("--reuse")
        if verify:
            args.append("--verify")
        data, code = self._call(args, grid)
        return RecordResult.from_json(data, code)

    def run(self, *, trace: Optional[str] = None, recording_detail: str = "full", video: bool = False, highlight_cursor: bool = False, grid: Optional[str] = None, allow_unsealed: bool = False) -> RunResult:
        """Replays the trace with zero model calls. A failing flow gives ``passed=False``, not an exception.
        ``grid`` (here and on record/heal): this call's Selenium Grid, over the one given to the constructor.
        ``allow_unsealed`` (here and on heal): replay a trace without a whole-trace seal (recorded by an older
        flowproof) instead of raising FlowproofError ``unsealed-trace`` (``--allow-unsealed``; off by default, as
        on the command line; ``FLOWPROOF_ALLOW_UNSEALED=1`` in the environment does the same)."""
        args = ["run", self.spec] + self._controls(recording_detail, video, highlight_cursor)
        if trace:
            args += ["--trace", trace]
        if allow_unsealed:
            args.append("--allow-unsealed")
        data, code = self._call(args, grid)
        return RunResult.from_json(data, code)

    def heal(self, *, trace: Optional[str] = None, apply: bool = False, author: Optional[str] = None, grid: Optional[str] = None, allow_unsealed: bool = False) -> HealResult:
        """Re-records against the live app and proposes a diff of the trace (never applied unless ``apply=True``).
        Raises :class:`ClarificationNeeded` when a step is too ambiguous to author; ``allow_unsealed`` as on run."""
        args = ["heal", self.spec]
        if trace:
            args += ["--trace", trace]
        if allow_unsealed:
            args.append("--allow-unsealed")
        if apply:
            args.append("--apply")
        if author:
            args += ["--author", author]
        data, code = self._call(args, grid)
        return HealResult.from_json(data, code)

    def get_trace(self, *, trace: Optional[str] = None) -> Trace:
        """The recorded trace. Raises FlowproofError (code ``missing-trace``) when there is none."""
        args = ["trace", self.spec]
        if trace:
            args += ["--trace", trace]
        data, _ = self._call(args)
        return Trace(trace_path=data["trace_path"], header=data["header"], steps=data["steps"])

    def validate(self) -> Dict[str, Any]:
        """Checks the flow without starting the app. Raises FlowproofError listing every problem."""
        data, _ = self._call(["validate", self.spec])
        return data
