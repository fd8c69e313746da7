"""Hypothesis strategies built from the contract domain, shared by the test modules."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from kernel.contract.quantifiers import ACTIONS, QUANTIFIERS
from kernel.expression.ast import (
    PRIORITIES,
    SCORES,
    AnyScores,
    Atom,
    DimensionScores,
    EveryScores,
    Expression,
    TwoOrMore,
)

scores = st.sampled_from(SCORES)
priorities = st.sampled_from(PRIORITIES)
dimension_ids = st.integers(1, 99).map(lambda i: f"D{i}")


def atoms(dim_ids: st.SearchStrategy[str] = dimension_ids) -> st.SearchStrategy[Atom]:
    return st.one_of(
        st.builds(AnyScores, priorities, scores),
        st.builds(TwoOrMore, priorities, scores),
        st.builds(EveryScores, priorities, scores),
        st.builds(DimensionScores, dim_ids, scores),
    )


def expressions(
    dim_ids: st.SearchStrategy[str] = dimension_ids, max_atoms: int = 3
) -> st.SearchStrategy[Expression]:
    return st.lists(atoms(dim_ids), min_size=1, max_size=max_atoms).map(
        lambda xs: Expression(tuple(xs))
    )


_PANEL_SIZES = st.integers(1, 9)
_SEP = st.text(alphabet=" \t", min_size=1, max_size=3)


def _priority_variants(p: str) -> st.SearchStrategy[str]:
    return st.sampled_from([p, f"{p}-priority"])


@st.composite
def spelled(draw: st.DrawFn, expression: Expression) -> str:
    """Any accepted spelling of ``expression`` (R4 variants, runs of spaces and tabs)."""

    def sep() -> str:
        return draw(_SEP)

    def words(*parts: str) -> str:
        out = parts[0]
        for part in parts[1:]:
            out += sep() + part
        return out

    pieces = []
    for atom in expression.atoms:
        s = f"'{atom.score}'"
        if isinstance(atom, DimensionScores):
            pieces.append(words(atom.dimension, "scores", s))
            continue
        with_form = draw(st.booleans())
        if isinstance(atom, TwoOrMore):
            scope = (
                words("dimensions", "with", f"priority={atom.priority}")
                if with_form
                else words(draw(_priority_variants(atom.priority)), "dimensions")
            )
            pieces.append(words("two", "or", "more", scope, "score", s, "or", "worse"))
        else:
            scope = (
                words("dimension", "with", f"priority={atom.priority}")
                if with_form
                else words(draw(_priority_variants(atom.priority)), "dimension")
            )
            head = "any" if isinstance(atom, AnyScores) else "every"
            pieces.append(words(head, scope, "scores", s))
    text = pieces[0]
    for piece in pieces[1:]:
        text += sep() + "AND" + sep() + piece
    lead = draw(st.text(alphabet=" \t", max_size=2))
    trail = draw(st.text(alphabet=" \t", max_size=2))
    return lead + text + trail


@st.composite
def contracts(
    draw: st.DrawFn,
    *,
    max_dimensions: int = 5,
    max_conditions: int = 5,
    panel_sizes: st.SearchStrategy[int] = _PANEL_SIZES,
    with_accept: bool | None = None,
) -> dict[str, Any]:
    """A schema-valid contract whose expressions use every vocabulary form."""
    n_dims = draw(st.integers(1, max_dimensions))
    ids = draw(
        st.lists(st.integers(1, 99), min_size=n_dims, max_size=n_dims, unique=True).map(
            lambda xs: [f"D{i}" for i in xs]
        )
    )
    dims = [
        {
            "id": d,
            "name": f"dimension_{d.lower()}",
            "description": f"Dimension {d}.",
            "priority": draw(priorities),
        }
        for d in ids
    ]
    n_conds = draw(st.integers(1, max_conditions))
    cond_ids = draw(st.lists(st.integers(0, 99), min_size=n_conds, max_size=n_conds, unique=True))
    severities = st.sampled_from([10, 50, 50, 70, 90]) | st.integers(0, 100)
    conditions = []
    for cid in cond_ids:
        expression = draw(expressions(st.sampled_from(ids), max_atoms=2))
        conditions.append(
            {
                "condition_id": f"F{cid}",
                "severity": draw(severities),
                "expression": draw(spelled(expression)),
                "cross_reviewer_quantifier": draw(st.sampled_from(QUANTIFIERS)),
                "action": draw(st.sampled_from(ACTIONS)),
            }
        )
    if with_accept is True and not any(c["action"] == ACTIONS[0] for c in conditions):
        conditions[-1]["action"] = ACTIONS[0]
    if with_accept is False:
        for c in conditions:
            if c["action"] == ACTIONS[0]:
                c["action"] = ACTIONS[1]
    return {
        "contract_id": "reviewer/reviewer_generated/v1",
        "mode": "reviewer_guided",
        "stage": "generated",
        "baseline_version": "v3.6.2",
        "panel_size": draw(panel_sizes),
        "acceptance_dimensions": dims,
        "measurement_procedure": {
            "reviewer_must_output_before_paper": ["contract_paraphrase", "scoring_plan"],
            "scoring_plan_schema": {
                "required": [
                    "dimension_id",
                    "what_to_look_for",
                    "what_triggers_block",
                    "what_triggers_warn",
                ]
            },
            "paraphrase_minimum_dimensions": "all",
        },
        "failure_conditions": conditions,
    }


def matrices(contract: dict[str, Any]) -> st.SearchStrategy[dict[str, list[str]]]:
    n = contract["panel_size"]
    return st.fixed_dictionaries(
        {
            d["id"]: st.lists(scores, min_size=n, max_size=n)
            for d in contract["acceptance_dimensions"]
        }
    )
