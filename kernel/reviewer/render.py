"""Render Phase 1 and Phase 2 reviewer documents from structured data (wire-format.md).

The output is the exact format the lints read, so a render doubles as the example shown to
prompt authors, and ``lint(render(x))`` gives back ``x`` (the round-trip property tests).
Values that would not survive the trip (line breaks, leading or trailing spaces, NUL, an empty
value, prose that would open or close a section) raise :class:`KernelError`. Every function
takes the contract as a :class:`Contract` or anything :func:`load_contract` accepts (a
mapping, a shipped template name, a path), as the lints do.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from kernel.contract.model import Contract, load_contract
from kernel.contract.quantifiers import winner
from kernel.errors import KernelError
from kernel.expression.ast import SCORE_RANK
from kernel.io import require_utf8
from kernel.reviewer.lint._structure import Outline
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.phase1 import TAG
from kernel.reviewer.lint.placement import misplaced_key_lines
from kernel.reviewer.render_v2 import render_phase1_v2, render_phase2_v2
from kernel.reviewer.roles import scope_of
from kernel.strict import shown
from kernel.text.markdown import parse_document

__all__ = ["default_plan", "expected_decision", "expected_fired", "render_phase1", "render_phase2"]

_BAD: Final = ("\n", "\r", "\x00")
_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")

ContractSource = Contract | Mapping[str, Any] | str


def _contract(contract: object) -> Contract:
    return contract if isinstance(contract, Contract) else load_contract(contract)


def _mapping(value: object, what: str) -> Mapping[Any, Any]:
    if not isinstance(value, Mapping):
        raise KernelError(f"{what} must be a mapping, got {type(value).__name__}")
    return value


def _value(text: str, what: str) -> str:
    if not isinstance(text, str) or not text:
        raise KernelError(f"{what} must be a non-empty str")
    require_utf8(text, what)
    if any(c in text for c in _BAD) or text != text.strip(" \t"):
        raise KernelError(
            f"{what} must be one line without NUL and without leading or trailing spaces: "
            f"{shown(text)}"
        )
    return text


def _prose(text: str, what: str) -> str:
    """Free prose must not open or close a section: no level-1/2 heading, nothing left open."""
    if not isinstance(text, str) or not text.strip(" \t\r\n"):
        raise KernelError(f"{what} must be non-empty text")
    if "\x00" in text:
        raise KernelError(f"{what} must not contain NUL")
    require_utf8(text, what)
    probe = parse_document(text.strip("\r\n") + "\n\n## Probe\n", source=what)
    structural = [b for b in probe.blocks if b.structural and b.level <= 2]
    if len(structural) != 1 or structural[0].title != "Probe" or not structural[0].atx:
        raise KernelError(
            f"{what} would change the section structure (a level-1/2 heading, or a fence, "
            "HTML block or list left open at its end)"
        )
    misplaced = misplaced_key_lines(probe, Outline({}))
    if misplaced:
        raise KernelError(
            f"{what} states a score, a fired flag or a decision outside its place (check 8, "
            f"line {misplaced[0].line} of the {what}); quote such lines in fenced code"
        )
    return text.strip("\r\n")


def default_plan(contract: ContractSource) -> dict[str, dict[str, str]]:
    """A plain scoring plan built from the contract's own descriptions."""
    contract = _contract(contract)
    plan: dict[str, dict[str, str]] = {}
    for d in contract.dimensions:
        words = d.name.replace("_", " ")
        fields = {
            "dimension_id": d.id,
            "what_to_look_for": d.description,
            "what_triggers_block": f"serious {words} failures that undermine the main claims",
            "what_triggers_warn": f"minor {words} weaknesses that a revision can fix",
        }
        plan[d.id] = {k: fields.get(k, f"{k} for {words}") for k in contract.scoring_plan_required}
    return plan


def _seat(contract: Contract, role: str | None) -> str | None:
    """The seat's role under 13.2 (required), ``None`` under 13 (where there is none)."""
    if contract.dialect == "13.2":
        if role is None:
            raise KernelError("a 13.2 document is written for a seat's role: give role=")
        return role
    if role is not None:
        raise KernelError("role= is for dialect 13.2 contracts: a 13 reviewer has no role")
    return None


