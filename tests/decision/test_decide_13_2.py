"""The dialect 13.2 decision (13.2 §D, §J5): the kernel against an independent reference,
every matrix rule, the contract gates, and the batch paths."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support import reference132

from kernel import ContractError, MatrixError, decide, decide_many, load_contract, shipped_template
from kernel.testing import contracts, matrices

FULL = "13.2/reviewer/full"
FOCUS = "13.2/reviewer/methodology_focus"


def _all_pass(name: str = FULL) -> dict[str, dict[str, str]]:
    contract = load_contract(name)
    return {d.id: dict.fromkeys(d.eligible_roles, "pass") for d in contract.dimensions}


def _with(name: str = FULL, **rows: dict[str, str]) -> dict[str, dict[str, str]]:
    matrix = _all_pass(name)
    for dim, seats in rows.items():
        matrix[dim].update(seats)
    return matrix


def _agree(contract: dict[str, Any], matrix: dict[str, Any]) -> None:
    want = reference132.decide(contract, matrix)
    got = decide(contract, matrix)
    assert (got.action, got.condition_id) == (want["action"], want["condition_id"])
    assert dict(got.fired) == want["fired"]
    assert dict(got.verdicts or {}) == want["verdicts"]


# --- the differential property ------------------------------------------------------------


@given(contracts(dialect="13.2").flatmap(lambda c: matrices(c).map(lambda m: (c, m))))
@example(
    (
        shipped_template(FULL),
        {
            "D1": {"methodology": "warn"},
            "D2": {"domain": "block:repairable"},
            "D3": {"eic": "warn", "methodology": "warn", "domain": "pass"},
            "D4": {"perspective": "pass", "eic": "not_assessed"},
            "D5": {"eic": "pass", "perspective": "warn"},
            "D6": {"da": "pass"},
        },
    )
)
def test_the_kernel_decides_as_the_reference(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    contract, matrix = pair
    _agree(contract, matrix)
    # decide_many and a second decision (the cache) answer alike
    assert decide_many(contract, [matrix, matrix])[1] == decide(contract, matrix)


def _mutations(matrix: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    dims = sorted(matrix)
    roles = ["eic", "methodology", "domain", "perspective", "da", "editor"]
    values = st.sampled_from(
        ["pass", "warn", "block", "block:fatal", "block:repairable", "not_assessed", "fatal", 1]
    )

    @st.composite
    def mutated(draw: st.DrawFn) -> dict[str, Any]:
        m = copy.deepcopy(matrix)
        dim = draw(st.sampled_from(dims))
        kind = draw(st.sampled_from(["set", "drop_seat", "drop_dim", "add_dim"]))
        if kind == "set":
            m[dim][draw(st.sampled_from(roles))] = draw(values)
        elif kind == "drop_seat" and m[dim]:
            del m[dim][draw(st.sampled_from(sorted(m[dim])))]
        elif kind == "drop_dim":
            del m[dim]
        else:
            m["D99" if "D99" not in m else "D98"] = {}
        return m

    return mutated()


@given(
    contracts(dialect="13.2")
    .flatmap(lambda c: matrices(c).map(lambda m: (c, m)))
    .flatmap(lambda cm: _mutations(cm[1]).map(lambda m: (cm[0], m)))
)
def test_a_changed_matrix_is_refused_exactly_when_the_reference_refuses_it(
    pair: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    contract, matrix = pair
    try:
        reference132.assessed(contract, matrix)
    except reference132.Refused:
        with pytest.raises(MatrixError):
            decide(contract, matrix)
    else:
        _agree(contract, matrix)


# --- thresholds per dimension (13.2 §D3) ---------------------------------------------------


@pytest.mark.parametrize(
    ("warns", "fires"),
    [(0, False), (1, False), (2, True), (3, True)],  # D3 has three assessed seats: 2 of 3
)
def test_majority_counts_the_dimensions_assessed_seats(warns: int, fires: bool) -> None:
    seats = dict.fromkeys(["eic", "methodology", "domain"], "pass")
    seats.update(dict.fromkeys(["eic", "methodology", "domain"][:warns], "warn"))
    decision = decide(FULL, _with(D3=seats))
    atom = decision.trace["F5"][0] if decision.trace else None
    assert atom is not None
    d3 = next(d for d in atom.dimensions if d.dimension == "D3")
    assert (d3.n, d3.count, d3.threshold, d3.held) == (3, warns, 2, fires)


def test_an_abstaining_seat_is_in_neither_count() -> None:
    # two of D3's three seats abstain: n = 1, and majority of one is that one seat
    decision = decide(
        FULL, _with(D3={"eic": "warn", "methodology": "not_assessed", "domain": "not_assessed"})
    )
    assert decision.trace is not None
    d3 = next(d for d in decision.trace["F5"][0].dimensions if d.dimension == "D3")
    assert (d3.n, d3.count, d3.threshold, d3.held) == (1, 1, 1, True)
    assert decision.condition_id == "F5"


def test_majority_of_two_needs_both() -> None:
    one = decide(FOCUS, _with(FOCUS, D2={"eic": "warn"}))
    both = decide(FOCUS, _with(FOCUS, D2={"eic": "warn", "methodology": "warn"}))
    assert (one.condition_id, one.fallback) == (None, True)  # F0 needs D1 and D2 'pass' by all
    assert both.condition_id == "F3"


def test_a_fatal_block_counts_as_a_block_and_decides_first() -> None:
    fatal = decide(FULL, _with(D1={"methodology": "block:fatal"}))
    repairable = decide(FULL, _with(D1={"methodology": "block:repairable"}))
    assert fatal.condition_id == "F1" and fatal.action == "editorial_decision=reject"
    assert fatal.fired["F2"]  # "scores 'block'" holds for a fatal block too
    assert repairable.condition_id == "F2"
    assert dict(fatal.verdicts or {})["D1"] == "block(fatal)"
    assert dict(repairable.verdicts or {})["D1"] == "block"


# --- malformed matrices fail closed (13.2 §J5) --------------------------------------------


@pytest.mark.parametrize(
    ("matrix", "said"),
    [
        (_with(D1={"eic": "pass"}), "[OUT-OF-ROLE-SCORE: role eic may not score D1]"),
        (_with(D1={"methodology": "block"}), "expected block:fatal or block:repairable"),
        (_with(D4={"eic": "block:fatal"}), "expected a bare block"),
        (_with(D1={"methodology": "not_assessed"}), "[DIMENSION-UNASSESSED: D1]"),
        (_with(D1={"editor": "pass"}), "matrix['D1']['editor']: unknown role"),
        (_with(D1={"methodology": "PASS"}), "is not a seat value"),
        (_with(D1={"methodology": 0}), "0 is not a seat value"),  # type: ignore[dict-item]
        ({**_all_pass(), "D9": {}}, "matrix['D9']: unknown dimension id"),
        ({k: v for k, v in _all_pass().items() if k != "D6"}, "missing scores for dimension(s) D6"),
        ({**_all_pass(), "D3": {"eic": "pass"}}, "missing the value of eligible role methodology"),
        ({**_all_pass(), "D3": ["pass", "pass", "pass"]}, "expected a mapping, got list"),
        ([], "matrix: expected a mapping, got list"),
    ],
)
def test_every_malformed_matrix_is_a_matrix_error(matrix: Any, said: str) -> None:
    with pytest.raises(MatrixError) as info:
        decide(FULL, matrix)
    if said.startswith("["):  # a protocol tag: on .tag, not repeated in the message
        assert info.value.tag == said and said not in info.value.message
        assert info.value.message.startswith("matrix['D1']")
    else:
        assert said in info.value.message


def test_the_audit_tags_are_the_errors_tags() -> None:
    with pytest.raises(MatrixError) as info:
        decide(FULL, _with(D6={"da": "not_assessed"}))
    assert info.value.tag == "[DIMENSION-UNASSESSED: D6]"
    with pytest.raises(MatrixError) as info:
        decide(FULL, _with(D6={"eic": "warn"}))
    assert info.value.tag == "[OUT-OF-ROLE-SCORE: role eic may not score D6]"


class _Lying(Mapping[str, Any]):
    """A mapping whose reads fail: the kernel must name the key, never leak the error."""

    def __init__(self, data: dict[str, Any], bad: str) -> None:
        self._data, self._bad = data, bad

    def __getitem__(self, key: str) -> Any:
        if key == self._bad:
            raise RuntimeError("no")
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def test_a_mapping_that_raises_is_a_matrix_error_naming_the_key() -> None:
    with pytest.raises(MatrixError, match=r"matrix\['D2'\]: reading it raised RuntimeError"):
        decide(FULL, _Lying(_all_pass(), "D2"))
    inner = _all_pass()
    inner["D3"] = _Lying(inner["D3"], "domain")  # type: ignore[assignment]
    with pytest.raises(MatrixError, match=r"matrix\['D3'\]\['domain'\]: reading it raised"):
        decide(FULL, inner)


def test_a_str_subclass_is_not_a_score() -> None:
    class Sly(str):
        pass

    with pytest.raises(MatrixError, match="is not a seat value"):
        decide(FULL, _with(D1={"methodology": Sly("pass")}))
    # a key must be an exact str too, as in a Schema 13 matrix: on the first decision and on
    # the compiled path alike
    sly: dict[str, Any] = {Sly("D1"): {"methodology": "warn"}}
    sly.update((k, v) for k, v in _all_pass().items() if k != "D1")
    fresh = load_contract(shipped_template(FULL))
    decide(fresh, _with(D1={"methodology": "warn"}))
    for _ in range(2):
        with pytest.raises(MatrixError, match="is not a string"):
            decide(fresh, sly)
    numbered: dict[Any, Any] = {**_all_pass(), 1: {}}
    with pytest.raises(MatrixError, match="is not a string"):
        decide(FULL, numbered)


# --- the contract gates (13.2 §D7, §D8) ------------------------------------------------------


def test_a_panel_that_does_not_fit_the_mode_is_ineligible() -> None:
    data = shipped_template(FULL)
    data["panel_size"] = 4
    tag = "[CONTRACT-INELIGIBLE: panel_size=4 inconsistent with mode=reviewer_full; expected 5]"
    for _ in range(2):  # refused when loaded, as check refuses it (E-INELIGIBLE)
        with pytest.raises(ContractError) as info:
            decide(data, _all_pass())
        assert info.value.tag == tag
    # a Contract value changed behind the loader's back is still refused by decide
    contract = attrs.evolve(load_contract(FULL), panel_size=4)
    with pytest.raises(ContractError) as info:
        decide(contract, _all_pass())
    assert info.value.tag == tag


@pytest.mark.parametrize("name", ["13.2/writer/full", "13.2/evaluator/full"])
def test_writer_and_evaluator_contracts_have_no_decision(name: str) -> None:
    with pytest.raises(ContractError, match="no executable decision procedure"):
        decide(name, {})


def test_the_13_decision_is_unchanged() -> None:
    # a Schema 13 matrix on a Schema 13 template decides as before
    decision = decide("reviewer/full", {d: ["pass"] * 5 for d in ("D1", "D2", "D3", "D4", "D5")})
    assert decision.trace is None and "trace" not in decision.to_dict()


def test_the_json_form_carries_the_trace_and_verdicts() -> None:
    out = decide(FULL, _with(D2={"domain": "block:repairable"})).to_dict()
    assert out["dialect"] == "13.2" and out["condition_id"] == "F2"
    f2 = out["trace"]["F2"][0]
    assert f2["atom"] == "any mandatory dimension scores 'block'" and f2["held"] is True
    assert {"dimension": "D2", "n": 1, "count": 1, "threshold": 1, "held": True} in f2["dimensions"]
    assert out["verdicts"]["D2"] == "block"


def test_decide_many_names_the_matrix_that_failed() -> None:
    with pytest.raises(MatrixError, match=r"^matrices\[1\]: matrix\['D1'\]"):
        decide_many(FULL, [_all_pass(), _with(D1={"eic": "pass"})])


def test_the_jsonl_batch_decides_13_2(tmp_path: Any) -> None:
    path = tmp_path / "m.jsonl"
    good = json.dumps(_with(D2={"domain": "block:repairable"}))
    path.write_text(good + "\n" + json.dumps(_with(D1={"eic": "pass"})) + "\n", "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "kernel.decide", "--contract", FULL, "--matrix", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    (line,) = done.stdout.splitlines()
    assert json.loads(line)["condition_id"] == "F2"
    assert "OUT-OF-ROLE-SCORE" in done.stderr and ":2:" in done.stderr


def test_explain_lists_the_single_seat_changes_that_change_the_action() -> None:
    from kernel.decision.dimensionwise import seat_flips

    contract = load_contract(FOCUS)
    matrix = {"D1": {"methodology": "warn"}, "D2": {"eic": "pass", "methodology": "warn"}}
    flips = seat_flips(contract, matrix)
    assert [str(f) for f in flips] == [
        "D1[methodology] warn -> pass: editorial_decision=accept (R5 fallback)",
        "D1[methodology] warn -> block:repairable: editorial_decision=major_revision (F2)",
        "D1[methodology] warn -> block:fatal: editorial_decision=reject (F1)",
    ]
    # every listed change does change the action, and no other single change does
    base = decide(contract, matrix).action
    for d in contract.dimensions:
        for role in d.eligible_roles:
            for value in ("pass", "warn", "block", "block:fatal", "block:repairable"):
                changed = {k: dict(v) for k, v in matrix.items()}
                changed[d.id][role] = value
                try:
                    action = decide(contract, changed).action
                except MatrixError:
                    continue
                listed = any((f.dimension, f.role, f.after) == (d.id, role, value) for f in flips)
                assert listed == (action != base)


def test_decide_reads_the_contract_as_the_dialect_asked(tmp_path: Any) -> None:
    from kernel.cli.decide import main as decide_main

    path = tmp_path / "m.json"
    path.write_text(json.dumps(_all_pass()), "utf-8")
    assert decide_main(["--contract", FULL, "--matrix", str(path), "--format", "json"]) == 0
    assert decide_main(["--contract", FULL, "--matrix", str(path), "--dialect", "13.2"]) == 0
    assert decide_main(["--contract", FULL, "--matrix", str(path), "--dialect", "13"]) == 1


def test_the_compiled_path_takes_every_seat_of_the_mode_as_reports_give_them() -> None:
    from kernel.decision.engine import engine_for

    contract = load_contract(shipped_template(FULL))
    full_rows = {
        d.id: {r: "pass" if r in d.eligible_roles else "not_assessed" for r in contract.roles}
        for d in contract.dimensions
    }
    first = decide(contract, full_rows)  # the slow path
    lookup = engine_for(contract).lookup
    assert lookup is not None and lookup(full_rows) == first == decide(contract, _all_pass())
    for bad in ({"eic": "warn"}, {"editor": "not_assessed"}, {"eic": Sly("not_assessed")}):
        changed = {**full_rows, "D1": {**full_rows["D1"], **bad}}
        assert lookup(changed) is None  # left to the slow path, which refuses it
        with pytest.raises(MatrixError):
            decide(contract, changed)


class Sly(str):
    """A ``str`` subclass: never a seat value."""


@pytest.mark.parametrize("times", [1, 3])  # the first decision, and the generated code's
def test_a_dropped_or_extra_seat_is_refused_with_a_protocol_tag(times: int) -> None:
    """Regression (issue 31): a matrix without the perspective seat raised a MatrixError
    with no tag; Schema 13 gives PanelShrunk and its tag."""
    from kernel.errors import PanelShrunk, SeatDropped

    dropped = {
        d: {r: v for r, v in seats.items() if r != "perspective"}
        for d, seats in _all_pass().items()
    }
    for _ in range(times):
        with pytest.raises(SeatDropped) as info:
            decide(FULL, dropped)
    assert isinstance(info.value, PanelShrunk) and isinstance(info.value, MatrixError)
    assert info.value.tag == (
        "[PANEL-CARDINALITY: roles ['da', 'domain', 'eic', 'methodology'] != required "
        "['da', 'domain', 'eic', 'methodology', 'perspective']]"
    )
    assert (info.value.usable, info.value.panel_size) == (4, 5)
    extra = _with(D1={"chair": "pass"})
    with pytest.raises(MatrixError) as found:
        decide(FULL, extra)
    assert found.value.tag is not None
    assert found.value.tag.startswith("[PANEL-CARDINALITY: roles ['chair', 'da', ")
    # a hole in one dimension, the seat present elsewhere, is a malformed matrix
    hole = _all_pass()
    del hole["D1"][next(iter(hole["D1"]))]
    with pytest.raises(MatrixError, match="missing the value of eligible role"):
        decide(FULL, hole)
