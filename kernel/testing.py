"""Hypothesis strategies for your own tests of code built on the kernel.

Needs Hypothesis, which comes with the ``test`` extra (``pip install
'sprint-contract-kernel[test]'``)::

    from hypothesis import given
    from kernel import decide, load_contract
    from kernel.testing import contracts, matrices

    @given(contracts().flatmap(lambda c: matrices(c).map(lambda m: (c, m))))
    def test_my_orchestrator_agrees_with_the_kernel(pair):
        contract, matrix = pair
        assert my_decision(contract, matrix) == decide(contract, matrix).action

* :func:`contracts` — valid contract documents (plain dicts that :func:`kernel.load_contract`
  accepts), using every form of the expression vocabulary and its spellings;
  ``contracts(dialect="13.2")`` draws dialect 13.2 reviewer contracts;
* :func:`matrices` — well-formed scoring matrices for one contract (every dimension, exactly
  ``panel_size`` scores each; for a 13.2 contract, every eligible seat's value by role),
  which :func:`kernel.decide` decides;
* :func:`phase2_documents` — Phase 2 markdown for one contract that
  :func:`kernel.lint_phase2` passes, also against the Phase 1 document
  ``render_phase1(contract, plan)``;
* :func:`expressions`, :func:`spelled` — expression values and any accepted spelling of one;
* :func:`rounds_v2` — whole 13.2 rounds (every role's Phase 1 and Phase 2 report, and the
  matrix they state) that the 13.2 lints pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

try:
    from hypothesis import assume
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised in a subprocess by the tests
    raise ImportError(
        "kernel.testing needs Hypothesis, which the kernel's 'test' extra installs: "
        "pip install 'sprint-contract-kernel[test]' (or: pip install hypothesis)",
        name=exc.name,
    ) from exc

from kernel.contract.model import Contract, load_contract
from kernel.contract.quantifiers import ACCEPT, ACTIONS, QUANTIFIERS
from kernel.errors import KernelError
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
from kernel.reviewer.render import default_plan, expected_decision, expected_fired, render_phase2
from kernel.reviewer.render_v2 import render_phase1_v2, render_phase2_v2
from kernel.reviewer.roles import RoleScope, scope_of
from kernel.strict import is_int, shown

__all__ = [
    "RoundV2",
    "atoms",
    "contracts",
    "dimension_ids",
    "expressions",
    "matrices",
    "phase2_documents",
    "priorities",
    "rounds_v2",
    "scores",
    "spelled",
]

scores = st.sampled_from(SCORES)
priorities = st.sampled_from(PRIORITIES)
dimension_ids = st.integers(1, 99).map(lambda i: f"D{i}")

_PANEL_SIZES = st.integers(1, 9)
_SEP = st.text(alphabet=" \t", min_size=1, max_size=3)
_WORDS = ("sample", "baseline", "ablation", "variance", "replication", "dataset", "notation")


def atoms(dim_ids: st.SearchStrategy[str] = dimension_ids) -> st.SearchStrategy[Atom]:
    """One atom of the vocabulary (R4), naming dimensions drawn from ``dim_ids``."""
    if not isinstance(dim_ids, st.SearchStrategy):
        raise KernelError(f"dim_ids must be a strategy, got {type(dim_ids).__name__}")
    return st.one_of(
        st.builds(AnyScores, priorities, scores),
        st.builds(TwoOrMore, priorities, scores),
        st.builds(EveryScores, priorities, scores),
        st.builds(DimensionScores, dim_ids, scores),
    )


def expressions(
    dim_ids: st.SearchStrategy[str] = dimension_ids, max_atoms: int = 3
) -> st.SearchStrategy[Expression]:
    """Expression values of 1 to ``max_atoms`` atoms joined by ``AND``."""
    if not is_int(max_atoms) or not 1 <= max_atoms <= 100:
        raise KernelError(f"max_atoms must be an integer from 1 to 100, got {shown(max_atoms)}")
    return st.lists(atoms(dim_ids), min_size=1, max_size=max_atoms).map(
        lambda xs: Expression(tuple(xs))
    )


def _priority_variants(p: str) -> st.SearchStrategy[str]:
    return st.sampled_from([p, f"{p}-priority"])


def spelled(expression: Expression) -> st.SearchStrategy[str]:
    """Any accepted spelling of ``expression`` (R4 variants, runs of spaces and tabs). The
    argument is checked here, when the strategy is made, not when it is drawn."""
    if not isinstance(expression, Expression):
        raise KernelError(f"expression must be an Expression, got {type(expression).__name__}")
    return _spelled(expression)


@st.composite
def _spelled(draw: st.DrawFn, expression: Expression) -> str:
    def sep() -> str:
        return draw(_SEP)

    def words(*parts: str) -> str:
        out = parts[0]
        for part in parts[1:]:
            out += sep() + part
        return out

    pieces = []
    for atom in expression.atoms:
        if not isinstance(atom, AnyScores | TwoOrMore | EveryScores | DimensionScores):
            raise KernelError(f"{atom} is a dialect 13.2 form; 13.2 has one spelling of it")
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


def contracts(
    *,
    max_dimensions: int = 5,
    max_conditions: int = 5,
    panel_sizes: st.SearchStrategy[int] = _PANEL_SIZES,
    with_accept: bool | None = True,
    dialect: str = "13",
) -> st.SearchStrategy[dict[str, Any]]:
    """Valid contract documents (each a fresh dict) whose expressions use every vocabulary
    form. The arguments are checked here, when the strategy is made, not when it is drawn.

    Every contract has the accept-grade ``F0`` that Schema 13 requires (R18), so every matrix
    decides (the R5 fallback exists). ``with_accept`` is about the *other* conditions:
    ``True`` (the default) and ``None`` leave their actions to chance, ``False`` makes
    ``F0`` the only ``editorial_decision=accept`` condition.

    ``dialect="13.2"`` draws dialect 13.2 reviewer contracts instead: a ``reviewer_full`` or
    ``reviewer_methodology_focus`` mode with its panel, role-scoped dimensions that use
    every role, the nine atom forms in every accepted spelling, and an ``F0`` accept
    condition (the schema requires it; ``with_accept`` and ``panel_sizes`` do not apply).
    """
    if not isinstance(dialect, str) or dialect not in _DIALECT_CONTRACTS:
        raise KernelError(f"dialect must be '13' or '13.2', got {shown(dialect)}")
    for name, bound in (("max_dimensions", max_dimensions), ("max_conditions", max_conditions)):
        if not is_int(bound) or not 1 <= bound <= 99:
            raise KernelError(f"{name} must be an integer from 1 to 99, got {shown(bound)}")
    if not isinstance(panel_sizes, st.SearchStrategy):
        raise KernelError(f"panel_sizes must be a strategy, got {type(panel_sizes).__name__}")
    if with_accept not in (None, True, False):
        raise KernelError(f"with_accept must be None, True or False, got {shown(with_accept)}")
    return _DIALECT_CONTRACTS[dialect](max_dimensions, max_conditions, panel_sizes, with_accept)


@st.composite
def _contracts(
    draw: st.DrawFn,
    max_dimensions: int,
    max_conditions: int,
    panel_sizes: st.SearchStrategy[int],
    with_accept: bool | None,
) -> dict[str, Any]:
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
    # R18: F0, the accept-grade condition, anywhere in the list.
    others = draw(
        st.lists(st.integers(1, 99), min_size=n_conds - 1, max_size=n_conds - 1, unique=True)
    )
    cond_ids = [*others]
    cond_ids.insert(draw(st.integers(0, len(others))), 0)
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
    for c in conditions:
        if c["condition_id"] == "F0":
            c["action"] = ACCEPT
        elif with_accept is False and c["action"] == ACCEPT:
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


_ROLE_SETS_13_2: Final = {
    "reviewer_full": ("eic", "methodology", "domain", "perspective", "da"),
    "reviewer_methodology_focus": ("eic", "methodology"),
}
_REVIEWER_ACTIONS_13_2: Final = (
    "editorial_decision=accept",
    "editorial_decision=minor_revision",
    "editorial_decision=major_revision",
    "editorial_decision=reject",
)
_SCORE_WORDS: Final = ("'pass'", "'warn'", "'block'")


@st.composite
def _atom_13_2(draw: st.DrawFn, dims: list[dict[str, Any]]) -> str:
    """One 13.2 atom's text, in one of its accepted spellings, valid for ``dims``."""
    present = sorted({d["priority"] for d in dims})
    mandatory = [d["id"] for d in dims if d["priority"] == "mandatory"]
    s = draw(st.sampled_from(_SCORE_WORDS))
    p = draw(st.sampled_from(present))
    d = draw(st.sampled_from([x["id"] for x in dims]))
    forms = [
        f"any {p} dimension scores {s}",
        f"any dimension with priority={p} scores {s}",
        f"any {p}-priority dimension scores {s}",
        f"two or more {p} dimensions score {s} or worse",
        f"two or more dimensions with priority={p} score {s} or worse",
        f"every {p} dimension scores {s}",
        f"{d} scores {s}",
        f"any dimension scores {s} or worse",
        f"{d} scores {s} or worse",
        f"every dimension scores {s}",
    ]
    if mandatory:
        forms.append("any mandatory dimension has a fatal block")
        forms.append(f"{draw(st.sampled_from(mandatory))} has a fatal block")
    return draw(st.sampled_from(forms))


