"""The diagnostic registry: complete, consistent, and the docs page generated from it."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import paths

from kernel.contract.warnings import RULES
from kernel.diagnostics import REGISTRY, SEVERITIES, Diagnostic, codes_markdown, from_error
from kernel.errors import ContractError, InputError, KernelError, MatrixError, PanelShrunk

#: What a diagnostic code looks like wherever the kernel writes one as a literal.
CODE_LITERAL = re.compile(
    r"(?:E|SC|P1|P2|AN|ARENA|CN|PANEL|INJECTION)-[A-Z0-9][A-Z0-9-]*|PARSER_(?:WARNING|ERROR)_[A-Z_]+"
)


def _literals() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for path in (paths.ROOT / "kernel").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        # The fixed part of an f-string ("ARENA-C" in f"ARENA-C{n:02d}") is not a code.
        parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if id(node) in parts:
                continue
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and CODE_LITERAL.fullmatch(node.value)
            ):
                found.add((node.value, str(path.relative_to(paths.ROOT))))
    return found


def test_every_code_literal_in_the_kernel_is_registered() -> None:
    literals = _literals()
    assert len(literals) > 50  # the scan finds the codes (it can fail)
    unregistered = sorted((code, where) for code, where in literals if code not in REGISTRY)
    # "INJECTION-" is the prefix the panel scan completes with a category (tested below).
    assert [u for u in unregistered if u[0] != "INJECTION-"] == []


def test_arena_codes_cover_every_conformance_check() -> None:
    from kernel.arena.conformance import CHECKS

    arena = sorted(c for c in REGISTRY if c.startswith("ARENA-C"))
    assert arena == [f"ARENA-C{n:02d}" for n in range(1, len(CHECKS) + 1)]


def test_injection_codes_cover_every_category() -> None:
    from kernel.text.injection import CATEGORIES

    for category in CATEGORIES:
        assert "INJECTION-" + category.upper().replace("_", "-") in REGISTRY


def test_corpus_and_examples_emit_only_registered_codes() -> None:
    from kernel.contract.model import load_contract
    from kernel.reviewer.lint import lint_phase1, lint_phase2

    contract = load_contract("reviewer/full")
    manifest = json.loads((paths.CORPUS / "manifest.json").read_text("utf-8"))
    phase1 = (paths.CORPUS / "base.phase1.md").read_text("utf-8")
    seen: set[str] = set()
    for case in manifest["cases"]:
        text = (paths.CORPUS / case["file"]).read_text("utf-8")
        report = (
            lint_phase1(text, contract)
            if case["phase"] == 1
            else lint_phase2(text, contract, phase1)
        )
        seen |= {d.code for d in report.diagnostics(case["file"])}
    for doc in sorted((paths.EXAMPLES / "full").glob("*.md")):
        text = doc.read_text("utf-8")
        for report in (lint_phase1(text, contract), lint_phase2(text, contract)):
            seen |= {d.code for d in report.diagnostics(doc.name)}
    assert seen and seen <= set(REGISTRY)
    assert {"P1-001", "P2-043"} <= seen


def test_every_registry_entry_is_complete() -> None:
    for code, entry in REGISTRY.items():
        assert entry.id == code
        assert entry.severity in SEVERITIES
        assert entry.summary and entry.rule and "\n" not in entry.summary


def test_every_sc_rule_is_registered_once() -> None:
    registered = {c for c in REGISTRY if c.startswith("SC-")}
    # SC-12 is a hard error of the structural checks, SC-8 was promoted there too (seed §4.3).
    assert set(RULES) == registered - {"SC-12"}
    assert "SC-8" not in REGISTRY


def test_unregistered_code_cannot_be_built() -> None:
    with pytest.raises(ValueError, match="not registered"):
        Diagnostic("P9-999", "made up")
    with pytest.raises(ValueError, match="severity"):
        Diagnostic("P1-001", "x", severity="fatal")  # type: ignore[arg-type]


@given(
    code=st.sampled_from(sorted(REGISTRY)),
    message=st.text(max_size=30),
    file=st.none() | st.text(min_size=1, max_size=10),
    line=st.none() | st.integers(1, 10**6),
    column=st.none() | st.integers(1, 500),
)
def test_diagnostic_value(
    code: str, message: str, file: str | None, line: int | None, column: int | None
) -> None:
    d = Diagnostic(code, message, file=file, line=line, column=column)
    assert d.severity == REGISTRY[code].severity
    data = d.to_dict()
    assert set(data) >= {"code", "severity", "message", "file", "line", "column"}
    assert data["code"] == code and data["line"] == line
    text = str(d)
    assert f"{code} {message}" in text
    if file is not None and line is not None:
        expected = f"{file}:{line}:{column}: " if column is not None else f"{file}:{line}: "
        assert text.startswith(expected)


def test_docs_codes_page_is_fresh() -> None:
    page = paths.ROOT / "docs" / "codes.md"
    assert page.read_text("utf-8") == codes_markdown(), (
        "docs/codes.md is stale: run sprint-kernel codes --write docs/codes.md"
    )
    for code in REGISTRY:
        assert f"`{code}`" in page.read_text("utf-8")


def test_codes_check_command_detects_a_stale_page(tmp_path: Path) -> None:
    from kernel.cli.codes import main

    page = tmp_path / "codes.md"
    assert main(["--check", str(page)]) == 1
    assert main(["--write", str(page)]) == 0
    assert main(["--check", str(page)]) == 0
    page.write_text(page.read_text("utf-8").replace("SC-14", "SC-15"), "utf-8")
    assert main(["--check", str(page)]) == 1


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (InputError("f: no such file"), "E-READ"),
        (InputError("f: too big", code="E-SIZE"), "E-SIZE"),
        (ContractError("bad"), "E-CONTRACT"),
        (MatrixError("bad"), "E-MATRIX"),
        (PanelShrunk(2, 5), "E-PANEL-SHRUNK"),
        (KernelError("bad"), "E-INPUT"),
    ],
)
def test_from_error(error: KernelError, code: str) -> None:
    d = from_error(error, "f")
    assert (d.code, d.file) == (code, "f")
    assert not d.message.startswith("f: ")


def test_an_unrecognised_expression_keeps_its_condition_and_column() -> None:
    from kernel.errors import ExpressionUnrecognised

    error = ExpressionUnrecognised("m", expression="x", column=3, condition_id="F1")
    assert (error.expression, error.column, error.condition_id) == ("x", 3, "F1")
    assert error.tag is not None and "F1" in error.tag
