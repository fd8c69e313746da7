"""R17: check a written editorial synthesis against the kernel's decision.

A synthesis document (markdown, usually written by an LLM synthesizer) must hold exactly one
*fired line* ``fired_conditions: [F2, F3]`` and exactly one *decision line*
``editorial_decision=<action>``. Reading rules:

* Lines inside code blocks (fenced or indented, as CommonMark reads them) count as neither;
  everything else counts, prose, lists, quotes and HTML included.
* A line is a fired line when it contains the word ``fired_conditions``; its list is the
  ``[...]`` after ``fired_conditions:``. Items are separated by commas, spaces and tabs around
  them are ignored, ``[]`` is the empty set. Each item must be a condition id
  (``F0``, ``F1`` … ``F99``) of the contract, and appear once.
* A line is a decision line when it contains ``editorial_decision=``; the action is the
  token ``editorial_decision=<letters and _>`` on it, and a line with two such tokens is
  ambiguous.

The synthesis is consistent when the written set equals the conditions that fired in the
decision and the written token equals the decision's action. Anything else is a finding
naming what differs; a report with no finding is ``ok``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

import attrs

from kernel.contract.model import Contract, load_contract
from kernel.decision.value import Decision
from kernel.errors import KernelError
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.phase2_v2 import da_critical_ids
from kernel.reviewer.lint.report import Finding
from kernel.reviewer.roles import scope_of
from kernel.reviewer.synthesis_v2 import Recomputed, SynthesisV2, check_synthesis_v2
from kernel.strict import shown
from kernel.text.markdown import parse_document

__all__ = ["SynthesisReport", "check_synthesis"]

_FIRED_WORD: Final = re.compile(r"(?<![A-Za-z0-9_])fired_conditions(?![A-Za-z0-9_])")
_FIRED_LIST: Final = re.compile(
    r"(?<![A-Za-z0-9_])fired_conditions[ \t]*:[ \t]*\[(?P<items>[^\[\]]*)\]"
)
_DECISION: Final = re.compile(r"(?<![A-Za-z0-9_])editorial_decision=[A-Za-z_]*")
_CONDITION_ID: Final = re.compile(r"F(?:0|[1-9][0-9]?)")
_FIRED: Final = "fired_conditions"
_ACTION: Final = "editorial_decision"


@attrs.frozen
class SynthesisReport:
    """The verdict of :func:`check_synthesis`."""

    #: The condition ids as written, in written order (``None`` without one readable line).
    fired: tuple[str, ...] | None
    #: The decision token as written, e.g. ``editorial_decision=major_revision`` (or ``None``).
    action: str | None
    findings: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "fired": list(self.fired) if self.fired is not None else None,
            "action": self.action,
            "findings": [f.to_dict() for f in self.findings],
        }


def _finding(code: str, message: str, line: int | None, check: str) -> Finding:
    return Finding(code, message, line, check)


def _counted_lines(text: str, source: str = "synthesis") -> list[tuple[int, str]]:
    """(number, text) of every line outside code blocks."""
    doc = parse_document(text, source=source)
    code: set[int] = set()
    for block in doc.blocks:
        if block.kind == "code":
            code.update(range(block.line, block.end + 1))
    return [(n, line) for n, line in enumerate(doc.lines, start=1) if n not in code]


def _fired_list(
    contract: Contract, line: str, number: int
) -> tuple[tuple[str, ...] | None, list[Finding]]:
    match = _FIRED_LIST.search(line)
    if match is None:
        return None, [
            _finding(
                "SY-003",
                f"fired_conditions line is not 'fired_conditions: [id, …]': {shown(line.strip())}",
                number,
                _FIRED,
            )
        ]
    inner = match.group("items").strip(" \t")
    items = [item.strip(" \t") for item in inner.split(",")] if inner else []
    ids = [c.condition_id for c in contract.conditions]
    known = set(ids)
    findings: list[Finding] = []
    seen: set[str] = set()
    for item in items:
        if _CONDITION_ID.fullmatch(item) is None:
            findings.append(
                _finding("SY-003", f"{shown(item)} is not a condition id (F0…F99)", number, _FIRED)
            )
        elif item not in known:
            findings.append(
                _finding(
                    "SY-004",
                    f"unknown condition id {item} (the contract's: {', '.join(ids)})",
                    number,
                    _FIRED,
                )
            )
        elif item in seen:
            findings.append(_finding("SY-005", f"{item} is listed twice", number, _FIRED))
        seen.add(item)
    return tuple(items), findings


def check_synthesis(
    contract: Contract | Mapping[str, Any] | str,
    decision: Decision,
    text: str,
    *,
    da_report: str | None = None,
    source: str = "synthesis",
    ars: str | Reading = DEFAULT_ARS,
) -> SynthesisReport | SynthesisV2:
    """Check a written synthesis ``text`` against ``decision`` (the kernel's decision over
    the usable reports) under ``contract``, of either dialect: R17 for Schema 13 (a
    :class:`SynthesisReport`), 13.2 §G for 13.2 (a :class:`SynthesisV2`, which also holds
    the dimension verdicts and the DA's CRITICAL issues, read from ``da_report``, the DA's
    Phase 2 text, when the mode seats a DA). Both have ``ok``, ``fired``, ``action``,
    ``findings`` and ``to_dict()``. Never raises for what the text says; raises
    :class:`KernelError` when ``text`` is not a str or is over the size limit, when
    ``decision`` is not a decision of this contract, or when a 13.2 DA report is missing or
    its issue tables do not parse. ``ars`` is the ARS reading of a 13.2 synthesis
    (``"main"`` or ``"fork"``; Schema 13 has one)."""
    chosen = reading(ars)
    contract = load_contract(contract)
    ids = [c.condition_id for c in contract.conditions]
    if not isinstance(decision, Decision) or list(decision.fired) != ids:
        raise KernelError(
            f"decision must be a Decision of {contract.contract_id} (conditions {', '.join(ids)})"
        )
    return _BY_DIALECT[contract.dialect](contract, decision, text, da_report, source, chosen)


def _check_13(
    contract: Contract,
    decision: Decision,
    text: str,
    da_report: str | None,
    source: str,
    ars: Reading,
) -> SynthesisReport:
    """R17: the fired line and the decision line."""
    if da_report is not None:
        raise KernelError("da_report goes with a dialect 13.2 synthesis (13 has no DA gate)")
    ids = [c.condition_id for c in contract.conditions]
    fired_lines: list[tuple[int, str]] = []
    tokens: list[tuple[int, str]] = []
    for number, line in _counted_lines(text, source):
        if _FIRED_WORD.search(line):
            fired_lines.append((number, line))
        tokens += [(number, m.group(0)) for m in _DECISION.finditer(line)]

    findings: list[Finding] = []
    fired: tuple[str, ...] | None = None
    if not fired_lines:
        findings.append(_finding("SY-001", "no 'fired_conditions: [...]' line", None, _FIRED))
    elif len(fired_lines) > 1:
        where = ", ".join(str(n) for n, _ in fired_lines)
        findings.append(
            _finding(
                "SY-002", f"fired_conditions appears on lines {where}", fired_lines[1][0], _FIRED
            )
        )
    else:
        number, line = fired_lines[0]
        fired, list_findings = _fired_list(contract, line, number)
        findings += list_findings
        if fired is not None:
            computed = [cid for cid, flag in decision.fired.items() if flag]
            missing = [cid for cid in computed if cid not in fired]
            extra = [cid for cid in dict.fromkeys(fired) if cid in ids and cid not in computed]
            if missing:
                findings.append(
                    _finding(
                        "SY-006",
                        f"missing fired condition(s) {', '.join(missing)}: written "
                        f"[{', '.join(fired)}], computed [{', '.join(computed)}]",
                        number,
                        _FIRED,
                    )
                )
            if extra:
                findings.append(
                    _finding(
                        "SY-007",
                        f"extra condition(s) {', '.join(extra)} did not fire: written "
                        f"[{', '.join(fired)}], computed [{', '.join(computed)}]",
                        number,
                        _FIRED,
                    )
                )

    action: str | None = None
    if not tokens:
        findings.append(_finding("SY-008", "no 'editorial_decision=<action>' line", None, _ACTION))
    elif len(tokens) > 1:
        where = ", ".join(f"line {n}: {t}" for n, t in tokens)
        findings.append(
            _finding(
                "SY-009",
                f"editorial_decision= appears {len(tokens)} times ({where})",
                tokens[1][0],
                _ACTION,
            )
        )
    else:
        number, action = tokens[0]
        if action != decision.action:
            findings.append(
                _finding(
                    "SY-010",
                    f"written {action}, computed {decision.action}",
                    number,
                    _ACTION,
                )
            )
    return SynthesisReport(fired, action, tuple(findings))


def _check_13_2(
    contract: Contract,
    decision: Decision,
    text: str,
    da_report: str | None,
    source: str,
    ars: Reading,
) -> SynthesisV2:
    """13.2 §G: the synthesis against the recomputed round, the DA gate included."""
    if not isinstance(text, str):
        raise KernelError(f"text must be a str, got {type(text).__name__}")
    scope = scope_of(contract)
    critical: tuple[str, ...] = ()
    if "da" in scope.roles:
        if not isinstance(da_report, str):
            raise KernelError(
                f"{contract.mode} seats a DA: give its Phase 2 text as da_report, the synthesis "
                "is checked against its CRITICAL issues (13.2 §G5)"
            )
        found = da_critical_ids(da_report)
        if found is None:
            raise KernelError("da_report: its issue tables do not parse (13.2 §F11)")
        critical = found
    elif da_report is not None:
        raise KernelError(f"da_report: {contract.mode} has no DA seat")
    recomputed = Recomputed(
        tuple(c for c, fired in decision.fired.items() if fired),
        decision.action,
        MappingProxyType(dict(decision.verdicts or {})),
        critical,
    )
    return check_synthesis_v2(scope, recomputed, text, source=source, ars=ars)


#: Each dialect's synthesis check.
_BY_DIALECT: Final[dict[str, Callable[..., SynthesisReport | SynthesisV2]]] = {
    "13": _check_13,
    "13.2": _check_13_2,
}
