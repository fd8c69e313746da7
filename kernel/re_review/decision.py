"""The re-review decision (design/re-review.md sec. 5): operands from the raw records, the gates
G0/G1/G2, the base rules B1-B6, the escalation floors and the ``reject_recommended`` flag.

Everything here is a pure function over parsed records (plain mappings that passed the
document layers L1-L7); :func:`kernel.re_review.decide.decide_re_review` adds the layers in
front.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final, ParamSpec, TypeVar

import attrs

from kernel.re_review.model import (
    ESCALATION_CLASSES,
    MAGNITUDES,
    PRIORITIES,
    SEVERITIES,
    VERDICT_RANK,
    VERDICTS,
    ReReviewError,
    abort_tag,
)

__all__ = [
    "DECISION_ORDER",
    "EscalationOperand",
    "Gates",
    "Operands",
    "P1Operand",
    "ReReviewDecision",
    "aborted",
    "decide_records",
    "decision_inputs",
    "derive",
    "gates",
    "operands",
    "verdict_rank",
]

#: Accept < Minor Revision < Major Revision (the floors take the larger).
DECISION_ORDER: Final = {"Accept": 0, "Minor Revision": 1, "Major Revision": 2}
_BASE: Final = {
    "B1": "Major Revision",
    "B2": "Major Revision",
    "B3": "Major Revision",
    "B4": "Major Revision",
    "B5": "Minor Revision",
    "B6": "Accept",
}
_SHORT: Final = {"Major Revision": "Major", "Minor Revision": "Minor", "Accept": "Accept"}


def verdict_rank(verdict: str) -> int:
    """MADE_WORSE = CANNOT_VERIFY < NOT_ADDRESSED < PARTIALLY_ADDRESSED < FULLY_ADDRESSED."""
    return VERDICT_RANK[verdict]


def _choice(value: object, allowed: Sequence[str], what: str, *, null: bool = False) -> Any:
    if value is None and null:
        return None
    if not isinstance(value, str) or value not in allowed:
        raise ReReviewError(f"{what}: {value!r} is not one of {', '.join(allowed)}")
    return value


def _count(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ReReviewError(f"{what}: {value!r} is not a whole number ≥ 0")
    return value


@attrs.frozen
class P1Operand:
    """One must_fix item with a row: its final verdict, driving severity (the roadmap's, or
    ``None``) and final residual magnitude (only when PARTIALLY_ADDRESSED)."""

    final_verdict: str = attrs.field(
        validator=lambda _s, _a, v: _choice(v, VERDICTS, "final_verdict")
    )
    driving_severity: str | None = attrs.field(
        default=None,
        validator=lambda _s, _a, v: _choice(v, SEVERITIES, "driving_severity", null=True),
    )
    residual_magnitude: str | None = attrs.field(
        default=None,
        validator=lambda _s, _a, v: _choice(v, MAGNITUDES, "residual_magnitude", null=True),
    )
    item_id: str | None = attrs.field(default=None, kw_only=True)


@attrs.frozen
class EscalationOperand:
    """One escalation exception as the decision sees it."""

    effective_approval_state: str = attrs.field(
        validator=lambda _s, _a, v: _choice(
            v, ("pending", "approved", "rejected"), "effective_approval_state"
        )
    )
    escalation_class: str = attrs.field(
        validator=lambda _s, _a, v: _choice(v, ESCALATION_CLASSES, "escalation_class")
    )
    mechanical_decision_impact: str = attrs.field(
        validator=lambda _s, _a, v: _choice(
            v, ("Minor Revision", "Major Revision"), "mechanical_decision_impact"
        )
    )
    exception_id: str | None = None


def _strings(value: Iterable[Any]) -> tuple[Any, ...]:
    return tuple(value)


@attrs.frozen
class Operands:
    """What Steps 2-3 read (sec. 5.1). The ``*_ids`` members only name the items in
    :meth:`ReReviewDecision.explain`; they never change the decision."""

    p1: tuple[P1Operand, ...] = attrs.field(converter=_strings)
    p2_partial_magnitudes: tuple[str | None, ...] = attrs.field(default=(), converter=_strings)
    p2_made_worse: bool = False
    #: (numerator, denominator): P2 rows final FULLY or PARTIALLY, P2 roadmap items.
    p2_addressed: tuple[int, int] = (0, 0)
    regression_severities: tuple[str, ...] = attrs.field(default=(), converter=_strings)
    escalations: tuple[EscalationOperand, ...] = attrs.field(default=(), converter=_strings)
    p2_partial_ids: tuple[str, ...] = attrs.field(default=(), converter=_strings, kw_only=True)
    p2_made_worse_ids: tuple[str, ...] = attrs.field(default=(), converter=_strings, kw_only=True)
    regression_ids: tuple[str, ...] = attrs.field(default=(), converter=_strings, kw_only=True)

    @classmethod
    def from_decision_inputs(cls, inputs: Mapping[str, Any]) -> Operands:
        """The operands a sidecar's ``decision_inputs`` states (P2 magnitudes from the
        should_fix magnitude counts, ``p2_made_worse`` from the should_fix MADE_WORSE count)."""
        if not isinstance(inputs, Mapping):
            raise ReReviewError("decision_inputs: not an object")
        try:
            p1 = tuple(
                P1Operand(
                    entry["final_verdict"],
                    entry["driving_severity"],
                    entry.get("residual_magnitude"),
                    item_id=entry.get("item_id"),
                )
                for entry in inputs["per_item"]
            )
            magnitudes = inputs["residual_magnitude_counts"]["should_fix"]
            partial = tuple(
                m for m in MAGNITUDES for _ in range(_count(magnitudes[m], f"should_fix.{m}"))
            )
            worse = _count(inputs["verdict_counts"]["should_fix"]["MADE_WORSE"], "MADE_WORSE")
            rate = inputs["p2_addressed_rate"]
            regressions = inputs["regressions"]
            escalations = tuple(
                EscalationOperand(
                    e["effective_approval_state"],
                    e["escalation_class"],
                    e["mechanical_decision_impact"],
                    e.get("exception_id"),
                )
                for e in inputs["escalations"]
            )
            return cls(
                p1,
                partial,
                worse > 0,
                (
                    _count(rate["numerator"], "numerator"),
                    _count(rate["denominator"], "denominator"),
                ),
                tuple(_choice(r["severity"], SEVERITIES, "severity") for r in regressions),
                escalations,
                regression_ids=tuple(str(r.get("new_issue_id")) for r in regressions),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ReReviewError(f"decision_inputs: malformed ({exc!r})") from None


#: (rule or step, what it found, the item / record ids it names).
Reason = tuple[str, str, tuple[str, ...]]


def _pending_dicts(pending: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"kind": kind, "subject": subject} for kind, subject in pending]


@attrs.frozen
class ReReviewDecision:
    """What the re-review decides (sec. 5.6)."""

    decision_state: str
    abort_reason: str | None = None
    tag: str | None = None
    #: ``None`` when a gate decided (G0, G1, G2).
    reject_recommended: bool | None = None
    base_rule: str | None = None
    gate: str | None = None
    #: G2's pending states: (``a``|``b``|``c``|``d``, the dissent / item / exception id).
    pending: tuple[tuple[str, str], ...] = ()
    #: The approved exceptions whose floor applied (in order).
    floors: tuple[str, ...] = ()
    reasons: tuple[Reason, ...] = ()
    decision_inputs: Mapping[str, Any] | None = attrs.field(default=None, hash=False)
    witness: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "decision_state": self.decision_state,
            "abort_reason": self.abort_reason,
            "tag": self.tag,
            "reject_recommended": self.reject_recommended,
            "base_rule": self.base_rule,
            "gate": self.gate,
            "pending": _pending_dicts(self.pending),
            "floors": list(self.floors),
            "reasons": [
                {"rule": rule, "text": text, "items": list(items)}
                for rule, text, items in self.reasons
            ],
            "decision_inputs": None if self.decision_inputs is None else dict(self.decision_inputs),
            "witness": self.witness,
        }

    def explain(self) -> str:
        """One line per step: the gate, the first matching rule with the items it matched,
        each floor, the flag, and the state."""
        lines: list[str] = []
        for rule, text, items in self.reasons:
            named = f" [{', '.join(items)}]" if items else ""
            lines.append(f"{rule}: {text}{named}")
        if self.gate is None:
            lines.insert(
                0, "gates: none (no lint error, no silent verdict change, nothing pending)"
            )
        else:
            lines.append(f"flag: reject_recommended absent ({self.gate} decided)")
        state = self.decision_state
        if self.tag is not None:
            state += f" {self.tag}"
        elif self.base_rule is not None:
            state += f" (base {self.base_rule})"
        lines.append(f"decision: {state}")
        return "\n".join(lines)


def aborted(
    reason: str,
    text: str,
    *,
    gate: str = "G0",
    items: Sequence[str] = (),
    witness: str | None = None,
) -> ReReviewDecision:
    """An ``aborted`` decision with ``reason`` (G0: a layer failed; G1: criteria_drift)."""
    return ReReviewDecision(
        "aborted",
        abort_reason=reason,
        tag=abort_tag(reason),
        gate=gate,
        reasons=((gate, text, tuple(items)),),
        witness=witness,
    )


# --- Steps 2-3 ----------------------------------------------------------------------------


def derive(operands: Operands) -> ReReviewDecision:
    """Steps 2-3 (sec. 5.3, sec. 5.4) over ``operands``: the base rule, the floors and the flag."""
    p1 = operands.p1
    names = [op.item_id or f"P1#{n}" for n, op in enumerate(p1, 1)]
    for name, op in zip(names, p1, strict=True):
        if op.final_verdict == "PARTIALLY_ADDRESSED" and op.residual_magnitude is None:
            raise ReReviewError(
                f"P1 operand {name} is PARTIALLY_ADDRESSED without a residual magnitude"
            )
    if any(m is None for m in operands.p2_partial_magnitudes):
        raise ReReviewError("a P2 PARTIALLY_ADDRESSED operand has no residual magnitude")
    regressions = operands.regression_severities
    for severity in regressions:
        _choice(severity, SEVERITIES, "regression severity")
    reg_ids = operands.regression_ids
    num, den = operands.p2_addressed
    _count(num, "p2 numerator")
    _count(den, "p2 denominator")

    def ids(test: Callable[[P1Operand], bool]) -> tuple[str, ...]:
        """The P1 items ``test`` holds for."""
        return tuple(name for name, op in zip(names, p1, strict=True) if test(op))

    def regs(severity: str) -> tuple[str, ...]:
        return tuple(
            reg_ids[i] if i < len(reg_ids) else f"regression#{i + 1}"
            for i, s in enumerate(regressions)
            if s == severity
        )

    failing = ids(lambda op: op.final_verdict in ("NOT_ADDRESSED", "MADE_WORSE"))
    below_80 = den > 0 and 5 * num < 4 * den
    rule: str
    text: str
    matched: tuple[str, ...]
    b1 = ids(lambda op: op.final_verdict == "MADE_WORSE" and op.driving_severity == "critical")
    if b1 or "critical" in regressions:
        rule, matched = "B1", b1 + regs("critical")
        text = "a critical P1 item MADE_WORSE or a critical regression: Major Revision, reject"
    elif p1 and 2 * len(failing) >= len(p1):
        rule, matched = "B2", failing
        text = (
            f"{len(failing)} of {len(p1)} P1 items NOT_ADDRESSED or MADE_WORSE (at least half): "
            "Major Revision, reject"
        )
    elif (
        b3 := ids(lambda op: op.final_verdict in ("NOT_ADDRESSED", "MADE_WORSE", "CANNOT_VERIFY"))
    ) or "major" in regressions:
        rule, matched = "B3", b3 + regs("major")
        text = (
            "a P1 item NOT_ADDRESSED, MADE_WORSE or CANNOT_VERIFY, or a major regression: "
            "Major Revision"
        )
    elif (
        b4 := ids(
            lambda op: (
                op.final_verdict == "PARTIALLY_ADDRESSED" and op.residual_magnitude == "must_fix"
            )
        )
    ) or "must_fix" in operands.p2_partial_magnitudes:
        p2 = tuple(
            i
            for i, m in zip(operands.p2_partial_ids, operands.p2_partial_magnitudes, strict=False)
            if m == "must_fix"
        )
        rule, matched = "B4", b4 + p2
        text = "a P1 or P2 item PARTIALLY_ADDRESSED with a must_fix residual gap: Major Revision"
    else:
        b5 = ids(
            lambda op: (
                op.final_verdict == "PARTIALLY_ADDRESSED"
                and op.residual_magnitude in ("should_fix", "consider")
            )
        )
        minor = regs("minor")
        if b5 or below_80 or operands.p2_made_worse or minor:
            found = []
            if b5:
                found.append("a P1 item PARTIALLY_ADDRESSED with a should_fix/consider gap")
            if below_80:
                found.append(f"P2 addressed {num} of {den} (under 80 %)")
            if operands.p2_made_worse:
                found.append("a P2 item MADE_WORSE")
            if minor:
                found.append("a minor regression")
            rule, matched = "B5", b5 + operands.p2_made_worse_ids + minor
            text = "; ".join(found) + ": Minor Revision"
        else:
            rule, matched = "B6", ()
            rate = f"P2 addressed {num} of {den}" if den else "no P2 items"
            text = f"no P1 failure, no regression, {rate}: Accept"
    state = _BASE[rule]
    reject = rule in ("B1", "B2")
    reasons: list[Reason] = [(rule, text, matched)]
    floors: list[str] = []
    flag_from = ["base rule " + rule] if reject else []
    for n, esc in enumerate(operands.escalations, 1):
        name = esc.exception_id or f"escalation#{n}"
        if esc.effective_approval_state != "approved":
            continue
        floors.append(name)
        before = state
        if DECISION_ORDER[esc.mechanical_decision_impact] > DECISION_ORDER[state]:
            state = esc.mechanical_decision_impact
        raised = (
            f"raises {_SHORT[before]} to {_SHORT[state]}" if state != before else "changes nothing"
        )
        reasons.append(
            (
                "floor",
                f"approved {esc.escalation_class} exception, impact "
                f"{esc.mechanical_decision_impact}: {raised}",
                (name,),
            )
        )
        if esc.escalation_class == "research_integrity":
            reject = True
            flag_from.append(f"research_integrity exception {name}")
    reasons.append(
        (
            "flag",
            f"reject_recommended {'true (' + ', '.join(flag_from) + ')' if reject else 'false'}",
            (),
        )
    )
    return ReReviewDecision(
        state,
        reject_recommended=reject,
        base_rule=rule,
        floors=tuple(floors),
        reasons=tuple(reasons),
    )


# --- operands and gates from the raw records -----------------------------------------------

_P = ParamSpec("_P")
_T = TypeVar("_T")


def _records_shaped(fn: Callable[_P, _T]) -> Callable[_P, _T]:
    """Records that are not shaped as the documents' schemas say are a ``ReReviewError``,
    never a ``KeyError`` or ``TypeError`` (these functions read records L1-L7 passed)."""

    @functools.wraps(fn)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        try:
            return fn(*args, **kwargs)
        except (KeyError, TypeError, AttributeError, IndexError) as exc:
            raise ReReviewError(
                f"{fn.__name__}: the records are not shaped as the schemas say ({exc!r})"
            ) from None

    return wrapper


@attrs.frozen
class _Records:
    """The raw records indexed once."""

    items: tuple[Mapping[str, Any], ...]
    rows: dict[str, Mapping[str, Any]]
    verdicts: dict[str, Mapping[str, Any]]
    chains: dict[str, tuple[Mapping[str, Any], ...]]
    verdict_record: Mapping[str, Any]
    traceability: Mapping[str, Any]


def chain_of(
    adjustments: Sequence[Mapping[str, Any]], item_id: str
) -> tuple[Mapping[str, Any], ...]:
    """The adjustments of ``item_id`` from the first to the last (the one nothing
    supersedes); ``()`` without one. A malformed chain (L8's RR-331) is read as far as it
    goes from its first head, else in array order."""
    own = [a for a in adjustments if a.get("item_id") == item_id]
    if not own:
        return ()
    by_prev: dict[Any, Mapping[str, Any]] = {}
    for adj in own:
        by_prev.setdefault(adj.get("supersedes_adjustment_id"), adj)
    heads = [a for a in own if a.get("supersedes_adjustment_id") is None]
    if not heads:
        return tuple(own)
    chain = [heads[0]]
    seen = {id(heads[0])}
    while (nxt := by_prev.get(chain[-1].get("adjustment_id"))) is not None and id(nxt) not in seen:
        chain.append(nxt)
        seen.add(id(nxt))
    return tuple(chain)


def _index(
    roadmap_items: Sequence[Mapping[str, Any]],
    verdict_record: Mapping[str, Any],
    traceability: Mapping[str, Any],
) -> _Records:
    rows: dict[str, Mapping[str, Any]] = {}
    for row in traceability.get("rows", ()):
        rows.setdefault(row["item_id"], row)
    verdicts: dict[str, Mapping[str, Any]] = {}
    for rec in verdict_record.get("items", ()):
        verdicts.setdefault(rec["item_id"], rec)
    adjustments = list(traceability.get("adjustments", ()))
    chains = {}
    for item_id in {a["item_id"] for a in adjustments}:
        chains[item_id] = chain_of(adjustments, item_id)
    return _Records(tuple(roadmap_items), rows, verdicts, chains, verdict_record, traceability)


def _magnitude(records: _Records, item_id: str) -> str | None:
    row = records.rows.get(item_id)
    if row is None or row.get("final_verdict") != "PARTIALLY_ADDRESSED":
        return None
    chain = records.chains.get(item_id)
    source = chain[-1] if chain else records.verdicts.get(item_id)
    gap = source.get("residual_gap") if source is not None else None
    return gap.get("residual_magnitude") if isinstance(gap, Mapping) else None


def _severity(item: Mapping[str, Any]) -> str | None:
    severity = item.get("severity")
    return severity if severity in SEVERITIES else None


def _escalations(records: _Records) -> list[dict[str, Any]]:
    approvals: dict[str, Mapping[str, Any]] = {}
    for rec in records.traceability.get("escalation_approvals", ()):
        approvals.setdefault(rec["exception_id"], rec)
    found = []
    for rec in records.verdict_record.get("escalation_exceptions", ()):
        approval = approvals.get(rec["exception_id"])
        found.append(
            {
                "exception_id": rec["exception_id"],
                "effective_approval_state": approval["approval_state"] if approval else "pending",
                "escalation_class": rec["escalation_class"],
                "mechanical_decision_impact": rec["mechanical_decision_impact"],
            }
        )
    return found


@_records_shaped
def operands(
    roadmap_items: Sequence[Mapping[str, Any]],
    verdict_record: Mapping[str, Any],
    traceability: Mapping[str, Any],
) -> Operands:
    """The operands of Steps 2-3 from the raw records (sec. 5.1)."""
    records = _index(roadmap_items, verdict_record, traceability)
    return _operands(records)


def _operands(records: _Records) -> Operands:
    p1 = []
    p2_ids = []
    for item in records.items:
        item_id = item["id"]
        if item["priority"] == "must_fix" and item_id in records.rows:
            p1.append(
                P1Operand(
                    records.rows[item_id]["final_verdict"],
                    _severity(item),
                    _magnitude(records, item_id),
                    item_id=item_id,
                )
            )
        elif item["priority"] == "should_fix":
            p2_ids.append(item_id)
    final = {i: records.rows[i]["final_verdict"] for i in p2_ids if i in records.rows}
    partial = [i for i in p2_ids if final.get(i) == "PARTIALLY_ADDRESSED"]
    worse = [i for i in p2_ids if final.get(i) == "MADE_WORSE"]
    addressed = sum(final.get(i) in ("FULLY_ADDRESSED", "PARTIALLY_ADDRESSED") for i in p2_ids)
    regressions = [
        rec
        for rec in records.verdict_record.get("new_issues", ())
        if rec["attribution"] == "regression"
    ]
    return Operands(
        p1,
        tuple(_magnitude(records, i) for i in partial),
        bool(worse),
        (addressed, len(p2_ids)),
        tuple(r["severity"] for r in regressions),
        tuple(
            EscalationOperand(
                e["effective_approval_state"],
                e["escalation_class"],
                e["mechanical_decision_impact"],
                e["exception_id"],
            )
            for e in _escalations(records)
        ),
        p2_partial_ids=partial,
        p2_made_worse_ids=worse,
        regression_ids=tuple(r["new_issue_id"] for r in regressions),
    )


@_records_shaped
def decision_inputs(
    roadmap_items: Sequence[Mapping[str, Any]],
    verdict_record: Mapping[str, Any],
    traceability: Mapping[str, Any],
    witness: str,
    reject_recommended: bool | None = None,
) -> dict[str, Any]:
    """The ``decision_inputs`` member a producer writes (sec. 2.6, sec. 5.1): ``reject_recommended``
    only when given (a non-gated emission)."""
    return _decision_inputs(
        _index(roadmap_items, verdict_record, traceability), witness, reject_recommended
    )


def _decision_inputs(records: _Records, witness: str, reject: bool | None) -> dict[str, Any]:
    roadmap = {item["id"]: item for item in records.items}
    per_item = []
    for item in records.items:
        if item["priority"] != "must_fix" or item["id"] not in records.rows:
            continue
        entry: dict[str, Any] = {
            "item_id": item["id"],
            "final_verdict": records.rows[item["id"]]["final_verdict"],
            "driving_severity": _severity(item),
        }
        magnitude = _magnitude(records, item["id"])
        if magnitude is not None:
            entry["residual_magnitude"] = magnitude
        per_item.append(entry)
    counts = {p: dict.fromkeys(VERDICTS, 0) for p in PRIORITIES}
    magnitudes = {p: dict.fromkeys(MAGNITUDES, 0) for p in PRIORITIES}
    for item_id, row in records.rows.items():
        priority = roadmap[item_id].get("priority") if item_id in roadmap else None
        if priority not in PRIORITIES:
            continue
        counts[priority][row["final_verdict"]] += 1
        magnitude = _magnitude(records, item_id)
        if magnitude is not None:
            magnitudes[priority][magnitude] += 1
    p2_ids = [item["id"] for item in records.items if item["priority"] == "should_fix"]
    addressed = sum(
        records.rows.get(i, {}).get("final_verdict") in ("FULLY_ADDRESSED", "PARTIALLY_ADDRESSED")
        for i in p2_ids
    )
    new_issues = list(records.verdict_record.get("new_issues", ()))
    inputs: dict[str, Any] = {
        "per_item": per_item,
        "verdict_counts": counts,
        "residual_magnitude_counts": magnitudes,
        "p2_addressed_rate": {"numerator": addressed, "denominator": len(p2_ids)},
        "regressions": [
            {"new_issue_id": r["new_issue_id"], "severity": r["severity"]}
            for r in new_issues
            if r["attribution"] == "regression"
        ],
        "non_regression_new_issue_ids": [
            r["new_issue_id"] for r in new_issues if r["attribution"] != "regression"
        ],
        "escalations": _escalations(records),
    }
    if reject is not None:
        inputs["reject_recommended"] = reject
    inputs["apply_chain_witness"] = witness
    return inputs


@attrs.frozen
class Gates:
    """Step 1 over the raw records: G1's items (a row whose final verdict differs from its
    2A verdict with no adjustment on the item) and G2's pending states."""

    g1: tuple[str, ...]
    pending: tuple[tuple[str, str], ...]
    bound_tripped: bool


