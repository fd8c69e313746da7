"""The 13.2 synthesis check (13.2 §G): a written synthesis held against the kernel's own
recomputation of the round.

The synthesis states, each on one line at column 0 outside fenced code (trailing spaces
allowed, anywhere in the file, in any order):

* ``fired_conditions: [F2, F1]``, ``dimension_verdicts: [D1=pass, D3=block(fatal), …]``,
  ``da_critical_adjudications: [C1=VALIDATED, C2=REJECTED]``, each exactly once;
* exactly one ``editorial_decision=<action>`` of the reviewer actions;
* ``Cn rejection rationale: <text>``, at most one per id, and at most one
  ``[DA-CRITICAL-VS-ACCEPT: <n> validated/unresolved]`` marker.

That is the fork's reading (``ars="fork"``). Upstream main's (``ars="main"``, the
default; ars-main §2) also reads the four audit lines inside code fences (in display form)
and whole-line code spans; copies with one value collapse, different values abort with the
number of distinct values; rationales and the marker are read as before. A line holding an
audit line that CommonMark reads otherwise (in a quote, a list item, an HTML block, a
heading, fenced for one reading only, hidden on the page) is ``SYNTHESIS-PARSE`` (R20);
under the fork, an audit line inside fenced code for one reading only. Parsing stops at the
first malformed line (``SYNTHESIS-PARSE``). Then the stated fired list
(in contract order), verdicts and decision are compared with the recomputation, and the DA's
CRITICAL rows with the adjudications; every mismatch is named.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.errors import InputError, KernelError
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.display import block_fence_content, displayed, fence_content
from kernel.reviewer.lint.fields import unfenced_lines
from kernel.reviewer.lint.readings import Readings, readings
from kernel.reviewer.lint.report import Finding
from kernel.reviewer.roles import RoleScope
from kernel.text.markdown import parse_document

__all__ = ["REVIEWER_ACTIONS", "Recomputed", "SynthesisV2", "check_synthesis_v2"]

REVIEWER_ACTIONS: Final = frozenset(
    f"editorial_decision={a}" for a in ("accept", "minor_revision", "major_revision", "reject")
)
_LIST: Final = {
    label: re.compile(rf"{label}: \[(?P<body>[^\]]*)\]\s*")
    for label in ("fired_conditions", "dimension_verdicts", "da_critical_adjudications")
}
_VERDICT: Final = re.compile(r"(?P<dim>D\d+)=(?P<verdict>pass|warn|block|block\(fatal\))")
_ADJUDICATION: Final = re.compile(r"(?P<id>C[1-9]\d*)=(?P<state>VALIDATED|REJECTED|UNRESOLVED)")
_DECISION: Final = re.compile(r"(?P<action>editorial_decision=[a-z_]+)\s*")
_RATIONALE: Final = re.compile(r"(?P<id>C[1-9]\d*) rejection rationale: (?P<text>\S.*)\s*")
_MARKER: Final = re.compile(r"\[DA-CRITICAL-VS-ACCEPT: (?P<count>\d+) validated/unresolved\]\s*")


@attrs.frozen
class Recomputed:
    """What the kernel computed for the round."""

    #: Fired condition ids, in contract order.
    fired: tuple[str, ...]
    action: str
    #: dimension id → ``pass|warn|block|block(fatal)``.
    verdicts: Mapping[str, str]
    #: The DA report's CRITICAL ids (empty when the mode has no DA seat).
    critical: tuple[str, ...]


@attrs.frozen
class SynthesisV2:
    findings: tuple[Finding, ...]
    fired: tuple[str, ...] | None = None
    action: str | None = None
    verdicts: Mapping[str, str] | None = None
    adjudications: Mapping[str, str] | None = None

    @property
    def ok(self) -> bool:
        return not self.findings

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "fired": list(self.fired) if self.fired is not None else None,
            "action": self.action,
            "verdicts": dict(self.verdicts) if self.verdicts is not None else None,
            "adjudications": (dict(self.adjudications) if self.adjudications is not None else None),
            "findings": [f.to_dict() for f in self.findings],
        }


def _parse_error(source: str, what: str, line: int | None, fix: str = "") -> SynthesisV2:
    message = f"[SYNTHESIS-PARSE: {source}: {what}]" + (f" {fix}" if fix else "")
    return SynthesisV2((Finding("SY-101", message, line, "synthesis_parse"),))


#: How each audit line is written (13.2 §G2, §G3).
_FORMS: Final = {
    "fired_conditions": "fired_conditions: [<condition id>, ...]",
    "dimension_verdicts": "dimension_verdicts: [D1=<pass|warn|block|block(fatal)>, ...]",
    "da_critical_adjudications": (
        "da_critical_adjudications: [C1=<VALIDATED|REJECTED|UNRESOLVED>, ...]"
    ),
}


def check_synthesis_v2(
    scope: RoleScope,
    recomputed: Recomputed,
    text: str,
    *,
    source: str = "synthesis",
    ars: str | Reading = DEFAULT_ARS,
) -> SynthesisV2:
    """Check a 13.2 synthesis document against ``recomputed`` (13.2 §G2-§G5), under the ARS
    reading ``ars``. A consistency marker whose count has more than
    :data:`MAX_COUNT_DIGITS` significant digits raises :class:`~kernel.errors.InputError`
    naming ``source`` and the line; so does a text over the work bounds of
    :func:`~kernel.text.markdown.parse_document`."""
    chosen = reading(ars)
    try:
        doc = parse_document(text, source=source)
    except InputError:
        raise
    except KernelError as exc:  # over a work bound: the synthesis cannot be read at all
        raise InputError(exc.message, code="E-INPUT") from None
    r = readings(doc)
    audit = _AUDIT[chosen.display_forms](r, source)
    if isinstance(audit, SynthesisV2):
        return audit
    lines = list(unfenced_lines(doc))
    single: dict[str, tuple[int, str]] = {}
    for label, hits in audit.lists.items():
        if len(hits) != 1:
            return _parse_error(
                source,
                f"expected exactly one {label} line, found {len(hits)}",
                hits[1][0] if len(hits) > 1 else None,
                "keep one" if hits else f"write one line '{_FORMS[label]}' (an empty list is [])",
            )
        (single[label],) = hits
    at = {label: n for label, (n, _) in single.items()}
    tokens = {
        label: [t.strip() for t in body.split(",") if t.strip()]
        for label, (_, body) in single.items()
    }
    ids = {c for c, _ in scope.conditions}
    fired = tokens["fired_conditions"]
    if len(set(fired)) != len(fired) or any(f not in ids for f in fired):
        return _parse_error(
            source,
            f"invalid fired_conditions {fired!r}",
            at["fired_conditions"],
            "name each condition of the contract once: "
            + ", ".join(c for c, _ in scope.conditions),
        )
    verdicts: dict[str, str] = {}
    for token in tokens["dimension_verdicts"]:
        m = _VERDICT.fullmatch(token)
        if m is None or m.group("dim") in verdicts:
            return _parse_error(
                source,
                f"invalid dimension verdict '{token}'",
                at["dimension_verdicts"],
                "write each dimension once as D<n>=pass, D<n>=warn, D<n>=block or "
                "D<n>=block(fatal)",
            )
        verdicts[m.group("dim")] = m.group("verdict")
    adjudications: dict[str, str] = {}
    for token in tokens["da_critical_adjudications"]:
        m = _ADJUDICATION.fullmatch(token)
        if m is None or m.group("id") in adjudications:
            return _parse_error(
                source,
                f"invalid DA adjudication '{token}'",
                at["da_critical_adjudications"],
                "write each CRITICAL id once as C<n>=VALIDATED, C<n>=REJECTED or C<n>=UNRESOLVED",
            )
        adjudications[m.group("id")] = m.group("state")
    decisions = audit.decisions
    if len(decisions) != 1 or decisions[0][1] not in REVIEWER_ACTIONS:
        wrong = next((n for n, a in decisions if a not in REVIEWER_ACTIONS), None)
        return _parse_error(
            source,
            "expected exactly one valid decision",
            wrong if wrong is not None else decisions[0][0] if decisions else None,
            "write one line 'editorial_decision=<action>', the action one of "
            + ", ".join(sorted(a.partition("=")[2] for a in REVIEWER_ACTIONS)),
        )
    action = decisions[0][1]
    rationales: dict[str, str] = {}
    for n, t in lines:
        m = _RATIONALE.fullmatch(t)
        if m is not None:
            if m.group("id") in rationales:
                return _parse_error(
                    source,
                    f"duplicate rejection rationale for {m.group('id')}",
                    n,
                    "keep one",
                )
            rationales[m.group("id")] = m.group("text")
    markers = [
        (n, _count(m.group("count"), source, n)) for n, t in lines if (m := _MARKER.fullmatch(t))
    ]
    if len(markers) > 1:
        return _parse_error(source, "duplicate DA consistency marker", markers[1][0], "keep one")
    findings = _mismatch(recomputed, tuple(fired), action, verdicts, at, decisions[0][0])
    findings += _da_gate(
        recomputed, action, adjudications, rationales, markers, at["da_critical_adjudications"]
    )
    return SynthesisV2(tuple(findings), tuple(fired), action, verdicts, adjudications)


@attrs.frozen
class _Audit:
    """The audit lines as counted: per list label its (line, body) hits, and the decision
    lines' (line, action)."""

    lists: Mapping[str, list[tuple[int, str]]]
    decisions: list[tuple[int, str]]


