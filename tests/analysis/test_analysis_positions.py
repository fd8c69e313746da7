"""``analyze --format json``: every counterexample (AN-1's matrices among them) is placed
where its diagnostic is, at the condition it names in the contract file (issue 38)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernel.cli import main as cli_main
from kernel.contract.templates import shipped_template


@pytest.mark.parametrize("template", ["reviewer/full", "13.2/reviewer/full"])
def test_an_1_counterexample_has_the_line_and_column_of_its_condition(
    template: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "contract.json"
    text = json.dumps(shipped_template(template), indent=2)
    path.write_text(text, "utf-8")
    cli_main.main(["analyze", str(path), "--format", "json"])
    body = json.loads(capsys.readouterr().out)
    (found,) = [c for c in body["counterexamples"] if c["code"] == "AN-1"]
    assert found["matrices"]  # the simplest matrix that fires nothing
    lines = text.splitlines()
    line = next(i for i, s in enumerate(lines, 1) if '"condition_id": "F0"' in s)
    assert (found["line"], found["column"]) == (line, lines[line - 1].index('"F0"') + 1)
    (diagnostic,) = [d for d in body["diagnostics"] if d["code"] == "AN-1"]
    assert (diagnostic["line"], diagnostic["column"]) == (found["line"], found["column"])


def test_a_template_name_places_its_counterexamples_at_the_document(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli_main.main(["analyze", "reviewer/full", "--format", "json"])
    body = json.loads(capsys.readouterr().out)
    assert [(c["code"], c["line"], c["column"]) for c in body["counterexamples"]] == [
        ("AN-1", 1, 1)
    ]
