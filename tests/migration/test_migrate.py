"""migrate(): the 13.2 contract it writes, and its exact decision-change counts against
brute force over every old matrix."""

from __future__ import annotations

import copy
import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel import decide, load_contract, migrate
from kernel.analysis.budget import Budget
from kernel.analysis.probability import parse_prior
from kernel.cli.main import main as sprint_kernel
from kernel.contract.model import Contract
from kernel.contract.templates import shipped_template
from kernel.errors import AnalysisTooLarge, ContractError, MatrixError, MigrationError
from kernel.expression.ast import SCORES
from kernel.migration import Migration
from kernel.migration.count import seat_value
from kernel.testing import contracts

TEMPLATES = ["reviewer/full", "reviewer/methodology_focus"]
MODES = st.sampled_from(["reviewer_full", "reviewer_methodology_focus"])


def _checked_examples(m: Migration) -> None:
    """Every example decides as reported, on both sides (decide is called here)."""
    for t in m.transitions:
        if not t.changed:
            assert t.example is None
            continue
        assert t.example is not None
        e = t.example
        old = decide(m.old, {k: list(v) for k, v in e.old_matrix.items()})
        assert old.action == t.old
        try:
            new: str | None = decide(
                m.contract, {k: dict(v) for k, v in e.new_matrix.items()}
            ).action
        except MatrixError:
            new = None
        assert new == t.new
        assert e.old_decision is not None and e.old_decision.action == t.old
        assert (e.new_decision.action if e.new_decision else None) == t.new


def _check_passes(m: Migration, tmp_path: Any) -> None:
    path = tmp_path / "new.json"
    path.write_text(m.contract_json(), encoding="utf-8")
    assert load_contract(str(path), dialect="13.2").dialect == "13.2"
    assert sprint_kernel(["check", str(path), "-q"]) == 0


@pytest.mark.parametrize("name", TEMPLATES)
def test_shipped_templates_migrate_to_contracts_check_accepts(name: str, tmp_path: Any) -> None:
    m = migrate(name)
    assert m.contract.dialect == "13.2"
    _check_passes(m, tmp_path)
    assert (
        sum(t.matrices for t in m.transitions)
        == m.space
        == 3 ** (len(m.old.dimensions) * m.old.panel_size)
    )
    assert len({(t.old, t.new) for t in m.transitions}) == len(m.transitions)
    _checked_examples(m)
    # reject_or_major_revision is gone; the default is major_revision and it is listed.
    actions = {c.action for c in m.contract.conditions}
    assert "editorial_decision=reject_or_major_revision" not in actions
    assert any(c.field.endswith("F1].action") and c.kind == "defaulted" for c in m.choices)


def test_reviewer_full_pins_the_counts() -> None:
    m = migrate("reviewer/full")
    got = {(t.old, t.new): t.matrices for t in m.transitions}
    a, mj, rm = (
        f"editorial_decision={x}" for x in ("accept", "major_revision", "reject_or_major_revision")
    )
    assert got == {
        (a, a): 121_430_016,
        (a, mj): 5_971_968,
        (mj, a): 348_862_464,
        (mj, mj): 1_458_653_184,
        (rm, a): 7_565_095_440,
        (rm, mj): 837_788_596_371,
    }
    # Of rm -> mj, F1 decides both in 814,228,727,715 (only the action's new name); in the
    # other 23,559,868,656 another condition decides under 13.2: decided differently.
    renamed = {(t.old, t.new): t.renamed_matrices for t in m.transitions if t.changed}
    assert renamed == {(a, mj): 0, (mj, a): 0, (rm, a): 0, (rm, mj): 814_228_727_715}
    assert m.moved == 5_971_968 + 348_862_464 + 7_565_095_440 + 23_559_868_656
    # The DA had no dimension by name: it is made eligible on every dimension, and said so.
    assert all("da" in d.eligible_roles for d in m.contract.dimensions)
    assert any(c.new == "da" and "every dimension" in c.reason for c in m.choices)


