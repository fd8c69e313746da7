"""Upstream main's escalation-only Severity supersession (ars-main §3): a finding may restate
its Severity strictly upwards; the last value is the one the anchor rule reads, with the
``[SEVERITY-SUPERSEDED …]`` warning. Falling, repeated and same-line values still fail, and
under ``ars="fork"`` any second Severity fails (13.2 §F11.1(g))."""

from __future__ import annotations

import json

import pytest
from support import paths

from kernel.reviewer.lint.dialects import lint_phase2

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = json.loads((EXAMPLE / "contract.json").read_text("utf-8"))
P1 = (EXAMPLE / "eic.phase1.md").read_text("utf-8")
P2 = (EXAMPLE / "eic.phase2.md").read_text("utf-8")
FINDING = """### W1: Relevance asserted, not shown

**Severity**: Minor

**Evidence Anchor**: text: "of interest to researchers across the social sciences"
"""
ANCHOR = '**Evidence Anchor**: text: "of interest to researchers across the social sciences"'
TITLE = "W1: Relevance asserted, not shown"


def report(finding: str, ars: str = "main") -> list[tuple[str, str, str]]:
    assert FINDING in P2
    text = P2.replace(FINDING, finding)
    found = lint_phase2(text, CONTRACT, P1, role="eic", source="eic.phase2.md", ars=ars)
    return [(f.code, f.severity, f.message) for f in found.findings]


def superseded(chain: str) -> tuple[str, str, str]:
    last = chain.rpartition(" -> ")[2]
    return (
        "P2-147",
        "warning",
        f"[SEVERITY-SUPERSEDED: eic.phase2.md: {TITLE}: {chain}] the last value ({last}) "
        "counts; write it once to silence this",
    )


def grammar(what: str) -> tuple[str, str, str]:
    fix = "write one line '**Severity**: Critical', '**Severity**: Major' or '**Severity**: Minor'"
    return ("P2-121", "error", f"[FINDING-GRAMMAR: eic.phase2.md: {what}] {fix}")


UPWARD = f"""### {TITLE}

**Severity**: Major

The reach beyond the subfield is the paper's selling point, and nothing supports it. On a
second reading I now record this as Critical; the line below replaces the line above.

**Severity**: Critical

{ANCHOR}
"""


def test_an_upward_restatement_passes_with_the_warning() -> None:
    assert report(UPWARD) == [superseded("Major -> Critical")]


def test_a_chain_of_three_and_bulleted_or_table_declarations() -> None:
    three = UPWARD.replace("**Severity**: Major", "**Severity**: Minor\n\n- **Severity**: Major")
    assert report(three) == [superseded("Minor -> Major -> Critical")]
    table = UPWARD.replace("**Severity**: Critical", "| **Severity**: Critical | escalated |")
    assert report(table) == [superseded("Major -> Critical")]


def test_the_last_value_is_the_one_the_anchor_rule_reads() -> None:
    no_anchor = f"### {TITLE}\n\n**Severity**: Minor\n\nLater: worse.\n\n**Severity**: Major\n"
    assert report(no_anchor) == [
        superseded("Minor -> Major"),
        ("P2-122", "error", f"[ANCHOR-MISSING: eic.phase2.md: {TITLE} Major finding needs "
         "exactly one Evidence Anchor] write one line '**Evidence Anchor**: <type>: <where>', "
         "the type one of text, table, figure, equation, dataset, absence (e.g. 'text: "
         "Introduction, para. 2, \"the quoted words\"')"),
    ]
    # the same finding with one Minor line needs no anchor
    assert report(f"### {TITLE}\n\n**Severity**: Minor\n\nLater: worse.\n") == []


@pytest.mark.parametrize(
    ("severities", "chain"),
    [
        (["Critical", "Minor"], "Critical -> Minor"),
        (["Major", "Major"], "Major -> Major"),
        (["Minor", "Major", "Minor"], "Minor -> Major -> Minor"),
        (["Minor", "Critical", "Major"], "Minor -> Critical -> Major"),
    ],
)
def test_falling_repeated_or_non_monotone_values_fail(severities: list[str], chain: str) -> None:
    lines = "\n\nA second look.\n\n".join(f"**Severity**: {s}" for s in severities)
    finding = f"### {TITLE}\n\n{lines}\n\n{ANCHOR}\n"
    (found,) = report(finding)
    assert found[:2] == ("P2-121", "error")
    assert "strictly escalating" in found[2] and chain in found[2]
    assert report(finding, "fork") == [
        grammar(f"{TITLE} must contain exactly one parseable Severity declaration")
    ]


@pytest.mark.parametrize(
    "finding",
    [
        # two values on one line (a table row beside another declaration)
        f"### {TITLE}\n\n| **Severity**: Minor | **Severity**: Critical |\n\n{ANCHOR}\n",
        # a value that does not parse
        f"### {TITLE}\n\n**Severity**: High\n\n{ANCHOR}\n",
        # a declaration that does not parse beside one that does
        f"### {TITLE}\n\n**Severity**: Minor\n\n**Severity:** Major\n\n{ANCHOR}\n",
    ],
)
def test_same_line_and_unparseable_values_fail_exactly_one(finding: str) -> None:
    expected = [grammar(f"{TITLE} must contain exactly one parseable Severity declaration")]
    assert report(finding) == report(finding, "fork") == expected


def test_the_fork_refuses_any_restatement() -> None:
    assert report(UPWARD, "fork") == [
        grammar(f"{TITLE} must contain exactly one parseable Severity declaration")
    ]


def test_a_fenced_restatement_is_not_counted_by_either_reading() -> None:
    fenced = FINDING + "\n```text\n**Severity**: Critical\n```\n"
    assert report(fenced) == report(fenced, "fork") == []


def test_earlier_warnings_are_kept_when_a_later_finding_fails() -> None:
    later = "\n### W2: Another\n\n**Severity**: Major\n\nNo anchor here.\n"
    found = report(UPWARD + later)
    assert found[0] == superseded("Major -> Critical")
    assert found[1][0] == "P2-122" and "W2: Another Major" in found[1][2]
