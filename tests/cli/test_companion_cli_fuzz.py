"""The panel, consensus and arena CLIs on arbitrary JSON input files: exit 0, 1 or 2 only,
never a traceback (each CLI called in-process through ``kernel.cli.scaffold.run``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.fuzz import JSON, Main, call_cli, mutated
from support.fuzz import deep as _deep
from support.fuzz import dump as _text
from support.paths import EXAMPLES

from kernel.cli.arena import main as arena
from kernel.cli.consensus import main as consensus
from kernel.cli.panel import main as panel
from kernel.errors import KernelError
from kernel.io import loads_strict

VOTES = json.loads((EXAMPLES / "panel" / "votes.json").read_text(encoding="utf-8"))
ROUND = json.loads((EXAMPLES / "consensus" / "round.json").read_text(encoding="utf-8"))
TRAIL = [
    json.loads(line)
    for line in (EXAMPLES / "arena" / "run.jsonl").read_text(encoding="utf-8").splitlines()
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-fuzz")


def _call(main: Main, argv: list[str], content: str, workdir: Path) -> int:
    return call_cli(main, [*argv], {"FILE": content}, workdir)


FORMATS = st.sampled_from([[], ["--format", "json"]])


@given(st.one_of(mutated(VOTES), JSON), FORMATS)
@example({"specialists": _deep(990), "findings": []}, [])  # a RecursionError escaped
@example(
    {"specialists": ["A"], "findings": [], "verdicts": {"A": _deep(900)}}, ["--format", "json"]
)
def test_panel_resolve_any_json(workdir: Path, document: Any, fmt: list[str]) -> None:
    _call(panel, ["resolve", "FILE", *fmt], _text(document), workdir)


@given(st.one_of(mutated(ROUND), JSON), FORMATS, st.sampled_from(["critique", "update"]))
@example(
    {**ROUND, "critiques": [{"approve": True, "critical": False, "edits": _deep(900)}]},
    [],
    "critique",
)
@example({**ROUND, "max_rounds": 10**30, "round": 10**25}, ["--format", "json"], "update")
def test_consensus_round_and_parse_any_json(
    workdir: Path, document: Any, fmt: list[str], kind: str
) -> None:
    text = _text(document)
    _call(consensus, ["round", "FILE", *fmt], text, workdir)
    _call(consensus, ["parse", "FILE", "--kind", kind, *fmt], text, workdir)


@given(st.lists(st.one_of(mutated(TRAIL[0]), mutated(TRAIL[6]), JSON), max_size=4), FORMATS)
@example([{"event": {}}], [])  # the reproducer: a TypeError escaped
@example([{"event": "RUN_STARTED", "timestamp": TRAIL[0]["timestamp"], "x": _deep(400)}], [])
def test_arena_conformance_any_json(workdir: Path, records: list[Any], fmt: list[str]) -> None:
    trail = [*TRAIL[:3], *records, *TRAIL[3:]]
    lines = [_text(r) for r in trail]
    code = _call(arena, ["conformance", "FILE", *fmt], "".join(f"{x}\n" for x in lines), workdir)
    # judged (0 or 1) unless a line is not strict JSON (NaN, a huge integer): unreadable, 2
    assert code in ((0, 1) if all(map(_strict, lines)) else (2,))


def _strict(line: str) -> bool:
    try:
        loads_strict(line)
    except KernelError:
        return False
    return True


@given(st.text(max_size=300), FORMATS)
@example("VERDICT: APPROVED\n\ud800", [])
def test_every_companion_cli_on_any_text(workdir: Path, text: str, fmt: list[str]) -> None:
    for main, argv in (
        (panel, ["resolve", "FILE"]),
        (panel, ["scan", "FILE"]),
        (consensus, ["round", "FILE"]),
        (consensus, ["parse", "FILE", "--kind", "critique"]),
        (arena, ["verdict", "FILE"]),
        (arena, ["conformance", "FILE"]),
    ):
        _call(main, [*argv, *fmt], text, workdir)


def _nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


def test_a_deeply_nested_trail_record_is_a_finding() -> None:
    from kernel.arena import check_conformance

    record = {"event": "RUN_STARTED", "timestamp": TRAIL[0]["timestamp"], "x": _nested(600)}
    report = check_conformance([record])  # a RecursionError escaped while quoting the record
    assert report.level == "Non-Compliant"
    assert any("nested deeper than 100 levels" in f.message for f in report.check(12).findings)


def test_deeply_nested_votes_are_an_input_problem() -> None:
    from kernel.panel.votes import votes_problems

    assert votes_problems({"specialists": _nested(1500), "findings": []}) == [
        "$: nested too deeply to validate"
    ]
