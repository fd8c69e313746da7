"""Pinned lint results: the report value (``ok``, ``errors``, ``failed_checks``, ``to_dict``) and
the consistency tokeniser's rule, on public names only."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from kernel import load_contract
from kernel.reviewer.lint import Finding, LintReport, lint_phase2
from kernel.reviewer.lint.tokens import STOP_WORDS, WordLookup, trigger_tokens, words
from kernel.reviewer.render import render_phase1, render_phase2


def test_finding_to_dict() -> None:
    f = Finding("P2-010", "bad score", 7, "dimension_scores")
    assert f.severity == "error"
    assert f.to_dict() == {
        "code": "P2-010",
        "check": "dimension_scores",
        "severity": "error",
        "line": 7,
        "message": "bad score",
    }
    assert list(f.to_dict()) == ["code", "check", "severity", "line", "message"]


def test_report_verdict_and_failed_checks() -> None:
    warning = Finding("P1-090", "w", 1, "advisory", "warning")
    info = Finding("P1-091", "i", None, "advisory", "info")
    e1 = Finding("P2-020", "a", 3, "failure_condition_checks")
    e2 = Finding("P2-010", "b", 2, "dimension_scores")
    e3 = Finding("P2-021", "c", 4, "failure_condition_checks")
    assert LintReport(1, ()).ok
    assert LintReport(1, (warning, info)).ok
    assert LintReport(1, (warning, info)).errors == ()
    report = LintReport(2, (warning, e1, info, e2, e3))
    assert not report.ok
    assert report.errors == (e1, e2, e3)
    assert report.failed_checks == ("failure_condition_checks", "dimension_scores")


def test_report_to_dict() -> None:
    e = Finding("P2-010", "b", 2, "dimension_scores")
    assert LintReport(1, (e,)).to_dict() == {"phase": 1, "ok": False, "findings": [e.to_dict()]}
    report = LintReport(
        2,
        (),
        multi_dissent=True,
        scores={"D1": "pass"},
        fired={"F1": False},
        decision="editorial_decision=accept",
        consistency_checked=True,
    )
    assert report.to_dict() == {
        "phase": 2,
        "ok": True,
        "findings": [],
        "multi_dissent": True,
        "scores": {"D1": "pass"},
        "fired": {"F1": False},
        "decision": "editorial_decision=accept",
        "consistency_checked": True,
    }
    empty = LintReport(2, ()).to_dict()
    assert (empty["scores"], empty["fired"], empty["decision"]) == (None, None, None)
    assert (empty["multi_dissent"], empty["consistency_checked"]) == (False, False)


def test_a_rendered_phase2_reads_back_completely() -> None:
    plan = {
        d: {
            "what_to_look_for": f"evidence for {d}",
            "what_triggers_block": "fabricated data",
            "what_triggers_warn": "small sample",
        }
        for d in ("D1", "D2", "D3", "D4", "D5")
    }
    scores = {"D1": "warn", "D2": "pass", "D3": "pass", "D4": "block", "D5": "pass"}
    contract = load_contract("reviewer/full")
    phase1 = render_phase1(contract, plan)
    body = "The small sample and fabricated data in the evidence."
    text = render_phase2(contract, scores, body=body)
    report = lint_phase2(text, contract, phase1)
    assert report.ok, report.findings
    assert report.consistency_checked
    assert dict(report.scores or {}) == scores
    assert dict(report.fired or {}) == {"F1": False, "F2": False, "F3": True, "F0": False}
    assert report.decision == "editorial_decision=major_revision"
    assert report.to_dict()["scores"] == scores


_WORD = re.compile(r"[^\W_]+")


@given(st.text(max_size=60))
@example("size sizes oversize_SIZE d'être \uff211 ß")
@example("a\u200bb")
def test_words_are_maximal_alphanumeric_runs(text: str) -> None:
    expected = set()
    current = ""
    for ch in text + "\0":
        if ch.isalnum():
            current += ch
        elif current:
            expected.add(current.casefold())
            current = ""
    assert words(text) == expected
    if text.isascii():
        assert words(text) == {w.casefold() for w in _WORD.findall(text)}


def test_trigger_tokens() -> None:
    assert words("Size, sizes; over-size") == {"size", "sizes", "over"}
    assert trigger_tokens("The sample is a x of n < 30 AND") == frozenset({"sample", "30"})
    assert trigger_tokens("") == frozenset()
    assert trigger_tokens("if it is not") == frozenset()
    assert {"the", "and", "not", "with", "would"} <= STOP_WORDS
    assert "sample" not in STOP_WORDS
    assert words("ab") == {"ab"} and words("a b") == {"a", "b"} and words("") == set()


_TEXTS = st.text(alphabet=st.sampled_from("abAB1 .-é\u00a0ß"), max_size=30)
_WORDS = st.text(alphabet=st.sampled_from("abAB1éß"), min_size=1, max_size=4).map(str.casefold)


@given(_TEXTS, st.lists(st.frozensets(_WORDS, max_size=6), max_size=8))
@example("Rigor, weak.", [frozenset({"rigor"}), frozenset({"weak", "x"}), frozenset({"y"})])
@example("STRASSE", [frozenset({"strasse"})])
def test_word_lookup_answers_like_the_whole_word_set(text: str, asks: list[frozenset[str]]) -> None:
    lookup = WordLookup(text)
    everything = words(text)
    for wanted in asks:
        assert lookup.has_any(wanted) == (not everything.isdisjoint(wanted))
