"""Issue 39: every 13.2 finding stands on its line, quotes what it compares, and says what
would pass, after upstream's bracketed tag kept word for word.

Each 13.2 code (P1-1xx, P2-1xx, SY-1xx) is failed by a realistic document: its rule page's
example (the shipped round with one passage changed, run through ``sprint-kernel lint``),
the mutations of ``test_lint_v2`` and the synthesis checks below. A finding must stand on a
line of the changed passage unless :data:`ELSEWHERE` says where it stands instead, and may
go without a line only when :data:`NO_LINE` says why the offending text has none.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import paths
from test_lint_v2 import (
    DA_MUTATIONS,
    DA_P1,
    DA_P2,
    P1,
    P2,
    PHASE1_MUTATIONS,
    PHASE2_MUTATIONS,
    ROLE,
    SCOPE,
)
from test_rule_pages import _RUNS

from kernel.cli.main import main
from kernel.diagnostics import REGISTRY, explanation
from kernel.reviewer.lint.phase1_v2 import lint_phase1_v2
from kernel.reviewer.lint.phase2_v2 import lint_phase2_v2
from kernel.reviewer.lint.report import Finding
from kernel.reviewer.synthesis_v2 import Recomputed, check_synthesis_v2

ROOT = paths.ROOT
CODES = sorted(c for c in REGISTRY if re.fullmatch(r"(P1|P2|SY)-1\d\d", c))

#: Findings whose offending text is on no line of the document: they may stand at 1:1.
NO_LINE = {
    "P1-101": "a missing '## Scoring Plan' or '## Contract Paraphrase' (a repeated one stands "
    "on its second heading)",
    "P1-103": "the '##' sections stop short: the missing one has no line (one out of place "
    "stands on its heading)",
    "P1-112": "a manuscript shingle may run across lines and paragraphs of the plan",
    "P1-115": "the document is over a work bound and was not parsed",
    "P1-120": "the seat is the file's name or its partner's contract_role, not a line",
    "P1-121": "two files take one seat: the duplicate is a file",
    "P2-103": "a missing '## Dimension Scores' (a repeated one stands on its second heading)",
    "P2-104": "no contract_role: line at all (a second one stands on its line)",
    "P2-120": "a missing '## Review Body' (a repeated one stands on its second heading)",
    "P2-125": "the binding was not checked: the cause is in the Phase 1 document",
    "P2-126": "the document is over a work bound and was not parsed",
    "P2-127": "the binding was not checked: there is no Phase 1 document",
    "P2-128": "the Phase 1 partner is untracked in git: a property of another file",
    "P2-130": "a DA report without one '## Review Body', or tables whose CRITICAL ids differ "
    "between the readings as a whole",
    "P2-132": "no '#### CRITICAL' band at all",
    "P2-133": "no '#### MAJOR' band at all",
    "P2-140": "two reports take one seat: the duplicate is a file",
    "SY-101": "a missing audit line (a repeated one stands on its second copy)",
}

#: Findings that stand on a line, but not on the changed passage of their rule page's
#: example: the line they stand on instead.
ELSEWHERE = {
    "P2-122": "a finding without an anchor stands on its '### W<n>' heading",
    "P2-141": "the missing receipts section stands at the end of the card, where it belongs",
    "P2-144": "a finding without its receipt back-reference stands on its '### W<n>' heading",
}

#: Codes whose upstream tag already holds what would pass, and the words that say it.
FIX_IN_TAG = {
    "P2-119": "read as no dissent",
    "P2-131": "use the CRITICAL and MAJOR issue tables",
    "P2-141": "write the receipts, or no_recomputable_statistics",
    "P2-142": "write it plain at column 0",
    "P2-143": "must show both the two-tailed and the one-tailed value",
    "P2-144": "must carry exactly one **Arithmetic Receipt**",
}

#: Codes with no checked rule page example, failed below by a library call instead.
BY_LIBRARY = {
    "P1-104",
    "P1-106",
    "P1-107",
    "P2-115",
    "P2-116",
    "P2-118",
    "P2-131",
    "P2-132",
    "P2-133",
    "P2-134",
    "SY-101",
    "SY-102",
    "SY-103",
    "SY-104",
    "SY-105",
}


def _checked(code: str) -> bool:
    page = explanation(code)
    return page is not None and page.base is not None and page.command is not None


def test_every_13_2_code_is_failed_here_or_says_why_not() -> None:
    assert len(CODES) > 60
    untested = [c for c in CODES if not _checked(c) and c not in BY_LIBRARY and c not in NO_LINE]
    assert not untested, untested


def says_what_would_pass(code: str, message: str, tag: str) -> bool:
    """Upstream's tag opens the message word for word, and what would pass follows it (or,
    for :data:`FIX_IN_TAG`, is inside it)."""
    if code in FIX_IN_TAG:
        return FIX_IN_TAG[code] in message
    return message.startswith(tag) and len(message[len(tag) :].strip()) >= len("keep one")


def _tag(message: str) -> str:
    return Finding("P1-101", message, None, "x").tag


def _run(tmp: Path, code: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> Any:
    page = explanation(code)
    assert page is not None and page.base is not None and page.command is not None
    original = (ROOT / page.base).read_text("utf-8")
    text = original.replace(page.passing, page.failing)
    first = original.index(page.passing)
    start = original[:first].count("\n") + 1
    changed = range(start, start + page.failing.count("\n") + 1)
    argv, beside = _RUNS[page.command]
    monkeypatch.chdir(tmp)
    for name in beside:
        shutil.copy(ROOT / name, tmp / Path(name).name)
    target = tmp / Path(page.base).name
    target.write_text(text, encoding="utf-8")
    capsys.readouterr()
    with contextlib.suppress(SystemExit):
        main([*(a.replace("{file}", str(target)) for a in argv), "--format", "json", "--isolated"])
    out = json.loads(capsys.readouterr().out)
    found = [
        d for d in out["diagnostics"] if d["code"] == code and Path(d["file"]).name == target.name
    ]
    return found, changed


@pytest.mark.parametrize("code", [c for c in CODES if _checked(c)])
def test_the_rule_page_example_stands_on_its_line_and_says_what_passes(
    code: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    found, changed = _run(tmp_path, code, monkeypatch, capsys)
    assert found, code
    for d in found:
        assert says_what_would_pass(code, d["message"], _tag(d["message"])), d["message"]
    if code not in NO_LINE and code not in ELSEWHERE:
        assert any(d["line"] in changed for d in found), (
            [(d["line"], d["message"]) for d in found],
            changed,
        )


def _located(findings: tuple[Finding, ...], tag: str) -> list[Finding]:
    hits = [f for f in findings if tag in f.tag]
    assert hits, [f.message for f in findings]
    for f in hits:
        assert f.line is not None or f.code in NO_LINE, f.message
        assert says_what_would_pass(f.code, f.message, f.tag), f.message
    return hits


@pytest.mark.parametrize(
    ("mutate", "tag"), [m[1:] for m in PHASE1_MUTATIONS], ids=[m[0] for m in PHASE1_MUTATIONS]
)
def test_each_phase1_finding_stands_on_its_line(mutate: Callable[[str], str], tag: str) -> None:
    _located(lint_phase1_v2(mutate(P1), SCOPE, ROLE).findings, tag)


@pytest.mark.parametrize(
    ("mutate", "tag"), [m[1:] for m in PHASE2_MUTATIONS], ids=[m[0] for m in PHASE2_MUTATIONS]
)
def test_each_phase2_finding_stands_on_its_line(mutate: Callable[[str], str], tag: str) -> None:
    _located(lint_phase2_v2(mutate(P2), SCOPE, P1, role=ROLE).findings, tag)


@pytest.mark.parametrize(
    ("mutate", "tag"), [m[1:] for m in DA_MUTATIONS], ids=[m[0] for m in DA_MUTATIONS]
)
def test_each_da_table_finding_stands_on_its_line(mutate: Callable[[str], str], tag: str) -> None:
    _located(lint_phase2_v2(mutate(DA_P2), SCOPE, DA_P1, role="da").findings, tag)


def _line_of(text: str, needle: str, after: int = 0) -> int:
    lines = text.split("\n")
    return next(i for i, t in enumerate(lines, 1) if i > after and needle in t)


def test_phase1_scope_findings_name_the_subsections_to_write() -> None:
    short = P1.replace(P1[P1.index("### D5") : P1.index("[CONTRACT-ACKNOWLEDGED]")], "")
    (scope,) = [f for f in lint_phase1_v2(short, SCOPE, ROLE).findings if f.code == "P1-107"]
    assert scope.message.endswith("add '### D5: writing_and_structure'")
    stray = P1.replace(
        "[CONTRACT-ACKNOWLEDGED]", "### D1: methodology_rigor\n\n[CONTRACT-ACKNOWLEDGED]"
    )
    (role,) = [f for f in lint_phase1_v2(stray, SCOPE, ROLE).findings if f.code == "P1-106"]
    assert role.line == _line_of(stray, "### D1: methodology_rigor")
    assert "remove it: role eic plans '### D3: argumentative_coherence'" in role.message
    thin = P1.replace(P1[P1.index("## Contract Paraphrase") : P1.index("## Scoring Plan")], "")
    thin = thin.replace(
        "## Scoring Plan", "## Contract Paraphrase\n\nOne paragraph.\n\n## Scoring Plan"
    )
    (few,) = [f for f in lint_phase1_v2(thin, SCOPE, ROLE).findings if f.code == "P1-104"]
    assert few.line == _line_of(thin, "## Contract Paraphrase")
    assert "write at least" in few.message and "paragraphs of prose" in few.message


def test_a_field_defect_stands_on_the_field_line_and_names_the_field() -> None:
    twice = P1.replace("dimension_id: D4", "dimension_id: D4\ndimension_id: D4")
    (found,) = [f for f in lint_phase1_v2(twice, SCOPE, ROLE).findings if f.code == "P1-108"]
    assert found.line == _line_of(twice, "dimension_id: D4") + 1
    assert found.message.endswith("keep one dimension_id: line")
    gone = P1.replace("what_to_look_for:", "what_to_look_at:", 1)
    missing = [f for f in lint_phase1_v2(gone, SCOPE, ROLE).findings if f.code == "P1-108"]
    assert any("add a line 'what_to_look_for: <text>' under '### D3" in f.message for f in missing)
    block = P1.split("### D4")[1].split("\n")
    warn = next(t for t in block if t.startswith("what_triggers_block: "))[21:]
    same = P1.replace(
        next(t for t in block if t.startswith("what_triggers_warn: ")),
        f"what_triggers_warn: {warn}",
    )
    (collision,) = [f for f in lint_phase1_v2(same, SCOPE, ROLE).findings if f.code == "P1-110"]
    assert collision.line == _line_of(same, f"what_triggers_warn: {warn}")
    assert f"what_triggers_warn repeats what_triggers_block {warn!r}" in collision.message


def test_trigger_and_dissent_findings_stand_on_the_lines_they_compare() -> None:
    seen: set[str] = set()
    for name, mutate, tag in PHASE2_MUTATIONS:
        text = mutate(P2)
        for f in lint_phase2_v2(text, SCOPE, P1, role=ROLE).findings:
            if tag in f.tag and f.code in ("P2-115", "P2-116", "P2-118"):
                line = text.split("\n")[f.line - 1] if f.line else ""
                wanted = {"P2-115": "trigger: ", "P2-116": "dimension_id: D5"}
                wanted["P2-118"] = "block_class: fatal"
                assert line.startswith(wanted[f.code]), (name, f.line, line)
                seen.add(f.code)
    assert seen == {"P2-115", "P2-116", "P2-118"}
    ambiguous = next(m for m in PHASE2_MUTATIONS if m[2] == "TRIGGER-AMBIGUOUS")[1](P2)
    (found,) = [
        f for f in lint_phase2_v2(ambiguous, SCOPE, P1, role=ROLE).findings if f.code == "P2-115"
    ]
    assert "trigger 'cross_disciplinary_relevance' is in what_triggers_block" in found.message
    assert found.message.endswith("; quote words found only in what_triggers_warn")


def test_a_da_numbering_defect_stands_on_its_row_and_names_the_ids() -> None:
    text = DA_P2.replace("| C2 |", "| C3 |")
    (found,) = [f for f in lint_phase2_v2(text, SCOPE, DA_P1, role="da").findings]
    assert found.code == "P2-134" and found.line == _line_of(text, "| C3 |")
    assert found.message.endswith("number the CRITICAL rows C1, C2 in order (C3 here is C2)")


SYNTHESIS_EXAMPLE = ROOT / "examples" / "full-13.2"
SYNTHESIS = (SYNTHESIS_EXAMPLE / "synthesis.md").read_text()
VERDICTS = {"D1": "warn", "D2": "pass", "D3": "warn", "D4": "warn", "D5": "warn", "D6": "block"}
RIGHT = Recomputed(("F2", "F3", "F4"), "editorial_decision=major_revision", VERDICTS, ("C1", "C2"))
RATIONALE = "C2 rejection rationale: Table 4 reports attrition by arm and it does not differ.\n"


@pytest.mark.parametrize(
    ("code", "text", "recomputed", "on", "fix"),
    [
        ("SY-101", SYNTHESIS.replace("[F2, F3, F4]", "[F2, F9]"), RIGHT, "fired_conditions:",
         "name each condition of the contract once: "),
        ("SY-101", SYNTHESIS.replace("editorial_decision=major_revision",
         "editorial_decision=maybe"), RIGHT, "editorial_decision=",
         "write one line 'editorial_decision=<action>'"),
        ("SY-102", SYNTHESIS, Recomputed(("F4",), RIGHT.action, VERDICTS, ("C1", "C2")),
         "fired_conditions:", "the round's scores give 'fired_conditions: [F4]'"),
        ("SY-102", SYNTHESIS, Recomputed(RIGHT.fired, "editorial_decision=reject", VERDICTS,
         ("C1", "C2")), "editorial_decision=", "give 'editorial_decision=reject'"),
        ("SY-103", SYNTHESIS, Recomputed(RIGHT.fired, RIGHT.action, VERDICTS, ("C1",)),
         "da_critical_adjudications:",
         "da_critical_adjudications: [C1=<VALIDATED|REJECTED|UNRESOLVED>]"),
        ("SY-104", SYNTHESIS.replace(RATIONALE, ""), RIGHT, "da_critical_adjudications:",
         "add a line 'C2 rejection rationale: <why the issue does not stand>'"),
        ("SY-105", SYNTHESIS + "[DA-CRITICAL-VS-ACCEPT: 1 validated/unresolved]\n", RIGHT,
         "[DA-CRITICAL-VS-ACCEPT:", "remove it"),
        ("SY-105", SYNTHESIS.replace("[F2, F3, F4]", "[]").replace(
         "editorial_decision=major_revision", "editorial_decision=accept"),
         Recomputed((), "editorial_decision=accept", VERDICTS, ("C1", "C2")),
         "da_critical_adjudications:", "write '[DA-CRITICAL-VS-ACCEPT: 1 validated/unresolved]'"),
    ],
)  # fmt: skip
def test_each_synthesis_finding_stands_on_the_audit_line_and_gives_the_right_one(
    code: str, text: str, recomputed: Recomputed, on: str, fix: str
) -> None:
    findings = check_synthesis_v2(SCOPE, recomputed, text).findings
    (found,) = [f for f in findings if f.code == code]
    assert found.line is not None and text.split("\n")[found.line - 1].startswith(on), found
    assert says_what_would_pass(code, found.message, found.tag) and fix in found.message
