"""One loading path: each command reads a contract, a matrix or a document exactly as the
library does, so it accepts exactly what the library accepts, for any bytes."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support import paths

from kernel import decide, load_contract, shipped_template
from kernel.cli.main import main
from kernel.errors import InputError, KernelError
from kernel.io import load_json_file, read_text
from kernel.reviewer.lint.phase1 import lint_phase1
from kernel.reviewer.lint.phase2 import lint_phase2

FULL = load_contract("reviewer/full")
TEMPLATES = {
    name: shipped_template(name) for name in ("reviewer/full", "reviewer/methodology_focus")
}
PASS = {d: ["pass"] * 5 for d in FULL.dimension_ids}
PHASE1 = (paths.EXAMPLES / "full" / "eic.phase1.md").read_bytes()
PHASE2 = (paths.EXAMPLES / "full" / "eic.phase2.md").read_bytes()
SCRIPT = Path(sys.executable).with_name("sprint-kernel")
SETTINGS = settings(suppress_health_check=[HealthCheck.too_slow])

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.sampled_from([0, 1, 5, 9, 10, 100, 2**53 - 1, 2**53, -(2**53), 10**40])
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
    | st.sampled_from(["\ud800", "x\udfff", "D1", "F0", "all", "majority", "pass", "block"])
    | st.sampled_from(["editorial_decision=accept", "D1 scores 'pass'", "mandatory"])
)
JSON = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=5,
)


@st.composite
def mutated(draw: st.DrawFn, document: Any) -> Any:
    """``document`` with one to three values replaced or removed, anywhere in it."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        parent: Any = None
        key: Any = None
        node = doc
        while isinstance(node, dict | list) and node and draw(st.booleans()):
            parent = node
            key = draw(st.sampled_from(list(node) if isinstance(node, dict) else range(len(node))))
            node = node[key]
        if parent is None:
            if draw(st.booleans()):
                doc = draw(JSON)
            continue
        if draw(st.booleans()):
            parent[key] = draw(JSON)
        elif isinstance(parent, dict):
            del parent[key]
        else:
            parent.pop(key)
    return doc


def _bytes_of(document: Any) -> bytes:
    # ensure_ascii: a lone surrogate becomes the escape "\ud800", which JSON readers decode.
    return json.dumps(document, ensure_ascii=True).encode("ascii")


@st.composite
def spliced(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` with a few bytes cut out or put in."""
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(data)))
        cut = draw(st.integers(0, 4))
        data = (
            data[:at]
            + draw(st.binary(max_size=4) | st.sampled_from([b"\n", b"#", b"- "]))
            + data[at + cut :]
        )
    return data


def contract_bytes() -> st.SearchStrategy[bytes]:
    templates = st.sampled_from(sorted(TEMPLATES)).flatmap(lambda n: mutated(TEMPLATES[n]))
    return (
        st.binary(max_size=40)
        | templates.map(_bytes_of)
        | st.sampled_from([_bytes_of(t) for t in TEMPLATES.values()]).flatmap(spliced)
    )


@contextlib.contextmanager
def _file(data: bytes, name: str) -> Iterator[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, name)
        with open(path, "wb") as fh:
            fh.write(data)
        yield path


def _cli(argv: list[str]) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue()


def _loads(path: str) -> bool:
    try:
        load_contract(path)
    except KernelError:
        return False
    return True


SURROGATE = _bytes_of(TEMPLATES["reviewer/full"] | {"mode": "reviewer_full\ud800"})
HUGE_PANEL = _bytes_of(TEMPLATES["reviewer/full"] | {"panel_size": 2**53})
HUGE_MINIMUM = _bytes_of(
    TEMPLATES["reviewer/full"]
    | {
        "measurement_procedure": TEMPLATES["reviewer/full"]["measurement_procedure"]
        | {"paraphrase_minimum_dimensions": 2**60}
    }
)
NO_F0 = _bytes_of(
    TEMPLATES["reviewer/full"]
    | {"failure_conditions": TEMPLATES["reviewer/full"]["failure_conditions"][:3]}
)


@SETTINGS
@given(contract_bytes())
@example(SURROGATE)  # regression: check answered OK (the encoding pass was skipped)
@example(HUGE_PANEL)  # regression: an integer past the limit
@example(HUGE_MINIMUM)
@example(NO_F0)  # R18
@example(_bytes_of(TEMPLATES["reviewer/full"]))
def test_check_exits_0_exactly_when_load_contract_succeeds(data: bytes) -> None:
    with _file(data, "c.json") as path:
        code, _ = _cli(["check", path])
        assert code in (0, 1)
        assert (code == 0) == _loads(path)


def test_check_through_the_console_script_refuses_what_load_contract_refuses() -> None:
    for data in (SURROGATE, HUGE_PANEL):
        with _file(data, "c.json") as path:
            done = subprocess.run(
                [str(SCRIPT), "check", path], capture_output=True, text=True, check=False
            )
            assert done.returncode == 1 and not _loads(path)
            assert "E-SCHEMA" in done.stdout and done.stderr == ""


def _expected_lint(path: str, phase: int, phase1: str | None) -> int:
    try:
        text = read_text(path)
        report = (
            lint_phase1(text, FULL)
            if phase == 1
            else lint_phase2(text, FULL, None if phase1 is None else read_text(phase1))
        )
    except InputError:
        return 2
    except KernelError:
        return 1
    return 0 if report.ok else 1


@SETTINGS
@given(
    st.sampled_from([1, 2]),
    st.binary(max_size=30) | st.sampled_from([PHASE1, PHASE2]).flatmap(spliced),
)
@example(1, PHASE1)
@example(2, PHASE2)
@example(1, b"\xff\xfe")
def test_lint_exits_as_lint_phase1_and_lint_phase2_judge(phase: int, data: bytes) -> None:
    with _file(data, "doc.md") as path, _file(PHASE1, "p1.md") as phase1:
        argv = ["lint", path, "--contract", "reviewer/full", "--phase", str(phase)]
        if phase == 2:
            argv += ["--phase1", phase1]
        code, _ = _cli(argv)
        assert code == _expected_lint(path, phase, phase1 if phase == 2 else None)


def matrix_bytes() -> st.SearchStrategy[bytes]:
    return (
        st.binary(max_size=30)
        | mutated(PASS).map(_bytes_of)
        | st.sampled_from([_bytes_of(PASS)]).flatmap(spliced)
    )


@SETTINGS
@given(matrix_bytes())
@example(_bytes_of(PASS))
@example(_bytes_of(PASS | {"D1": ["pass", "pass", "pass", "pass", "\ud800"]}))
@example(_bytes_of({"D1": ["pass"] * 5}))
def test_decide_matrix_exits_as_decide_judges(data: bytes) -> None:
    with _file(data, "m.json") as path:
        code, out = _cli(
            ["decide", "--contract", "reviewer/full", "--matrix", path, "--format", "json"]
        )
        try:
            decision = decide(FULL, load_json_file(path))
        except InputError:
            assert code == 2
        except KernelError:
            assert code == 1
        else:
            assert code == 0
            body = json.loads(out)
            assert (body["action"], body["condition_id"]) == (
                decision.action,
                decision.condition_id,
            )
