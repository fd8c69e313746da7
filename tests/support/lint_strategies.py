"""Hypothesis strategies and helpers shared by the lint tests (contracts, plans, scores)."""

from __future__ import annotations

import copy
import functools
from typing import Any

from hypothesis import assume
from hypothesis import strategies as st

from kernel.contract.model import Contract, load_contract
from kernel.contract.templates import shipped_template
from kernel.errors import KernelError

PRIORITIES = ("mandatory", "high", "normal")
SCORES = ("pass", "warn", "block")
ACTIONS = (
    "editorial_decision=accept",
    "editorial_decision=minor_revision",
    "editorial_decision=major_revision",
    "editorial_decision=reject_or_major_revision",
    "editorial_decision=reject",
)
#: Trigger vocabulary: no stop words, none of the filler words the mutations use.
VOCABULARY = (
    "sample",
    "size",
    "baseline",
    "ablation",
    "citation",
    "variance",
    "confound",
    "replication",
    "dataset",
    "leakage",
    "causal",
    "overclaim",
    "notation",
    "figures",
    "protocol",
    "power",
)


def _atom(draw: st.DrawFn, dims: list[dict[str, str]]) -> str:
    p = draw(st.sampled_from(PRIORITIES))
    s = draw(st.sampled_from(SCORES))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return f"any {p} dimension scores '{s}'"
    if kind == 1:
        return f"two or more {p} dimensions score '{s}' or worse"
    if kind == 2:
        return f"every {p} dimension scores '{s}'"
    return f"{draw(st.sampled_from(dims))['id']} scores '{s}'"


@st.composite
def contract_dicts(draw: st.DrawFn) -> dict[str, Any]:
    data = shipped_template("reviewer/full")
    n = draw(st.integers(1, 5))
    ids = draw(st.lists(st.integers(1, 99), min_size=n, max_size=n, unique=True))
    names = draw(
        st.lists(
            st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True),
            min_size=n,
            max_size=n,
            unique=True,
        )
    )
    dims = [
        {
            "id": f"D{i}",
            "name": name,
            "description": f"Quality aspect {k}.",
            "priority": draw(st.sampled_from(PRIORITIES)),
        }
        for k, (i, name) in enumerate(zip(ids, names, strict=True))
    ]
    conditions = []
    for k in range(draw(st.integers(1, 4))):
        atoms = [_atom(draw, dims) for _ in range(draw(st.integers(1, 2)))]
        conditions.append(
            {
                "condition_id": f"F{k + 1}",
                "severity": draw(st.integers(0, 100)),
                "expression": " AND ".join(atoms),
                "cross_reviewer_quantifier": draw(st.sampled_from(("any", "majority", "all"))),
                "action": draw(st.sampled_from(ACTIONS)),
            }
        )
    if draw(st.booleans()):
        conditions.append(
            {
                "condition_id": "F0",
                "severity": 5,
                "expression": f"every {draw(st.sampled_from(PRIORITIES))} dimension scores 'pass'",
                "cross_reviewer_quantifier": "all",
                "action": "editorial_decision=accept",
            }
        )
    data["acceptance_dimensions"] = dims
    data["failure_conditions"] = conditions
    data["panel_size"] = draw(st.integers(1, 5))
    data["mode"] = "reviewer_full" if data["panel_size"] == 5 else "reviewer_methodology_focus"
    data["measurement_procedure"]["paraphrase_minimum_dimensions"] = draw(
        st.one_of(st.just("all"), st.integers(1, n))
    )
    # R14: the four fields are fixed; only their order may vary.
    data["measurement_procedure"]["scoring_plan_schema"]["required"] = draw(
        st.permutations(
            ["dimension_id", "what_to_look_for", "what_triggers_block", "what_triggers_warn"]
        )
    )
    return data


@functools.cache
def _template(name: str) -> Contract:
    return load_contract(name)


@st.composite
def contracts(draw: st.DrawFn) -> Contract:
    choice = draw(st.sampled_from(("reviewer/full", "reviewer/methodology_focus", "generated")))
    if choice != "generated":
        return _template(choice)
    data = draw(contract_dicts())
    try:
        return load_contract(copy.deepcopy(data))
    except KernelError:
        assume(False)
        raise


def phrases(min_words: int = 1) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(VOCABULARY), min_size=min_words, max_size=4).map(" ".join)


@st.composite
def plans(draw: st.DrawFn, contract: Contract) -> dict[str, dict[str, str]]:
    return {
        d.id: {
            key: (d.id if key == "dimension_id" else draw(phrases()))
            for key in contract.scoring_plan_required
        }
        for d in contract.dimensions
    }


@st.composite
def score_maps(draw: st.DrawFn, contract: Contract) -> dict[str, str]:
    return {d.id: draw(st.sampled_from(SCORES)) for d in contract.dimensions}
