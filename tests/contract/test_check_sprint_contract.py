"""Seed §7: every named test of groups A (schema), B (soft warnings) and C (CLI)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from kernel import decide, load_contract, shipped_template
from kernel.cli.check import main as check_main
from kernel.contract.dialects import check_structural_invariants, validate
from kernel.contract.templates import schema
from kernel.contract.warnings import warn_suspicious

FULL = "reviewer/full"
FOCUS = "reviewer/methodology_focus"


def full() -> dict[str, Any]:
    return shipped_template(FULL)


def codes(warnings: list[str]) -> list[str]:
    return [w.split(":", 1)[0] for w in warnings]


# --- Group A: schema validation -------------------------------------------------------------


def test_valid_reviewer_full_passes() -> None:
    c = full()
    assert validate(c) == []
    assert check_structural_invariants(c) == []


def test_valid_reviewer_methodology_focus_passes() -> None:
    c = shipped_template(FOCUS)
    assert validate(c) == []
    assert check_structural_invariants(c) == []


def test_shipped_templates_produce_zero_soft_warnings() -> None:
    for name in (FULL, FOCUS):
        assert warn_suspicious(shipped_template(name), "v3.6.2") == []


def test_shipped_templates_pass_precedence_rule() -> None:
    matrix = {d: ["pass"] * 5 for d in ("D1", "D2", "D3", "D4", "D5")}
    matrix["D1"] = ["block", "pass", "pass", "pass", "pass"]
    matrix["D4"] = ["pass", "block", "pass", "pass", "pass"]
    decision = decide(load_contract(FULL), matrix)
    assert decision.fired["F1"] and decision.fired["F3"]
    assert decision.condition_id == "F1"
    assert decision.action == "editorial_decision=reject_or_major_revision"


def _errors_for(mutate: Any) -> list[str]:
    c = full()
    mutate(c)
    return validate(c)


def test_missing_top_level_required_fails() -> None:
    errors = _errors_for(lambda c: c.pop("acceptance_dimensions"))
    assert any("'acceptance_dimensions' is a required property" in e for e in errors)


def test_bad_contract_id_pattern_fails() -> None:
    errors = _errors_for(lambda c: c.update(contract_id="BAD"))
    assert errors and errors[0].startswith("$.contract_id:")


def test_mode_enum_rejects_quick() -> None:
    assert any(
        e.startswith("$.mode:") for e in _errors_for(lambda c: c.update(mode="reviewer_quick"))
    )


def test_additional_top_level_property_fails() -> None:
    errors = _errors_for(lambda c: c.update(foo="bar"))
    assert any("'foo' was unexpected" in e for e in errors)


def test_agent_amendments_extra_key_fails() -> None:
    errors = _errors_for(lambda c: c.update(agent_amendments={"extra_field": "x"}))
    assert any(e.startswith("$.agent_amendments:") for e in errors)


LADDER = [
    {"round": 1, "trigger": "user_disputes", "required": ["rationale", "scope"]},
    {"round": 2, "trigger": "user_disputes_again", "required": ["rationale", "scope"]},
    {
        "round": 3,
        "trigger": "final_dispute",
        "required": ["rationale", "scope", "risk_acceptance_statement"],
    },
]


def test_override_ladder_when_present_must_be_exactly_3() -> None:
    assert _errors_for(lambda c: c.update(override_ladder=LADDER[:2]))
    assert _errors_for(lambda c: c.update(override_ladder=[*LADDER, LADDER[2]]))
    assert _errors_for(lambda c: c.update(override_ladder=[LADDER[1], LADDER[0], LADDER[2]]))
    assert _errors_for(lambda c: c.update(override_ladder=copy.deepcopy(LADDER))) == []


def test_override_ladder_optional_absence_passes() -> None:
    assert "override_ladder" not in full()
    assert validate(full()) == []


def test_priority_enum() -> None:
    errors = _errors_for(lambda c: c["acceptance_dimensions"][0].update(priority="critical"))
    assert errors == [
        "$.acceptance_dimensions[0].priority: 'critical' is not one of "
        "['mandatory', 'high', 'normal']"
    ]


def test_dimension_no_scoring_scale_field() -> None:
    errors = _errors_for(
        lambda c: c["acceptance_dimensions"][0].update(scoring_scale="block|warn|pass")
    )
    assert any("scoring_scale" in e for e in errors)


@pytest.mark.parametrize("bad", ["d1", "DX", "D0", "D01", "D100", "D1\n"])
def test_acceptance_dimension_id_pattern(bad: str) -> None:
    errors = _errors_for(lambda c: c["acceptance_dimensions"][0].update(id=bad))
    assert any(e.startswith("$.acceptance_dimensions[0].id:") for e in errors)


@pytest.mark.parametrize("bad", ["Fail1", "F00", "F01", "F100", "F1\n"])
def test_failure_condition_id_pattern(bad: str) -> None:
    errors = _errors_for(lambda c: c["failure_conditions"][0].update(condition_id=bad))
    assert any(e.startswith("$.failure_conditions[0].condition_id:") for e in errors)


def test_failure_condition_id_accepts_f0_and_f99() -> None:
    assert _errors_for(lambda c: c["failure_conditions"][0].update(condition_id="F99")) == []


def test_failure_condition_requires_severity() -> None:
    errors = _errors_for(lambda c: c["failure_conditions"][0].pop("severity"))
    assert errors == ["$.failure_conditions[0]: 'severity' is a required property"]


def test_reviewer_mode_failure_condition_requires_quantifier() -> None:
    errors = _errors_for(lambda c: c["failure_conditions"][0].pop("cross_reviewer_quantifier"))
    assert errors == ["$.failure_conditions[0]: 'cross_reviewer_quantifier' is a required property"]


def test_severity_range() -> None:
    for bad in (-1, 101):
        assert _errors_for(lambda c, b=bad: c["failure_conditions"][0].update(severity=b))
    for good in (0, 100):
        assert _errors_for(lambda c, g=good: c["failure_conditions"][0].update(severity=g)) == []


def test_cross_reviewer_quantifier_enum() -> None:
    errors = _errors_for(
        lambda c: c["failure_conditions"][0].update(cross_reviewer_quantifier="plurality")
    )
    assert len(errors) == 1 and "plurality" in errors[0]


def test_panel_size_required() -> None:
    assert _errors_for(lambda c: c.pop("panel_size")) == ["$: 'panel_size' is a required property"]


def test_panel_size_minimum_1() -> None:
    assert _errors_for(lambda c: c.update(panel_size=0))


def test_override_ladder_not_required() -> None:
    c = full()
    c.pop("override_ladder", None)
    assert validate(c) == []


def test_conditional_quantifier_required_for_reviewer_mode() -> None:
    c = full()
    assert c["mode"] == "reviewer_full"
    del c["failure_conditions"][2]["cross_reviewer_quantifier"]
    assert validate(c) == [
        "$.failure_conditions[2]: 'cross_reviewer_quantifier' is a required property"
    ]


def test_conditional_quantifier_not_required_for_non_reviewer_mode() -> None:
    patched = schema()
    patched["properties"]["mode"]["enum"].append("writer_full")
    c = full()
    c["mode"] = "writer_full"
    for cond in c["failure_conditions"]:
        del cond["cross_reviewer_quantifier"]
    assert validate(c, schema=patched) == []
    c["mode"] = "reviewer_full"
    assert len(validate(c, schema=patched)) == 4


def test_paraphrase_minimum_dimensions_integer_or_all() -> None:
    def with_min(value: object) -> list[str]:
        return _errors_for(
            lambda c: c["measurement_procedure"].update(paraphrase_minimum_dimensions=value)
        )

    assert with_min("all") == []
    assert with_min(3) == []
    assert with_min(0)
    assert with_min("most")
    assert with_min(3.0)
    assert with_min(True)


def test_structural_invariant_duplicate_dimension_id() -> None:
    c = full()
    c["acceptance_dimensions"][4]["id"] = "D1"
    assert validate(c) == []
    assert check_structural_invariants(c) == [
        "$.acceptance_dimensions[4].id: duplicate dimension id 'D1' "
        "(first at $.acceptance_dimensions[0].id)"
    ]
    assert _cli_exit(c) == 1


def test_structural_invariant_duplicate_dimension_name() -> None:
    c = full()
    c["acceptance_dimensions"][4]["name"] = "methodology_rigor"
    assert check_structural_invariants(c) == [
        "$.acceptance_dimensions[4].name: duplicate dimension name 'methodology_rigor' "
        "(first at $.acceptance_dimensions[0].name)"
    ]
    assert _cli_exit(c) == 1


def test_structural_invariant_duplicate_condition_id() -> None:
    c = full()
    c["failure_conditions"][3]["condition_id"] = "F1"
    assert check_structural_invariants(c) == [
        "$.failure_conditions[3].condition_id: duplicate condition_id 'F1' "
        "(first at $.failure_conditions[0].condition_id)"
    ]
    assert _cli_exit(c) == 1


# --- R10 validator facts ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("panel_size",), 5.0),
        (("panel_size",), True),
        (("failure_conditions", 0, "severity"), 90.0),
        (("generated_at",), "not-a-date"),
        (("generated_at",), "2026-11-22"),
        (("contract_id",), "reviewer/reviewer_full/v1\n"),
        (("baseline_version",), "v3.6.2\n"),
        (("acceptance_dimensions", 0, "name"), "methodology_rigor\n"),
    ],
)
def test_r10_validator_facts(path: tuple[Any, ...], value: object) -> None:
    c = full()
    target: Any = c
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    assert validate(c), f"{path} = {value!r} was accepted"


def test_generated_at_accepts_rfc3339() -> None:
    c = full()
    c["generated_at"] = "2026-11-22T10:00:00Z"
    assert validate(c) == []


# --- Group B: soft warnings ---------------------------------------------------------------------


def test_sc1_baseline_lag_warns() -> None:
    c = full()
    c["baseline_version"] = "v3.3.0"
    assert codes(warn_suspicious(c, "v3.6.2")) == ["SC-1"]
    assert warn_suspicious(c, "v3.6.2")[0].startswith("SC-1: contract baseline lags ARS by 3 minor")


def test_sc1_lag_of_two_minor_is_fine() -> None:
    c = full()
    c["baseline_version"] = "v3.4.9"
    assert warn_suspicious(c, "v3.6.2") == []


def test_sc1_no_ars_version_skips() -> None:
    c = full()
    c["baseline_version"] = "v3.3.0"
    assert warn_suspicious(c, None) == []


def test_sc2_single_dimension_warns() -> None:
    c = shipped_template(FOCUS)
    del c["acceptance_dimensions"][1]
    assert "SC-2" in codes(warn_suspicious(c, None))


def test_sc3_no_mandatory_warns() -> None:
    c = full()
    for d in c["acceptance_dimensions"]:
        if d["priority"] == "mandatory":
            d["priority"] = "high"
    assert "SC-3" in codes(warn_suspicious(c, None))


def test_sc4_orphan_dimension_reference_warns() -> None:
    c = full()
    c["failure_conditions"][0]["expression"] = "D9 scores 'block'"
    warnings = warn_suspicious(c, None)
    assert "SC-4: failure condition F1 references D9 which is not in acceptance_dimensions" in (
        warnings
    )


def test_sc5_measurement_procedure_missing_required_outputs_warns() -> None:
    c = full()
    c["measurement_procedure"]["reviewer_must_output_before_paper"] = [
        "contract_paraphrase",
        "summary",
    ]
    assert codes(warn_suspicious(c, None)) == ["SC-5"]


def test_sc6_placeholder() -> None:
    c = full()
    c["agent_amendments"] = {
        "stage_specific_notes": "panel_size",
        "additional_measurement_hints": [],
    }
    assert validate(c) == []
    assert "SC-6" not in codes(warn_suspicious(c, None))
    c["agent_amendments"] = {"panel_size": 1}
    assert validate(c)  # schema-invalid: the dead path is unreachable on a valid contract
    assert "SC-6" in codes(warn_suspicious(c, None))  # but still caught defensively


def test_sc7_conflicting_failure_condition_actions_warns() -> None:
    c = full()
    c["failure_conditions"][0]["severity"] = 80
    c["failure_conditions"][2]["severity"] = 80
    assert codes(warn_suspicious(c, None)) == ["SC-7"]
    assert "F1 and F3 share severity=80" in warn_suspicious(c, None)[0]


def test_sc7_same_action_same_severity_is_fine() -> None:
    c = full()
    c["failure_conditions"][1]["severity"] = 60  # F2 and F3 both major_revision
    assert warn_suspicious(c, None) == []


def test_sc9_impossible_paraphrase_minimum_warns() -> None:
    c = full()
    del c["acceptance_dimensions"][3:]
    c["failure_conditions"].pop(2)
    c["measurement_procedure"]["paraphrase_minimum_dimensions"] = 5
    assert codes(warn_suspicious(c, None)) == ["SC-9"]


def test_sc10_unreferenced_mandatory_dimension_warns() -> None:
    c = shipped_template(FOCUS)
    c["acceptance_dimensions"].append(
        {"id": "D4", "name": "ethics", "description": "Ethics.", "priority": "mandatory"}
    )
    assert warn_suspicious(c, None) == [
        "SC-10: mandatory dimension D4 has no failure_condition referencing it; its score "
        "cannot influence the editorial decision"
    ]


def test_sc10_counts_priority_scope_as_reference() -> None:
    # R7: D1-D3 are read through "mandatory", D4 through "high-priority": no SC-10.
    assert "SC-10" not in codes(warn_suspicious(full(), None))


def test_sc11_panel_size_1_warns() -> None:
    c = full()
    c["mode"] = "reviewer_guided"
    c["panel_size"] = 1
    assert codes(warn_suspicious(c, None)) == ["SC-11"]


def test_sc11_mode_panel_mismatch_warns() -> None:
    c = full()
    c["panel_size"] = 3
    assert warn_suspicious(c, None) == [
        "SC-11: panel_size=3 inconsistent with mode=reviewer_full; expected 5"
    ]
    c = shipped_template(FOCUS)
    c["panel_size"] = 5
    assert codes(warn_suspicious(c, None)) == ["SC-11"]


def test_sc13_no_accept_condition_warns() -> None:
    c = full()
    c["failure_conditions"][3]["action"] = "editorial_decision=minor_revision"
    assert codes(warn_suspicious(c, None)) == ["SC-13"]


# --- Group C: CLI ------------------------------------------------------------------------------


def _cli_exit(contract: dict[str, Any], tmp: Path | None = None) -> int:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "c.json"
        path.write_text(json.dumps(contract), encoding="utf-8")
        return check_main([str(path)])


def test_cli_missing_file_returns_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_main([str(tmp_path / "missing.json")]) == 1
    assert "missing.json:1:1: E-READ no such file" in capsys.readouterr().out


def test_cli_bad_json_returns_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"contract_id": ', encoding="utf-8")
    assert check_main([str(path)]) == 1
    assert "bad.json:1:17: E-JSON not JSON" in capsys.readouterr().out


def test_cli_valid_returns_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(full()), encoding="utf-8")
    assert check_main([str(path), "--ars-version", "v3.6.2"]) == 0
    assert capsys.readouterr() == ("All checks passed.\n", "")


def test_cli_duplicate_key_and_nan_return_1(tmp_path: Path) -> None:
    text = json.dumps(full())
    dup = tmp_path / "dup.json"
    dup.write_text(text.replace('"panel_size": 5', '"panel_size": 5, "panel_size": 1'), "utf-8")
    assert check_main([str(dup)]) == 1
    nan = tmp_path / "nan.json"
    nan.write_text(text.replace('"panel_size": 5', '"panel_size": NaN'), "utf-8")
    assert check_main([str(nan)]) == 1


def test_cli_unrecognised_expression_returns_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    c = full()
    c["failure_conditions"][0]["expression"] = (
        "any reviewer scores any mandatory dimension as 'block'"
    )
    assert _cli_exit(c) == 1


def test_cli_json_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = full()
    c["panel_size"] = 3
    path = tmp_path / "c.json"
    path.write_text(json.dumps(c), encoding="utf-8")
    assert check_main([str(path), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] is True
    assert [d["code"] for d in out["diagnostics"]] == ["SC-11"]
    assert out["files"] == [
        {"file": str(path), "ok": True, "errors": 0, "warnings": 1, "dialect": "13"}
    ]


def test_cli_bad_ars_version_is_usage_error() -> None:
    with pytest.raises(SystemExit) as info:
        check_main(["reviewer/full", "--ars-version", "3.6"])
    assert info.value.code == 2


def test_template_digests_pin_the_validated_files() -> None:
    # load_contract skips the schema check for a byte-identical shipped template; this test
    # is what makes that safe: the pinned bytes are the ones validated above.
    from kernel.contract.dialects import DIALECTS, detect
    from kernel.contract.templates import (
        TEMPLATE_NAMES,
        TEMPLATE_SHA256,
        schema_document,
        template_is_pristine,
    )

    assert set(TEMPLATE_SHA256) == set(TEMPLATE_NAMES)
    for name in TEMPLATE_NAMES:
        assert template_is_pristine(name), f"update TEMPLATE_SHA256 for {name}"
        template = shipped_template(name)
        # A 13.2 template lives under 13.2/ and is read as 13.2; the others as Schema 13.
        dialect = DIALECTS["13.2" if name.startswith("13.2/") else "13"]
        assert detect(template) == dialect.name
        assert validate(template, schema=schema_document(dialect.schema_file)) == []


@pytest.mark.parametrize(
    ("change", "where", "code"),
    [
        (lambda c: c.__setitem__("panel_size", 0), '"panel_size": 0', "E-SCHEMA $.panel_size:"),
        (
            lambda c: c["failure_conditions"][1].__setitem__("expression", "no such form"),
            '"expression": "no such form"',
            "SC-12 $.failure_conditions[1].expression:",
        ),
        (lambda c: c.pop("mode"), "{", "E-SCHEMA $: 'mode' is a required property"),
    ],
)
def test_cli_places_contract_errors_at_their_line_and_column(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    change: Any,
    where: str,
    code: str,
) -> None:
    contract = full()
    change(contract)
    text = json.dumps(contract, indent=2)
    path = tmp_path / "c.json"
    path.write_text(text, encoding="utf-8")
    assert check_main([str(path)]) == 1
    before = text[: text.index(where)]
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1 + where.index(where.split(": ")[-1])
    if where == "{":
        line, column = 1, 1
    assert f"c.json:{line}:{column}: {code}" in capsys.readouterr().out
