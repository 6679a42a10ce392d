"""Drive flowproof from Python: ``from flowproof import Flow``.

Stdlib only. Every call runs the flowproof command line with ``--json`` and maps its output onto
dataclasses that mirror ``result.json``. A failing flow is a result (``RunResult.passed is
False``), never an exception; a flow that cannot run at all raises :class:`FlowproofError`.
"""
from .client import (
    ClarificationNeeded,
    Flow,
    FlowproofError,
    HealResult,
    RecordResult,
    RoutingEntry,
    RunResult,
    StepResult,
    Trace,
    find_executable,
)

__all__ = [
    "ClarificationNeeded",
    "Flow",
    "FlowproofError",
    "HealResult",
    "RecordResult",
    "RoutingEntry",
    "RunResult",
    "StepResult",
    "Trace",
    "find_executable",
]
__version__ = "0.1.0"
