"""The lint codes registry (kernel.reviewer.lint.codes.CODES) covers every code the lints can
emit, and the docs table says the same."""

from __future__ import annotations

import re

from support import paths

from kernel.reviewer.lint.codes import CODES

CODE = re.compile(r'"(P[12]-\d{3})"')


def test_every_emitted_code_is_registered() -> None:
    sources = (paths.ROOT / "kernel" / "reviewer" / "lint").glob("*.py")
    emitted = {c for p in sources if p.name != "codes.py" for c in CODE.findall(p.read_text())}
    assert emitted == set(CODES)


def test_docs_table_matches_the_registry() -> None:
    page = (paths.ROOT / "docs" / "reviewer-documents.md").read_text("utf-8")
    rows = re.findall(r"^\| (P[12]-\d{3}) \| (\w+) \| (.+) \|$", page, re.MULTILINE)
    assert [code for code, _, _ in rows] == sorted(CODES)
    for code, _, meaning in rows:
        severity, summary, reference = CODES[code]
        assert severity == ("warning" if meaning.startswith("warning: ") else "error")
        assert " ".join(summary.split()) == meaning.removeprefix("warning: ")
        assert reference.startswith("docs/reviewer-documents.md#")