@st.composite
def _contracts_13_2(
    draw: st.DrawFn,
    max_dimensions: int,
    max_conditions: int,
    panel_sizes: st.SearchStrategy[int],
    with_accept: bool | None,
) -> dict[str, Any]:
    mode = draw(st.sampled_from(sorted(_ROLE_SETS_13_2)))
    roles = _ROLE_SETS_13_2[mode]
    n_dims = draw(st.integers(1, max_dimensions))
    ids = draw(
        st.lists(st.integers(1, 99), min_size=n_dims, max_size=n_dims, unique=True).map(
            lambda xs: [f"D{i}" for i in xs]
        )
    )
    eligible = [
        draw(st.lists(st.sampled_from(roles), min_size=1, max_size=len(roles), unique=True))
        for _ in ids
    ]
    for role in roles:  # every role of the set is eligible somewhere (13.2 §B6)
        if not any(role in e for e in eligible):
            eligible[draw(st.integers(0, len(ids) - 1))].append(role)
    dims = [
        {
            "id": d,
            "name": f"dimension_{d.lower()}",
            "description": f"Dimension {d}.",
            "priority": draw(priorities),
            "eligible_roles": e,
            "owner_role": draw(st.sampled_from(e)),
        }
        for d, e in zip(ids, eligible, strict=True)
    ]
    n_conds = draw(st.integers(1, max_conditions))
    others = n_conds - 1
    cond_ids = draw(st.lists(st.integers(1, 99), min_size=others, max_size=others, unique=True))
    severities = st.sampled_from([10, 50, 50, 70, 90]) | st.integers(0, 100)
    conditions = []
    for cid in [*cond_ids, 0]:
        atoms = draw(st.lists(_atom_13_2(dims), min_size=1, max_size=2))
        conditions.append(
            {
                "condition_id": f"F{cid}",
                "severity": draw(severities),
                "expression": " AND ".join(atoms),
                "cross_reviewer_quantifier": draw(st.sampled_from(QUANTIFIERS)),
                "action": (
                    _REVIEWER_ACTIONS_13_2[0]
                    if cid == 0
                    else draw(st.sampled_from(_REVIEWER_ACTIONS_13_2))
                ),
            }
        )
    draw(st.randoms()).shuffle(conditions)
    return {
        "contract_id": "reviewer/reviewer_generated/v2",
        "mode": mode,
        "stage": "generated",
        "baseline_version": "v3.6.2",
        "panel_size": len(roles),
        "acceptance_dimensions": dims,
        "measurement_procedure": {
            "reviewer_must_output_before_paper": ["contract_paraphrase", "scoring_plan"],
            "scoring_plan_schema": {
                "required": [
                    "dimension_id",
                    "what_to_look_for",
                    "what_triggers_block",
                    "what_triggers_warn",
                    "what_triggers_fatal",
                ]
            },
            "paraphrase_minimum_dimensions": "all",
        },
        "failure_conditions": conditions,
    }


