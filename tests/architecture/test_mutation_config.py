"""scripts/mutation.py covers every file under kernel/, its operators make the mutants they
say, and the equivalent-mutant list names mutants the script makes, each with a reason."""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from support import paths


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mutation_script", paths.ROOT / "scripts" / "mutation.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()


def test_every_kernel_file_is_in_exactly_one_area_or_listed_as_unmutated() -> None:
    kernel = sorted(
        p.relative_to(paths.ROOT).as_posix() for p in (paths.ROOT / "kernel").rglob("*.py")
    )
    owners = {f: [a for a in SCRIPT.AREAS if f in SCRIPT.area_files(a)] for f in kernel}
    for f, areas in owners.items():
        if f in SCRIPT.UNMUTATED:
            assert areas == [], f
            assert SCRIPT.UNMUTATED[f].strip(), f
        else:
            assert len(areas) == 1, (f, areas)
    assert set(SCRIPT.UNMUTATED) <= set(kernel)


def test_every_package_under_kernel_has_its_area() -> None:
    packages = {
        p.parent.relative_to(paths.ROOT / "kernel").parts[0]
        for p in (paths.ROOT / "kernel").rglob("__init__.py")
        if p.parent != paths.ROOT / "kernel"
    }
    named = {"reviewer" if p == "reviewer" else p for p in packages}
    assert named <= set(SCRIPT.AREAS)
    # The reviewer's lints and the top-level modules with an area of their own.
    assert {"lint", "round", "io", "cli", "core"} <= set(SCRIPT.AREAS)
    for area in SCRIPT.AREAS:
        assert SCRIPT.area_files(area), area


def test_every_test_selection_names_tests() -> None:
    for area, (_, tests) in SCRIPT.AREAS.items():
        assert tests, area
        for selected in tests:  # a folder or one test file
            path = paths.ROOT / selected
            assert path.is_file() or any(path.glob("test_*.py")), (area, selected)
            assert path.name.startswith("test_") or path.is_dir(), (area, selected)


SAMPLE = """\
'''Docstring.'''
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import os

LIMIT = 3


def f(a, b):
    '''Docstring.'''
    assert a
    if a < b and b:
        return a
    items[0] = f"{a + 1}"
    g(a)
    while a in b:
        a += 1
    return [x for x in b if x is None] if a else None


def h():  # pragma: no cover
    return 5


if __name__ == "__main__":
    raise SystemExit(f(1, 2))
"""


def test_the_operators_make_the_mutants_they_say(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SAMPLE, "utf-8")
    found = SCRIPT.mutants("m.py", tmp_path)
    source = SAMPLE.encode()
    got = {
        (m.name.split(":", 1)[1], source[m.start : m.end].decode(), m.replacement) for m in found
    }
    assert got == {
        ("<module>:int#1", "3", "(4)"),
        ("<module>:int#2", "3", "(2)"),
        ("f:negate#1", "a < b and b", "(not (a < b and b))"),
        ("f:boolop#1", "a < b and b", "(a < b or b)"),
        ("f:compare#1", "a < b", "(a <= b)"),
        ("f:return#1", "a", "None"),
        ("f:delete#1", 'items[0] = f"{a + 1}"', "pass"),
        ("f:int#1", "0", "(1)"),
        ("f:int#2", "0", "(-1)"),
        ("f:delete#2", "g(a)", "pass"),
        ("f:negate#2", "a in b", "(not (a in b))"),
        ("f:compare#2", "a in b", "(a not in b)"),
        ("f:delete#3", "a += 1", "pass"),
        ("f:int#3", "1", "(2)"),
        ("f:int#4", "1", "(0)"),
        ("f:return#2", "[x for x in b if x is None] if a else None", "None"),
        ("f:negate#3", "a", "(not (a))"),
        ("f:negate#4", "x is None", "(not (x is None))"),
        ("f:compare#3", "x is None", "(x is not None)"),
    }
    for m in found:
        assert SCRIPT.compiles(m, tmp_path), m.name
        assert ast.dump(ast.parse(m.apply(source))) != ast.dump(ast.parse(source)), m.name
    assert all(m.name.startswith("m:") for m in found)


def test_a_sample_is_seeded_and_skips_the_equivalent_mutants() -> None:
    first, passed = SCRIPT.sample("round", 5, 7)
    again, _ = SCRIPT.sample("round", 5, 7)
    other, _ = SCRIPT.sample("round", 5, 8)
    assert [m.name for m in first] == [m.name for m in again] != [m.name for m in other]
    assert len(first) == 5 and passed >= 0
    skip = SCRIPT.equivalents()
    assert not any(m.name in skip for m in first)


def test_every_equivalent_mutant_is_one_the_script_makes_with_a_reason() -> None:
    lines = [
        line
        for line in (paths.ROOT / "tests" / "mutation-equivalents.txt")
        .read_text("utf-8")
        .splitlines()
        if line.strip() and not line.startswith("#")
    ]
    made = {
        m.name: m
        for area in SCRIPT.AREAS
        for f in SCRIPT.area_files(area)
        for m in SCRIPT.mutants(f)
    }
    names = []
    for line in lines:
        name, _, reason = line.strip().partition(" ")
        assert reason.strip().startswith("#"), f"not 'NAME  # reason': {line!r}"
        assert reason.strip().removeprefix("#").strip(), f"no reason given: {line!r}"
        names.append(name)
        assert name in made, f"{name}: the script makes no such mutant"
    assert len(names) == len(set(names)), "listed twice"
    assert set(SCRIPT.equivalents()) == set(names)


@pytest.mark.parametrize("source", ["x = (", "def f(:\n"])
def test_a_file_that_does_not_parse_is_refused(tmp_path: Path, source: str) -> None:
    (tmp_path / "bad.py").write_text(source, "utf-8")
    with pytest.raises(SyntaxError):
        SCRIPT.mutants("bad.py", tmp_path)
