"""``decide --format json`` has the same top-level keys in both dialects, decided or aborted,
and each line of a JSON Lines batch is a self-contained object its schema describes whole
(issue 38)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import paths
from support.output_schemas import check_output

from kernel._version import __version__
from kernel.cli import main as cli_main

E = paths.EXAMPLES
ROUNDS = {
    "13 documents": ["decide", "--contract", "reviewer/full", str(E / "full")],
    "13.2 reports": [
        "decide", "--contract", str(E / "full-13.2" / "contract.json"), str(E / "full-13.2")
    ],
    "13 matrix": ["decide", "--contract", "reviewer/full", "--matrix", "MATRIX"],
    "13 aborted": ["decide", "--contract", str(E / "full_shrunk.json"), str(E / "full")],
}  # fmt: skip


def _keys(argv: list[str], capsys: pytest.CaptureFixture[str]) -> set[str]:
    cli_main.main([*argv, "--format", "json"])
    return set(json.loads(capsys.readouterr().out))


def test_the_two_dialects_and_every_input_give_the_same_top_level_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    matrix = tmp_path / "m.json"
    matrix.write_text(json.dumps({f"D{i}": ["pass"] * 5 for i in range(1, 6)}), "utf-8")
    found = {
        name: _keys([str(matrix) if a == "MATRIX" else a for a in argv], capsys)
        for name, argv in ROUNDS.items()
    }
    decided = found["13 documents"]
    assert {"reviewers", "seats", "matrix", "trace", "verdicts"} <= decided
    assert found["13.2 reports"] == decided
    assert found["13 matrix"] == decided
    assert found["13 aborted"] == decided | {"error"}


def test_each_json_lines_decision_carries_the_envelope_its_schema_requires(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    matrices = E / "full_matrices.jsonl"
    assert cli_main.main(["decide", "--contract", "reviewer/full", "--matrix", str(matrices)]) == 0
    lines = capsys.readouterr().out.splitlines()
    schema = json.loads(
        (paths.ROOT / "kernel" / "data" / "output" / "decide-line.schema.json").read_text("utf-8")
    )
    assert {"version", "ok", "diagnostics"} <= set(schema["required"])
    assert schema["additionalProperties"] is False
    for line in lines:
        body = json.loads(line)
        check_output("decide-line", line)
        assert (body["version"], body["ok"], body["diagnostics"]) == (__version__, True, [])
        assert set(body) == set(schema["properties"])
