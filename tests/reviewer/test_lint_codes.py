"""The code registry covers every code the lints can emit, and the docs table of
docs/reviewer-documents.md lists exactly those codes with their severities."""

from __future__ import annotations

import re

from support import paths

from kernel.diagnostics import REGISTRY

CODE = re.compile(r'"(P[12]-\d{3})"')
LINT_CODES = {c for c in REGISTRY if c[:3] in ("P1-", "P2-")}


def test_every_emitted_code_is_registered() -> None:
    sources = (paths.ROOT / "kernel" / "reviewer" / "lint").glob("*.py")
    emitted = {c for p in sources for c in CODE.findall(p.read_text())}
    assert emitted == LINT_CODES


def test_docs_table_matches_the_registry() -> None:
    page = (paths.ROOT / "docs" / "reviewer-documents.md").read_text("utf-8")
    rows = re.findall(r"^\| (P[12]-\d{3}) \| (\w+) \| (.+) \|$", page, re.MULTILINE)
    assert [code for code, _, _ in rows] == sorted(LINT_CODES)
    for code, _, meaning in rows:
        severity = "warning" if meaning.startswith("warning: ") else "error"
        assert REGISTRY[code].severity == severity
