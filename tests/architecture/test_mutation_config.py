"""scripts/mutation.py and ``[tool.mutmut]`` in pyproject.toml describe the same run, and the
equivalent-mutant list names functions that exist, each with a reason."""

from __future__ import annotations

import fnmatch
import importlib
import importlib.util
import re
import subprocess
import tomllib
from types import ModuleType

import pytest
from support import paths


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "mutation", paths.ROOT / "scripts" / "mutation.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
PYPROJECT = (paths.ROOT / "pyproject.toml").read_text("utf-8")
SECTION = tomllib.loads(PYPROJECT)["tool"]["mutmut"]


def test_packages_cover_exactly_the_pyproject_section() -> None:
    mutate = {glob for files, _ in SCRIPT.PACKAGES.values() for glob in files}
    tests = {folder for _, folders in SCRIPT.PACKAGES.values() for folder in folders}
    assert mutate == set(SECTION["only_mutate"])
    assert tests == set(SECTION["pytest_add_cli_args_test_selection"])
    assert set(SCRIPT.PACKAGES) == {"expression", "contract", "decision", "lint"}


def test_every_glob_and_test_folder_names_tracked_files() -> None:
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=paths.ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    for glob in SECTION["only_mutate"]:
        assert any(f.endswith(".py") and fnmatch.fnmatch(f, glob) for f in tracked), glob
    for selected in SECTION["pytest_add_cli_args_test_selection"]:  # a folder or one file
        assert selected in tracked or any(f.startswith(selected + "/test_") for f in tracked), (
            selected
        )
    for copied in SECTION["also_copy"]:
        assert (paths.ROOT / copied).exists(), copied


@pytest.mark.parametrize("package", ["expression", "contract", "decision", "lint"])
def test_the_per_package_pyproject_narrows_only_two_keys(package: str) -> None:
    mutate, tests = SCRIPT.PACKAGES[package]
    text = SCRIPT._with_config(PYPROJECT, SCRIPT._config(mutate, tests))
    data = tomllib.loads(text)
    original = tomllib.loads(PYPROJECT)
    assert data["tool"]["mutmut"] == {
        **SECTION,
        "only_mutate": mutate,
        "pytest_add_cli_args_test_selection": tests,
    }
    # Every other table is left as it was.
    assert {k: v for k, v in data["tool"].items() if k != "mutmut"} == {
        k: v for k, v in original["tool"].items() if k != "mutmut"
    }
    assert {k: v for k, v in data.items() if k != "tool"} == {
        k: v for k, v in original.items() if k != "tool"
    }


_NAME = re.compile(
    r"^(?P<module>[\w.]+)\.x(?:ǁ(?P<cls>\w+)ǁ|_)(?P<func>\w+?)__mutmut_[\d\[\]*?-]+$"
)


def test_every_equivalent_mutant_names_a_function_and_gives_a_reason() -> None:
    lines = [
        line
        for line in (paths.ROOT / "tests" / "mutation-equivalents.txt")
        .read_text("utf-8")
        .splitlines()
        if line.strip() and not line.startswith("#")
    ]
    assert lines
    for line in lines:
        name, sep, reason = line.partition("#")
        assert sep and reason.strip(), f"no reason given: {line!r}"
        m = _NAME.match(name.strip())
        assert m is not None, f"not a mutmut name: {name!r}"
        owner: object = importlib.import_module(m["module"])
        if m["cls"]:
            owner = getattr(owner, m["cls"])
        assert callable(getattr(owner, m["func"], None)), f"{name.strip()}: no such function"
    names = [line.split("#", 1)[0].strip() for line in lines]
    assert len(names) == len(set(names)), "listed twice"
    assert SCRIPT.equivalents() == set(names)


def test_every_deselected_test_exists() -> None:
    args = SECTION["pytest_add_cli_args"]
    deselected = [args[i + 1] for i, arg in enumerate(args) if arg == "--deselect"]
    for node in deselected:
        path, _, name = node.partition("::")
        assert f"def {name}(" in (paths.ROOT / path).read_text("utf-8"), node
