"""Output formats every reporting command shares: text, json, sarif, github."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import attrs
import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support import paths

import kernel
from kernel.cli.main import main
from kernel.cli.output import styled
from kernel.cli.scaffold import Result, emit, github_lines, sarif_log
from kernel.diagnostics import REGISTRY, Diagnostic, sort_key
from kernel.schema import schema_errors, strict_validator

E = paths.EXAMPLES
FULL = E / "full"

#: One invocation per reporting (sub)command, run from the repository root.
INVOCATIONS: list[list[str]] = [
    ["check", "reviewer/full", "reviewer/methodology_focus"],
    [
        "lint",
        str(FULL / "eic.phase1.md"),
        str(FULL / "eic.phase2.md"),
        "--contract",
        "reviewer/full",
    ],
    ["decide", "--contract", "reviewer/full", "--matrix", str(E / "full_major_revision.json")],
    ["decide", "--contract", "reviewer/full", "--matrix", str(E / "full_shrunk.json")],
    ["analyze", "reviewer/methodology_focus"],
    ["arena", "verdict", str(E / "arena" / "review.md")],
    ["arena", "conformance", str(E / "arena" / "run.jsonl")],
    ["consensus", "parse", str(E / "consensus" / "critique.txt"), "--kind", "critique"],
    ["consensus", "round", str(E / "consensus" / "round.json")],
    ["panel", "resolve", str(E / "panel" / "votes.json")],
    ["panel", "scan", str(E / "panel" / "agent.md")],
]
IDS = [" ".join(a[:2]) for a in INVOCATIONS]

ENVELOPE = strict_validator(
    {
        "type": "object",
        "required": ["version", "ok", "diagnostics"],
        "properties": {
            "version": {"const": kernel.__version__},
            "ok": {"type": "boolean"},
            "diagnostics": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["code", "severity", "message", "file", "line", "column"],
                    "properties": {
                        "code": {"enum": sorted(REGISTRY)},
                        "severity": {"enum": ["error", "warning", "info"]},
                        "message": {"type": "string"},
                        "file": {"type": ["string", "null"]},
                        "line": {"type": ["integer", "null"], "minimum": 1},
                        "column": {"type": ["integer", "null"], "minimum": 1},
                    },
                },
            },
        },
    }
)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", INVOCATIONS, ids=IDS)
def test_json_envelope(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, [*argv, "--format", "json"])
    body = json.loads(out)
    assert [str(e) for e in schema_errors(ENVELOPE, body)] == []
    assert body["ok"] is (code == 0) or argv[:2] == ["consensus", "round"]
    keys = [(d["file"] or "", d["line"] or 0, d["column"] or 0) for d in body["diagnostics"]]
    assert keys == sorted(keys)


@pytest.mark.parametrize("argv", INVOCATIONS, ids=IDS)
def test_sarif_log(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, [*argv, "--format", "sarif"])
    _, text_out, _ = _run(capsys, [*argv, "--format", "json"])
    expected = json.loads(text_out)["diagnostics"]
    log = json.loads(out)
    assert log["version"] == "2.1.0" and "sarif" in log["$schema"]
    [run] = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "sprint-kernel" and driver["version"] == kernel.__version__
    rule_ids = [r["id"] for r in driver["rules"]]
    assert rule_ids == sorted({d["code"] for d in expected})
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] == REGISTRY[rule["id"]].summary
    assert len(run["results"]) == len(expected)
    levels = {"error": "error", "warning": "warning", "info": "note"}
    for result, d in zip(run["results"], expected, strict=True):
        assert result["ruleId"] == d["code"] == rule_ids[result["ruleIndex"]]
        assert result["level"] == levels[d["severity"]]
        assert result["message"]["text"] == d["message"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"]
        assert location["region"]["startLine"] == d["line"]
        assert location["region"]["startColumn"] == d["column"]


@pytest.mark.parametrize("argv", INVOCATIONS, ids=IDS)
def test_text_and_github_agree_with_json(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code_json, out, _ = _run(capsys, [*argv, "--format", "json"])
    diagnostics = json.loads(out)["diagnostics"]
    code_gh, gh, _ = _run(capsys, [*argv, "--format", "github"])
    assert code_gh == code_json
    assert len(gh.splitlines()) == len(diagnostics)
    for line, d in zip(gh.splitlines(), diagnostics, strict=True):
        kind = {"error": "error", "warning": "warning", "info": "notice"}[d["severity"]]
        assert line.startswith(f"::{kind} file=")
        assert f"title={d['code']}::" in line
    code_text, out, err = _run(capsys, argv)
    assert code_text == code_json
    if argv[0] != "analyze":  # analyze's text is its report, which names each finding
        shown = [ln for ln in (out + err).splitlines() if re.search(r": [A-Z][A-Z0-9_-]+ ", ln)]
        assert len(shown) >= len(diagnostics)


def _unescape_data(text: str) -> str:
    return text.replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")


def _unescape_property(text: str) -> str:
    return _unescape_data(text.replace("%3A", ":").replace("%2C", ","))


@given(
    message=st.text(max_size=40),
    file=st.text(min_size=1, max_size=20),
    line=st.none() | st.integers(1, 999),
)
@example(message="100% done\r\nnext: a, b", file="a,b:c%d.md", line=3)
@example(message="%0A", file="%2C", line=None)
def test_github_escaping_round_trips(message: str, file: str, line: int | None) -> None:
    d = Diagnostic("P1-007", message, file=file, line=line, column=2 if line else None)
    [out] = github_lines([d])
    assert "\n" not in out and "\r" not in out
    head, _, body = out.partition("::")[2].partition("::")
    assert _unescape_data(body) == message
    command, _, props = head.partition(" ")
    assert command == "error"
    fields = dict(p.split("=", 1) for p in props.split(","))
    assert _unescape_property(fields["file"]) == file
    assert fields["title"] == "P1-007"
    assert fields.get("line") == (str(line) if line else None)


diagnostics = st.builds(
    lambda code, file, line, column: Diagnostic(
        code, "m", file=file, line=line, column=column if line else None
    ),
    st.sampled_from(sorted(REGISTRY)),
    st.sampled_from(["a.md", "b.md", "c.json"]),
    st.none() | st.integers(1, 30),
    st.none() | st.integers(1, 9),
)


@given(st.lists(diagnostics, max_size=12))
def test_text_is_sorted_by_file_line_column(found: list[Diagnostic]) -> None:
    out, err = io.StringIO(), io.StringIO()
    emit("text", Result(1, found), out, err)
    placed = [attrs.evolve(d, line=d.line or 1, column=d.column or 1) for d in found]
    *lines, summary = out.getvalue().splitlines()
    assert lines == [styled(d, False) for d in sorted(placed, key=sort_key)]
    assert all(
        (f"{d.code} info: " in line) == (d.severity == "info")
        for line, d in zip(lines, sorted(placed, key=sort_key), strict=True)
    )
    judged = any(d.severity != "info" for d in found)
    assert summary.startswith("Found " if judged else "No errors or warnings, but the run failed")
    assert err.getvalue() == ""
    log: dict[str, Any] = sarif_log(sorted(found, key=sort_key))
    assert len(log["runs"][0]["results"]) == len(found)


def test_text_format_names_file_line_column(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(E / "panel" / "agent.md")
    _, out, _ = _run(capsys, ["panel", "scan", path])
    assert out.splitlines()[0] == (
        f'{path}:2:8: INJECTION-INSTRUCTION-OVERRIDE "ig\\u200bnore previous instructions"'
    )
