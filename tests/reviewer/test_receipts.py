"""Arithmetic receipts (ars main §4): the gate over realistic methodology cards, each rule
with a failing and a passing card, the position of each failure, and generated sections."""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from support import paths

from kernel.contract.model import load_contract
from kernel.errors import KernelError
from kernel.reviewer.lint.dialects import lint_phase2
from kernel.reviewer.lint.receipts import (
    NOT_COMPUTABLE_REASONS,
    PROCEDURES,
    STATUSES,
    TAIL_CONVENTIONS,
    Receipt,
    receipt_findings,
    render_attestation,
    render_receipts,
)
from kernel.reviewer.lint.report import Finding
from kernel.reviewer.render import render_phase1, render_phase2
from kernel.reviewer.review import decide_documents
from kernel.reviewer.round_v2 import RoundV2Outcome

#: The example methodology card without its receipts.
EXAMPLE = (
    (paths.ROOT / "examples" / "full-13.2" / "methodology.phase2.md")
    .read_text("utf-8")
    .split("\n## Arithmetic Receipts\n")[0]
)

#: W3 and its receipt: a GRIM mismatch, linked both ways.
W3 = """
### W3: The reported mean of the trust item cannot occur

**Severity**: Critical

**Evidence Anchor**: table: Table 3, M=2.63 with N=23

A mean of 2.63 over 23 answers on a 1-7 integer item needs a sum of 60.49; no sum of whole
answers gives it. The text repeats the value, so it is no typo in the table alone:

```text
status: the authors' own word for it, quoted from the appendix
mean: 2.63 (SD 1.1), N = 23
```

**Arithmetic Receipt**: AR1

### Strengths

The procedure is preregistered and the exclusions follow it.
"""

SECTION = """
## Arithmetic Receipts

The receipts below recompute what the paper reports; each names its anchor.

### AR1
procedure_id: grim
evidence_anchor: table: Table 3, M=2.63 with N=23
reported_inputs: one 1-7 integer item, N=23, two decimals
assumptions: plain mean of one item, as the methods state
derivation: the sums 60 and 61 bracket 23 \u00d7 2.63 = 60.49
derived_value_or_range: 60/23 = 2.6087; 61/23 = 2.6522
comparison_rule: a reachable sum must round to 2.63
rounding_interval: [2.625, 2.635)
nearest_achievable: 60/23 = 2.6087; 61/23 = 2.6522
status: mismatch
finding_ref: W3

### AR2
procedure_id: p_from_test_statistic
evidence_anchor: text: "t(58) = 1.32, p = .19"
reported_inputs: t = 1.32 with 58 degrees of freedom, p = .19
assumptions: Student's t, as the results section names it
derivation: the t distribution with 58 df at 1.32
derived_value_or_range: two-tailed p ≈ .192; one-tailed p ≈ .096
comparison_rule: the reported p must round to the recomputed one
tail_convention: unstated
status: consistent

### AR3
procedure_id: n_from_df
evidence_anchor: text: "F(2, 41) = 3.10"
reported_inputs: F with 2 and 41 df; N = 48 in the abstract
assumptions: one-way ANOVA over three groups
derivation: N = df_error + groups = 41 + 3
derived_value_or_range: 44
comparison_rule: the analysed N must equal the reported N or the exclusions must explain it
status: not_computable
not_computable_reason: analytic_n_ambiguous
"""

CARD = EXAMPLE.rstrip("\n") + "\n" + W3 + SECTION
ATTESTED = (
    EXAMPLE.rstrip("\n")
    + "\n\n## Arithmetic Receipts\n\n"
    + "no_recomputable_statistics: the findings restate no reported statistic\n"
)


def lint(text: str, role: str = "methodology") -> list[Finding]:
    return receipt_findings(text, role=role, source="methodology.phase2.md")


def errors(text: str, role: str = "methodology") -> list[Finding]:
    return [f for f in lint(text, role) if f.severity == "error"]


def line_of(text: str, needle: str, nth: int = 0) -> int:
    hits = [n for n, line in enumerate(text.split("\n"), start=1) if needle in line]
    return hits[nth]


