"""Convergence between self-refinement iterations and the hard iteration cap (§C).

Findings of two iterations are compared by id, severity and normalised evidence:
``delta = (added + removed + changed) / max(1, |union of ids|)`` as an exact fraction, and a
specialist has converged when ``delta <= 1/10`` (*chosen*). The cap is 2 iterations, 3 in
thorough mode; nothing an agent reports can raise it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

import attrs

from kernel.errors import KernelError
from kernel.panel._args import as_list
from kernel.panel.verdicts import severity_rank
from kernel.strict import shown

__all__ = [
    "CONVERGENCE_THRESHOLD",
    "MAX_ITERATIONS",
    "MAX_ITERATIONS_THOROUGH",
    "Delta",
    "Refinement",
    "Snapshot",
    "advance",
    "compare",
    "iteration_cap",
    "normalise_evidence",
    "start",
]

MAX_ITERATIONS = 2
MAX_ITERATIONS_THOROUGH = 3
CONVERGENCE_THRESHOLD = Fraction(1, 10)


def normalise_evidence(text: str) -> str:
    """NFKC, case-folded, whitespace runs collapsed to one space, trimmed."""
    if not isinstance(text, str):
        raise KernelError(f"evidence must be a string, got {type(text).__name__}")
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


@attrs.frozen
class Snapshot:
    """One finding as an iteration reports it."""

    id: str
    severity: str
    evidence: str

    @classmethod
    def of(cls, value: Snapshot | Mapping[str, Any]) -> Snapshot:
        if isinstance(value, Snapshot):
            return value
        if not isinstance(value, Mapping):
            raise KernelError(f"a finding must be a mapping, got {type(value).__name__}")
        missing = [k for k in ("id", "severity", "evidence") if k not in value]
        if missing:
            raise KernelError(f"finding is missing {', '.join(missing)}")
        fid, severity, evidence = value["id"], value["severity"], value["evidence"]
        if not isinstance(fid, str) or not fid:
            raise KernelError(f"finding id must be a non-empty string, got {shown(fid)}")
        severity_rank(severity)
        return cls(fid, severity, normalise_evidence(evidence))


def _index(findings: Iterable[Snapshot | Mapping[str, Any]], what: str) -> dict[str, Snapshot]:
    out: dict[str, Snapshot] = {}
    for item in as_list(findings, what):
        snap = Snapshot.of(item)
        if snap.id in out:
            raise KernelError(f"{what}: duplicate finding id {shown(snap.id)}")
        out[snap.id] = snap
    return out


@attrs.frozen
class Delta:
    added: int
    removed: int
    changed: int
    union: int

    @property
    def value(self) -> Fraction:
        return Fraction(self.added + self.removed + self.changed, max(1, self.union))

    @property
    def converged(self) -> bool:
        return self.value <= CONVERGENCE_THRESHOLD


def compare(
    previous: Iterable[Snapshot | Mapping[str, Any]],
    current: Iterable[Snapshot | Mapping[str, Any]],
) -> Delta:
    """The delta between two iterations' findings."""
    before = _index(previous, "previous iteration")
    after = _index(current, "current iteration")
    ids = before.keys() | after.keys()
    changed = sum(
        1
        for i in before.keys() & after.keys()
        if (before[i].severity, before[i].evidence) != (after[i].severity, after[i].evidence)
    )
    return Delta(
        added=len(after.keys() - before.keys()),
        removed=len(before.keys() - after.keys()),
        changed=changed,
        union=len(ids),
    )


def iteration_cap(thorough: bool = False) -> int:
    """2, or 3 in thorough mode. Agents have no say."""
    if not isinstance(thorough, bool):
        raise KernelError(f"thorough must be a bool, got {shown(thorough)}")
    return MAX_ITERATIONS_THOROUGH if thorough else MAX_ITERATIONS


@attrs.frozen
class Refinement:
    """A specialist's self-refinement so far: ``iterations`` done, the last findings, and
    why it stopped (``None`` while it may continue)."""

    cap: int
    iterations: int = 0
    findings: tuple[Snapshot, ...] = ()
    last_delta: Delta | None = None
    stopped: str | None = None


def start(*, thorough: bool = False) -> Refinement:
    return Refinement(cap=iteration_cap(thorough))


def advance(state: Refinement, findings: Iterable[Snapshot | Mapping[str, Any]]) -> Refinement:
    """Record one iteration's findings. Any other field an agent reports (a request for more
    iterations, a cap of its own) is not an input here, so it cannot move the cap.

    Stops with ``"converged"`` when the delta to the previous iteration is at most 1/10, and
    with ``"iteration cap"`` when the cap is reached; a stopped refinement refuses more.
    """
    if not isinstance(state, Refinement):
        raise KernelError("state must come from kernel.panel.convergence.start")
    if state.stopped is not None:
        raise KernelError(f"refinement already stopped ({state.stopped})")
    current = tuple(_index(findings, "iteration").values())
    iterations = state.iterations + 1
    delta = compare(state.findings, current) if state.iterations else None
    stopped = None
    if delta is not None and delta.converged:
        stopped = "converged"
    elif iterations >= state.cap:
        stopped = "iteration cap"
    return attrs.evolve(
        state, iterations=iterations, findings=current, last_delta=delta, stopped=stopped
    )
