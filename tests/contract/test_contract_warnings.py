"""SC warnings as registered rules (R15/SC-14), R14, and the validator's no-escape promises."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.cli.check import main as check_main
from kernel.contract.baseline import inject
from kernel.contract.dialects import validate
from kernel.contract.model import load_contract
from kernel.contract.templates import shipped_template
from kernel.contract.warnings import check_contract, suspicious, warn_suspicious
from kernel.errors import ContractError, ContractInputError, KernelError
from kernel.io import json_positions

FOUR = ["dimension_id", "what_to_look_for", "what_triggers_block", "what_triggers_warn"]


def full() -> dict[str, Any]:
    return shipped_template("reviewer/full")


# --- R14 ---------------------------------------------------------------------------------


@given(st.lists(st.sampled_from([*FOUR, "what_trigger_block", "evidence"]), max_size=6))
@example(["dimension_id", "what_to_look_for", "what_triggers_block"])
@example([*FOUR, "evidence"])
@example(["dimension_id", "what_to_look_for", "what_trigger_block", "what_triggers_warn"])
@example([*FOUR[:3], FOUR[0]])
@example(list(reversed(FOUR)))
def test_r14_required_is_exactly_the_four(required: list[str]) -> None:
    c = full()
    c["measurement_procedure"]["scoring_plan_schema"]["required"] = required
    ok = sorted(required) == sorted(FOUR)
    errors = validate(c)
    assert (errors == []) is ok
    codes = {d.code for d in check_contract(c)}
    assert ("E-SCHEMA" in codes) is not ok


# --- SC-14 (R15) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expression", "holds"),
    [
        ("any high dimension scores 'block'", "false"),
        ("two or more high-priority dimensions score 'warn' or worse", "false"),
        ("every dimension with priority=high scores 'pass'", "true"),
    ],
)
def test_sc14_priority_scope_without_dimension(expression: str, holds: str) -> None:
    c = full()
    for d in c["acceptance_dimensions"]:
        if d["priority"] == "high":
            d["priority"] = "normal"
    c["failure_conditions"][1]["expression"] = expression
    found = [d for d in suspicious(c) if d.code == "SC-14" and "condition F2:" in d.message]
    assert len(found) == 1
    assert "priority high" in found[0].message
    assert f"is {holds} for every reviewer" in found[0].message
    assert any(w.startswith("SC-14: failure condition F2") for w in warn_suspicious(c))
    load_contract(c)  # still compiles (R4 semantics stand)


def test_sc14_is_silent_when_the_priority_exists() -> None:
    assert [d for d in suspicious(full()) if d.code == "SC-14"] == []


def test_check_cli_prints_sc14(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = full()
    for d in c["acceptance_dimensions"]:
        if d["priority"] == "high":
            d["priority"] = "normal"
    path = tmp_path / "c.json"
    path.write_text(json.dumps(c), "utf-8")
    assert check_main([str(path)]) == 0
    out, err = capsys.readouterr()
    # placed at the expression that names the priority
    f3 = next(i for i, f in enumerate(c["failure_conditions"]) if f["condition_id"] == "F3")
    line, column = json_positions(path.read_text("utf-8"))[f"$.failure_conditions[{f3}].expression"]
    assert f"{path}:{line}:{column}: SC-14 failure condition F3" in out and err == ""
    assert out.endswith("Found 0 errors and 1 warning in 1 file.\n")


# --- huge integers in versions -----------------------------------------------------------

HUGE = "v" + "9" * 5000 + ".0.0"


def test_huge_ars_version_is_a_kernel_error() -> None:
    with pytest.raises(KernelError, match="digits"):
        warn_suspicious(full(), HUGE)


def test_huge_baseline_version_skips_sc1() -> None:
    c = full()
    c["baseline_version"] = HUGE
    assert validate(c) == []
    assert warn_suspicious(c, "v3.6.2") == []


@pytest.mark.parametrize("version", [HUGE, "v3.6", "v\u0663.6.2", "3.6.2", "v3.6.2\n"])
def test_bad_ars_version_is_usage_error(version: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        check_main(["reviewer/full", "--ars-version", version])
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


# --- warn_suspicious reads what it can -----------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)


def _mutated(data: st.DataObject) -> dict[str, Any]:
    c = full()
    section = data.draw(st.sampled_from(["acceptance_dimensions", "failure_conditions"]))
    item = data.draw(st.integers(0, len(c[section]) - 1))
    key = data.draw(st.sampled_from(sorted(c[section][item])))
    c[section][item][key] = data.draw(json_values)
    return c


@given(st.data())
def test_warn_suspicious_never_escapes(data: st.DataObject) -> None:
    c = _mutated(data)
    try:
        warnings = warn_suspicious(c, "v3.6.2")
        found = check_contract(c, "v3.6.2")
    except KernelError:
        return
    assert all(isinstance(w, str) and w.startswith("SC-") for w in warnings)
    assert all(d.code.startswith(("E-", "SC-")) for d in found)


@given(st.data())
def test_every_warning_names_a_value_of_the_contract(data: st.DataObject) -> None:
    c = _mutated(data)
    try:
        found = suspicious(c, "v9.9.9")
        positions = json_positions(json.dumps(c))
    except (KernelError, ValueError):
        return
    for d in found:
        assert d.json_path is not None, d
        parent = d.json_path[: max(d.json_path.rfind("."), d.json_path.rfind("["))]
        # the value itself, or (a member that is missing) the object that lacks it
        assert d.json_path in positions or parent in positions, (d.code, d.json_path)


@pytest.mark.parametrize("bad", [[1], {"x": 1}, None, 3.5, ["D1"]])
def test_non_string_dimension_id_warns_instead_of_raising(bad: object) -> None:
    c = full()
    c["acceptance_dimensions"][0]["id"] = bad
    warnings = warn_suspicious(c)
    assert all(w.startswith("SC-") for w in warnings)
    assert validate(c) != []


# --- inject, max_bytes ---------------------------------------------------------------------


@pytest.mark.parametrize("amendments", [[1], "x", 5, [("a", 1)]])
def test_inject_rejects_non_mapping_amendments(amendments: object) -> None:
    with pytest.raises(ContractError, match="amendments must be a mapping"):
        inject(full(), generated_at="2026-04-23T10:00:00Z", amendments=amendments)  # type: ignore[arg-type]


def test_load_contract_max_bytes_lowers_and_raises(tmp_path: Path) -> None:
    text = json.dumps(full())
    small = tmp_path / "small.json"
    small.write_text(text, "utf-8")
    with pytest.raises(ContractInputError) as info:
        load_contract(small, max_bytes=100)
    assert info.value.code == "E-SIZE"
    big = tmp_path / "big.json"
    big.write_text(text[:-1] + " " * (1 << 20) + "}", "utf-8")
    with pytest.raises(ContractInputError):
        load_contract(big)
    assert load_contract(big, max_bytes=2 << 20).contract_id == "reviewer/reviewer_full/v1"
    for bad in (0, -1, 10**30, True, 2.5):
        with pytest.raises(KernelError, match="max_bytes"):
            load_contract(small, max_bytes=bad)  # type: ignore[arg-type]


def test_a_long_value_in_a_warning_is_cut_to_80_characters() -> None:
    from kernel.contract.warnings import _shown

    assert _shown("x" * 80) == "x" * 80
    assert _shown("x" * 81) == "x" * 77 + "..."
    assert len(_shown(list(range(100)))) == 80