def render_phase1(
    contract: ContractSource,
    plan: Mapping[str, Mapping[str, str]] | None = None,
    paraphrase: Mapping[str, str] | None = None,
    *,
    role: str | None = None,
    ars: str | Reading = DEFAULT_ARS,
) -> str:
    """A Phase 1 document: one paraphrase paragraph and one scoring-plan subsection per
    dimension (contract order), then the tag.

    ``plan`` maps each dimension id to its ``key: value`` fields (the contract's required
    fields at least; ``dimension_id`` is filled in when absent). ``paraphrase`` maps dimension
    ids to one-line paraphrases; each paragraph starts with the id and name.

    Under a 13.2 contract the document is the seat ``role``'s (13.2 §E): its eligible
    dimensions only, ``what_triggers_fatal`` on mandatory ones (:mod:`kernel.reviewer.render_v2`),
    passing under the ARS reading ``ars``.
    """
    chosen = reading(ars)
    contract = _contract(contract)
    seat = _seat(contract, role)
    if seat is not None:
        return render_phase1_v2(scope_of(contract), seat, plan, paraphrase=paraphrase, ars=chosen)
    plan = default_plan(contract) if plan is None else _mapping(plan, "plan")
    paraphrase = {} if paraphrase is None else _mapping(paraphrase, "paraphrase")
    out = ["## Contract Paraphrase", ""]
    for d in contract.dimensions:
        text = paraphrase.get(d.id, d.description)
        out += [f"{d.id} ({d.name}): {_value(text, f'paraphrase of {d.id}')}", ""]
    out += ["## Scoring Plan", ""]
    for d in contract.dimensions:
        fields = dict(_mapping(plan.get(d.id) or {}, f"plan for {d.id}"))
        fields.setdefault("dimension_id", d.id)
        missing = [k for k in contract.scoring_plan_required if k not in fields]
        if missing:
            raise KernelError(f"plan for {d.id} lacks required field(s) {', '.join(missing)}")
        out += [f"### {d.id}: {d.name}", ""]
        for key, value in fields.items():
            out.append(f"- {_key(key)}: {_value(value, f'{d.id} {key}')}")
        out.append("")
    out += [TAG, ""]
    return "\n".join(out)


def _key(key: str) -> str:
    if not isinstance(key, str) or _KEY.fullmatch(key) is None:
        raise KernelError(
            f"field name {shown(key)} is not a key of the form [A-Za-z_][A-Za-z0-9_-]*"
        )
    return key


def _scores(contract: Contract, scores: Mapping[str, str]) -> list[int]:
    if set(_mapping(scores, "scores")) != set(contract.dimension_ids):
        raise KernelError(
            f"scores must give exactly the dimensions {', '.join(contract.dimension_ids)}"
        )
    try:
        return [SCORE_RANK[scores[d.id]] for d in contract.dimensions]
    except (KeyError, TypeError):
        raise KernelError("every score must be 'block', 'warn' or 'pass'") from None


def expected_fired(contract: ContractSource, scores: Mapping[str, str]) -> dict[str, bool]:
    """Each condition's predicate on one reviewer's own scores (R12)."""
    contract = _contract(contract)
    column = _scores(contract, scores)
    return {c.condition_id: c.predicate.holds(column) for c in contract.conditions}


def expected_decision(contract: ContractSource, fired: Mapping[str, bool]) -> str:
    """The action R6 precedence (with the R5 fallback) gives from ``fired`` flags."""
    contract = _contract(contract)
    _flags(contract, fired)
    position = winner(contract.precedence, [fired[c.condition_id] for c in contract.conditions])
    if position is None:
        if contract.fallback is None:
            raise KernelError("nothing fired and the contract has no accept-grade fallback (R5)")
        position = contract.fallback
    return contract.conditions[position].action


