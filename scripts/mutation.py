"""Mutation testing on demand (not in CI): ``python scripts/mutation.py [AREA ...]``.

Each area of ``AREAS`` names the kernel files it mutates and the tests that exercise them.
The script makes small seeded changes (*mutants*) to those files, one at a time, and runs
the area's tests against each; a mutant some test fails on is *killed*. The score per area is
killed / (killed + survived), with the mutants listed in ``tests/mutation-equivalents.txt``
left out (and counted apart).

Operators, each on the syntax tree, spliced back into the source text: ``compare`` (``<`` and
``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``in`` and ``not in``, ``is`` and ``is not``
swapped), ``boolop`` (``and`` and ``or`` swapped), ``int`` (an integer literal plus or minus
one), ``negate`` (the condition of an ``if``, ``while``, conditional expression or
comprehension negated), ``return`` (a returned value replaced by ``None``) and ``delete`` (a
call, augmented assignment, item or attribute store, ``raise``, ``break`` or ``continue``
replaced by ``pass``). Code marked ``pragma: no cover``, ``if TYPE_CHECKING:`` and
``if __name__ == "__main__":`` blocks, docstrings, annotations, asserts and f-strings are
not mutated.

The run works in a copy of the tree (the files git tracks plus untracked files it does not
ignore). It first runs the union of the areas' tests once under coverage, recording which
test runs which line (the *map*, kept with ``--map FILE``); the unmutated tests must pass.
Each mutant then runs, with ``-x`` and a per-test timeout, only the area's tests that ran one
of its lines, fastest first (all the area's tests when the line runs at import). A mutant
whose lines no area test runs survives without a run.

``--sample N`` (default 40) takes, per area, the first N mutants in an order seeded by
``--seed`` that are not listed as equivalent. ``--smoke`` runs one such mutant
per area against the area's tests without a map and fails unless every one is killed (the
check ``.ci/run`` makes so that the script cannot rot).

Requires the ``test`` and ``mutation`` extras (``pip install -e '.[test,mutation]'``).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENTS = ROOT / "tests" / "mutation-equivalents.txt"

#: area → (kernel files it mutates, tests that exercise them, most direct first)
AREAS: dict[str, tuple[list[str], list[str]]] = {
    "expression": (
        ["kernel/expression/*.py"],
        ["tests/expression", "tests/contract/test_precompiled.py", "tests/decision"],
    ),
    "contract": (
        ["kernel/contract/*.py"],
        ["tests/contract", "tests/decision", "tests/cli/test_cli_inputs.py"],
    ),
    "decision": (
        ["kernel/decision/*.py", "kernel/majority.py"],
        ["tests/decision", "tests/test_majority_pinned.py", "tests/contract"],
    ),
    "lint": (
        ["kernel/reviewer/lint/*.py"],
        ["tests/reviewer", "tests/text/test_markdown_reading.py", "tests/cli/test_lint_cli.py"],
    ),
    "reviewer": (
        ["kernel/reviewer/*.py"],
        ["tests/reviewer", "tests/round", "tests/cli/test_cli_decide_round.py"],
    ),
    "text": (
        ["kernel/text/*.py"],
        [
            "tests/text",
            "tests/contract/test_precompiled.py",
            "tests/reviewer/test_lint_corpus.py",
            "tests/panel/test_panel_guardrails.py",
            "tests/consensus/test_consensus_parsing.py",
        ],
    ),
    "analysis": (["kernel/analysis/*.py"], ["tests/analysis"]),
    "migration": (["kernel/migration/*.py"], ["tests/migration"]),
    "re_review": (
        ["kernel/re_review/*.py"],
        ["tests/re_review", "tests/cli/test_re_review_cli.py"],
    ),
    "arena": (["kernel/arena/*.py"], ["tests/arena", "tests/cli/test_arena_cli.py"]),
    "consensus": (
        ["kernel/consensus/*.py"],
        ["tests/consensus", "tests/cli/test_consensus_cli.py"],
    ),
    "panel": (["kernel/panel/*.py"], ["tests/panel", "tests/cli/test_panel_cli.py"]),
    "round": (["kernel/round.py"], ["tests/round", "tests/cli/test_cli_decide_round.py"]),
    "schema": (
        ["kernel/schema/*.py"],
        [
            "tests/test_schema.py",
            "tests/test_schema_accept.py",
            "tests/test_schema_accept_pinned.py",
            "tests/contract/test_caller_schema.py",
        ],
    ),
    "io": (
        ["kernel/io.py", "kernel/strict.py"],
        ["tests/test_io.py", "tests/test_strict_messages.py", "tests/cli/test_cli_inputs.py"],
    ),
    "cli": (["kernel/cli/*.py"], ["tests/cli", "tests/analysis/test_analysis_cli.py"]),
    "core": (
        [
            "kernel/__init__.py",
            "kernel/_lazy.py",
            "kernel/diagnostics.py",
            "kernel/errors.py",
            "kernel/suggest.py",
            "kernel/testing.py",
        ],
        [
            "tests/test_diagnostics.py",
            "tests/test_suggest.py",
            "tests/architecture",
            "tests/testing",
            "tests/test_no_escapes.py",
            "tests/cli/test_cli_formats.py",
            "tests/consensus/test_consensus_rules.py",
            "tests/panel/test_panel_audit.py",
        ],
    ),
}

#: files under kernel/ that no area mutates, and why
UNMUTATED: dict[str, str] = {
    "kernel/__main__.py": "the shell's one-line entry point",
    "kernel/_version.py": "a version string",
    "kernel/analyze.py": "a `python -m` shim over kernel.cli",
    "kernel/check.py": "a `python -m` shim over kernel.cli",
    "kernel/decide.py": "a `python -m` shim over kernel.cli",
    "kernel/lint.py": "a `python -m` shim over kernel.cli",
    "kernel/migrate.py": "a `python -m` shim over kernel.cli",
    "kernel/review.py": "re-exports kernel.reviewer.review",
    "kernel/arena/__main__.py": "a `python -m` shim over kernel.cli",
    "kernel/consensus/__main__.py": "a `python -m` shim over kernel.cli",
    "kernel/panel/__main__.py": "a `python -m` shim over kernel.cli",
}

OPERATORS = ("compare", "boolop", "int", "negate", "return", "delete")
_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
# The pytest options of every run; the one test that checks where kernel is imported from
# cannot hold in a copy.
PYTEST = [
    "-p",
    "no:cacheprovider",
    "-q",
    "-p",
    "timeout",
    "--deselect",
    "tests/decision/test_bench_peers.py::test_the_tests_import_the_kernel_python_imports_outside_the_tree",
]


@dataclass(frozen=True)
class Mutant:
    """One change to one file: bytes ``start:end`` of ``path`` become ``replacement``."""

    path: str
    name: str
    line: int
    end_line: int
    #: The first line of the statement it is in: the line coverage sees run.
    statement_line: int
    start: int
    end: int
    replacement: str

    def apply(self, source: bytes) -> bytes:
        return source[: self.start] + self.replacement.encode() + source[self.end :]

    def describe(self, source: bytes) -> str:
        before = source[self.start : self.end].decode().replace("\n", " ")
        return f"{self.path}:{self.line}: {before[:70]!r} -> {self.replacement[:70]!r}"


class _Finder(ast.NodeVisitor):
    """The mutants of one module, numbered per function and operator in source order."""

    def __init__(self, path: str, source: bytes) -> None:
        self.path = path
        self.module = _module_of(path)
        self.source = source
        self.lines = source.split(b"\n")
        self.offsets = [0]
        for line in self.lines:
            self.offsets.append(self.offsets[-1] + len(line) + 1)
        self.scope: list[str] = []
        self.statements: list[int] = []
        self.counts: dict[tuple[str, str], int] = {}
        self.found: list[Mutant] = []

    def _span(self, node: ast.AST) -> tuple[int, int]:
        start = self.offsets[node.lineno - 1] + node.col_offset  # type: ignore[attr-defined]
        end = self.offsets[node.end_lineno - 1] + node.end_col_offset  # type: ignore[attr-defined]
        return start, end

    def _add(self, op: str, node: ast.AST, replacement: str) -> None:
        qual = ".".join(self.scope) or "<module>"
        n = self.counts.get((qual, op), 0) + 1
        self.counts[(qual, op)] = n
        start, end = self._span(node)
        name = f"{self.module}:{qual}:{op}#{n}"
        line, end_line = node.lineno, node.end_lineno  # type: ignore[attr-defined]
        statement = self.statements[-1] if self.statements else line
        self.found.append(
            Mutant(self.path, name, line, end_line, statement, start, end, replacement)
        )

    def _excluded(self, node: ast.AST) -> bool:
        line = self.lines[node.lineno - 1]  # type: ignore[attr-defined]
        return b"pragma: no cover" in line

    # Scopes and exclusions
    def _scoped(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            if "overload" in ast.unparse(decorator):
                return
        if self._excluded(node):
            return
        self.scope.append(node.name)
        body = node.body
        if body and _is_docstring(body[0]):
            body = body[1:]
        for stmt in body:
            self.visit(stmt)
        for decorator in node.decorator_list:
            self.visit(decorator)
        if not isinstance(node, ast.ClassDef):
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None:
                    self.visit(default)
        self.scope.pop()

    visit_FunctionDef = _scoped
    visit_AsyncFunctionDef = _scoped
    visit_ClassDef = _scoped

    def visit_Module(self, node: ast.Module) -> None:
        body = node.body[1:] if node.body and _is_docstring(node.body[0]) else node.body
        for stmt in body:
            self.visit(stmt)

    def visit_Assert(self, node: ast.Assert) -> None:
        return

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return

    def visit_Import(self, node: ast.Import) -> None:
        return

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        return

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_arg(self, node: ast.arg) -> None:
        return

    def visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.stmt | ast.excepthandler) and self._excluded(node):
            return
        if isinstance(node, ast.stmt):
            self.statements.append(node.lineno)
            self._delete(node)
            super().visit(node)
            self.statements.pop()
        else:
            super().visit(node)

    # Operators
    def _delete(self, node: ast.stmt) -> None:
        if isinstance(node, ast.Expr):
            if isinstance(node.value, ast.Constant):
                return
        elif isinstance(node, ast.Assign):
            if not any(isinstance(t, ast.Attribute | ast.Subscript) for t in node.targets):
                return
        elif not isinstance(node, ast.AugAssign | ast.Raise | ast.Break | ast.Continue):
            return
        self._add("delete", node, "pass")

    def visit_If(self, node: ast.If) -> None:
        if ast.unparse(node.test) == "__name__ == '__main__'":  # a shell entry, like the shims
            return
        if ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for stmt in node.orelse:
                self.visit(stmt)
            return
        self._negate(node.test)
        self.generic_visit(node)

    def visit_While(self, node: ast.While) -> None:
        self._negate(node.test)
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self._negate(node.test)
        self.generic_visit(node)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        for condition in node.ifs:
            self._negate(condition)
        self.generic_visit(node)

    def _negate(self, test: ast.expr) -> None:
        segment = self._text(test)
        self._add("negate", test, f"(not ({segment}))")

    def _text(self, node: ast.AST) -> str:
        start, end = self._span(node)
        return self.source[start:end].decode()

    def visit_Compare(self, node: ast.Compare) -> None:
        for i, op in enumerate(node.ops):
            flipped = _FLIP.get(type(op))
            if flipped is not None:
                ops = [*node.ops]
                ops[i] = flipped()
                new = ast.Compare(left=node.left, ops=ops, comparators=node.comparators)
                self._add("compare", node, f"({ast.unparse(new)})")
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self._add("boolop", node, f"({ast.unparse(ast.BoolOp(op=other, values=node.values))})")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if type(node.value) is int:
            self._add("int", node, f"({node.value + 1})")
            self._add("int", node, f"({node.value - 1})")

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            self._add("return", value, "None")
        self.generic_visit(node)


def _is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def area_files(area: str, root: Path = ROOT) -> list[str]:
    """The kernel files an area mutates, repository-relative, sorted."""
    found = {p.relative_to(root).as_posix() for g in AREAS[area][0] for p in root.glob(g)}
    return sorted(found - set(UNMUTATED))


def mutants(path: str, root: Path = ROOT) -> list[Mutant]:
    """Every mutant of one file (see :func:`compiles`)."""
    source = (root / path).read_bytes()
    finder = _Finder(path, source)
    finder.visit(ast.parse(source))
    return finder.found


def compiles(m: Mutant, root: Path = ROOT) -> bool:
    """Whether the mutated file is valid Python (a splice that is not is no mutant)."""
    try:
        compile(m.apply((root / m.path).read_bytes()), m.path, "exec")
    except SyntaxError:
        return False
    return True


def equivalents() -> dict[str, str]:
    """Mutant names judged equivalent → the reason, one per line of the list."""
    found = {}
    for line in EQUIVALENTS.read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, reason = line.strip().partition(" ")
            found[name] = reason.strip().removeprefix("#").strip()
    return found


def sample(area: str, size: int, seed: int, root: Path = ROOT) -> tuple[list[Mutant], int]:
    """The first ``size`` non-equivalent mutants of the area in the seeded order, and how many
    equivalent ones were passed on the way."""
    pool = [m for path in area_files(area, root) for m in mutants(path, root)]
    # Ordered by a seeded hash of each name: a change elsewhere leaves a mutant's place as it is.
    pool.sort(key=lambda m: hashlib.sha256(f"{seed}:{m.name}".encode()).digest())
    skip = equivalents()
    chosen: list[Mutant] = []
    passed = 0
    for m in pool:
        if len(chosen) == size:
            break
        if m.name in skip:
            passed += 1
        elif compiles(m, root):
            chosen.append(m)
    return chosen, passed


def find(name: str) -> tuple[str, Mutant]:
    """The area and the mutant of a mutant's name; ``SystemExit`` when there is none."""
    module = name.split(":", 1)[0]
    for area in AREAS:
        for path in area_files(area):
            if _module_of(path) == module:
                for m in mutants(path):
                    if m.name == name:
                        return area, m
    raise SystemExit(f"no mutant named {name!r}")