def _old_matrices(c: Contract) -> list[dict[str, list[str]]]:
    ids, n = c.dimension_ids, c.panel_size
    return [
        {d: list(cells[i * n : (i + 1) * n]) for i, d in enumerate(ids)}
        for cells in itertools.product(SCORES, repeat=len(ids) * n)
    ]


def _new_matrix(m: Migration, old: dict[str, list[str]]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for d in m.contract.dimensions:
        row = {}
        for role in d.eligible_roles:
            if role in m.seats:
                j = m.seats.index(role)
                rank = SCORES.index(old[d.id][j])
                row[role] = seat_value(m.contract, d.position, rank, frozenset(m.fatal))
            else:
                row[role] = "not_assessed"
        out[d.id] = row
    return out


#: What one old score adds to a matrix's cost (the analyzer's order: fewest non-pass scores,
#: then the lowest scores).
CELL_COST = {"pass": 0, "warn": 1001, "block": 1002}
Pair = tuple[str | None, str | None]


def _cost(matrix: Any) -> int:
    return sum(CELL_COST[s] for row in matrix.values() for s in row)


def _brute(m: Migration, cheapest: dict[Pair, int] | None = None) -> Counter[Pair]:
    """Every old matrix decided by both contracts; ``cheapest`` gets each pair's lowest
    matrix cost."""
    tally: Counter[tuple[str | None, str | None]] = Counter()
    for old in _old_matrices(m.old):
        before: str | None
        by: str | None = None
        try:
            decided = decide(m.old, old)
            before, by = decided.action, decided.condition_id
        except ContractError:
            before = None
        after: str | None
        try:
            decided = decide(m.contract, _new_matrix(m, old))
            after = decided.action
            renamed = by is not None and by == decided.condition_id
        except MatrixError:
            after, renamed = None, False
        tally[before, after] += 1
        if cheapest is not None:
            # A pair's example is its cheapest matrix decided differently, when it has one.
            cost = _cost(old) + (0 if renamed or before == after else -(10**9))
            cheapest[before, after] = min(cost, cheapest.get((before, after), cost))
    return tally


def _counts(m: Migration) -> Counter[tuple[str | None, str | None]]:
    return Counter({(t.old, t.new): t.matrices for t in m.transitions})


def _simplest(m: Migration, cheapest: dict[Pair, int]) -> None:
    """Each example is a cheapest matrix of its pair."""
    for t in m.transitions:
        if t.example is not None:
            moved = -(10**9) if t.moved else 0
            assert _cost(t.example.old_matrix) + moved == cheapest[t.old, t.new]


def test_methodology_focus_equals_brute_force() -> None:
    m = migrate("reviewer/methodology_focus")
    cheapest: dict[Pair, int] = {}
    assert _counts(m) == _brute(m, cheapest)
    _simplest(m, cheapest)


def _with(name: str, **changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(shipped_template(name))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("name", "panel", "mode"),
    [
        # fewer reviewers than roles: perspective and da have no seat, D4 loses its seats
        ("reviewer/methodology_focus", 3, "reviewer_full"),
        # more reviewers than roles: reviewer 3 has no seat
        ("reviewer/methodology_focus", 3, None),
        ("reviewer/methodology_focus", 1, None),
    ],
)
def test_panels_that_do_not_fit_the_mode_equal_brute_force(
    name: str, panel: int, mode: str | None
) -> None:
    m = migrate(_with(name, panel_size=panel), mode=mode)
    assert _counts(m) == _brute(m)
    assert sum(t.matrices for t in m.transitions) == m.space
    _checked_examples(m)


def test_fatal_blocks_and_a_fatal_expression_equal_brute_force() -> None:
    data = _with("reviewer/methodology_focus")
    m = migrate(
        data,
        fatal=["D1"],
        actions={"F1": "reject"},
        expressions={"F2": "D1 has a fatal block"},
    )
    assert m.contract.conditions[1].text == "D1 has a fatal block"
    assert m.fatal == ("D1",)
    assert _counts(m) == _brute(m)
    _checked_examples(m)


#: Dimension names the 13.2 templates know (their roles come from the template).
NAMES = [
    "methodology_rigor",
    "domain_accuracy",
    "argumentative_coherence",
    "cross_disciplinary_relevance",
    "writing_and_structure",
]


@st.composite
def old_contracts(draw: st.DrawFn) -> tuple[dict[str, Any], str, list[str]]:
    """A small valid Schema 13 contract (some dimensions named as in the 13.2 templates,
    conditions with other actions than accept), a 13.2 mode and some fatal dimensions."""
    data = draw(
        contracts(
            max_dimensions=3,
            max_conditions=4,
            panel_sizes=st.sampled_from([2, 3, 1]),
            with_accept=False,
        )
    )
    names = draw(st.permutations(NAMES))
    for d, name in zip(data["acceptance_dimensions"], names, strict=False):
        if draw(st.booleans()):
            d["name"] = name
    mandatory = [d["id"] for d in data["acceptance_dimensions"] if d["priority"] == "mandatory"]
    fatal = draw(st.lists(st.sampled_from(mandatory), unique=True)) if mandatory else []
    return data, draw(MODES), fatal


@given(old_contracts())
def test_random_contracts_migrate_exactly(drawn: tuple[dict[str, Any], str, list[str]]) -> None:
    """Whenever the migration succeeds: the result loads as 13.2, the pair counts sum to the
    old space and equal brute force, and every example decides as reported; whenever it
    refuses, the refusal names the condition or field."""
    data, mode, fatal = drawn
    try:
        m = migrate(data, mode=mode, fatal=fatal)
    except MigrationError as exc:
        assert exc.field in exc.message
        assert exc.field.startswith("$.failure_conditions[F")
        return
    assert load_contract(m.document(), dialect="13.2").dialect == "13.2"
    assert sum(t.matrices for t in m.transitions) == m.space
    _checked_examples(m)
    if len(m.old.dimensions) * m.old.panel_size <= 6:
        cheapest: dict[Pair, int] = {}
        assert _counts(m) == _brute(m, cheapest)
        _simplest(m, cheapest)


@st.composite
def template_variants(draw: st.DrawFn) -> tuple[dict[str, Any], str, list[str]]:
    """The methodology-focus template with two or three dimensions of random priorities,
    random expressions (every form, always compilable), quantifiers, actions and panel."""
    data = _with("reviewer/methodology_focus")
    dims = data["acceptance_dimensions"]
    if draw(st.booleans()):
        dims.append({"id": "D3", "name": "third", "description": "Third.", "priority": "high"})
    for d in dims:
        d["priority"] = draw(st.sampled_from(["mandatory", "high", "normal"]))
    first = dims[0]["priority"]
    score = st.sampled_from(["pass", "warn", "block"])
    forms = st.one_of(
        st.builds(lambda d, s: f"{d} scores '{s}'", st.sampled_from(["D1", "D2"]), score),
        st.builds(lambda s: f"any {first} dimension scores '{s}'", score),
        st.builds(lambda s: f"two or more {first} dimensions score '{s}' or worse", score),
        st.builds(lambda s: f"every {first} dimension scores '{s}'", score),
    )
    actions = st.sampled_from(
        ["minor_revision", "major_revision", "reject_or_major_revision", "reject"]
    )
    for c in data["failure_conditions"]:
        atoms = draw(st.lists(forms, min_size=1, max_size=2))
        c["expression"] = " AND ".join(atoms)
        c["cross_reviewer_quantifier"] = draw(st.sampled_from(["any", "majority", "all"]))
        if c["condition_id"] != "F0":
            c["action"] = "editorial_decision=" + draw(actions)
        c["severity"] = draw(st.integers(0, 100))
    data["panel_size"] = draw(st.sampled_from([2, 3, 1]))
    mandatory = [d["id"] for d in dims if d["priority"] == "mandatory"]
    fatal = draw(st.lists(st.sampled_from(mandatory), unique=True)) if mandatory else []
    return data, draw(MODES), fatal


@given(template_variants())
def test_template_variants_equal_brute_force(
    drawn: tuple[dict[str, Any], str, list[str]],
) -> None:
    data, mode, fatal = drawn
    m = migrate(data, mode=mode, fatal=fatal)
    assert sum(t.matrices for t in m.transitions) == m.space
    _checked_examples(m)
    if len(m.old.dimensions) * m.old.panel_size <= 6:
        cheapest: dict[Pair, int] = {}
        assert _counts(m) == _brute(m, cheapest)
        _simplest(m, cheapest)


def test_a_priority_no_dimension_has_is_refused_naming_the_condition() -> None:
    data = _with("reviewer/methodology_focus")
    data["failure_conditions"][1]["expression"] = "every high-priority dimension scores 'pass'"
    with pytest.raises(MigrationError) as caught:
        migrate(data)
    assert caught.value.field == "$.failure_conditions[F2].expression"
    assert "F2" in caught.value.message and "--expression F2=" in caught.value.message
    m = migrate(data, expressions={"F2": "D1 scores 'warn'"})
    assert m.contract.conditions[1].text == "D1 scores 'warn'"


def test_a_13_spelling_13_2_lacks_is_respelled_and_listed() -> None:
    data = _with("reviewer/full")
    data["failure_conditions"][1]["expression"] = (
        "two or more mandatory-priority dimensions  score 'warn' or worse"
    )
    m = migrate(data)
    assert m.contract.conditions[1].text == "two or more mandatory dimensions score 'warn' or worse"
    assert any(
        c.field == "$.failure_conditions[F2].expression" and c.kind == "renamed" for c in m.choices
    )
    # a 13.2 spelling is kept as written
    assert m.contract.conditions[2].text == "any high-priority dimension scores 'block'"


def test_options_override_the_defaults() -> None:
    m = migrate(
        "reviewer/full",
        roles={"D5": "da,eic", "D1": ["methodology", "domain"]},
        actions={"reject_or_major_revision": "reject"},
    )
    dims = {d.id: d for d in m.contract.dimensions}
    assert dims["D5"].eligible_roles == ("da", "eic") and dims["D5"].owner_role == "da"
    assert dims["D1"].eligible_roles == ("methodology", "domain")
    # the DA now has a dimension: the every-dimension rule is not applied
    assert "da" not in dims["D2"].eligible_roles
    assert m.contract.conditions[0].action == "editorial_decision=reject"
    assert any(c.kind == "option" for c in m.choices)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"roles": {"D9": "eic"}}, "roles['D9']"),
        ({"roles": {"D1": "chair"}}, "roles['D1']"),
        ({"roles": {"D1": "eic,eic"}}, "roles['D1']"),
        ({"actions": {"reject_or_major_revision": "maybe"}}, "actions['reject_or_major_revision']"),
        ({"actions": {"F7": "reject"}}, "actions['F7']"),
        ({"fatal": ["D4"]}, "fatal['D4']"),
        ({"fatal": ["D8"]}, "fatal['D8']"),
        ({"expressions": {"F9": "D1 scores 'pass'"}}, "expressions['F9']"),
        ({"expressions": {"F1": "D1 scores pass"}}, "expressions['F1']"),
        ({"mode": "reviewer_guided"}, "mode"),
    ],
)
def test_bad_options_are_refused_naming_the_option(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(MigrationError) as caught:
        migrate("reviewer/full", **kwargs)
    assert caught.value.field == field
    assert field in caught.value.message


def test_a_mode_13_2_lacks_needs_a_mode() -> None:
    data = _with("reviewer/methodology_focus", mode="reviewer_re_review")
    with pytest.raises(MigrationError, match=r"\$\.mode: reviewer_re_review"):
        migrate(data)
    m = migrate(data, mode="reviewer_methodology_focus")
    assert m.contract.mode == "reviewer_methodology_focus"
    assert any(c.field == "$.mode" for c in m.choices)


def test_a_13_2_contract_is_not_migrated() -> None:
    with pytest.raises(MigrationError, match=r"already a Schema 13\.2"):
        migrate("13.2/reviewer/full")


def test_past_the_budget_it_refuses_with_an_estimate() -> None:
    with pytest.raises(AnalysisTooLarge, match=r"states x .* column classes|columns"):
        migrate("reviewer/full", budget=Budget(limit=1000))


def _brute_probability(m: Migration, p: tuple[Fraction, Fraction, Fraction]) -> Fraction:
    total = Fraction(0)
    for old in _old_matrices(m.old):
        before = decide(m.old, old).action
        try:
            after: str | None = decide(m.contract, _new_matrix(m, old)).action
        except MatrixError:
            after = None
        if before != after:
            weight = Fraction(1)
            for row in old.values():
                for s in row:
                    weight *= p[SCORES.index(s)]
            total += weight
    return total


def test_the_share_under_a_prior_equals_brute_force() -> None:
    prior = parse_prior("pass=0.7,warn=0.2,block=0.1")
    m = migrate("reviewer/methodology_focus", prior=prior)
    dist = (Fraction(7, 10), Fraction(2, 10), Fraction(1, 10))
    assert m.changed_probability == _brute_probability(m, dist)
    assert sum(t.probability or 0 for t in m.transitions) == 1
    assert m.to_dict()["changed_probability"] == str(m.changed_probability)


def test_a_panel_too_large_to_count_is_refused_before_any_work() -> None:
    with pytest.raises(AnalysisTooLarge, match="score cells"):
        migrate(_with("reviewer/full", panel_size=10**9))


def test_three_dimensions_and_a_panel_of_three_equal_brute_force() -> None:
    """The largest size the issue names, over all 3^9 old matrices, each decided twice."""
    data = _with("reviewer/methodology_focus", panel_size=3)
    data["acceptance_dimensions"].append(
        {"id": "D3", "name": "domain_accuracy", "description": "Facts.", "priority": "mandatory"}
    )
    data["failure_conditions"][1].update(
        expression="two or more mandatory dimensions score 'warn' or worse",
        cross_reviewer_quantifier="majority",
    )
    data["failure_conditions"].insert(
        2,
        {
            "condition_id": "F3",
            "severity": 40,
            "expression": "any normal dimension scores 'block' AND D3 scores 'warn'",
            "cross_reviewer_quantifier": "all",
            "action": "editorial_decision=minor_revision",
        },
    )
    m = migrate(data, mode="reviewer_full", fatal=["D3"])
    assert m.space == 3**9
    cheapest: dict[Pair, int] = {}
    brute = _brute(m, cheapest)
    _simplest(m, cheapest)
    assert _counts(m) == brute
    assert len(brute) > 4  # the case is not trivial: several pairs, some of them moved
    assert m.moved > 0
    _checked_examples(m)


def test_a_wide_panel_is_refused_with_the_estimate_of_its_next_step() -> None:
    with pytest.raises(AnalysisTooLarge, match=r"states x \d+ column classes at reviewer \d+"):
        migrate(_with("reviewer/full", panel_size=20))


def test_renamed_dimensions_are_refused_with_the_way_out() -> None:
    """Every role on every dimension keeps all of them open: refused, naming --roles; with
    the template's roles the same contract is compared."""
    data = _with("reviewer/full")
    for d in data["acceptance_dimensions"]:
        d["name"] = "renamed_" + d["name"]
    with pytest.raises(AnalysisTooLarge, match=r"D1, D2, D3, D4, D5 are eligible for every role"):
        migrate(data)
    roles = {
        "D1": "methodology",
        "D2": "domain",
        "D3": "eic,methodology,domain",
        "D4": "perspective,eic",
        "D5": "eic,perspective",
    }
    m = migrate(data, roles=roles)
    assert [t.matrices for t in m.transitions] == [
        t.matrices for t in migrate("reviewer/full").transitions
    ]
