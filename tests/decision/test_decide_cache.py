"""decide on a mapping or a template name reuses compiled contracts, by content: a mapping
mutated in place never meets a stale entry. decide_many equals deciding each matrix."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kernel import decide, decide_many, load_contract, shipped_template
from kernel.contract.quantifiers import ACCEPT, ACTIONS, QUANTIFIERS
from kernel.decision import cache, engine
from kernel.errors import ContractError, KernelError, MatrixError, PanelShrunk
from kernel.expression.ast import SCORES
from kernel.testing import contracts, matrices

FULL = load_contract("reviewer/full")
PASS = {d: ["pass"] * 5 for d in FULL.dimension_ids}
BLOCK_D4 = PASS | {"D4": ["block", "pass", "pass", "pass", "pass"]}


def _outcome(contract: Any, matrix: Any) -> object:
    """The decision, or the class and message of the error."""
    try:
        return decide(contract, matrix)
    except KernelError as exc:
        return (type(exc), exc.message)


def _fresh(document: dict[str, Any], matrix: Any) -> object:
    """What deciding on a never-seen copy gives."""
    try:
        contract = load_contract(copy.deepcopy(document))
    except KernelError as exc:
        return (type(exc), exc.message)
    return _outcome(contract, matrix)


def _apply(document: dict[str, Any], edit: tuple[str, int, Any]) -> None:
    """Edit ``document`` in place; ``at`` is taken modulo the list's length, and an edit of a
    condition when none is left does nothing."""
    kind, at, value = edit
    conditions = document["failure_conditions"]
    if kind == "priority":
        dimensions = document["acceptance_dimensions"]
        dimensions[at % len(dimensions)]["priority"] = value
    elif kind == "panel_size":
        document["panel_size"] = value
    elif not conditions:
        return
    elif kind == "action":
        conditions[at % len(conditions)]["action"] = value
    elif kind == "quantifier":
        conditions[at % len(conditions)]["cross_reviewer_quantifier"] = value
    elif kind == "severity":
        conditions[at % len(conditions)]["severity"] = value
    else:
        del conditions[at % len(conditions)]


_AT = st.integers(0, 99)
_EDITS = st.lists(
    st.one_of(
        st.tuples(st.just("action"), _AT, st.sampled_from(ACTIONS)),
        st.tuples(st.just("quantifier"), _AT, st.sampled_from(QUANTIFIERS)),
        st.tuples(st.just("severity"), _AT, st.integers(0, 100)),
        st.tuples(
            st.just("priority"), _AT, st.sampled_from(("mandatory", "high", "normal", "urgent"))
        ),
        st.tuples(st.just("panel_size"), st.just(0), st.sampled_from((1, 2, 5, True, 5.0))),
        st.tuples(st.just("drop_condition"), _AT, st.none()),
    ),
    min_size=3,
    max_size=3,
)
#: Scores for up to 3 dimensions of up to 5 reviewers, cut to the contract's shape.
_GRID = st.lists(st.lists(st.sampled_from(SCORES), min_size=5, max_size=5), min_size=3, max_size=3)

_ONE_CONDITION = shipped_template("reviewer/full") | {
    "acceptance_dimensions": shipped_template("reviewer/full")["acceptance_dimensions"][:1],
    "panel_size": 1,
    "failure_conditions": [
        {
            "condition_id": "F0",
            "severity": 10,
            "expression": "D1 scores 'pass'",
            "cross_reviewer_quantifier": "all",
            "action": ACCEPT,
        }
    ],
}


@settings(max_examples=40)
@given(contracts(max_dimensions=3, max_conditions=3, panel_sizes=st.integers(1, 5)), _GRID, _EDITS)
# Dropping the one condition, then editing a condition: there is none left to edit.
@example(
    _ONE_CONDITION,
    [["pass"] * 5] * 3,
    [("drop_condition", 0, None), ("action", 0, ACCEPT), ("drop_condition", 0, None)],
)
def test_a_mapping_mutated_in_place_is_a_different_contract(
    document: dict[str, Any], grid: list[list[str]], edits: list[tuple[str, int, Any]]
) -> None:
    document = copy.deepcopy(document)
    n = document["panel_size"]
    ids = [d["id"] for d in document["acceptance_dimensions"]]
    matrix = {d: row[:n] for d, row in zip(ids, grid, strict=False)}
    assert _outcome(document, matrix) == _fresh(document, matrix)
    assert _outcome(document, matrix) == decide(load_contract(document), matrix)
    for edit in edits:
        _apply(document, edit)
        for m in (matrix, {d: row[:1] * 5 for d, row in matrix.items()}):
            assert _outcome(document, m) == _fresh(document, m)


def test_same_content_hits_and_types_matter() -> None:
    document = shipped_template("reviewer/full")
    first = cache.compiled(document)
    assert cache.compiled(document) is first
    assert cache.compiled(copy.deepcopy(document)) is first
    as_tuple = copy.deepcopy(document)
    as_tuple["acceptance_dimensions"] = tuple(as_tuple["acceptance_dimensions"])
    with pytest.raises(ContractError):
        decide(as_tuple, PASS)
    as_bool = copy.deepcopy(document) | {"panel_size": 1}
    cache.compiled(as_bool)
    as_bool["panel_size"] = True
    with pytest.raises(ContractError):
        decide(as_bool, {d: ["pass"] for d in FULL.dimension_ids})


class _Lying(dict[str, Any]):
    """A dict whose repr does not show its content."""

    def __repr__(self) -> str:
        return "{}"


def test_a_nested_value_whose_repr_lies_still_never_meets_a_stale_entry() -> None:
    document = shipped_template("reviewer/full")
    document["acceptance_dimensions"][3] = _Lying(document["acceptance_dimensions"][3])
    assert decide(document, BLOCK_D4).condition_id == "F3"  # D4 is high-priority
    document["acceptance_dimensions"][3]["priority"] = "normal"
    assert decide(document, BLOCK_D4).condition_id == "F0"  # nothing reads a normal D4


def test_other_mappings_and_odd_values_are_compiled_each_time() -> None:
    from types import MappingProxyType

    proxy = MappingProxyType(shipped_template("reviewer/full"))
    try:
        expected: object = decide(load_contract(proxy), PASS)
    except KernelError as exc:
        expected = (type(exc), exc.message)
    assert _outcome(proxy, PASS) == expected

    import threading

    odd = shipped_template("reviewer/full") | {"agent_amendments": threading.Lock()}
    with pytest.raises(TypeError):
        copy.deepcopy(odd)
    assert _outcome(odd, PASS)[0] is ContractError  # type: ignore[index]


def test_template_names_map_to_one_pristine_contract() -> None:
    assert cache.compiled("reviewer/full") is cache.compiled("reviewer/full")
    assert cache.compiled("reviewer/full") == FULL
    shipped_template("reviewer/full")["panel_size"] = 1  # a copy: the template is untouched
    assert decide("reviewer/full", PASS) == decide(FULL, PASS)
    with pytest.raises(ContractError):
        decide("reviewer/missing", PASS)


def test_the_cache_is_bounded() -> None:
    cache.cache_clear()
    base = shipped_template("reviewer/methodology_focus")
    matrix = {key: ["pass", "pass"] for key in (d["id"] for d in base["acceptance_dimensions"])}
    for i in range(cache.CACHE_SIZE + 5):
        variant = copy.deepcopy(base)
        variant["failure_conditions"][0]["severity"] = i % 100
        variant["stage"] = f"stage_{i}"
        decide(variant, matrix)
    info = cache.cache_info()
    assert info["size"] == info["maxsize"] == cache.CACHE_SIZE
    cache.cache_clear()
    assert cache.cache_info()["size"] == 0


# --- decide_many ----------------------------------------------------------------------------


@settings(max_examples=30)
@given(st.data(), contracts(max_dimensions=3, max_conditions=3, panel_sizes=st.integers(1, 11)))
def test_decide_many_equals_deciding_each(data: st.DataObject, document: dict[str, Any]) -> None:
    ms = data.draw(st.lists(matrices(document), max_size=8))
    contract = load_contract(document)
    expected = [decide(contract, m) for m in ms]
    assert decide_many(contract, ms) == expected
    assert decide_many(document, iter(ms)) == expected


def test_decide_many_names_the_first_bad_matrix() -> None:
    short = {d: ["pass"] * 4 for d in FULL.dimension_ids}
    with pytest.raises(MatrixError, match=r"^matrices\[1\]: matrix\[.D9.\]: unknown dimension"):
        decide_many(FULL, [PASS, PASS | {"D9": ["pass"] * 5}, short])
    with pytest.raises(PanelShrunk, match=r"^matrices\[2\]: ") as info:
        decide_many("reviewer/full", [PASS, BLOCK_D4, short])
    assert info.value.tag == "[PANEL-SHRUNK: usable=4, panel_size=5]"
    assert info.value.errors == [info.value.message]
    assert str(info.value) == f"{info.value.message} {info.value.tag}"
    with pytest.raises(MatrixError, match=r"^matrices\[0\]: matrix must map"):
        decide_many(FULL, ["not a matrix"])  # type: ignore[list-item]
    assert decide_many(FULL, []) == []


def test_a_template_name_compiles_once_from_a_cold_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_by_name", {})
    first = cache.compiled("reviewer/full")
    assert first == load_contract("reviewer/full")
    assert cache.compiled("reviewer/full") is first
    assert cache.cache_info()["templates"] == 1


@pytest.mark.parametrize("panel", [9, 10, 12])
def test_decide_many_past_the_generated_lookup_panel_limit(panel: int) -> None:
    # Panels over 9 have no generated lookup: every matrix takes the slow path.
    document = shipped_template("reviewer/full") | {"panel_size": panel}
    contract = load_contract(document)
    assert (engine.engine_for(contract).lookup is None) == (panel > 9)
    ids = contract.dimension_ids
    ms = [
        {d: ["pass"] * panel for d in ids},
        {d: ["block"] + ["pass"] * (panel - 1) for d in ids},
        {d: ["warn"] * panel for d in ids},
    ]
    expected = [decide(contract, m) for m in ms]
    assert decide_many(contract, ms) == expected
    assert decide_many(document, ms) == expected
    assert [d.condition_id for d in expected] == ["F0", "F1", "F2"]
    with pytest.raises(MatrixError, match=r"^matrices\[1\]: matrix\[.D9.\]: unknown dimension"):
        decide_many(contract, [ms[0], ms[0] | {"D9": ["pass"] * panel}])


def test_the_cache_drops_the_least_recently_used_contract() -> None:
    cache.cache_clear()
    base = shipped_template("reviewer/methodology_focus")

    def variant(i: int) -> dict[str, Any]:
        v = copy.deepcopy(base)
        v["stage"] = f"stage_{i}"
        return v

    first = cache.compiled(variant(0))
    for i in range(1, cache.CACHE_SIZE):
        cache.compiled(variant(i))
    assert cache.compiled(variant(0)) is first  # used again: now the most recent
    cache.compiled(variant(cache.CACHE_SIZE))  # one over: the least recent, variant 1, goes
    assert cache.compiled(variant(0)) is first
    second = cache.compiled(variant(1))
    assert cache.cache_info()["size"] == cache.CACHE_SIZE
    assert cache.compiled(variant(1)) is second
    cache.cache_clear()


def test_lookup_source_is_the_generated_function() -> None:
    source = engine.lookup_source(FULL)
    assert source.startswith("def make(")
    namespace: dict[str, Any] = {}
    exec(compile(source, "<lookup>", "exec"), namespace)
    assert callable(namespace["make"])


def test_a_compiled_contract_is_its_own_compiled_form() -> None:
    assert cache.compiled(FULL) is FULL