def _module_of(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


# Running


def _copy_tree(dest: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for f in files:
        if (ROOT / f).is_file():
            (dest / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, dest / f)


def _env(work: Path, write_bytecode: bool) -> dict[str, str]:
    env = {**os.environ, "HYPOTHESIS_PROFILE": "mutation", "PYTHONPATH": str(work)}
    if not write_bytecode:
        # The unmutated files keep the bytecode of the first run; a mutated one (newer) is
        # compiled afresh and never cached, so no stale bytecode outlives its mutant.
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _coverage_map(out: str, tests: Sequence[str]) -> int:
    """In the copy: run ``tests`` under coverage, write which test ran which kernel line."""
    import coverage
    import pytest

    cov = coverage.Coverage(data_file=None, source=["kernel"])
    durations: dict[str, float] = {}
    failed: list[str] = []

    class Contexts:
        def pytest_runtest_setup(self, item: Any) -> None:
            cov.switch_context(item.nodeid)

        def pytest_runtest_logreport(self, report: Any) -> None:
            durations[report.nodeid] = durations.get(report.nodeid, 0.0) + report.duration
            if report.failed:
                failed.append(report.nodeid)

    cov.start()
    code = pytest.main([*PYTEST, *tests], plugins=[Contexts()])
    cov.stop()
    data = cov.get_data()
    lines: dict[str, dict[int, list[str]]] = {}
    cwd = Path.cwd()
    for measured in data.measured_files():
        rel = Path(measured).resolve().relative_to(cwd).as_posix()
        lines[rel] = {n: sorted(c) for n, c in data.contexts_by_lineno(measured).items()}
    sources = {f: _digest(cwd / f) for f in lines}
    files = {f: _digest(cwd / f) for f in sorted({n.split("::", 1)[0] for n in durations})}
    Path(out).write_text(
        json.dumps(
            {
                "code": int(code),
                "failed": failed,
                "durations": durations,
                "lines": lines,
                "sources": sources,
                "test_files": files,
            }
        )
    )
    return 0


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _test_files(tests: Sequence[str], root: Path = ROOT) -> list[str]:
    """The test files a selection names, repository-relative."""
    found: list[str] = []
    for t in tests:
        p = root / t
        files = sorted(p.rglob("test_*.py")) if p.is_dir() else [p]
        found += [f.relative_to(root).as_posix() for f in files]
    return found


def _in_selection(nodeid: str, tests: Sequence[str]) -> int | None:
    path = nodeid.split("::", 1)[0]
    for i, t in enumerate(tests):
        if path == t or path.startswith(t.rstrip("/") + "/"):
            return i
    return None


@dataclass
class Result:
    mutant: Mutant
    status: str  # killed, timeout, survived, uncovered
    seconds: float
    tests: int


def _run_pytest(work: Path, args: list[str], budget: float, per_test: float) -> tuple[str, float]:
    began = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "pytest", *PYTEST, "-x", f"--timeout={per_test:.0f}", *args],
            cwd=work,
            env=_env(work, write_bytecode=False),
            capture_output=True,
            timeout=budget,
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - began
    took = time.monotonic() - began
    if proc.returncode == 0:
        return "survived", took
    if b"Timeout" in proc.stdout and b"Failed: Timeout" in proc.stdout:
        return "timeout", took
    return "killed", took


def run_mutant(work: Path, m: Mutant, tests: Sequence[str], cover: dict[str, Any] | None) -> Result:
    target = work / m.path
    original = ROOT / m.path
    stale = cover is None or cover["sources"].get(m.path) != _digest(original)
    if cover is None or stale:
        selected = list(tests)
        budget, per_test = 900.0, 120.0
    else:
        runs = cover["lines"].get(m.path, {})
        lines = range(min(m.statement_line, m.line), m.end_line + 1)
        contexts = {c for n in lines for c in runs.get(str(n), ())}
        durations: dict[str, float] = cover["durations"]
        area_nodes = [n for n in durations if _in_selection(n, tests) is not None]
        # A line run at import (context "") may matter to any test.
        chosen = area_nodes if "" in contexts else [n for n in area_nodes if n in contexts]
        # Tests the map does not know run for every mutant of their area.
        newer = [n for n in cover["new_tests"] if _in_selection(n, tests) is not None]
        if not chosen and not newer:
            # No test of the area ran its lines in the map, which sees only the test process:
            # a test that runs the command line in a subprocess may still reach them.
            chosen = sorted(area_nodes, key=lambda n: durations[n])
            if not chosen:
                return Result(m, "uncovered", 0.0, 0)
        chosen.sort(key=lambda n: durations[n])
        selected = [*newer, *chosen]
        total = sum(durations[n] for n in chosen)
        budget = 120.0 + 4 * total + 30 * len(newer)
        per_test = 30.0 + 10 * max((durations[n] for n in chosen), default=6.0)
    target.write_bytes(m.apply(original.read_bytes()))
    try:
        status, took = _run_pytest(work, selected, budget, per_test)
    finally:
        shutil.copy2(original, target)
    return Result(m, status, took, len(selected))


def _map(work: Path, tests: list[str], keep: Path | None) -> dict[str, Any]:
    out = work / "mutation-map.json"
    proc = subprocess.run(
        [sys.executable, str(work / "scripts" / "mutation.py"), "--internal-map", str(out), *tests],
        cwd=work,
        env=_env(work, write_bytecode=True),
        capture_output=True,
        text=True,
    )
    if not out.exists():
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-20:])
        raise SystemExit(f"the coverage run wrote no map (exit {proc.returncode}):\n{tail}")
    cover: dict[str, Any] = json.loads(out.read_text())
    if cover["code"] != 0 or cover["failed"]:
        tail = "\n".join(proc.stdout.splitlines()[-20:])
        raise SystemExit(f"the unmutated tests fail in the copy: {cover['failed'][:5]}\n{tail}")
    if keep is not None:
        shutil.copy2(out, keep)
    return cover