def _flags(contract: Contract, fired: object) -> None:
    flags = _mapping(fired, "fired")
    if set(flags) != {c.condition_id for c in contract.conditions}:
        raise KernelError("fired must give exactly the contract's condition ids")
    if not all(isinstance(flag, bool) for flag in flags.values()):
        raise KernelError("every fired flag must be True or False")


def render_phase2(
    contract: ContractSource,
    scores: Mapping[str, str],
    *,
    fired: Mapping[str, bool] | None = None,
    decision: str | None = None,
    dissent: Mapping[str, str] | None = None,
    body: str | None = None,
    plan: Mapping[str, Mapping[str, str]] | None = None,
    role: str | None = None,
    ars: str | Reading = DEFAULT_ARS,
) -> str:
    """A Phase 2 document for one reviewer.

    ``fired`` defaults to each condition's predicate on ``scores`` (R12) and ``decision`` to
    the action those flags give (R6/R5). ``dissent`` maps dimension ids to reasons (one entry
    is a dissent, two or more a multi-dissent). Without ``body``, the Review Body cites the
    ``plan``'s trigger for every ``block``/``warn`` score, so it passes the consistency check
    against a Phase 1 rendered from the same plan.

    Under a 13.2 contract the report is the seat ``role``'s (13.2 §F): ``scores`` maps the
    role's eligible dimensions to ``pass``, ``warn``, ``block`` (``block:fatal`` or
    ``block:repairable`` on mandatory ones) or ``not_assessed``; triggers are quoted from
    ``plan``; ``fired``, ``decision``, ``dissent`` and ``body`` belong to 13 only. The report
    passes under the ARS reading ``ars`` (under ``"main"`` a methodology card ends with its
    ``## Arithmetic Receipts``).
    """
    chosen = reading(ars)
    contract = _contract(contract)
    seat = _seat(contract, role)
    if seat is not None:
        extra = [
            k
            for k, v in (
                ("fired", fired),
                ("decision", decision),
                ("dissent", dissent),
                ("body", body),
            )
            if v is not None
        ]
        if extra:
            raise KernelError(f"{', '.join(extra)}: not part of a 13.2 report")
        return render_phase2_v2(scope_of(contract), seat, scores, plan, ars=chosen)
    _scores(contract, scores)
    fired = expected_fired(contract, scores) if fired is None else fired
    _flags(contract, fired)
    decision = expected_decision(contract, fired) if decision is None else decision
    out: list[str] = []
    if dissent is not None and _mapping(dissent, "dissent"):
        out += ["## Scoring Plan Dissent", ""]
        for dim_id, reason in dissent.items():
            out += [f"- dimension_id: {_value(dim_id, 'dissent id')}"]
            out += [f"- reason: {_value(reason, f'dissent reason for {dim_id}')}", ""]
    out += ["## Dimension Scores", ""]
    for d in contract.dimensions:
        out += [f"### {d.id}: {d.name}", "", f"score: {scores[d.id]}", ""]
    out += ["## Failure Condition Checks", ""]
    for c in contract.conditions:
        flag = "true" if fired[c.condition_id] else "false"
        out += [f"### {c.condition_id}: {c.expression}", "", f"fired: {flag}", ""]
    out += [
        "## Review Body",
        "",
        _prose(body, "body") if body is not None else _body(contract, scores, plan),
        "",
    ]
    out += ["## Editorial Decision", "", _value(decision, "decision"), ""]
    return "\n".join(out)


def _body(
    contract: Contract, scores: Mapping[str, str], plan: Mapping[str, Mapping[str, str]] | None
) -> str:
    plan = default_plan(contract) if plan is None else _mapping(plan, "plan")
    lines = []
    for d in contract.dimensions:
        score = scores[d.id]
        if score == "pass":
            lines.append(f"{d.id} ({d.name}) raises no concern.")
        else:
            fields = _mapping(plan.get(d.id) or {}, f"plan for {d.id}")
            key = f"what_triggers_{score}"
            trigger = _value(fields[key], f"{d.id} {key}") if key in fields else ""
            lines.append(f"{d.id} ({d.name}) scores {score}: {trigger}.")
    return "\n\n".join(lines)