@_records_shaped
def gates(
    roadmap_items: Sequence[Mapping[str, Any]],
    verdict_record: Mapping[str, Any],
    traceability: Mapping[str, Any],
) -> Gates:
    """G1 and G2 (sec. 5.2) from the raw records."""
    return _gates(_index(roadmap_items, verdict_record, traceability))


def _gates(records: _Records) -> Gates:
    trace = records.traceability
    adjusted = {a["item_id"] for a in trace.get("adjustments", ())}
    g1 = tuple(
        row["item_id"]
        for row in trace.get("rows", ())
        if row["final_verdict"] != row["phase2a_verdict"] and row["item_id"] not in adjusted
    )
    must_fix = {item["id"] for item in records.items if item["priority"] == "must_fix"}
    dissents = list(records.verdict_record.get("dissents", ()))
    n = len(records.items)
    bound = any(d["item_id"] in must_fix for d in dissents) or len(dissents) > -(-n // 3)
    adjudications: dict[str, Mapping[str, Any]] = {}
    for rec in trace.get("dissent_adjudications", ()):
        adjudications.setdefault(rec["dissent_id"], rec)
    pending: list[tuple[str, str]] = []
    if bound:
        seen = set()
        for d in dissents:
            if d["dissent_id"] not in adjudications and d["dissent_id"] not in seen:
                seen.add(d["dissent_id"])
                pending.append(("a", d["dissent_id"]))
    reapplications = list(trace.get("reapplications", ()))
    by_id = {r["reapplication_id"]: r for r in reapplications}
    for item_id, row in records.rows.items():
        if row.get("priority") != "MUST_FIX" or row.get("cross_model_status") != "diverges":
            continue
        covered = False
        for res in trace.get("cross_model_resolutions", ()):
            reapp = by_id.get(res["reapplication_id"])
            if res["item_id"] != item_id or reapp is None:
                continue
            side = (
                "reapplied_verdict"
                if res["resolved_by"] == "system"
                else "pre_reapplication_verdict"
            )
            if reapp[side] == row["final_verdict"]:
                covered = True
                break
        if not covered:
            pending.append(("b", item_id))
    approved = {a["exception_id"] for a in trace.get("escalation_approvals", ())}
    for exc in records.verdict_record.get("escalation_exceptions", ()):
        if exc["exception_id"] not in approved:
            pending.append(("c", exc["exception_id"]))
    superseded = {r.get("supersedes_reapplication_id") for r in reapplications}
    current = [r for r in reapplications if r["reapplication_id"] not in superseded]
    accepted = {a["reapplication_id"] for a in trace.get("g2d_acceptances", ())}
    for dissent_id, adjudication in adjudications.items():
        if adjudication["outcome"] != "original_upheld":
            continue
        holders = [r for r in current if f"adjudication:{dissent_id}" in r["answer_refs"]]
        if (
            len(holders) == 1
            and holders[0]["reapplied_verdict"] == "CANNOT_VERIFY"
            and holders[0]["reapplication_id"] not in accepted
        ):
            pending.append(("d", dissent_id))
    return Gates(g1, tuple(pending), bound)


_PENDING_TEXT: Final = {
    "a": "dissent {} has no adjudication while the dissent bound is tripped",
    "b": "MUST_FIX row {} diverges from the cross-model verdict with no covering resolution",
    "c": "escalation exception {} has no approval",
    "d": "original_upheld dissent {}: its fail-closed reapplication awaits the user",
}


@_records_shaped
def decide_records(
    roadmap_items: Sequence[Mapping[str, Any]],
    verdict_record: Mapping[str, Any],
    traceability: Mapping[str, Any],
    witness: str,
) -> ReReviewDecision:
    """Steps 1-3 (G1, G2, B1-B6, floors, flag) over records that passed every layer; the
    emitted ``decision_state``, ``abort_reason`` and ``decision_inputs`` are not read."""
    records = _index(roadmap_items, verdict_record, traceability)
    found = _gates(records)
    if found.g1:
        return aborted(
            "criteria_drift",
            "a row's final verdict differs from its 2A verdict and no adjustment carries the "
            "change: aborted, criteria_drift",
            gate="G1",
            items=found.g1,
            witness=witness,
        )
    if found.pending:
        reasons = tuple(
            ("G2", f"({kind}) " + _PENDING_TEXT[kind].format(subject), (subject,))
            for kind, subject in found.pending
        )
        return ReReviewDecision(
            "user_review_required",
            gate="G2",
            pending=found.pending,
            reasons=reasons,
            decision_inputs=_decision_inputs(records, witness, None),
            witness=witness,
        )
    steps = derive(_operands(records))
    return attrs.evolve(
        steps,
        decision_inputs=_decision_inputs(records, witness, steps.reject_recommended),
        witness=witness,
    )
