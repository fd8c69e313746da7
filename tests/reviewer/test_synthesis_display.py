"""Upstream main's reading of a 13.2 synthesis (ars-main §2): audit lines in code fences and
whole-line code spans count, equal copies collapse, different ones abort with the number of
distinct values, and a line the readings take differently is a finding (R20). Under
``ars="fork"`` nothing of this holds (13.2 §G1)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import paths

from kernel.errors import InputError
from kernel.reviewer.roles import scope_of
from kernel.reviewer.synthesis_v2 import Recomputed, check_synthesis_v2

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
SCOPE = scope_of(json.loads((EXAMPLE / "contract.json").read_text()))
VERDICTS = {"D1": "warn", "D2": "pass", "D3": "warn", "D4": "warn", "D5": "warn", "D6": "block"}
RIGHT = Recomputed(("F2", "F3", "F4"), "editorial_decision=major_revision", VERDICTS, ("C1", "C2"))
FIRED = "fired_conditions: [F2, F3, F4]"
VERDICT_LINE = "dimension_verdicts: [D1=warn, D2=pass, D3=warn, D4=warn, D5=warn, D6=block]"
ADJUDICATED = "da_critical_adjudications: [C1=VALIDATED, C2=REJECTED]"
DECISION = "editorial_decision=major_revision"
AUDIT = (FIRED, VERDICT_LINE, ADJUDICATED, DECISION)
RATIONALE = "C2 rejection rationale: Table 4 reports attrition by arm and it does not differ."
PROSE = """# Editorial synthesis

