"""Text that cannot be encoded as UTF-8 is bad input: validate names its JSON path, and the
contract functions raise ContractError instead of UnicodeEncodeError (issue 12)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kernel.contract.baseline import baseline_digest, inject
from kernel.contract.dialects import validate
from kernel.contract.encoding import unencodable
from kernel.contract.model import load_contract
from kernel.contract.templates import shipped_template
from kernel.errors import ContractError, InputError
from kernel.io import require_utf8

WHEN = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
BAD_TEXT = st.tuples(st.text(max_size=8), SURROGATES, st.text(max_size=8)).map("".join)

#: (JSON path, setter) for places a string can sit in a contract.
PLACES: list[tuple[str, Any]] = [
    ("$.contract_id", lambda d, v: d.__setitem__("contract_id", v)),
    (
        "$.acceptance_dimensions[0].description",
        lambda d, v: d["acceptance_dimensions"][0].__setitem__("description", v),
    ),
    (
        "$.acceptance_dimensions[1].name",
        lambda d, v: d["acceptance_dimensions"][1].__setitem__("name", v),
    ),
    (
        "$.failure_conditions[2].expression",
        lambda d, v: d["failure_conditions"][2].__setitem__("expression", v),
    ),
    ("$.generated_at", lambda d, v: d.__setitem__("generated_at", v)),
]


def _with(path_index: int, value: str) -> dict[str, Any]:
    data = shipped_template("reviewer/full")
    PLACES[path_index][1](data, value)
    return data


@settings(max_examples=40)
@given(st.integers(0, len(PLACES) - 1), BAD_TEXT)
@example(1, "\ud800")
@example(0, "x\udfff")
def test_every_contract_function_refuses_it(place: int, text: str) -> None:
    data = _with(place, text)
    path = PLACES[place][0]
    errors = validate(data)
    assert any(e.startswith(f"{path}: not encodable as UTF-8") for e in errors), errors
    with pytest.raises(ContractError):
        load_contract(data)
    if path != "$.generated_at":  # a runtime field: inject replaces it, the digest skips it
        with pytest.raises(ContractError):
            inject(data, generated_at=WHEN)
        with pytest.raises(ContractError, match="not UTF-8"):
            baseline_digest(data)
    else:
        with pytest.raises(ContractError):
            inject(shipped_template("reviewer/full"), generated_at=text)


def test_keys_and_nested_values_are_named() -> None:
    data = shipped_template("reviewer/full")
    data["agent_amendments"] = {"notes\ud800": ["ok", {"deep": "\udc00"}]}
    errors = unencodable(data)
    assert errors == [
        "$.agent_amendments['notes\\ud800'] (the key): not encodable as UTF-8: unpaired "
        "surrogate U+D800 at character 5 (line 1)",
        "$.agent_amendments['notes\\ud800'][1].deep: not encodable as UTF-8: unpaired "
        "surrogate U+DC00 at character 0 (line 1)",
    ]
    assert all(e.encode() for e in errors)
    with pytest.raises(ContractError):
        inject(
            shipped_template("reviewer/full"),
            generated_at=WHEN,
            amendments={"stage_specific_notes": "\ud800"},
        )


def test_deep_values_do_not_overflow() -> None:
    value: Any = "\ud800"
    for _ in range(10_000):
        value = [value]
    assert len(unencodable(value)) == 1


def test_a_contract_file_with_an_escaped_surrogate(tmp_path: Path) -> None:
    data = shipped_template("reviewer/full")
    data["acceptance_dimensions"][0]["description"] = "\ud800"
    path = tmp_path / "c.json"
    path.write_text(json.dumps(data), encoding="ascii")  # "\\ud800": valid JSON, bad text
    with pytest.raises(ContractError, match=r"\$\.acceptance_dimensions\[0\]\.description"):
        load_contract(path)


@given(st.text())
def test_encodable_text_passes(text: str) -> None:
    assert require_utf8(text, "x") is text
    assert unencodable({"k": [text]}) == []


def test_require_utf8_names_the_place() -> None:
    with pytest.raises(InputError, match=r"^paper: not encodable as UTF-8: unpaired surrogate "):
        require_utf8("ok\n\ud83d", "paper")


def test_inject_amendments_must_be_a_mapping() -> None:
    template = shipped_template("reviewer/full")
    for amendments in ([1], "notes", 3, [("a", 1)]):
        with pytest.raises(ContractError, match="amendments must be a mapping"):
            inject(template, generated_at=WHEN, amendments=amendments)  # type: ignore[arg-type]
    notes = {"stage_specific_notes": "fine"}
    assert inject(template, generated_at=WHEN, amendments=notes)["agent_amendments"] == notes


@settings(max_examples=30)
@given(
    st.sampled_from(("panel_size", "severity", "round")),
    st.one_of(st.integers(min_value=2**53), st.integers(max_value=-(2**53))),
)
@example("panel_size", 10**5000)
@example("severity", -(10**4301))
@example("round", 2**53)
def test_integers_no_json_reader_holds_are_refused(field: str, value: int) -> None:
    data = shipped_template("reviewer/full")
    if field == "panel_size":
        data["panel_size"] = value
        path = "$.panel_size"
    elif field == "severity":
        data["failure_conditions"][1]["severity"] = value
        path = "$.failure_conditions[1].severity"
    else:
        data["override_ladder"] = [
            {"round": r, "trigger": "t", "required": ["x"]} for r in (value, 2, 3)
        ]
        path = "$.override_ladder[0].round"
    errors = validate(data)
    assert len(errors) == 1 and errors[0].startswith(f"{path}: a "), errors
    assert "beyond ±(2**53 - 1)" in errors[0]
    with pytest.raises(ContractError):
        load_contract(data)
    with pytest.raises(ContractError):
        inject(data, generated_at=WHEN)


def test_the_largest_json_integer_is_an_ordinary_panel_size() -> None:
    data = shipped_template("reviewer/methodology_focus")
    data["panel_size"] = 2**53 - 1
    assert validate(data) == []


def test_at_most_ten_problems_are_reported() -> None:
    errors = unencodable(["\ud800"] * 15)
    assert [e.split(":", 1)[0] for e in errors] == [f"$[{i}]" for i in range(10)]
    assert len(unencodable(["\ud800"] * 10)) == 10
    assert len(unencodable([2**60] * 11)) == 10