def _one_reading(r: Readings, source: str, patterns: Sequence[re.Pattern[str]]) -> Finding | None:
    """A line matching one of ``patterns`` inside fenced code for one reading only (R20)."""
    for n, line in enumerate(r.doc.lines, start=1):
        if (n in r.block_fenced) != (n in r.line_fenced) and any(
            p.fullmatch(line) for p in patterns
        ):
            return _parse_error(
                source,
                f"line {n} is inside fenced code for one reading only (CommonMark or the "
                "line reading of 13.2 §E0.2); the readings must agree (R20)",
                n,
                _SAME,
            ).findings[0]
    return None


def _written(r: Readings, source: str) -> _Audit | SynthesisV2:
    """The fork's reading (13.2 §G1-§G3): audit lines outside fenced code, as written, each
    one counted."""
    problem = _one_reading(r, source, (*_LIST.values(), _DECISION, _RATIONALE, _MARKER))
    if problem is not None:
        return SynthesisV2((problem,))
    lists: dict[str, list[tuple[int, str]]] = {label: [] for label in _LIST}
    decisions: list[tuple[int, str]] = []
    for n, line in unfenced_lines(r.doc):
        for label, pattern in _LIST.items():
            m = pattern.fullmatch(line)
            if m is not None:
                lists[label].append((n, m.group("body")))
        m = _DECISION.fullmatch(line)
        if m is not None:
            decisions.append((n, m.group("action")))
    return _Audit(lists, decisions)