Five seats reported. The methodology seat and the devil's advocate raise the decisive points:
the subgroup analyses are underpowered, and the comparison group's later start is an
unanswered objection that would overturn the central claim (a repairable block on D6).
"""


def synthesis(audit: str) -> str:
    return f"{PROSE}\n{RATIONALE}\n\n{audit}\n"


def messages(text: str, ars: str = "main") -> list[str]:
    return [f.tag for f in check_synthesis_v2(SCOPE, RIGHT, text, ars=ars).findings]


def parse(what: str) -> list[str]:
    return [f"[SYNTHESIS-PARSE: synthesis: {what}]"]


def missing(label: str = "fired_conditions") -> list[str]:
    return parse(f"expected exactly one {label} line, found 0")


PLAIN = "\n".join(AUDIT)

#: Syntheses upstream main passes (ars-main §2.2), as models write them.
PASSING = {
    "one plain copy": PLAIN,
    "a text fence": "```text\n" + PLAIN + "\n```",
    "a bare fence": "The audit lines, for the record:\n\n```\n" + PLAIN + "\n```",
    "a json fence indented two spaces": "  ```json\n  " + "\n  ".join(AUDIT) + "\n  ```",
    "a tilde fence, closed by a longer run": "~~~ audit\n" + PLAIN + "\n~~~~~",
    "an unclosed fence at the end": "Audit:\n\n````\n" + PLAIN,
    "whole-line code spans": "\n\n".join(f"`{line}`" for line in AUDIT),
    "padded code spans": "\n\n".join(f"`` {line} ``" for line in AUDIT),
    "a plain copy and a fenced copy": PLAIN + "\n\n```\n" + PLAIN + "\n```",
    "a plain copy and a fenced one with other spacing in the brackets": PLAIN
    + "\n\n```\nfired_conditions: [ F2, F3, F4 ]\n```",
}


@pytest.mark.parametrize("name", list(PASSING))
def test_main_reads_audit_lines_in_fences_and_code_spans(name: str) -> None:
    text = synthesis(PASSING[name])
    assert messages(text) == []
    report = check_synthesis_v2(SCOPE, RIGHT, text)
    assert report.fired == RIGHT.fired and report.action == RIGHT.action


@pytest.mark.parametrize("name", [n for n in PASSING if "plain copy" not in n])
def test_the_fork_counts_only_unfenced_lines_as_written(name: str) -> None:
    found = messages(synthesis(PASSING[name]), ars="fork")
    assert found and found[0].startswith("[SYNTHESIS-PARSE: synthesis: expected exactly one")


@pytest.mark.parametrize(
    ("audit", "expected"),
    [
        (  # a plain copy and a fenced copy that differ
            PLAIN + "\n\n```text\nfired_conditions: [F1]\n```",
            parse("expected exactly one fired_conditions line, found 2"),
        ),
        (  # the comparison is of text: [F2, F3, F4] and [F2,F3,F4] differ (quirk kept)
            PLAIN + "\n\n`fired_conditions: [F2,F3,F4]`",
            parse("expected exactly one fired_conditions line, found 2"),
        ),
        (
            PLAIN + "\n\n```\nfired_conditions: [F2]\nfired_conditions: [F3]\n```",
            parse("expected exactly one fired_conditions line, found 3"),
        ),
        (  # a block quote is no candidate
            "\n".join(AUDIT[1:]) + "\n\n> " + FIRED,
            missing(),
        ),
        (  # code spans inside a fence are literal
            "\n".join(AUDIT[1:]) + "\n\n```\n`" + FIRED + "`\n```",
            missing(),
        ),
        (  # an emphasised line, an indented line, an audit line quoted inside prose
            "\n".join(AUDIT[1:]) + f"\n\n*{FIRED}*\n\n    {FIRED}\n\nWe wrote `{FIRED}` above.",
            missing(),
        ),
        (
            PLAIN + "\n\n```\neditorial_decision=accept\n```",
            parse("expected exactly one valid decision"),
        ),
    ],
)
def test_distinct_values_abort_and_non_candidates_do_not_count(
    audit: str, expected: list[str]
) -> None:
    assert messages(synthesis(audit)) == expected


@pytest.mark.parametrize(
    ("audit", "why"),
    [
        (  # a fence the line reading does not open: inside a list item for CommonMark
            "- the audit:\n  ```\n" + "\n".join("  " + a for a in AUDIT) + "\n  ```",
            "list item",
        ),
        (  # a lazy continuation into a quote
            "> The panel's audit, verbatim:\n" + PLAIN,
            "block quote",
        ),
        (  # inside an HTML comment, which main reads (ars-main §2.1.6)
            "<!--\n" + PLAIN + "\n-->",
            "HTML block or comment",
        ),
        (  # a setext underline turns the decision line into a heading
            "\n".join(AUDIT) + "\n---",
            "heading",
        ),
        (  # a fence inside an HTML block: fenced for the line reading only
            "<div>\n~~~\n" + PLAIN + "\n~~~\n</div>",
            "HTML block",
        ),
    ],
)
def test_a_line_the_readings_take_differently_is_a_finding(audit: str, why: str) -> None:
    (message,) = messages(synthesis(audit))
    assert message.startswith("[SYNTHESIS-PARSE: synthesis: line ")
    assert why in message and message.endswith("the readings must agree (R20)]")


def test_rationales_and_the_marker_still_read_unfenced_lines_only() -> None:
    text = f"{PROSE}\n{PLAIN}\n\n```\n{RATIONALE}\n```\n"
    assert messages(text) == ["[DA-CRITICAL-RATIONALE-MISSING: C2]"]
    # a rationale fenced for one reading only is still the old R20 finding
    listed = f"{PROSE}\n{PLAIN}\n\n- note\n  ```\n{RATIONALE}\n  ```\n"
    (message,) = messages(listed)
    assert "inside fenced code for one reading only" in message


def test_fork_results_are_unchanged_on_the_worked_example() -> None:
    text = (EXAMPLE / "synthesis.md").read_text("utf-8")
    assert messages(text, "fork") == messages(text, "main") == []


_SHAPES = st.sampled_from(["plain", "fence", "tilde", "span", "padded", "indented-fence"])


def _shown(lines: list[str], shape: str) -> str:
    if shape == "plain":
        return "\n".join(lines)
    if shape == "fence":
        return "```text\n" + "\n".join(lines) + "\n```"
    if shape == "tilde":
        return "~~~\n" + "\n".join(lines) + "\n~~~"
    if shape == "indented-fence":
        return "   ```\n" + "\n".join("   " + line for line in lines) + "\n   ```"
    if shape == "span":
        return "\n\n".join(f"`{line}`" for line in lines)
    return "\n\n".join(f"`` {line} ``" for line in lines)


@st.composite
def _wrapped(draw: st.DrawFn) -> tuple[list[str], str]:
    """The four audit lines (some right, some wrong), each group shown one way."""
    fired = draw(st.sampled_from([FIRED, "fired_conditions: [F2, F3]", "fired_conditions: []"]))
    decision = draw(st.sampled_from([DECISION, "editorial_decision=accept"]))
    lines = draw(st.permutations([fired, VERDICT_LINE, ADJUDICATED, decision]))
    cut = draw(st.integers(0, 4))
    return lines, "\n\n".join(
        _shown(part, draw(_SHAPES)) for part in (lines[:cut], lines[cut:]) if part
    )


@given(_wrapped())
def test_fencing_or_coding_the_audit_lines_never_changes_the_verdict(
    case: tuple[list[str], str],
) -> None:
    lines, shown = case
    assert messages(synthesis(shown)) == messages(synthesis("\n".join(lines)))


@given(
    _wrapped(),
    st.sampled_from(
        [
            "fired_conditions: [F1]",
            "dimension_verdicts: [D1=pass]",
            "da_critical_adjudications: []",
            "editorial_decision=reject",
        ]
    ),
    _SHAPES,
)
def test_a_conflicting_copy_always_aborts(
    case: tuple[list[str], str], other: str, shape: str
) -> None:
    _, shown = case
    found = messages(synthesis(shown + "\n\n" + _shown([other], shape)))
    assert len(found) == 1
    assert "found 2]" in found[0] or "exactly one valid decision" in found[0]


def test_ten_thousand_repeated_audit_lines_and_a_large_fence() -> None:
    repeated = "```\n" + "\n".join(AUDIT * 2_500) + "\n```"
    assert messages(synthesis(repeated)) == []
    copies = "\n".join(f"fired_conditions: [F{i % 3}]" for i in range(10_000))
    conflicting = PLAIN + "\n\n```\n" + copies
    assert "found 4]" in messages(synthesis(conflicting))[0]
    big = "```\n" + ("x" * 1000 + "\n") * 1000 + PLAIN  # unclosed: runs to the end
    assert messages(synthesis(big)) == []


def test_a_synthesis_over_the_work_bound_is_an_input_error() -> None:
    text = synthesis(PLAIN) + "```\n" + "x\n" * 25_000
    for ars in ("main", "fork"):
        with pytest.raises(InputError, match="synthesis: too large to read") as exc:
            check_synthesis_v2(SCOPE, RIGHT, text, ars=ars)
        assert exc.value.code == "E-INPUT"
