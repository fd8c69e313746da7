"""Every finding of the golden corpus (tests/support/golden.py) is what today's code reports:
a change meant to keep the lints' output (a speed-up, a split module) keeps all of them.

Plain ``pytest`` checks every eighth case; ``HYPOTHESIS_PROFILE=heavy`` or ``GOLDEN=all``
checks every case. After a change meant to change findings:
``python -m tests.support.golden --write``.
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from support import golden

EVERY = (
    1
    if os.environ.get("HYPOTHESIS_PROFILE") == "heavy" or os.environ.get("GOLDEN") == "all"
    else golden.SUBSET
)
CASES = [c for i, c in enumerate(golden.cases()) if i % EVERY == 0]
GOLD = golden.load()


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_findings_are_the_golden_ones(case: golden.Case) -> None:
    for name, reading in golden.READINGS.items():
        got = golden._jsonable(golden.findings_of(case, reading))
        assert got == GOLD[f"{case.id}@{name}"], (case.id, name)


def test_the_golden_file_holds_every_case_and_no_other() -> None:
    keys = {f"{c.id}@{n}" for c in golden.cases() for n in golden.READINGS}
    assert keys == set(GOLD)
    assert len(keys) >= 2000


def test_the_corpus_reaches_many_findings_and_documents_that_pass() -> None:
    codes: Counter[str] = Counter()
    clean = 0
    for value in GOLD.values():
        found = value.get("findings") or []
        rows = [f for group in found for f in group] if value.get("tags") is not None else found
        codes.update(f[0] for f in rows)
        clean += not rows
    assert len(codes) >= 60, sorted(codes)
    assert {c[:3] for c in codes} >= {"P1-", "P2-"}
    assert 300 <= clean <= len(GOLD) - 300
    sizes = [len(c.text) for c in golden.cases()]
    assert max(sizes) > 20_000 and sum(s > 3000 for s in sizes) > 500