def _displayed(r: Readings, source: str) -> _Audit | SynthesisV2:
    """Upstream main's reading (ars-main §2): audit lines also in fenced code (display form)
    and whole-line code spans; equal values collapse, so each label counts its distinct
    trimmed bodies. Every source line that gives an audit line must be read alike by
    CommonMark (R20, ars-main §2.3.2); rationales and the marker keep the fork's rule."""
    problem = _one_reading(r, source, (_RATIONALE, _MARKER))
    if problem is not None:
        return SynthesisV2((problem,))
    doc = r.doc
    content = fence_content(doc.lines)
    block_content = block_fence_content(doc)
    starts = [b.line for b in doc.blocks]
    lists: dict[str, dict[str, int]] = {label: {} for label in _LIST}
    decisions: dict[str, int] = {}
    for d in displayed(doc, content):
        if ":" not in d.text and "=" not in d.text:
            continue
        hit = False
        for label, pattern in _LIST.items():
            m = pattern.fullmatch(d.text)
            if m is not None:
                lists[label].setdefault(m.group("body").strip(), d.line)
                hit = True
        m = _DECISION.fullmatch(d.text)
        if m is not None:
            decisions.setdefault(m.group("action"), d.line)
            hit = True
        if hit:
            why = _unlike(r, starts, block_content, d.line, d.line in content)
            if why is not None:
                return _parse_error(
                    source,
                    f"line {d.line} is an audit line that {why}; the readings must agree (R20)",
                    d.line,
                    _SAME,
                )
    return _Audit(
        {label: [(n, body) for body, n in hits.items()] for label, hits in lists.items()},
        [(n, action) for action, n in decisions.items()],
    )


def _unlike(
    r: Readings, starts: Sequence[int], block_content: frozenset[int], n: int, fenced: bool
) -> str | None:
    """Why CommonMark does not read line ``n`` as main does (top level, fenced content in
    both readings or in neither, visible on the page), or ``None``."""
    i = bisect_right(starts, n) - 1
    block = r.doc.blocks[i] if i >= 0 and r.doc.blocks[i].end >= n else None
    if block is not None and block.quoted:
        return "sits in a block quote for CommonMark (a line continuing a quote is part of it)"
    if block is not None and block.listed:
        return "sits in a list item for CommonMark (a line continuing an item is part of it)"
    if block is not None and block.kind == "html":
        return "sits in an HTML block or comment for CommonMark"
    if block is not None and block.kind == "heading":
        return "is a heading for CommonMark (a setext underline follows it)"
    if (n in block_content) != fenced:
        inside = "CommonMark" if fenced else "the line reading (13.2 §E0.2)"
        return f"is fenced code content for one reading only (not for {inside})"
    if block is not None and block.kind == "code" and not block.fenced:
        return "sits in indented code for CommonMark"
    if n in r.hidden:
        return "is hidden on the rendered page by an HTML comment left open before it"
    return None


_SAME: Final = (
    "write the line at column 0, outside block quotes, lists, HTML and fences (or inside a "
    "fence both readings see), so that every reading sees it alike"
)

#: The most digits a consistency marker's count may have: Python reads at most 4,300 digits
#: as an integer, and no round has as many CRITICAL issues as a 100-digit number.
MAX_COUNT_DIGITS: Final = 100


