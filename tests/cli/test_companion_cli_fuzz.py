"""The panel, consensus and arena CLIs on arbitrary JSON input files: exit 0, 1 or 2 only,
never a traceback (each CLI called in-process through ``kernel._cli.run``)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.paths import EXAMPLES

from kernel.cli.arena import main as arena
from kernel.cli.consensus import main as consensus
from kernel.cli.panel import main as panel
from kernel.cli.scaffold import run

VOTES = json.loads((EXAMPLES / "panel" / "votes.json").read_text(encoding="utf-8"))
ROUND = json.loads((EXAMPLES / "consensus" / "round.json").read_text(encoding="utf-8"))
TRAIL = [
    json.loads(line)
    for line in (EXAMPLES / "arena" / "run.jsonl").read_text(encoding="utf-8").splitlines()
]
KEYS = [
    "specialists", "findings", "id", "originator", "votes", "severity", "withdrawn",
    "verdicts", "participants", "round", "critiques", "approve", "critical", "objections",
    "missing", "edits", "confidence", "candidate", "previous_candidate", "max_rounds",
    "approval_ratio", "change_threshold", "event", "timestamp", "round_index", "config",
]  # fmt: skip
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["SEC", "Agree", "Challenge", "Critical", "Revise", "0.67", "2/3"])
)
JSON = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=20,
)
Main = Callable[[Sequence[str] | None], int]


def _deep(depth: int) -> str:
    """A placeholder that ``_text`` turns into ``depth`` nested arrays (built as text: the
    test's own ``json.dumps`` would run out of stack first)."""
    return f"<deep {depth}>"


def _text(document: Any) -> str:
    return re.sub(
        r'"<deep (\d+)>"',
        lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)),
        json.dumps(document),
    )


@st.composite
def mutated(draw: st.DrawFn, document: Any) -> Any:
    """``document`` with one to three subtrees replaced by arbitrary JSON."""
    doc = json.loads(json.dumps(document))
    for _ in range(draw(st.integers(1, 3))):
        path: list[Any] = []
        node = doc
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            keys = sorted(node) if isinstance(node, dict) else list(range(len(node)))
            path.append(draw(st.sampled_from(keys)))
            node = node[path[-1]]
        if not path:
            return draw(JSON)
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = draw(JSON)
    return doc


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-fuzz")


def _call(main: Main, argv: list[str], content: str, workdir: Path) -> int:
    path = workdir / "input"
    path.write_text(content, encoding="utf-8", errors="surrogatepass")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run(main, [str(path) if a == "FILE" else a for a in argv])
    assert code in (0, 1, 2), (argv, code)
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code


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
    text = "".join(_text(r) + "\n" for r in trail)
    assert _call(arena, ["conformance", "FILE", *fmt], text, workdir) in (0, 1)


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