def once(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def test_the_realistic_cards_pass() -> None:
    assert lint(CARD) == []
    (advisory,) = lint(ATTESTED)
    assert advisory.code == "P2-146" and advisory.severity == "warning"
    assert advisory.message.startswith(
        "[RECEIPT-ATTESTATION: methodology.phase2.md: declaration-only"
    )
    assert advisory.line == line_of(ATTESTED, "no_recomputable_statistics")


#: (name, the card, code, message fragment, needle of the offending line (its nth hit)).
FAILING: list[tuple[str, str, str, str, tuple[str, int] | None]] = [
    ("missing", EXAMPLE, "P2-141", "RECEIPT-MISSING", None),
    (
        "duplicate section",
        CARD + "\n## Arithmetic Receipts\n\nno_recomputable_statistics: x\n",
        "P2-142",
        "duplicate ## Arithmetic Receipts",
        ("## Arithmetic Receipts", 1),
    ),
    (
        "appendix after",
        CARD + "\n## Appendix\n\nMore notes.\n",
        "P2-142",
        "must be the final section",
        ("## Appendix", 0),
    ),
    (
        "indented H2 after",
        CARD + "\n  ## Appendix\n",
        "P2-142",
        "must be the final section",
        ("  ## Appendix", 0),
    ),
    (
        "receipts before the body",
        EXAMPLE.replace("## Review Body", SECTION.strip() + "\n\n## Review Body"),
        "P2-142",
        "must be the final section",
        ("## Review Body", 0),
    ),
    (
        "comment markup",
        once(CARD, "### AR2\n", "<!-- checked twice -->\n### AR2\n"),
        "P2-142",
        "HTML comment markup",
        ("<!-- checked twice -->", 0),
    ),
    (
        "hidden H3 from a comment opened in the body",
        once(
            CARD, "## Arithmetic Receipts\n", "<!-- draft\n## Arithmetic Receipts\n### AR9\n-->\n"
        ),
        "P2-142",
        "'### AR9' is inside an HTML comment",
        ("### AR9", 0),
    ),
    (
        "hidden machine line",
        once(
            CARD,
            "## Arithmetic Receipts\n",
            "<!-- draft\n## Arithmetic Receipts\nstatus: mismatch\n-->\n",
        ),
        "P2-142",
        "status: line inside an HTML comment",
        ("status: mismatch", 0),
    ),
    (
        "field before the first receipt",
        once(CARD, "### AR1\n", "status: mismatch\n\n### AR1\n"),
        "P2-142",
        "outside every ### AR<n>",
        ("status: mismatch", 0),
    ),
    (
        "bold key",
        once(CARD, "status: consistent", "**status:** consistent"),
        "P2-142",
        "decorated or non-canonical status",
        ("**status:** consistent", 0),
    ),
    (
        "table row",
        once(CARD, "status: consistent", "| status: consistent |"),
        "P2-142",
        "decorated or non-canonical status",
        ("| status: consistent |", 0),
    ),
    (
        "a declared cost in prose",
        once(
            CARD,
            "status: consistent\n",
            "status: consistent\nAssumptions: none beyond the paper.\n",
        ),
        "P2-142",
        "decorated or non-canonical assumptions",
        ("Assumptions: none", 0),
    ),
    (
        "fullwidth key",
        once(CARD, "status: consistent", "\uff53\uff54\uff41\uff54\uff55\uff53: consistent"),
        "P2-142",
        "decorated or non-canonical status",
        ("\uff53\uff54\uff41\uff54\uff55\uff53", 0),
    ),
    (
        "entity-spelled colon",
        once(CARD, "status: consistent", "status&#58; consistent"),
        "P2-142",
        "decorated or non-canonical status",
        ("status&#58;", 0),
    ),
    (
        "duplicate heading",
        CARD + "\n### AR2\n",
        "P2-142",
        "duplicate receipt heading(s) ['AR2']",
        ("### AR2", 1),
    ),
    (
        "invalid heading",
        once(CARD, "### AR3", "### AR03"),
        "P2-142",
        "invalid receipt subsection '### AR03'",
        ("### AR03", 0),
    ),
    (
        "out of order",
        once(once(CARD, "### AR2", "### ARX"), "### AR3", "### AR2").replace("### ARX", "### AR3"),
        "P2-142",
        "dense",
        ("### AR3", 0),
    ),
    (
        "attestation beside receipts",
        once(CARD, "### AR1\n", "no_recomputable_statistics: none\n\n### AR1\n"),
        "P2-142",
        "forbidden when",
        ("no_recomputable_statistics", 0),
    ),
    (
        "two attestations",
        ATTESTED + "no_recomputable_statistics: again\n",
        "P2-142",
        "exactly one no_recomputable_statistics: line, found 2",
        ("no_recomputable_statistics: again", 0),
    ),
    (
        "empty section",
        EXAMPLE + "\n## Arithmetic Receipts\n\nNothing here.\n",
        "P2-142",
        "found 0",
        ("## Arithmetic Receipts", 0),
    ),
    (
        "missing field",
        once(CARD, "comparison_rule: a reachable sum must round to 2.63\n", ""),
        "P2-142",
        "AR1 expected exactly one canonical comparison_rule: line, found 0",
        ("### AR1", 0),
    ),
    (
        "unbounded procedure",
        once(CARD, "procedure_id: n_from_df", "procedure_id: sprite"),
        "P2-142",
        "AR3 procedure_id 'sprite' is not a bounded procedure",
        ("procedure_id: sprite", 0),
    ),
    (
        "status enum",
        once(CARD, "status: mismatch", "status: plausible"),
        "P2-142",
        "closed status enum",
        ("status: plausible", 0),
    ),
    (
        "reason without not_computable",
        once(
            CARD,
            "status: consistent\n",
            "status: consistent\nnot_computable_reason: tail_ambiguous\n",
        ),
        "P2-142",
        "forbidden unless status is not_computable",
        ("not_computable_reason: tail_ambiguous", 0),
    ),
    (
        "not_computable without its reason",
        once(CARD, "not_computable_reason: analytic_n_ambiguous\n", ""),
        "P2-142",
        "AR3 expected exactly one canonical not_computable_reason: line, found 0",
        ("### AR3", 0),
    ),
    (
        "two reasons on a consistent receipt",
        once(
            CARD,
            "status: consistent\n",
            "status: consistent\nnot_computable_reason: tail_ambiguous\n"
            "not_computable_reason: test_family_ambiguous\n",
        ),
        "P2-142",
        "AR2 not_computable_reason is forbidden unless status is not_computable",
        ("not_computable_reason: tail_ambiguous", 0),
    ),
    (
        "fenced receipts beside an unfenced attestation",
        once(CARD, "### AR1\n", "```text\n### AR1\n") + "```\n\nno_recomputable_statistics: x\n",
        "P2-142",
        "forbidden when",
        ("no_recomputable_statistics: x", 0),
    ),
    (
        "a zero-width space in the key",
        once(CARD, "status: consistent", "sta\u200btus: consistent"),
        "P2-142",
        "decorated or non-canonical status",
        ("sta\u200btus", 0),
    ),
    (
        "reason enum",
        once(CARD, "analytic_n_ambiguous", "the paper is unclear"),
        "P2-142",
        "closed v1 enum",
        ("the paper is unclear", 0),
    ),
    (
        "tail field in grim",
        once(CARD, "status: mismatch", "tail_convention: two-tailed\nstatus: mismatch"),
        "P2-142",
        "AR1 tail_convention is forbidden for procedure grim",
        ("tail_convention: two-tailed", 0),
    ),
    (
        "grim without its interval",
        once(CARD, "rounding_interval: [2.625, 2.635)\n", ""),
        "P2-142",
        "AR1 expected exactly one canonical rounding_interval: line, found 0",
        ("### AR1", 0),
    ),
    (
        "tail enum",
        once(CARD, "tail_convention: unstated", "tail_convention: both"),
        "P2-142",
        "closed enum",
        ("tail_convention: both", 0),
    ),
    (
        "tails not shown",
        once(CARD, "two-tailed p ≈ .192; one-tailed p ≈ .096", "two-tailed; one-tailed p ≈ .096"),
        "P2-143",
        "RECEIPT-TAILS",
        ("two-tailed; one-tailed", 0),
    ),
    (
        "tails in one part without a number",
        once(
            CARD,
            "two-tailed p ≈ .192; one-tailed p ≈ .096",
            "two-tailed and one-tailed; both p ≈ .192",
        ),
        "P2-143",
        "AR2",
        ("two-tailed and one-tailed", 0),
    ),
    (
        "bad receipt anchor",
        once(
            CARD,
            "evidence_anchor: table: Table 3, M=2.63 with N=23",
            "evidence_anchor: see the table",
        ),
        "P2-123",
        "[ANCHOR-INVALID: methodology.phase2.md:AR1:",
        ("evidence_anchor: see the table", 0),
    ),
    (
        "no back-reference",
        once(CARD, "**Arithmetic Receipt**: AR1\n", ""),
        "P2-144",
        "W3 must carry exactly one **Arithmetic Receipt**: AR1",
        ("### W3", 0),
    ),
    (
        "back-reference in the wrong finding",
        once(
            once(CARD, "**Arithmetic Receipt**: AR1\n", ""),
            "### W2:",
            "**Arithmetic Receipt**: AR1\n\n### W2:",
        ),
        "P2-144",
        "W3 must carry exactly one",
        ("### W3", 0),
    ),
    (
        "two back-references",
        once(
            CARD,
            "**Arithmetic Receipt**: AR1\n",
            "**Arithmetic Receipt**: AR1\n\n**Arithmetic Receipt**: AR1\n",
        ),
        "P2-144",
        "found ['AR1', 'AR1']",
        ("### W3", 0),
    ),
    (
        "back-reference to a consistent receipt",
        once(CARD, "### W2: Methods", "**Arithmetic Receipt**: AR2\n\n### W2: Methods"),
        "P2-144",
        "does not correspond",
        ("**Arithmetic Receipt**: AR2", 0),
    ),
    (
        "non-canonical back-reference",
        once(CARD, "**Arithmetic Receipt**: AR1\n", "**Arithmetic Receipt**: AR1, AR2\n"),
        "P2-144",
        "do not all parse canonically",
        ("AR1, AR2", 0),
    ),
    (
        "bold colon back-reference",
        once(CARD, "**Arithmetic Receipt**: AR1\n", "**Arithmetic Receipt:** AR1\n"),
        "P2-144",
        "do not all parse canonically",
        ("**Arithmetic Receipt:** AR1", 0),
    ),
    (
        "fenced back-reference only",
        once(CARD, "**Arithmetic Receipt**: AR1\n", "```\n**Arithmetic Receipt**: AR1\n```\n"),
        "P2-144",
        "a fenced **Arithmetic Receipt**",
        ("**Arithmetic Receipt**: AR1", 0),
    ),
    (
        "commented-out back-reference",
        once(CARD, "**Arithmetic Receipt**: AR1\n", "<!--\n**Arithmetic Receipt**: AR1\n-->\n"),
        "P2-144",
        "commented-out",
        ("**Arithmetic Receipt**: AR1", 0),
    ),
    (
        "indented-code back-reference",
        once(CARD, "**Arithmetic Receipt**: AR1\n", "    **Arithmetic Receipt**: AR1\n"),
        "P2-144",
        "indented-code",
        ("    **Arithmetic Receipt**: AR1", 0),
    ),
    (
        "paragraph-inline comment",
        once(
            CARD,
            "**Arithmetic Receipt**: AR1\n",
            "Checked by hand <!-- **Arithmetic Receipt**: AR1 -->\n",
        ),
        "P2-144",
        "paragraph-inline",
        ("Checked by hand", 0),
    ),
    (
        "after a comment closed on its line (R20, main credits it)",
        once(
            CARD,
            "**Arithmetic Receipt**: AR1\n",
            "Checked by hand <!-- draft\nclosed --> **Arithmetic Receipt**: AR1\n",
        ),
        "P2-144",
        "after a comment closed on its line",
        ("closed -->", 0),
    ),
    (
        "finding_ref on a consistent receipt",
        once(CARD, "status: consistent\n", "status: consistent\nfinding_ref: W1\n"),
        "P2-144",
        "AR2 finding_ref is forbidden unless status is mismatch",
        ("finding_ref: W1", 0),
    ),
    (
        "finding_ref not a W id",
        once(CARD, "finding_ref: W3", "finding_ref: the GRIM finding"),
        "P2-144",
        "must name one W<n>",
        ("finding_ref: the GRIM finding", 0),
    ),
    (
        "finding_ref to no finding",
        once(CARD, "finding_ref: W3", "finding_ref: W9"),
        "P2-144",
        "no matching",
        ("finding_ref: W9", 0),
    ),
    (
        "shared finding_ref",
        once(CARD, "status: consistent\n", "status: mismatch\nfinding_ref: W3\n").replace(
            "derived_value_or_range: two-tailed p ≈ .192; one-tailed p ≈ .096",
            "derived_value_or_range: two-tailed p ≈ .192; one-tailed p ≈ .096",
        ),
        "P2-144",
        "AR1 and AR2 share a finding_ref (W3)",
        ("finding_ref: W3", 1),
    ),
    (
        "lazy continuation of a quote (R20)",
        once(CARD, "### AR2\n", "### AR2\n> The authors' own t test.\n"),
        "P2-142",
        "sits in a block quote for CommonMark",
        ("procedure_id: p_from_test_statistic", 0),
    ),
    (
        "an indented H3 (upstream: a line indented 1-3 and starting ##)",
        CARD.replace("### AR3", " ### AR3"),
        "P2-142",
        "must be the final section",
        (" ### AR3", 0),
    ),
    (
        "a setext heading after the receipts",
        CARD + "\nAppendix\n--------\n",
        "P2-142",
        "must be the final section of the card (CommonMark reads a heading here)",
        ("Appendix", 0),
    ),
    (
        "an H3 inside an HTML block (R20)",
        once(CARD, "### AR3\n", "<div>\n### AR3\n"),
        "P2-142",
        "'### AR3' is hidden in an HTML block or comment for CommonMark; the readings must agree",
        ("### AR3", 0),
    ),
    (
        "a machine line fenced for the line reading only (R20)",
        once(CARD, "### AR3\n", "### AR3\n- computed twice\n  ```\n"),
        "P2-142",
        "fenced code for the line reading only",
        ("procedure_id: n_from_df", 0),
    ),
]


@pytest.mark.parametrize(
    ("card", "code", "fragment", "where"),
    [pytest.param(c, k, f, w, id=name) for name, c, k, f, w in FAILING],
)
def test_each_rule_fails_with_its_tag_on_the_offending_line(
    card: str, code: str, fragment: str, where: tuple[str, int] | None
) -> None:
    found = errors(card)
    assert len(found) == 1, found  # the first failure wins
    (f,) = found
    assert (f.code, f.check) == (code, "receipts"), f
    assert fragment in f.message, f.message
    assert f.message.startswith("[") and "methodology.phase2.md" in f.message
    if where is not None:
        assert f.line == line_of(card, *where), (f.line, f.message)
    else:  # the card's last line (a final newline opens no line of its own)
        assert f.line == len(card.rstrip("\n").split("\n"))


#: Cards that differ from a failing one by what the rule allows.
PASSING: list[tuple[str, str]] = [
    ("attestation", ATTESTED),
    (
        "bulleted and bold keys",
        once(
            once(CARD, "status: consistent", "- status: consistent"),
            "derivation: the t",
            "**derivation**: the t",
        ),
    ),
    (
        "prose with a colon",
        once(CARD, "### AR2\n", "### AR2\nThe reported status: a value never reconciled.\n"),
    ),
    ("a table of notes", once(CARD, "### AR2\n", "### AR2\n| 註記 | 狀態說明:如上 |\n")),
    (
        "a code span holding a bar",
        once(CARD, "### AR2\n", "### AR2\nraw `|status: pending` token\n"),
    ),
    ("an H4 note inside a receipt", once(CARD, "### AR2\n", "### AR2\n#### Note\nchecked twice\n")),
    ("fenced receipts", once(CARD, "### AR1\n", "```text\n### AR1\n") + "```\n"),
    (
        "a tilde fence indented by three",
        once(CARD, "### AR3\n", "   ~~~\n   ### AR3\n   procedure_id: n_from_df\n").replace(
            "   procedure_id: n_from_df\nprocedure_id: n_from_df\n", "   procedure_id: n_from_df\n"
        )
        + "   ~~~\n",
    ),
    (
        "comment markup inside a fence",
        once(CARD, "### AR2\n", "```\n<!-- literal -->\n```\n### AR2\n"),
    ),
    (
        "tails spelled otherwise",
        once(
            CARD, "two-tailed p ≈ .192; one-tailed p ≈ .096", "p=.192 (two-tailed); .096 one-tailed"
        ),
    ),
    (
        "tails with an en dash",
        once(
            CARD,
            "two-tailed p ≈ .192; one-tailed p ≈ .096",
            "TWO\u2013TAILED p .192; one tailed p .096",
        ),
    ),
    (
        "back-reference in a table cell",
        once(CARD, "**Arithmetic Receipt**: AR1\n", "| **Arithmetic Receipt**: AR1 | GRIM |\n"),
    ),
    (
        "bulleted back-reference",
        once(CARD, "**Arithmetic Receipt**: AR1\n", "- **Arithmetic Receipt**: AR1\n"),
    ),
    (
        "a comment opened after the value",
        once(CARD, "**Arithmetic Receipt**: AR1\n", "**Arithmetic Receipt**: AR1 <!-- note\n-->\n"),
    ),
    (
        "prose naming the section",
        once(
            CARD,
            "### Strengths\n",
            "See the Arithmetic Receipts section: AR1 holds the sums.\n\n### Strengths\n",
        ),
    ),
    (
        "not_computable without own fields",
        once(
            CARD,
            "rounding_interval: [2.625, 2.635)\nnearest_achievable: 60/23 = 2.6087; "
            "61/23 = 2.6522\nstatus: mismatch\nfinding_ref: W3\n",
            "status: not_computable\nnot_computable_reason: scale_granularity_unknown\n",
        ).replace("**Arithmetic Receipt**: AR1\n", ""),
    ),
    (
        "stated tails need no both",
        once(CARD, "tail_convention: unstated", "tail_convention: two-tailed").replace(
            "two-tailed p ≈ .192; one-tailed p ≈ .096", "p ≈ .192"
        ),
    ),
]


@pytest.mark.parametrize("card", [pytest.param(c, id=n) for n, c in PASSING])
def test_what_the_rules_allow_passes(card: str) -> None:
    assert errors(card) == []


def test_other_seats_may_not_carry_the_section() -> None:
    domain = CARD.replace("contract_role: methodology", "contract_role: domain")
    (f,) = lint(domain, "domain")
    assert f.code == "P2-145" and "role domain" in f.message
    assert f.message.startswith("[RECEIPT-SECTION-FORBIDDEN: methodology.phase2.md:")
    assert f.line == line_of(domain, "## Arithmetic Receipts")
    for role in ("eic", "perspective", "da"):
        assert [x.code for x in lint(domain, role)] == ["P2-145"]
    # Fenced or indented, it is no section: quoted as an example, it passes.
    assert lint(EXAMPLE + "\n```\n## Arithmetic Receipts\n```\n", "domain") == []
    assert lint(EXAMPLE + "\n    ## Arithmetic Receipts\n", "eic") == []
    assert lint(EXAMPLE, "domain") == []


def test_stricter_than_main_a_back_reference_beside_an_attestation_fails() -> None:
    card = once(ATTESTED, "### W2:", "**Arithmetic Receipt**: AR1\n\n### W2:")
    (f,) = errors(card)
    assert f.code == "P2-144" and "does not correspond" in f.message


def test_bad_input_is_refused_without_a_traceback() -> None:
    with pytest.raises(KernelError):
        receipt_findings(b"## Arithmetic Receipts", role="methodology", source="x")  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        receipt_findings("x" * 2_000_000, role="methodology", source="x")
    # CRLF and CR endings read as LF.
    assert lint(CARD.replace("\n", "\r\n")) == []
    assert lint(CARD.replace("\n", "\r")) == []


def test_a_card_over_the_work_bound_runs_the_line_gate_then_fails_closed() -> None:
    many = "\n".join(f"### AR{k}" for k in range(1, 12_001))
    (f,) = lint(EXAMPLE + "\n## Arithmetic Receipts\n" + many + "\n")
    assert f.code == "P2-142" and "AR1 expected exactly one canonical procedure_id" in f.message
    big = ATTESTED + "\n".join(["Plain prose."] * 25_000) + "\n"
    (f,) = lint(big)
    assert f.code == "P2-126"


# --- the renderers ------------------------------------------------------------------------


def test_render_receipts_writes_the_realistic_section() -> None:
    section = SECTION.split("## Arithmetic Receipts\n")[1]
    receipts = []
    for block in section.split("### AR")[1:]:
        fields = dict(line.split(": ", 1) for line in block.strip().split("\n")[1:] if ": " in line)
        own = {
            k: fields.pop(k)
            for k in ("tail_convention", "rounding_interval", "nearest_achievable", "df_identity")
            if k in fields
        }
        receipts.append(attrs.evolve(Receipt(**fields), own=own))  # type: ignore[arg-type]
    rendered = render_receipts(receipts)
    card = EXAMPLE.rstrip("\n") + "\n" + W3 + "\n" + rendered
    assert lint(card) == []
    assert rendered.startswith("## Arithmetic Receipts\n\n### AR1\nprocedure_id: grim\n")


def test_the_renderers_refuse_what_the_gate_refuses() -> None:
    good = Receipt(
        procedure_id="n_from_df",
        evidence_anchor='text: "F(2, 41) = 3.10"',
        reported_inputs="F(2, 41)",
        assumptions="one-way ANOVA",
        derivation="41 + 3",
        derived_value_or_range="44",
        comparison_rule="equal N",
        status="consistent",
        own={"df_identity": "N = df_error + k"},
    )
    assert "df_identity: N = df_error + k" in render_receipts([good])
    for bad, what in (
        (attrs.evolve(good, procedure_id="sprite"), "not a bounded procedure"),
        (attrs.evolve(good, status="fine"), "closed status enum"),
        (attrs.evolve(good, own={}), "df_identity"),
        (attrs.evolve(good, derivation="two\nlines"), "one-line"),
    ):
        with pytest.raises(KernelError, match=what):
            render_receipts([bad])
    with pytest.raises(KernelError):
        render_receipts([])
    attested = EXAMPLE + "\n" + render_attestation("only descriptive counts")
    assert [f.code for f in lint(attested)] == ["P2-146"]
    with pytest.raises(KernelError):
        render_attestation("  ")


# --- generated sections -------------------------------------------------------------------

_WORDS = st.text(
    alphabet=st.sampled_from("abcdefghij klm=0123456789.,()\u00d7\u2248"), min_size=1, max_size=30
).map(lambda s: "x" + s.strip() + "1")


@st.composite
def receipts(draw: st.DrawFn) -> Receipt:
    procedure = draw(st.sampled_from(PROCEDURES))
    status = draw(st.sampled_from(STATUSES))
    decided = status in ("consistent", "mismatch")
    own: dict[str, str] = {}
    derived = draw(_WORDS)
    if procedure == "p_from_test_statistic":
        own["tail_convention"] = draw(st.sampled_from(TAIL_CONVENTIONS))
        if own["tail_convention"] == "unstated" and decided:
            derived = "two-tailed p ≈ .192; one-tailed p ≈ .096"
    owned = {
        "grim": ("rounding_interval", "nearest_achievable"),
        "grimmer": ("rounding_interval", "nearest_achievable"),
        "n_from_df": ("df_identity",),
    }
    for key in owned.get(procedure, ()):
        if decided or draw(st.booleans()):
            own[key] = draw(_WORDS)
    return Receipt(
        procedure_id=procedure,
        evidence_anchor=draw(
            st.sampled_from(['text: "the mean was 2.63"', "table: Table 2, row 3", "equation: (4)"])
        ),
        reported_inputs=draw(_WORDS),
        assumptions=draw(_WORDS),
        derivation=draw(_WORDS),
        derived_value_or_range=derived,
        comparison_rule=draw(_WORDS),
        status=status,
        own=own,
        not_computable_reason=draw(st.sampled_from(NOT_COMPUTABLE_REASONS))
        if status == "not_computable"
        else None,
    )


def _card(drawn: list[Receipt]) -> str:
    findings = []
    linked = []
    w = 2
    for k, r in enumerate(drawn, start=1):
        if r.status == "mismatch":
            w += 1
            findings.append(
                f"### W{w}: Finding {w}\n\n**Severity**: Minor\n\nThe value does not add up.\n\n"
                f"**Arithmetic Receipt**: AR{k}\n"
            )
            r = attrs.evolve(r, finding_ref=f"W{w}")
        linked.append(r)
    body = EXAMPLE.rstrip("\n") + "\n\n" + "\n".join(findings)
    return body + "\n" + render_receipts(linked)


@given(st.lists(receipts(), min_size=1, max_size=6))
def test_generated_valid_sections_pass(drawn: list[Receipt]) -> None:
    assert lint(_card(drawn)) == []


#: (mutation of a valid card, the tag it must fail with).
MUTATIONS: list[tuple[Callable[[str], str], str]] = [
    (lambda c: re.sub(r"(?m)^status: .*\n", "", c, count=1), "RECEIPT-GRAMMAR"),
    (lambda c: re.sub(r"(?m)^status: \w+", "status: plausible", c, count=1), "RECEIPT-GRAMMAR"),
    (
        lambda c: re.sub(r"(?m)^procedure_id: \w+", "procedure_id: sprite", c, count=1),
        "RECEIPT-GRAMMAR",
    ),
    (lambda c: re.sub(r"(?m)^derivation:", "**derivation:**", c, count=1), "RECEIPT-GRAMMAR"),
    (lambda c: re.sub(r"(?m)^reported_inputs:", "Reported_Inputs:", c, count=1), "RECEIPT-GRAMMAR"),
    (lambda c: c.replace("### AR1\n", "### AR1\n<!-- x -->\n", 1), "RECEIPT-GRAMMAR"),
    (lambda c: c.replace("### AR1\n", "### Receipt 1\n", 1), "RECEIPT-GRAMMAR"),
    (lambda c: c + "\n### AR1\n", "RECEIPT-GRAMMAR"),
    (lambda c: c + "\n### AR99\n", "RECEIPT-GRAMMAR"),
    (lambda c: c + "\n## Appendix\n", "RECEIPT-GRAMMAR"),
    (lambda c: c + "no_recomputable_statistics: nothing\n", "RECEIPT-GRAMMAR"),
    (lambda c: c.replace("## Arithmetic Receipts", "## Arithmetic receipts"), "RECEIPT-MISSING"),
    (
        lambda c: c.replace("**Arithmetic Receipt**: AR", "**Arithmetic Receipt**: see AR", 1),
        "RECEIPT-LINKAGE",
    ),
    (lambda c: re.sub(r"\*\*Arithmetic Receipt\*\*: AR\d+\n", "", c, count=1), "RECEIPT-LINKAGE"),
]


@given(st.lists(receipts(), min_size=1, max_size=5), st.sampled_from(range(len(MUTATIONS))))
def test_a_single_mutation_fails_with_its_tag(drawn: list[Receipt], i: int) -> None:
    mutate, tag = MUTATIONS[i]
    card = _card(drawn)
    mutated = mutate(card)
    assume(mutated != card)
    found = errors(mutated)
    assert len(found) == 1 and found[0].message.startswith(f"[{tag}: "), (found, i)


# --- wired into the 13.2 Phase 2 lint, the renderers and the round (ars main only) --------

FULL = paths.ROOT / "examples" / "full-13.2"
V2 = load_contract(str(FULL / "contract.json"))
SEATS = ("eic", "methodology", "domain", "perspective", "da")


def _phase(seat: str, n: int) -> str:
    return (FULL / f"{seat}.phase{n}.md").read_text("utf-8")


def test_lint_phase2_runs_the_gate_under_main_only() -> None:
    p1 = _phase("methodology", 1)
    assert lint_phase2(_phase("methodology", 2), V2, p1, role="methodology", ars="main").ok
    bare = lint_phase2(EXAMPLE, V2, p1, role="methodology", ars="main")
    assert [(f.code, f.check) for f in bare.errors] == [("P2-141", "receipts")]
    assert bare.failed_checks == ("receipts",)
    assert lint_phase2(EXAMPLE, V2, p1, role="methodology", ars="fork").findings == ()
    broken = once(CARD, "### AR3", "### AR03")
    assert [f.code for f in lint_phase2(broken, V2, p1, role="methodology").errors] == ["P2-142"]
    assert lint_phase2(broken, V2, p1, role="methodology", ars="fork").ok
    # Other seats: the section is forbidden under main, unread under the fork.
    domain = _phase("domain", 2) + "\n## Arithmetic Receipts\n\nno_recomputable_statistics: x\n"
    report = lint_phase2(domain, V2, _phase("domain", 1), role="domain", ars="main")
    assert [f.code for f in report.errors] == ["P2-145"]
    assert lint_phase2(domain, V2, _phase("domain", 1), role="domain", ars="fork").ok
    for seat in SEATS:
        assert lint_phase2(_phase(seat, 2), V2, _phase(seat, 1), role=seat, ars="main").ok


def test_the_renderer_writes_a_card_that_passes_under_the_reading_asked_for() -> None:
    main = render_phase2(V2, {"D1": "warn"}, role="methodology", ars="main")
    fork = render_phase2(V2, {"D1": "warn"}, role="methodology", ars="fork")
    assert "\n## Arithmetic Receipts\n\n### AR1\nprocedure_id: n_from_df\n" in main
    assert "Arithmetic Receipts" not in fork
    p1 = render_phase1(V2, role="methodology")
    assert lint_phase2(main, V2, p1, role="methodology", ars="main").findings == ()
    assert lint_phase2(fork, V2, p1, role="methodology", ars="fork").findings == ()
    assert [f.code for f in lint_phase2(fork, V2, p1, role="methodology").errors] == ["P2-141"]
    for seat in ("eic", "domain", "perspective", "da"):
        text = render_phase2(V2, {}, role=seat, ars="main")
        assert "Arithmetic Receipts" not in text
        assert lint_phase2(text, V2, render_phase1(V2, role=seat), role=seat).ok


def test_a_card_without_receipts_makes_the_seat_unusable_in_a_main_round() -> None:
    reports = [(s, _phase(s, 2), _phase(s, 1)) for s in SEATS]
    decided = decide_documents(V2, reports, ars="main")
    assert isinstance(decided, RoundV2Outcome) and decided.decision is not None
    fork_era = [(s, EXAMPLE if s == "methodology" else t, p) for s, t, p in reports]
    aborted = decide_documents(V2, fork_era, ars="main")
    assert isinstance(aborted, RoundV2Outcome) and aborted.decision is None
    assert aborted.tags == (
        "[RECEIPT-MISSING: methodology: the methodology card has no ## Arithmetic Receipts "
        "section (write the receipts, or no_recomputable_statistics: <basis>) at its end]",
    )
    kept = decide_documents(V2, fork_era, ars="fork")
    assert isinstance(kept, RoundV2Outcome) and kept.decision is not None


@given(
    st.lists(receipts(), min_size=1, max_size=4),
    st.integers(0, 3),
    st.sampled_from(["```", "~~~", "````text"]),
)
def test_a_fenced_section_reads_as_the_fence_displays_it(
    drawn: list[Receipt], indent: int, fence: str
) -> None:
    card = _card(drawn)
    head, _, section = card.partition("## Arithmetic Receipts\n")
    pad = " " * indent
    body = "".join(pad + line if line else line for line in section.splitlines(keepends=True))
    closer = fence.removesuffix("text")
    fenced = f"{head}## Arithmetic Receipts\n{pad}{fence}\n{body}{pad}{closer}\n"
    assert lint(fenced) == []
    unclosed = f"{head}## Arithmetic Receipts\n{pad}{fence}\n{body}"
    assert lint(unclosed) == []