def _count(digits: str, source: str, line: int) -> int:
    """The marker's count (``02`` is 2); a count too long to read is refused."""
    significant = digits.lstrip("0")
    if len(significant) > MAX_COUNT_DIGITS:
        raise InputError(
            f"{source}:{line}: the [DA-CRITICAL-VS-ACCEPT: <n> validated/unresolved] count has "
            f"{len(significant)} digits, more than the {MAX_COUNT_DIGITS} the kernel reads",
            code="E-INPUT",
            line=line,
        )
    return int(significant or "0")


def _mismatch(
    recomputed: Recomputed,
    fired: tuple[str, ...],
    action: str,
    verdicts: Mapping[str, str],
    at: Mapping[str, int],
    decision_at: int,
) -> list[Finding]:
    """One ``PANEL-SYNTHESIS-MISMATCH`` naming every part that differs (13.2 §G4), on the
    first line that differs, with the lines that would pass."""
    parts: list[str] = []
    fixes: list[str] = []
    lines: list[int] = []
    if fired != recomputed.fired:
        parts.append(f"fired={list(fired)!r}, recomputed_fired={list(recomputed.fired)!r}")
        fixes.append(f"fired_conditions: [{', '.join(recomputed.fired)}]")
        lines.append(at["fired_conditions"])
    if dict(verdicts) != dict(recomputed.verdicts):
        parts.append(
            f"verdicts={dict(verdicts)!r}, recomputed_verdicts={dict(recomputed.verdicts)!r}"
        )
        body = ", ".join(f"{d}={v}" for d, v in recomputed.verdicts.items())
        fixes.append(f"dimension_verdicts: [{body}]")
        lines.append(at["dimension_verdicts"])
    if action != recomputed.action:
        parts.append(f"decision={action}, recomputed={recomputed.action}")
        fixes.append(recomputed.action)
        lines.append(decision_at)
    if not parts:
        return []
    return [
        Finding(
            "SY-102",
            f"[PANEL-SYNTHESIS-MISMATCH: {'; '.join(parts)}] the round's scores give "
            + "; ".join(f"'{f}'" for f in fixes),
            min(lines),
            "synthesis_mismatch",
        )
    ]


def _da_gate(
    recomputed: Recomputed,
    action: str,
    adjudications: Mapping[str, str],
    rationales: Mapping[str, str],
    markers: Sequence[tuple[int, int]],
    adjudications_at: int | None = None,
) -> list[Finding]:
    """The DA's CRITICAL rows against the adjudications (13.2 §G5)."""
    findings: list[Finding] = []
    if set(adjudications) != set(recomputed.critical):
        findings.append(
            Finding(
                "SY-103",
                f"[DA-CRITICAL-ADJUDICATION-MISMATCH: report={sorted(recomputed.critical)!r}, "
                f"synthesis={sorted(adjudications)!r}] adjudicate exactly the DA's CRITICAL "
                "ids: da_critical_adjudications: ["
                + ", ".join(f"{c}=<VALIDATED|REJECTED|UNRESOLVED>" for c in recomputed.critical)
                + "]",
                adjudications_at,
                "da_gate",
            )
        )
    for cid, state in adjudications.items():
        if state == "REJECTED" and cid not in rationales:
            findings.append(
                Finding(
                    "SY-104",
                    f"[DA-CRITICAL-RATIONALE-MISSING: {cid}] add a line '{cid} rejection "
                    "rationale: <why the issue does not stand>'",
                    adjudications_at,
                    "da_gate",
                )
            )
    open_issues = sum(1 for s in adjudications.values() if s in ("VALIDATED", "UNRESOLVED"))
    stated = markers[0][1] if markers else None
    line = markers[0][0] if markers else None
    if action == "editorial_decision=accept" and open_issues > 0:
        if stated != open_issues:
            findings.append(
                Finding(
                    "SY-105",
                    f"[DA-CRITICAL-VS-ACCEPT-MARKER: expected={open_issues}, stated={stated}] "
                    f"write '[DA-CRITICAL-VS-ACCEPT: {open_issues} validated/unresolved]'"
                    + (" on a line of its own" if stated is None else ""),
                    line if line is not None else adjudications_at,
                    "da_gate",
                )
            )
    elif markers:
        findings.append(
            Finding(
                "SY-105",
                "[DA-CRITICAL-VS-ACCEPT-MARKER: marker forbidden in this state] remove it: the "
                "marker goes only with an accept over VALIDATED or UNRESOLVED CRITICAL issues",
                line,
                "da_gate",
            )
        )
    return findings


#: How each reading counts the audit lines, by whether it reads their display forms.
_AUDIT: Final = {False: _written, True: _displayed}
