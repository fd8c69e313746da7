"""Dialect 13.2 contracts: detection (13.2 §J1), the schema (§A), the role invariants
(§B3-§B8), the warnings (§J4), the vocabulary (§C, §J3) and the strict loader."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given

from kernel import (
    ContractError,
    ExpressionUnrecognised,
    KernelError,
    load_contract,
    parse_expression,
)
from kernel import shipped_template as template
from kernel.cli.check import main as check_main
from kernel.contract.dialects import detect
from kernel.contract.warnings import check_contract
from kernel.errors import ContractInputError
from kernel.testing import contracts

FULL = "13.2/reviewer/full"
FOCUS = "13.2/reviewer/methodology_focus"


def _codes(contract: Any, dialect: str | None = None) -> list[str]:
    return [d.code for d in check_contract(contract, dialect=dialect)]


def _messages(contract: Any) -> list[str]:
    return [d.message for d in check_contract(contract)]


# --- detection (§J1) -----------------------------------------------------------------------


def test_detection_by_content() -> None:
    assert detect(template("reviewer/full")) == "13"
    for name in (FULL, FOCUS, "13.2/writer/full", "13.2/evaluator/full"):
        assert detect(template(name)) == "13.2"
    half = template("reviewer/full")
    half["acceptance_dimensions"][2]["owner_role"] = "eic"
    assert detect(half) == "13.2"
    planned = template("reviewer/full")
    planned["measurement_procedure"]["scoring_plan_schema"]["required"].append(
        "what_triggers_fatal"
    )
    assert detect(planned) == "13.2"
    assert detect([]) == "13" and detect({"mode": "writer_full"}) == "13.2"


def test_a_half_migrated_contract_fails_as_13_2() -> None:
    half = template("reviewer/full")
    half["acceptance_dimensions"][0].update(eligible_roles=["methodology"], owner_role="eic")
    with pytest.raises(ContractError, match=r"does not match Schema 13\.2"):
        load_contract(half)


def test_a_forced_dialect_that_does_not_fit_fails_loudly() -> None:
    with pytest.raises(ContractError, match=r"does not match Schema 13\.2") as info:
        load_contract("reviewer/full", dialect="13.2")
    assert "'eligible_roles' is a required property" in info.value.errors[0]
    with pytest.raises(ContractError, match="does not match Schema 13 ") as info:
        load_contract(FULL, dialect="13")
    assert any("'eligible_roles', 'owner_role' were unexpected" in e for e in info.value.errors)
    loaded = load_contract(FULL)
    with pytest.raises(ContractError):
        load_contract(loaded, dialect="13")  # a loaded contract is re-checked as asked
    assert load_contract(loaded, dialect="13.2") is loaded
    with pytest.raises(ContractError, match="unknown dialect '14'"):
        load_contract(FULL, dialect="14")


# --- the schema (§A) -----------------------------------------------------------------------


def _changed(name: str, change: Any) -> dict[str, Any]:
    data = template(name)
    change(data)
    return data


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda c: c.__setitem__("mode", "reviewer_re_review"), "is not one of"),
        (
            lambda c: c["failure_conditions"][0].__setitem__(
                "action", "editorial_decision=reject_or_major_revision"
            ),
            "is not one of",
        ),
        (
            lambda c: c["measurement_procedure"]["scoring_plan_schema"]["required"].pop(),
            "is too short",
        ),
        (lambda c: c.pop("panel_size"), "'panel_size' is a required property"),
        (lambda c: c.pop("measurement_procedure"), "'measurement_procedure' is a required"),
        (lambda c: c["acceptance_dimensions"][0].pop("owner_role"), "'owner_role' is a required"),
        (
            lambda c: c["acceptance_dimensions"][0].__setitem__("eligible_roles", []),
            "should be non-empty",
        ),
        (
            lambda c: c["acceptance_dimensions"][0].__setitem__("eligible_roles", ["editor"]),
            "is not one of",
        ),
        (
            lambda c: c["failure_conditions"][-1].__setitem__("condition_id", "F9"),
            "no item is the accept-grade F0",
        ),
        (lambda c: c.__setitem__("schema_version", "13.2"), "Additional properties"),
        (lambda c: c.__setitem__("panel_size", 5.0), "is not of type 'integer'"),
    ],
)
def test_the_13_2_schema(change: Any, said: str) -> None:
    data = _changed(FULL, change)
    found = check_contract(data)
    assert [d.code for d in found][:1] == ["E-SCHEMA"]
    assert any(said in d.message for d in found), [d.message for d in found]


def test_writer_and_evaluator_need_their_own_fields_and_actions() -> None:
    writer = _changed("13.2/writer/full", lambda c: c.pop("pre_commitment_artifacts"))
    assert "'pre_commitment_artifacts' is a required property" in " ".join(_messages(writer))
    evaluator = _changed(
        "13.2/evaluator/full",
        lambda c: c["failure_conditions"][0].__setitem__("action", "writer_decision=accept"),
    )
    assert "is not one of" in " ".join(_messages(evaluator))
    check = _changed(
        "13.2/evaluator/full",
        lambda c: c["disagreement_handling"]["pre_commitment_check_protocol"].__setitem__(
            "check_writer_artifact", "x"
        ),
    )
    assert _codes(check) == ["E-SCHEMA"]
    writer_panel = _changed("13.2/writer/full", lambda c: c.__setitem__("panel_size", 3))
    assert _codes(writer_panel) == []  # allowed and unused (13.2 §I10)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('{"a": 1, "a": 2}', "duplicate key"),
        ('{"panel_size": NaN}', "NaN"),
    ],
)
def test_the_strict_loader_reads_13_2_files(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "c.json"
    path.write_text(text, "utf-8")
    with pytest.raises(ContractInputError):
        load_contract(path, dialect="13.2")


def test_a_lone_surrogate_is_refused_under_13_2(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('{"x": "\\ud800"}', "utf-8")
    with pytest.raises(ContractError, match="unpaired surrogate"):
        load_contract(path, dialect="13.2")


def test_integers_beyond_json_are_refused_under_13_2() -> None:
    data = _changed(FULL, lambda c: c.__setitem__("panel_size", 2**60))
    with pytest.raises(ContractError, match="beyond"):
        load_contract(data)


# --- role invariants (§B3-§B8) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "change", "code", "message"),
    [
        (
            FULL,
            lambda c: c.__setitem__("mode", "reviewer_guided"),
            "E-ROLE-SET",
            "$.mode: reviewer mode 'reviewer_guided' has no role set in 13.2",
        ),
        (
            FULL,
            lambda c: c["acceptance_dimensions"][2].__setitem__("owner_role", "da"),
            "E-OWNER",
            "$.acceptance_dimensions[2].owner_role: D3: owner_role 'da' must be in eligible_roles",
        ),
        (
            FOCUS,
            lambda c: c["acceptance_dimensions"][1]["eligible_roles"].append("da"),
            "E-ROLE-SCOPE",
            "$.acceptance_dimensions[1].eligible_roles: D2: eligible_roles ['da'] are outside "
            "the role set of reviewer_methodology_focus ['eic', 'methodology']",
        ),
        (
            FULL,
            lambda c: c["acceptance_dimensions"][5].update(
                eligible_roles=["eic"], owner_role="eic"
            ),
            "E-ROLE-UNUSED",
            "$.acceptance_dimensions: roles of reviewer_full with no eligible dimension: ['da']",
        ),
        (
            FULL,
            lambda c: c["failure_conditions"][0].__setitem__(
                "expression", "any high dimension has a fatal block"
            ),
            "E-FATAL-SCOPE",
            "$.failure_conditions[0].expression: F1: fatal atom priority must be mandatory, "
            "not high",
        ),
        (
            FULL,
            lambda c: c["failure_conditions"][0].__setitem__("expression", "D4 has a fatal block"),
            "E-FATAL-SCOPE",
            "$.failure_conditions[0].expression: F1: fatal atom dimension D4 must be "
            "mandatory, not high",
        ),
        (
            "13.2/writer/full",
            lambda c: c["acceptance_dimensions"][0].update(owner_role="eic"),
            "E-ROLE-FIELDS",
            "$.acceptance_dimensions[0]: D1: reviewer-only fields ['owner_role'] are forbidden "
            "for mode=writer_full",
        ),
    ],
)
def test_each_role_invariant_has_its_code(name: str, change: Any, code: str, message: str) -> None:
    data = _changed(name, change)
    found = check_contract(data)
    assert [(d.code, d.message) for d in found] == [(code, message)]
    with pytest.raises(ContractError):
        load_contract(data)


# --- warnings (§J4) ------------------------------------------------------------------------


def test_sc15_is_the_single_judge_warning() -> None:
    assert _messages(FULL and template(FULL)) == [
        f"mandatory dimension {d} has one eligible role (single-judge mandatory gate)"
        for d in ("D1", "D2", "D6")
    ]
    assert _codes(template(FOCUS)) == ["SC-15"]


def test_sc16_warns_of_a_generator_condition_nothing_can_decide() -> None:
    data = _changed(
        "13.2/evaluator/full",
        lambda c: c["failure_conditions"][1].__setitem__(
            "expression", "one or more mandatory dimensions score 'warn'"
        ),
    )
    found = check_contract(data)
    assert [d.code for d in found] == ["SC-16"]
    assert "F2 is outside the Schema 13.2 vocabulary" in found[0].message
    contract = load_contract(data)
    assert contract.undecided == (("F2", "one or more mandatory dimensions score 'warn'"),)
    assert [c.condition_id for c in contract.conditions] == ["F1", "F0"]
    reviewer = _changed(
        FULL, lambda c: c["failure_conditions"][1].__setitem__("expression", "no such form")
    )
    assert "SC-12" in _codes(reviewer)


def test_sc9_reads_the_modes_own_field() -> None:
    writer = _changed(
        "13.2/writer/full",
        lambda c: c["pre_commitment_artifacts"]["acceptance_criteria_paraphrase"].__setitem__(
            "minimum_dimensions", 4
        ),
    )
    assert _messages(writer) == [
        "pre_commitment_artifacts.acceptance_criteria_paraphrase.minimum_dimensions=4 exceeds "
        "dimension count 3; Phase 4a lint will always fail"
    ]
    evaluator = _changed(
        "13.2/evaluator/full",
        lambda c: c["disagreement_handling"].__setitem__("paraphrase_minimum_dimensions", 9),
    )
    assert _messages(evaluator) == [
        "disagreement_handling.paraphrase_minimum_dimensions=9 exceeds dimension count 3; "
        "Phase 6a lint will always fail"
    ]


def test_a_13_2_panel_that_does_not_fit_the_mode_is_invalid() -> None:
    """Regression (issue 31): check said OK with an SC-11 warning, while decide refuses
    every matrix of the contract with [CONTRACT-INELIGIBLE: …]."""
    tag = "[CONTRACT-INELIGIBLE: panel_size=4 inconsistent with mode=reviewer_full; expected 5]"
    panel = _changed(FULL, lambda c: c.__setitem__("panel_size", 4))
    found = check_contract(panel)
    assert [d.code for d in found] == ["E-INELIGIBLE"]
    assert found[0].message.count(tag) == 1
    with pytest.raises(ContractError) as info:
        load_contract(panel)
    assert info.value.tag == tag and tag not in info.value.message
    # Schema 13 decides any panel size: there it stays the SC-11 warning
    thirteen = template("reviewer/full")
    thirteen["panel_size"] = 4
    assert "SC-11" in _codes(thirteen)
    assert load_contract(thirteen).panel_size == 4


def test_a_priority_no_dimension_has_is_an_error_under_13_2_only() -> None:
    text = "any high dimension scores 'block'"
    focus = _changed(FOCUS, lambda c: c["failure_conditions"][2].__setitem__("expression", text))
    found = check_contract(focus)
    assert [d.code for d in found] == ["SC-12"]
    assert "priority 'high' matches no dimension" in found[0].message
    with pytest.raises(ExpressionUnrecognised):
        load_contract(focus)
    thirteen = template("reviewer/methodology_focus")
    thirteen["failure_conditions"][1]["expression"] = text
    assert "SC-14" in _codes(thirteen)


# --- the vocabulary (§C, §J3) --------------------------------------------------------------

FORMS = [
    "any mandatory dimension scores 'block'",
    "any dimension with priority=high scores 'warn'",
    "any high-priority dimension scores 'pass'",
    "two or more mandatory dimensions score 'warn' or worse",
    "two or more dimensions with priority=normal score 'block' or worse",
    "every mandatory dimension scores 'pass'",
    "D3 scores 'warn'",
    "any mandatory dimension has a fatal block",
    "D1 has a fatal block",
    "any dimension scores 'warn' or worse",
    "D2 scores 'block' or worse",
    "every dimension scores 'pass'",
    "D1 has a fatal block AND every dimension scores 'pass'",
]


@pytest.mark.parametrize("text", FORMS)
def test_the_nine_forms_parse_exactly(text: str) -> None:
    parse_expression(text, dialect="13.2")


@pytest.mark.parametrize(
    ("text", "column", "closest"),
    [
        ("any dimension scores 'block'", 29, "'block'"),
        ("every high-priority dimension scores 'pass'", 11, "every high dimension scores 'pass'"),
        ("two or more mandatory dimensions score 'warn'", 46, "or worse"),
        ("D1 scores 'pass' or better", 21, "D1 scores 'pass' or worse"),
        ("any  mandatory dimension scores 'block'", 5, "any mandatory dimension"),
        ("any mandatory dimension scores 'block' and D1 scores 'pass'", 39, "'block'"),
        ("Any mandatory dimension scores 'block'", 1, "any mandatory dimension"),
        ("any mandatory dimension scores 'block'\t", 39, "'block'"),
    ],
)
def test_anything_else_is_unrecognised_with_column_and_closest_form(
    text: str, column: int, closest: str
) -> None:
    with pytest.raises(ExpressionUnrecognised) as info:
        parse_expression(text, dialect="13.2")
    assert info.value.column == column
    assert "closest recognised form: " in info.value.message
    assert closest in info.value.message.split("closest recognised form: ")[1]


def test_13_does_not_learn_the_new_forms() -> None:
    with pytest.raises(ExpressionUnrecognised):
        parse_expression("any mandatory dimension has a fatal block")
    data = template("reviewer/full")
    data["failure_conditions"][0]["expression"] = "D1 has a fatal block"
    with pytest.raises(ExpressionUnrecognised):
        load_contract(data)
    # 13 keeps its white space freedom
    parse_expression("any  mandatory   dimension scores 'block'")


@pytest.mark.parametrize(
    "text", ["any critical dimension scores 'block'", "D01 scores 'pass'", "D100 has a fatal block"]
)
def test_a_word_or_id_no_contract_can_have_is_refused(text: str) -> None:
    with pytest.raises(ExpressionUnrecognised, match=r"(matches|names) no dimension"):
        parse_expression(text, dialect="13.2")


# --- the CLI -------------------------------------------------------------------------------


def test_check_says_which_dialect(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_main(["reviewer/full", "13.2/writer/full", "--format", "json"]) == 0
    files = json.loads(capsys.readouterr().out)["files"]
    assert [(f["file"], f["dialect"]) for f in files] == [  # reported in sorted order
        ("13.2/writer/full", "13.2"),
        ("reviewer/full", "13"),
    ]
    assert check_main(["--dialect", "13", FULL]) == 1
    assert "E-SCHEMA" in capsys.readouterr().out
    assert check_main(["--format", "json", FOCUS]) == 0
    assert json.loads(capsys.readouterr().out)["files"][0]["dialect"] == "13.2"


# --- kernel.testing ------------------------------------------------------------------------


@given(contracts(dialect="13.2"))
def test_generated_13_2_contracts_load_as_13_2(data: dict[str, Any]) -> None:
    contract = load_contract(copy.deepcopy(data))
    assert contract.dialect == "13.2" and contract.roles
    assert [d.code for d in check_contract(data) if d.severity == "error"] == []


def test_validate_checks_the_contract_s_own_dialect() -> None:
    """Regression (issue 31): kernel.contract.validate checked Schema 13 even for a 13.2
    contract, so every shipped 13.2 template had schema errors."""
    from kernel.contract import validate

    for name in ("13.2/reviewer/full", "13.2/writer/full", "13.2/evaluator/full"):
        assert validate(template(name)) == []
        assert validate(template(name), dialect="13") != []  # forced, as load_contract
    assert validate(template("reviewer/full")) == []
    bad = _changed(FULL, lambda c: c.__setitem__("panel_size", "five"))
    assert validate(bad) == ["$.panel_size: 'five' is not of type 'integer'"]
    with pytest.raises(ContractError, match="unknown dialect"):
        validate(template(FULL), dialect="14")
    with pytest.raises(KernelError, match="not both"):
        validate(template(FULL), schema=True, dialect="13.2")