def _contract(contract: Contract | Mapping[str, Any] | str) -> Contract:
    return load_contract(contract)


def matrices(contract: Contract | Mapping[str, Any] | str) -> st.SearchStrategy[dict[str, Any]]:
    """Well-formed matrices for ``contract`` (anything :func:`kernel.load_contract` takes).

    Schema 13: every dimension id → exactly ``panel_size`` scores, in reviewer order (R9).
    Dialect 13.2: every dimension id → role → value for every eligible role (``pass``,
    ``warn``, ``block`` or, on a mandatory dimension, ``block:fatal``/``block:repairable``,
    or ``not_assessed`` with at least one seat assessing), ineligible roles left out or
    ``not_assessed``."""
    c = _contract(contract)
    return _DIALECT_MATRICES[c.dialect](c)


def _matrices_13(c: Contract) -> st.SearchStrategy[dict[str, Any]]:
    n = c.panel_size
    return st.fixed_dictionaries(
        {d: st.lists(scores, min_size=n, max_size=n) for d in c.dimension_ids}
    )


_MANDATORY_VALUES: Final = ("pass", "warn", "block:fatal", "block:repairable")
_PLAIN_VALUES: Final = ("pass", "warn", "block")


@st.composite
def _row_13_2(draw: st.DrawFn, c: Contract, position: int) -> dict[str, str]:
    d = c.dimensions[position]
    values = _MANDATORY_VALUES if d.priority == "mandatory" else _PLAIN_VALUES
    row: dict[str, str] = {}
    for role in c.roles:
        if role in d.eligible_roles:
            row[role] = draw(st.sampled_from(values) | st.just("not_assessed"))
        elif draw(st.booleans()):
            row[role] = "not_assessed"
    if all(row[r] == "not_assessed" for r in d.eligible_roles):
        row[draw(st.sampled_from(d.eligible_roles))] = draw(st.sampled_from(values))
    return row


