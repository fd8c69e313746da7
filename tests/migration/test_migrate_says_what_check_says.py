"""A migration says what check says of the contract it writes (the single-judge mandatory
gates its seating makes, SC-15), and its 13.2 traces quote the migrated contract's own words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_migrate_cli import _run

from kernel import decide, load_contract, shipped_template
from kernel.contract.warnings import suspicious
from kernel.migration import migrate
from kernel.migration.html import html_migration
from kernel.migration.report import format_migration
from kernel.testing import contracts


def test_the_library_reports_the_single_judge_gates_it_makes() -> None:
    m = migrate("reviewer/methodology_focus")
    assert [(d.code, d.json_path) for d in m.checks()] == [
        ("SC-15", "$.acceptance_dimensions[0].eligible_roles")
    ]
    assert [d.code for d in m.checks()] == [d.code for d in suspicious(m.document())]
    text = format_migration(m, "m")
    assert (
        "what check says of the migrated contract (1):\n"
        "  SC-15 info $.acceptance_dimensions[0].eligible_roles: mandatory dimension D1 has "
        "one eligible role (single-judge mandatory gate)\n"
    ) in text
    assert m.to_dict()["checks"] == [
        {
            "code": "SC-15",
            "severity": "info",
            "message": "mandatory dimension D1 has one eligible role (single-judge mandatory gate)",
            "file": None,
            "line": None,
            "column": None,
            "end_line": None,
            "end_column": None,
            "json_path": "$.acceptance_dimensions[0].eligible_roles",
        }
    ]
    page = html_migration(m, "m")
    assert "What check says of the migrated contract (1)" in page
    assert "<code>$.acceptance_dimensions[0].eligible_roles</code>" in page
    assert "what check says" not in format_migration(migrate("reviewer/full"), "f")


def test_the_command_places_them_in_the_written_contract_as_check_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    new = tmp_path / "new.json"
    code, out, _ = _run(["reviewer/methodology_focus", "-o", str(new)], capsys)
    assert code == 0
    sc15 = [line for line in out.splitlines() if " SC-15 " in line]
    assert sc15 == [
        f"{new}:13:25: SC-15 info: mandatory dimension D1 has one eligible role "
        "(single-judge mandatory gate)"
    ]
    code, out, _ = _run(["reviewer/methodology_focus"], capsys)
    assert (
        "reviewer/methodology_focus:1:1: SC-15 info: $.acceptance_dimensions[0].eligible_roles: "
        "mandatory dimension D1 has one eligible role (single-judge mandatory gate) "
        "(in the migrated contract)"
    ) in out
    code, out, _ = _run(["reviewer/methodology_focus", "--format", "json"], capsys)
    body: dict[str, Any] = json.loads(out)
    assert [d["code"] for d in body["diagnostics"]].count("SC-15") == 1
    assert [d["code"] for d in body["checks"]] == ["SC-15"]


def _spelled(data: dict[str, Any]) -> dict[str, Any]:
    """The contract with each priority atom in the ``with priority=`` spelling."""
    out: dict[str, Any] = json.loads(json.dumps(data))
    for c in out["failure_conditions"]:
        for p in ("mandatory", "high", "normal"):
            c["expression"] = (
                c["expression"]
                .replace(f"any {p} dimension ", f"any dimension with priority={p} ")
                .replace(f"any {p}-priority dimension ", f"any dimension with priority={p} ")
            )
    return out


def test_a_migrated_trace_quotes_the_contract_as_written() -> None:
    old = shipped_template("reviewer/full")
    f3 = next(c for c in old["failure_conditions"] if c["condition_id"] == "F3")
    f3["expression"] = "any dimension with priority=high scores 'block'"
    m = migrate(old)
    written = {c.condition_id: c.text for c in m.contract.conditions}
    assert written["F3"] == "any dimension with priority=high scores 'block'"
    text = format_migration(m, "old")
    assert "any high-priority dimension" not in text
    assert "F3 does not fire: \"any dimension with priority=high scores 'block'\" fails" in text


@given(contracts(dialect="13.2", max_dimensions=3, max_conditions=4), st.booleans())
def test_every_13_2_trace_quotes_words_its_contract_contains(
    data: dict[str, Any], respell: bool
) -> None:
    contract = load_contract(_spelled(data) if respell else data)
    matrix = {d.id: dict.fromkeys(d.eligible_roles, "warn") for d in contract.dimensions}
    trace = decide(contract, matrix).trace
    assert trace is not None
    texts = [c.text for c in contract.conditions]
    for atoms in trace.values():
        for a in atoms:
            assert any(a.atom in t for t in texts), (a.atom, texts)
