"""Packages export lazily, and what they export is what an eager import would have given."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import types

import pytest

LAZY = [
    "kernel.analysis",
    "kernel.arena",
    "kernel.consensus",
    "kernel.contract",
    "kernel.migration",
    "kernel.panel",
    "kernel.re_review",
    "kernel.reviewer.lint",
]


@pytest.mark.parametrize("name", LAZY)
def test_every_export_is_its_modules_value_even_after_every_submodule_loads(name: str) -> None:
    package = importlib.import_module(name)
    for info in pkgutil.walk_packages(package.__path__, name + "."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
    for export in package.__all__:
        value = getattr(package, export)
        assert not isinstance(value, types.ModuleType), f"{name}.{export} is a module"
        assert export in dir(package)


@pytest.mark.parametrize("name", LAZY)
def test_importing_a_package_loads_none_of_its_modules(name: str) -> None:
    code = (
        "import sys\n"
        f"import {name}\n"
        f"print(sorted(m for m in sys.modules if m.startswith({name + '.'!r})))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
