"""Pinned contract behaviour: the exact text of every soft warning and loader error, the typed
contract's derived fields, and the quantifier / precedence rules (R1, R5, R6)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel import (
    ContractError,
    ExpressionUnrecognised,
    KernelError,
    load_contract,
    shipped_template,
)
from kernel.contract.dialects import check_structural_invariants
from kernel.contract.quantifiers import (
    ACCEPT,
    ACTION_RANK,
    ACTIONS,
    fallback_index,
    precedence_order,
    threshold,
    winner,
)
from kernel.contract.templates import TEMPLATE_NAMES, template_is_pristine
from kernel.contract.validator import compiled_expressions, items
from kernel.contract.warnings import warn_suspicious

FULL = "reviewer/full"


def full() -> dict[str, Any]:
    return shipped_template(FULL)


# --- soft warnings: the exact text ---------------------------------------------------------


def test_sc1_messages() -> None:
    c = full()
    assert warn_suspicious(c, "v4.0.0") == [
        "SC-1: contract baseline v3.6.2 lags ARS v4.0.0 by a major version; retirement candidate"
    ]
    assert warn_suspicious(c, "v3.9.0") == [
        "SC-1: contract baseline lags ARS by 3 minor; retirement candidate"
    ]
    assert warn_suspicious(c, "v3.8.9") == []
    assert warn_suspicious(c, "v2.9.0") == []  # a baseline ahead of ARS is not a lag
    c["baseline_version"] = "3.6.2"
    assert warn_suspicious(c, "v9.0.0") == []  # an unreadable baseline cannot be compared
    with pytest.raises(KernelError) as info:
        warn_suspicious(full(), "3.6")
    assert info.value.message == "ars_current_version must look like vX.Y.Z, got '3.6'"
    with pytest.raises(KernelError) as info:
        warn_suspicious(full(), "v3.6.2\n")
    assert info.value.message == "ars_current_version must look like vX.Y.Z, got 'v3.6.2\\n'"


def test_soft_warning_texts() -> None:
    c = full()
    c["acceptance_dimensions"] = c["acceptance_dimensions"][3:4]  # one high dimension, D4
    c["measurement_procedure"]["reviewer_must_output_before_paper"] = ["scoring_plan", 7]
    c["measurement_procedure"]["paraphrase_minimum_dimensions"] = 2
    c["failure_conditions"] = [
        {**c["failure_conditions"][0], "expression": "D7 scores 'block' AND D7 scores 'warn'"},
        {**c["failure_conditions"][1], "severity": 90},
    ]
    c["agent_amendments"] = {"panel_size": 3, "note": "x"}
    c["panel_size"] = 1
    assert warn_suspicious(c) == [
        "SC-2: single-dimension contract; consider whether this mode needs sprint contract at all",
        "SC-3: no mandatory-priority dimension; failure_conditions referencing 'mandatory' "
        "will be vacuous",
        "SC-4: failure condition F1 references D7 which is not in acceptance_dimensions",
        "SC-5: hard-gate protocol requires both 'contract_paraphrase' and 'scoring_plan'",
        "SC-6: agent_amendments carries baseline field 'panel_size'; baseline fields are "
        "orchestrator-immutable",
        "SC-7: F1 and F2 share severity=90 but map to different actions; precedence "
        "tie-breaking falls back to ordinal position",
        "SC-9: paraphrase_minimum_dimensions=2 exceeds dimension count 1; Phase 1 lint will "
        "always fail",
        "SC-10: high dimension D4 has no failure_condition referencing it; its score cannot "
        "influence the editorial decision",
        "SC-11: panel_size=1 means no cross-reviewer aggregation; cross_reviewer_quantifier "
        "values collapse to pass-through",
        "SC-11: panel_size=1 inconsistent with mode=reviewer_full; expected 5",
        "SC-13: no failure condition has action editorial_decision=accept; when no condition "
        "fires there is no fallback decision (R5) and decide() fails",
        "SC-14: failure condition F2: \"two or more mandatory dimensions score 'warn' or worse\" "
        "names priority mandatory, but the contract has no mandatory dimension; the atom is "
        "false for every reviewer",
    ]


def test_soft_warning_boundaries() -> None:
    c = full()
    c["measurement_procedure"]["paraphrase_minimum_dimensions"] = 5
    assert warn_suspicious(c) == []  # equal to the dimension count is reachable
    c["measurement_procedure"]["paraphrase_minimum_dimensions"] = True
    assert warn_suspicious(c) == []
    focus = shipped_template("reviewer/methodology_focus")
    focus["panel_size"] = 3
    assert warn_suspicious(focus) == [
        "SC-11: panel_size=3 inconsistent with mode=reviewer_methodology_focus; expected 2"
    ]
    c = full()
    c["panel_size"] = True
    assert "SC-11: panel_size=1" not in " ".join(warn_suspicious(c))
    c = full()
    c["mode"] = "author_guided"
    c["panel_size"] = 3
    assert warn_suspicious(c) == []
    c = full()
    c["failure_conditions"][2]["severity"] = 90
    c["failure_conditions"][2]["action"] = c["failure_conditions"][0]["action"]
    assert warn_suspicious(c) == []  # a shared severity with one action is no tie problem
    c = full()
    c["failure_conditions"][2]["expression"] = "any normal dimension scores 'block'"
    assert warn_suspicious(c) == [
        "SC-10: high dimension D4 has no failure_condition referencing it; its score cannot "
        "influence the editorial decision"
    ]
    c = full()
    c["measurement_procedure"]["reviewer_must_output_before_paper"] = "scoring_plan"
    assert [w.split(":")[0] for w in warn_suspicious(c)] == ["SC-5"]
    c = full()
    c["measurement_procedure"]["reviewer_must_output_before_paper"] += ["extra"]
    assert warn_suspicious(c) == []


def test_warn_suspicious_needs_a_mapping() -> None:
    with pytest.raises(KernelError) as info:
        warn_suspicious(["x"])
    assert info.value.message == "a contract must be a JSON object, got list"


# --- structural checks and loader errors -------------------------------------------------


def test_structural_messages() -> None:
    c = full()
    c["acceptance_dimensions"][2]["id"] = "D1"
    c["acceptance_dimensions"][4]["name"] = "methodology_rigor"
    c["failure_conditions"][3]["condition_id"] = "F1"
    c["failure_conditions"][2]["expression"] = "D9 scores 'block'"
    assert check_structural_invariants(c) == [
        "$.acceptance_dimensions[2].id: duplicate dimension id 'D1' (first at "
        "$.acceptance_dimensions[0].id)",
        "$.acceptance_dimensions[4].name: duplicate dimension name 'methodology_rigor' (first "
        "at $.acceptance_dimensions[0].name)",
        "$.failure_conditions[3].condition_id: duplicate condition_id 'F1' (first at "
        "$.failure_conditions[0].condition_id)",
        "$.failure_conditions[2].expression: SC-12 D9 names no dimension of the contract "
        "(dimensions: D1, D2, D1, D4, D5)",
    ]


def test_load_contract_messages(tmp_path: Path) -> None:
    with pytest.raises(ContractError) as info:
        load_contract({"x": 1})
    assert info.value.message.startswith(
        "contract does not match Schema 13 (9 error(s)): $: 'acceptance_dimensions' is a "
        "required property"
    )
    assert len(info.value.errors) == 9
    path = tmp_path / "c.json"
    bad = full()
    bad["panel_size"] = 0
    path.write_text(json.dumps(bad), "utf-8")
    with pytest.raises(ContractError) as info:
        load_contract(str(path))
    assert info.value.message.startswith(
        f"{path}: contract does not match Schema 13 (1 error(s)): "
    )
    with pytest.raises(ContractError) as info:
        load_contract(3)
    assert info.value.message == (
        "a contract source must be a path, a template name or a mapping, got int"
    )
    c = full()
    c["acceptance_dimensions"][1]["id"] = "D1"
    with pytest.raises(ContractError) as info:
        load_contract(c)
    assert info.value.message == (
        "contract is structurally invalid: $.acceptance_dimensions[1].id: duplicate dimension "
        "id 'D1' (first at $.acceptance_dimensions[0].id)"
    )
    assert info.value.errors == [
        "$.acceptance_dimensions[1].id: duplicate dimension id 'D1' (first at "
        "$.acceptance_dimensions[0].id)"
    ]
    assert info.value.tag is None


def test_unrecognised_expression_names_its_condition(tmp_path: Path) -> None:
    c = full()
    c["failure_conditions"][1]["expression"] = "D1 scores 'x'"
    path = tmp_path / "c.json"
    path.write_text(json.dumps(c), "utf-8")
    for source, where in ((c, ""), (path, f"{path}: ")):
        with pytest.raises(ExpressionUnrecognised) as info:
            load_contract(source)
        err = info.value
        assert err.message == (
            f"{where}F2: unrecognised expression at column 11: expected a score in single quotes "
            "('block', 'warn', 'pass'), found \"'\"; closest recognised form: D1 scores '<score>'"
        )
        assert (err.column, err.condition_id, err.expression) == (11, "F2", "D1 scores 'x'")
        assert err.tag == "[EXPRESSION-UNRECOGNISED: condition_id=F2, expression=D1 scores 'x']"
        assert err.errors == [
            "$.failure_conditions[1].expression: SC-12 unrecognised expression at column 11: "
            "expected a score in single quotes ('block', 'warn', 'pass'), found \"'\"; closest "
            "recognised form: D1 scores '<score>'"
        ]


# --- the typed contract ------------------------------------------------------------------


def test_typed_contract_fields() -> None:
    contract = load_contract(FULL)
    assert load_contract(contract) is contract
    assert contract.dimension_ids == ("D1", "D2", "D3", "D4", "D5")
    assert contract.dimension("D4").priority == "high"
    assert contract.dimension("D4").position == 3
    assert [(d.id, d.name, d.description, d.priority) for d in contract.dimensions] == [
        (d["id"], d["name"], d["description"], d["priority"])
        for d in full()["acceptance_dimensions"]
    ]
    with pytest.raises(ContractError) as info:
        contract.dimension("D9")
    assert info.value.message == "reviewer/reviewer_full/v1 has no dimension 'D9'"
    assert contract.panel_size == 5
    assert contract.paraphrase_minimum == 5
    assert contract.scoring_plan_required == (
        "dimension_id",
        "what_to_look_for",
        "what_triggers_block",
        "what_triggers_warn",
    )
    assert [(c.condition_id, c.threshold, c.position) for c in contract.conditions] == [
        ("F1", 1, 0),
        ("F2", 3, 1),
        ("F3", 1, 2),
        ("F0", 5, 3),
    ]
    assert contract.precedence == (0, 1, 2, 3)
    assert contract.fallback == 3
    assert contract.conditions[1].text == "two or more mandatory dimensions score 'warn' or worse"
    assert contract.to_dict() == full()
    assert json.loads(contract.to_json()) == full()
    again = load_contract(full())
    assert again == contract and hash(again) == hash(contract)
    assert again is not contract
    other = full()
    other["panel_size"] = 3
    assert load_contract(other) != contract
    assert contract != full()
    numeric = full()
    numeric["measurement_procedure"]["paraphrase_minimum_dimensions"] = 2
    loaded = load_contract(numeric)
    assert loaded.paraphrase_minimum == 2
    assert (loaded.conditions[1].quantifier, loaded.conditions[1].threshold) == ("majority", 3)


def test_shipped_templates() -> None:
    assert TEMPLATE_NAMES == (
        "reviewer/full",
        "reviewer/methodology_focus",
        "13.2/reviewer/full",
        "13.2/reviewer/methodology_focus",
        "13.2/writer/full",
        "13.2/evaluator/full",
    )
    assert all(template_is_pristine(name) for name in TEMPLATE_NAMES)
    first = shipped_template(FULL)
    first["panel_size"] = 99
    assert shipped_template(FULL)["panel_size"] == 5  # a fresh copy each time
    with pytest.raises(ContractError) as info:
        shipped_template("reviewer/none")
    assert info.value.message == (
        "no shipped template named 'reviewer/none'; known: reviewer/full, "
        "reviewer/methodology_focus, 13.2/reviewer/full, 13.2/reviewer/methodology_focus, "
        "13.2/writer/full, 13.2/evaluator/full; did you mean 'reviewer/full'?"
    )


# --- quantifiers and precedence ----------------------------------------------------------


def test_actions() -> None:
    assert ACCEPT == "editorial_decision=accept"
    assert ACTIONS[0] == ACCEPT and ACTIONS[-1] == "editorial_decision=reject"
    assert [ACTION_RANK[a] for a in ACTIONS] == [0, 1, 2, 3, 4]


@given(st.integers(1, 200))
def test_thresholds(n: int) -> None:
    assert threshold("any", n) == 1
    assert threshold("majority", n) == n // 2 + 1
    assert threshold("all", n) == n


@pytest.mark.parametrize(
    ("quantifier", "n", "message"),
    [
        ("any", 0, "panel_size must be an integer >= 1, got 0"),
        ("all", True, "panel_size must be an integer >= 1, got True"),
        ("all", 2.0, "panel_size must be an integer >= 1, got 2.0"),
        ("most", 3, "unknown cross_reviewer_quantifier 'most'; expected any|majority|all"),
    ],
)
def test_threshold_errors(quantifier: str, n: Any, message: str) -> None:
    with pytest.raises(KernelError) as info:
        threshold(quantifier, n)
    assert info.value.message == message


@given(st.lists(st.integers(0, 100), max_size=8), st.data())
def test_precedence_and_winner(severities: list[int], data: st.DataObject) -> None:
    order = precedence_order(severities)
    assert sorted(order) == list(range(len(severities)))
    for a, b in itertools.pairwise(order):
        assert (-severities[a], a) < (-severities[b], b)
    fired = data.draw(st.lists(st.booleans(), min_size=len(severities), max_size=len(severities)))
    won = winner(order, fired)
    if any(fired):
        assert won is not None and fired[won]
        assert won == min((i for i, f in enumerate(fired) if f), key=lambda i: (-severities[i], i))
    else:
        assert won is None


def test_fallback_index() -> None:
    assert fallback_index([]) is None
    assert fallback_index([ACTIONS[1], ACTIONS[2]]) is None
    assert fallback_index([ACTIONS[1], ACCEPT, ACCEPT]) == 1


_ENTRY = compiled_expressions(full())[0]  # (0, the condition, its Predicate)


@pytest.mark.parametrize(
    "junk",
    [
        "compiled",
        {},
        (_ENTRY,),  # a tuple, not a list
        [list(_ENTRY)],  # an entry that is a list
        [_ENTRY[:2]],  # two items
        [(*_ENTRY, None)],  # four
        [("0", *_ENTRY[1:])],  # an index that is not an int
        [(True, *_ENTRY[1:])],
        [(*_ENTRY[:2], "D1 scores 'block'")],  # text, not a compiled predicate
        [_ENTRY, None],
    ],
)
def test_structural_checks_refuse_compiled_that_is_not_compiled_expressions(junk: Any) -> None:
    c = full()
    with pytest.raises(KernelError) as info:
        check_structural_invariants(c, compiled=junk)
    assert type(info.value) is KernelError
    assert info.value.message.startswith(
        "compiled must be compiled_expressions(contract) or None, got "
    )
    # What compiled_expressions gives, an empty list and nothing are taken.
    assert check_structural_invariants(c, compiled=compiled_expressions(c)) == []
    assert check_structural_invariants(c, compiled=[_ENTRY]) == []
    assert check_structural_invariants(c, compiled=[]) == []
    assert check_structural_invariants(c, compiled=None) == []


@pytest.mark.parametrize(
    "contract", [["not", "an", "object"], "x", None, {"failure_conditions": 3}]
)
def test_structural_checks_of_a_non_object_find_nothing_to_check(contract: Any) -> None:
    # The schema reports what is wrong with such a document; the structural checks skip it.
    assert check_structural_invariants(contract) == []
    assert items(contract, "failure_conditions") == []


def test_items_keeps_the_objects_with_their_positions() -> None:
    assert items({"k": [1, {"a": 1}, "x", {}]}, "k") == [(1, {"a": 1}), (3, {})]