def _matrices_13_2(c: Contract) -> st.SearchStrategy[dict[str, Any]]:
    if not c.roles:
        raise KernelError(f"{c.contract_id}: a {c.mode} contract has no seats, so no matrices")
    return st.fixed_dictionaries({d.id: _row_13_2(c, d.position) for d in c.dimensions})


_DIALECT_CONTRACTS: Final = {"13": _contracts, "13.2": _contracts_13_2}
_DIALECT_MATRICES: Final = {"13": _matrices_13, "13.2": _matrices_13_2}


@st.composite
def _phase2(draw: st.DrawFn, contract: Contract, plan: Mapping[str, Mapping[str, str]]) -> str:
    column = {d: draw(scores) for d in contract.dimension_ids}
    try:
        expected_decision(contract, expected_fired(contract, column))
    except KernelError:
        # Nothing fires on this column and there is no accept-grade fallback (R5): no
        # conforming report exists for it.
        assume(False)
    dissent = None
    if draw(st.booleans()):
        dim = draw(st.sampled_from(contract.dimension_ids))
        dissent = {dim: " ".join(draw(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4)))}
    text = render_phase2(contract, column, dissent=dissent, plan=plan)
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    return text


def phase2_documents(
    contract: Contract | Mapping[str, Any] | str,
    *,
    plan: Mapping[str, Mapping[str, str]] | None = None,
) -> st.SearchStrategy[str]:
    """Conforming Phase 2 documents for ``contract``: any scores, at most one dissent, LF or
    CRLF line endings. Each passes :func:`kernel.lint_phase2` on its own and against the
    Phase 1 document ``render_phase1(contract, plan)`` (the default plan when ``plan`` is
    ``None``)."""
    c = _contract(contract)
    return _phase2(c, default_plan(c) if plan is None else plan)


@attrs.frozen
class RoundV2:
    """A conforming 13.2 round: each role's documents and what they state."""

    scope: RoleScope
    #: role → Phase 1 text, role → Phase 2 text, in the mode's seat order.
    phase1: Mapping[str, str]
    phase2: Mapping[str, str]
    #: dimension id → role → value, as :func:`kernel.decide` takes a 13.2 matrix.
    matrix: Mapping[str, Mapping[str, str]]
    #: CRITICAL rows of the DA's report (``C1`` … ``Cn``).
    critical: int
    #: The ARS reading the documents were rendered for (they pass under it).
    ars: str = "main"


def _seat_values(scope: RoleScope, role: str) -> st.SearchStrategy[dict[str, str]]:
    choices = {}
    for d in scope.eligible(role):
        blocks = ["block:fatal", "block:repairable"] if d.priority == "mandatory" else ["block"]
        choices[d.id] = st.sampled_from(["pass", "warn", *blocks, "not_assessed"])
    return st.fixed_dictionaries(choices)


@st.composite
def _round_v2(draw: st.DrawFn, scope: RoleScope, ars: str = "main") -> RoundV2:
    values = {role: draw(_seat_values(scope, role)) for role in scope.roles}
    for d in scope.dimensions:  # a dimension nobody assessed aborts the round: not valid
        seats = [r for r in scope.roles if r in d.eligible_roles]
        if all(values[r][d.id] == "not_assessed" for r in seats):
            values[draw(st.sampled_from(seats))][d.id] = "pass"
    critical = draw(st.integers(0, 3))
    phase1 = {role: render_phase1_v2(scope, role, ars=ars) for role in scope.roles}
    phase2 = {
        role: render_phase2_v2(scope, role, values[role], critical=critical, ars=ars)
        for role in scope.roles
    }
    matrix = {
        d.id: {r: values[r][d.id] for r in scope.roles if r in d.eligible_roles}
        for d in scope.dimensions
    }
    return RoundV2(scope, phase1, phase2, matrix, critical, ars)


def rounds_v2(
    contract: Contract | RoleScope | Mapping[str, Any], *, ars: str = "main"
) -> st.SearchStrategy[RoundV2]:
    """Conforming 13.2 rounds of ``contract`` (a loaded 13.2 contract, its document, or a
    :class:`~kernel.reviewer.roles.RoleScope`): any value per eligible seat, abstentions
    included, every dimension assessed by at least one seat; the documents are rendered for
    the ARS reading ``ars`` (``"main"`` or ``"fork"``) and pass under it."""
    from kernel.reviewer.lint.ars import reading

    scope = contract if isinstance(contract, RoleScope) else scope_of(contract)
    return _round_v2(scope, reading(ars).name)
