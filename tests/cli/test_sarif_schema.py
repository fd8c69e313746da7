"""The SARIF log of every subcommand is valid against the SARIF 2.1.0 schema (vendored
under tests/data/sarif/, with its source and licence)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from support import paths

from kernel.cli.main import main

E = paths.EXAMPLES
FULL = E / "full"
SCHEMA = json.loads(
    (paths.ROOT / "tests" / "data" / "sarif" / "sarif-schema-2.1.0.json").read_text("utf-8")
)
VALIDATOR = jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker())

#: Every subcommand that reports findings, with inputs that make most of them report some.
RUNS: list[list[str]] = [
    ["check", "reviewer/full", str(E / "contract_panel3.json"), str(E / "contract_typo.json")],
    ["check", str(E)],
    ["lint", str(FULL), "--contract", "reviewer/full"],
    ["lint", str(FULL / "eic.phase2.md"), "--contract", "reviewer/full"],
    ["decide", "--contract", "reviewer/full", "--matrix", str(E / "full_major_revision.json")],
    ["decide", "--contract", "reviewer/full", "--matrix", str(E / "full_shrunk.json")],
    ["decide", str(FULL), "--contract", "reviewer/full"],
    ["analyze", "reviewer/methodology_focus"],
    ["arena", "verdict", str(E / "arena" / "review.md")],
    ["arena", "conformance", str(E / "arena" / "run.jsonl")],
    ["consensus", "parse", str(E / "consensus" / "critique.txt"), "--kind", "critique"],
    ["consensus", "round", str(E / "consensus" / "round.json")],
    ["panel", "resolve", str(E / "panel" / "votes.json")],
    ["panel", "scan", str(E / "panel" / "agent.md")],
    ["panel", "route", str(E / "panel" / "findings.json")],
    ["panel", "delta", str(E / "panel" / "changed.txt"), str(E / "panel" / "findings.json")],
    ["panel", "audit", str(E / "panel" / "session.jsonl")],
    ["panel", "audit", str(E / "panel" / "session_illegal.jsonl")],
    ["lint", str(E / "missing.phase1.md"), "--contract", "reviewer/full"],
]


def _sarif(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    main([*argv, "--format", "sarif"])
    out = capsys.readouterr().out
    log: dict[str, Any] = json.loads(out)
    return log


@pytest.mark.parametrize("argv", RUNS, ids=[" ".join(a[:2]) for a in RUNS])
def test_every_sarif_log_is_valid(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    log = _sarif(argv, capsys)
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(log)
    ]
    assert errors == []
    for result in log["runs"][0]["results"]:
        # every finding has a region, a document-level one (a missing file too) at 1:1
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1


def test_the_schema_rejects_what_it_should(capsys: pytest.CaptureFixture[str]) -> None:
    log = _sarif(RUNS[0], capsys)
    log["runs"][0]["results"][0]["level"] = "fatal"
    del log["runs"][0]["tool"]["driver"]["name"]
    assert len(list(VALIDATOR.iter_errors(log))) == 2


def test_the_vendored_schema_is_the_oasis_one() -> None:
    assert SCHEMA["id"] == (
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    )
    assert Path(paths.ROOT / "tests" / "data" / "sarif" / "README.md").is_file()
