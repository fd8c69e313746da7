"""The package's shape: imports point downward only, and the build lists every package.

Layers, bottom up (a package may import from its own layer's shared modules and below):
``errors``/``strict``/``suggest`` → ``io``/``majority``/``diagnostics``/``schema`` →
``expression``, ``text`` → ``contract`` → ``decision`` → ``reviewer``, ``re_review`` → ``analysis``,
``round`` → ``migration``, ``testing``; the companions (``arena``, ``consensus``, ``panel``)
sit beside the sprint-contract packages and use only the shared bottom and ``text``; ``cli``
(with every ``__main__``) and the top-level facades are on top.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from support import paths

KERNEL = paths.ROOT / "kernel"

#: package (first component under ``kernel``) → layer number.
LAYERS: dict[str, int] = {
    "errors": 0,
    "strict": 0,
    "suggest": 0,
    "_version": 0,
    "_lazy": 1,
    "io": 1,
    "majority": 1,
    "diagnostics": 1,
    "schema": 1,
    "expression": 2,
    "text": 2,
    "contract": 3,
    "decision": 4,
    "reviewer": 5,
    "re_review": 5,
    "round": 6,
    "analysis": 6,
    "arena": 3,
    "consensus": 3,
    "panel": 3,
    "testing": 7,
    "migration": 7,
    "cli": 8,
    "__init__": 9,
    "__main__": 9,
    "lint": 9,
    "review": 9,
    "check": 9,
    "decide": 9,
    "analyze": 9,
    "migrate": 9,
}
#: Layer of the command-line entry points (``cli`` and every ``__main__``).
TOP = 8
COMPANIONS = {"arena", "consensus", "panel"}
#: What the companions may use besides themselves.
COMPANION_DEPS = {
    "errors",
    "strict",
    "suggest",
    "_lazy",
    "io",
    "majority",
    "diagnostics",
    "schema",
    "text",
}


def _unit(path: Path) -> str:
    rel = path.relative_to(KERNEL)
    return "cli" if rel.name == "__main__.py" else rel.parts[0].removesuffix(".py")


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text("utf-8"))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "kernel":
                found += [(node.lineno, f"kernel.{a.name}") for a in node.names]
            elif node.module.startswith("kernel."):
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("kernel.")]
    return found


def _violations() -> list[str]:
    bad = []
    for path in sorted(KERNEL.rglob("*.py")):
        unit = _unit(path)
        where = path.relative_to(paths.ROOT)
        assert unit in LAYERS, f"{path}: no layer assigned to kernel.{unit}"
        for line, module in _imports(path):
            target = module.split(".")[1]
            if target == unit:
                continue
            assert target in LAYERS, f"{path}:{line}: imports unknown kernel.{target}"
            if unit in COMPANIONS and target not in COMPANION_DEPS:
                bad.append(f"{where}:{line}: companion {unit} imports {module}")
            elif unit not in COMPANIONS and target in COMPANIONS and LAYERS[unit] < TOP:
                bad.append(f"{where}:{line}: {unit} imports companion {module}")
            elif LAYERS[target] >= LAYERS[unit] and target not in COMPANIONS:
                bad.append(f"{where}:{line}: {unit} imports upward {module}")
    return bad


def test_imports_point_downward() -> None:
    assert _violations() == []


def test_the_layer_check_can_fail(tmp_path: Path) -> None:
    upward = tmp_path / "x.py"
    upward.write_text("from kernel.decision.decision import decide\n")
    assert _imports(upward) == [(1, "kernel.decision.decision")]


def test_build_lists_every_package() -> None:
    config = tomllib.loads((paths.ROOT / "pyproject.toml").read_text("utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(paths.ROOT).parts) for p in KERNEL.rglob("__init__.py")
    }
    assert on_disk | {"kernel.expression.grammar"} == listed
    assert config["tool"]["setuptools"]["package-dir"] == {"kernel.expression.grammar": "grammar"}


def test_installed_grammar_is_the_top_level_grammar() -> None:
    from kernel.expression.parser import grammar_text

    assert grammar_text() == (paths.ROOT / "grammar" / "expression.lark").read_text("utf-8")


@pytest.mark.parametrize(
    "name", ["kernel.contract", "kernel.lint", "kernel.review", "kernel.round", "kernel.testing"]
)
def test_api_module_paths_still_import(name: str) -> None:
    import importlib

    module = importlib.import_module(name)
    for attr in getattr(module, "__all__", []):
        assert getattr(module, attr) is not None
