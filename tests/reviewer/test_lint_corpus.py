"""The adversarial corpus (tests/corpus/manifest.json): each document's expected verdict."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import paths

from kernel.contract.model import load_contract
from kernel.reviewer.lint import lint_phase1, lint_phase2

CORPUS = paths.CORPUS
CASES: list[dict[str, Any]] = json.loads((CORPUS / "manifest.json").read_text("utf-8"))["cases"]


def _read(name: str) -> str:
    # newline="" keeps CR and CRLF exactly as stored
    with (CORPUS / name).open(encoding="utf-8", newline="") as fh:
        return fh.read()


def test_every_corpus_file_has_a_verdict() -> None:
    listed = {c["file"] for c in CASES}
    assert listed == {p.name for p in CORPUS.glob("*.md")}


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_corpus_verdict(case: dict[str, Any]) -> None:
    contract = load_contract("reviewer/full")
    text = _read(case["file"])
    if case["phase"] == 1:
        report = lint_phase1(text, contract)
    else:
        report = lint_phase2(text, contract, _read("base.phase1.md"))
        assert report.multi_dissent == case.get("multi_dissent", False)
    assert report.ok == case["ok"], report.findings
    assert sorted({f.code for f in report.findings}) == sorted(case["codes"]), report.findings
    assert all(f.line is None or f.line >= 1 for f in report.findings)
