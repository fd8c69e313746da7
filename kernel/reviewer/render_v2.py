"""Render 13.2 Phase 1 and Phase 2 documents for a seat's role (13.2 §E, §F).

The output is what the 13.2 lints read: it lints clean for that role (a property test).
Values that would not survive as one field line, and paraphrase text that would not stay one
plain paragraph (a fence, an HTML block or comment, a heading, a rule, a list marker alone, a
quote), raise :class:`KernelError`; so does any document the 13.2 Phase 1 lint would refuse.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from kernel.errors import KernelError
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.phase1 import TAG
from kernel.reviewer.lint.phase1_v2 import PARAGRAPH_SEPARATOR, analyse_phase1_v2
from kernel.reviewer.lint.receipts import Receipt, render_receipts
from kernel.reviewer.roles import RoleScope, require_role
from kernel.text.markdown import parse_document

__all__ = ["SeatScore", "default_plan_v2", "render_phase1_v2", "render_phase2_v2"]

#: What a seat writes for one dimension: ``pass``/``warn``/``block``/``not_assessed``,
#: ``block:fatal``/``block:repairable`` on an eligible mandatory dimension.
SeatScore = str
_VALUE: Final = re.compile(r"\S(?:[^\n\r\x00]*\S)?")
#: The receipt a rendered methodology card carries under ars main (§4), a placeholder as
#: its finding is: a consistent receipt needs no link to a finding.
SKELETON_RECEIPT: Final = Receipt(
    procedure_id="n_from_df",
    evidence_anchor='text: "the central claim of the abstract"',
    reported_inputs="the degrees of freedom and the sample size the paper reports",
    assumptions="the design the methods section states",
    derivation="N from the error degrees of freedom and the number of groups",
    derived_value_or_range="the sample size the degrees of freedom imply",
    comparison_rule="the implied N must equal the reported N",
    status="consistent",
    own={"df_identity": "N = df_error + number of groups"},
)
#: A line that opens a fence for a line reader (13.2 §E0.2).
_FENCE: Final = re.compile(r" {0,3}(?:`{3}|~{3})")


def _value(text: object, what: str, *, quoted: bool = False) -> str:
    if not isinstance(text, str) or _VALUE.fullmatch(text) is None or (quoted and '"' in text):
        raise KernelError(
            f"{what} must be one line of text without leading or trailing whitespace"
            + (" and without a double quote" if quoted else "")
        )
    return text


def _paraphrase(text: object, what: str) -> str:
    """One line that both readings take for one plain paragraph of prose (13.2 §E4)."""
    line = _value(text, what)
    blocks = parse_document(f"{line}\n", source=what).blocks
    if (
        "<!--" in line
        or _FENCE.match(line)
        or PARAGRAPH_SEPARATOR.match(line)
        or len(blocks) != 1
        or blocks[0].kind != "paragraph"
        or blocks[0].quoted
    ):
        raise KernelError(
            f"{what} must be one plain paragraph of prose: no heading, fence, HTML block or "
            f"comment, rule, quote or lone list marker ({line[:60]!r})"
        )
    return line


def default_plan_v2(scope: RoleScope, role: str) -> dict[str, dict[str, str]]:
    """A plan that lints clean: for each dimension ``role`` is eligible for, distinct
    trigger texts of at least eight words (``what_triggers_fatal`` on mandatory ones)."""
    role = require_role(scope, role)
    plans: dict[str, dict[str, str]] = {}
    for d in scope.eligible(role):
        plan = {
            "what_to_look_for": f"evidence that the manuscript satisfies {d.name} throughout",
            "what_triggers_block": f"{d.name} fails in a way that undermines the central claim",
            "what_triggers_warn": f"{d.name} shows gaps that a careful revision can repair soon",
        }
        if d.priority == "mandatory":
            plan["what_triggers_fatal"] = (
                f"{d.name} is broken beyond repair so no revision could rescue the work"
            )
        plans[d.id] = plan
    return plans


def render_phase1_v2(
    scope: RoleScope,
    role: str,
    plans: Mapping[str, Mapping[str, str]] | None = None,
    *,
    paraphrase: Mapping[str, str] | None = None,
    ars: str | Reading = DEFAULT_ARS,
) -> str:
    """A 13.2 Phase 1 document for ``role``: one paraphrase paragraph per contract dimension
    (or ``paraphrase``: dimension id → paragraph), one plan subsection per eligible
    dimension, the acknowledgement tag last (alike under both ARS readings, ``ars``)."""
    reading(ars)
    role = require_role(scope, role)
    plans = default_plan_v2(scope, role) if plans is None else plans
    out = ["## Contract Paraphrase", ""]
    for d in scope.dimensions:
        text = (paraphrase or {}).get(d.id, f"{d.id} ({d.name}) is a {d.priority} dimension.")
        out += [_paraphrase(text, f"paraphrase of {d.id}"), ""]
    out += ["## Scoring Plan", ""]
    for d in scope.eligible(role):
        plan = plans.get(d.id)
        if plan is None:
            raise KernelError(f"no plan for {d.id}, which role {role} must plan")
        out += [f"### {d.id}: {d.name}", "", f"dimension_id: {d.id}"]
        fields = ["what_to_look_for", "what_triggers_block", "what_triggers_warn"]
        if d.priority == "mandatory":
            fields.append("what_triggers_fatal")
        out += [f"{f}: {_value(plan.get(f), f'{d.id} {f}')}" for f in fields]
        out.append("")
    out.append(TAG)
    document = "\n".join(out) + "\n"
    refused = [
        f
        for f in analyse_phase1_v2(parse_document(document), scope, role, "document").findings
        if f.severity == "error"
    ]
    if refused:
        raise KernelError(
            f"the rendered Phase 1 document would fail its own lint: {refused[0].message}"
        )
    return document


def render_phase2_v2(
    scope: RoleScope,
    role: str,
    scores: Mapping[str, SeatScore],
    plans: Mapping[str, Mapping[str, str]] | None = None,
    *,
    abstain_reasons: Mapping[str, str] | None = None,
    critical: int = 0,
    ars: str | Reading = DEFAULT_ARS,
) -> str:
    """A 13.2 Phase 2 report for ``role``. ``scores``: each dimension ``role`` is eligible
    for → its value (others are written ``not_assessed``); an eligible ``not_assessed``
    takes its reason from ``abstain_reasons``. Triggers are quoted from ``plans`` (the
    seat's Phase 1). The DA's Review Body holds ``critical`` CRITICAL rows. The report
    passes under the ARS reading ``ars``."""
    chosen = reading(ars)
    role = require_role(scope, role)
    plans = default_plan_v2(scope, role) if plans is None else plans
    reasons = abstain_reasons or {}
    out = [f"contract_role: {role}", "", "## Dimension Scores", ""]
    for d in scope.dimensions:
        eligible = role in d.eligible_roles
        value = scores.get(d.id, "not_assessed") if eligible else "not_assessed"
        score, _, block_class = value.partition(":")
        needs_class = eligible and score == "block" and d.priority == "mandatory"
        if (
            score not in ("pass", "warn", "block", "not_assessed")
            or bool(block_class) != (needs_class)
            or block_class not in ("", "fatal", "repairable")
        ):
            raise KernelError(f"{role} cannot score {d.id} {value!r}")
        out += [f"### {d.id}: {d.name}", "", f"score: {score}"]
        if block_class:
            out.append(f"block_class: {block_class}")
        if score in ("warn", "block"):
            field = "what_triggers_fatal" if block_class == "fatal" else f"what_triggers_{score}"
            trigger = _value(plans.get(d.id, {}).get(field), f"{d.id} {field}", quoted=True)
            out.append(f'trigger: "{trigger}"')
        if eligible and score == "not_assessed":
            reason = reasons.get(d.id, "the manuscript gives nothing to assess here")
            out.append(f"abstain_reason: {_value(reason, f'{d.id} abstain_reason')}")
        out.append("")
    out += ["## Review Body", "", "The report's findings follow.", ""]
    if role == "da":
        out += ["#### CRITICAL", "", "| # | Evidence Anchor | Issue |", "| --- | --- | --- |"]
        out += [
            f'| C{i} | text: "the claim in section {i}" | unsupported claim {i} |'
            for i in range(1, critical + 1)
        ]
        out += ["", "#### MAJOR", "", "| # | Evidence Anchor | Issue |", "| --- | --- | --- |"]
    else:
        out += [
            "### W1: The main finding",
            "",
            "**Severity**: Major",
            "",
            '**Evidence Anchor**: text: "the central claim of the abstract"',
        ]
    if chosen.receipts and role == "methodology":
        out += ["", render_receipts([SKELETON_RECEIPT]).rstrip("\n")]
    return "\n".join(out) + "\n"