def _new_tests(work: Path, cover: dict[str, Any], tests: list[str]) -> list[str]:
    """The test ids of ``tests`` that the map does not know (added since it was made)."""
    changed = [f for f in _test_files(tests) if cover["test_files"].get(f) != _digest(ROOT / f)]
    if not changed:
        return []
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", *PYTEST, *changed],
        cwd=work,
        env=_env(work, write_bytecode=True),
        capture_output=True,
        text=True,
    )
    found = [line.strip() for line in proc.stdout.splitlines() if "::" in line]
    if proc.returncode != 0 or not found:
        raise SystemExit(f"could not collect the changed tests {changed}:\n{proc.stdout[-2000:]}")
    return [n for n in found if n not in cover["durations"]]


def _iter_areas(names: Sequence[str]) -> Iterator[str]:
    yield from (names or list(AREAS))


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--internal-map"]:
        return _coverage_map(args_list[1], args_list[2:])
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("areas", nargs="*", help=f"any of {', '.join(AREAS)} (default all)")
    parser.add_argument("--sample", type=int, default=40, help="mutants per area (default 40)")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    parser.add_argument("--smoke", action="store_true", help="one mutant per area, no map")
    parser.add_argument("--map", type=Path, default=None, help="reuse or keep the coverage map")
    parser.add_argument("--survivors", action="store_true", help="list surviving mutants")
    parser.add_argument("--list", action="store_true", help="list the sample, run nothing")
    parser.add_argument(
        "--mutant", action="append", default=[], help="run this mutant (by name) instead"
    )
    parser.add_argument(
        "--tests", action="append", default=[], help="run these tests instead of the area's"
    )
    args = parser.parse_args(args_list)
    unknown = set(args.areas) - set(AREAS)
    if unknown:
        parser.error(f"unknown area(s): {', '.join(sorted(unknown))}")
    size = 1 if args.smoke else args.sample
    samples: dict[str, tuple[list[Mutant], int]] = {}
    if args.mutant:
        for name in args.mutant:
            area, m = find(name)
            samples.setdefault(area, ([], 0))[0].append(m)
    else:
        samples = {a: sample(a, size, args.seed) for a in _iter_areas(args.areas)}
    if args.list:
        for area, (chosen, _) in samples.items():
            for m in chosen:
                print(f"{area}: {m.name}  {m.describe((ROOT / m.path).read_bytes())}")
        return 0
    worst = 1.0
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        work = Path(tmp)
        _copy_tree(work)
        cover: dict[str, Any] | None = None
        if args.map is not None or not (args.smoke or args.mutant):
            union = list(dict.fromkeys(t for a in samples for t in AREAS[a][1]))
            if args.map is not None and args.map.exists():
                cover = json.loads(args.map.read_text())
            else:
                cover = _map(work, union, args.map)
            cover["new_tests"] = _new_tests(work, cover, union)
        print(f"seed {args.seed}, {size} mutant(s) per area", flush=True)
        for area, (chosen, passed) in samples.items():
            tests = args.tests or AREAS[area][1]
            results = [run_mutant(work, m, tests, cover) for m in chosen]
            killed = sum(r.status in ("killed", "timeout") for r in results)
            score = killed / len(results) if results else 1.0
            worst = min(worst, score)
            seconds = sum(r.seconds for r in results)
            print(
                f"{area}: {killed}/{len(results)} killed, {passed} equivalent excluded, "
                f"score {score:.2f} ({seconds:.0f} s)",
                flush=True,
            )
            for r in results:
                if args.mutant or (args.survivors and r.status in ("survived", "uncovered")):
                    source = (ROOT / r.mutant.path).read_bytes()
                    print(f"  {r.status}: {r.mutant.name}  {r.mutant.describe(source)}")
    if args.smoke:
        return 0 if worst == 1.0 else 1
    return 0 if worst >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())
