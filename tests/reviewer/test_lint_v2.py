"""Dialect 13.2 documents: every rule of 13.2 §E and §F caught with its tag, valid rounds
lint clean, and the kernel's reading of fences, comments and decorated fields."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support import paths

from kernel import load_contract
from kernel.errors import InputError, KernelError
from kernel.reviewer.lint.phase1_v2 import lint_phase1_v2
from kernel.reviewer.lint.phase2_v2 import lint_phase2_v2
from kernel.reviewer.render_v2 import render_phase1_v2, render_phase2_v2
from kernel.reviewer.roles import RoleScope, scope_of
from kernel.testing import RoundV2, contracts, rounds_v2

CONTRACT = json.loads((paths.ROOT / "examples" / "full-13.2" / "contract.json").read_text())
SCOPE = scope_of(CONTRACT)
ROLE = "eic"
P1 = render_phase1_v2(SCOPE, ROLE)
P2 = render_phase2_v2(SCOPE, ROLE, {"D3": "block:repairable", "D4": "warn", "D5": "pass"})
WARN = "cross_disciplinary_relevance shows gaps that a careful revision can repair soon"


def tags(messages: list[str]) -> set[str]:
    return {m[1:].split(":")[0].split("]")[0] for m in messages if m.startswith("[")}


def p1_messages(text: str, role: str = ROLE) -> list[str]:
    return [f.message for f in lint_phase1_v2(text, SCOPE, role).errors]


def p2_messages(text: str, phase1: str | None = P1, role: str = ROLE) -> list[str]:
    return [f.message for f in lint_phase2_v2(text, SCOPE, phase1, role=role).errors]


def test_the_rendered_pair_is_clean() -> None:
    assert lint_phase1_v2(P1, SCOPE, ROLE).findings == ()
    assert lint_phase2_v2(P2, SCOPE, P1, role=ROLE).findings == ()


PHASE1_MUTATIONS: list[tuple[str, Callable[[str], str], str]] = [
    ("E1 no plan", lambda t: t.replace("## Scoring Plan", "## Plan"), "PHASE1-GRAMMAR"),
    ("E2 no tag", lambda t: t.replace("[CONTRACT-ACKNOWLEDGED]\n", ""), "PHASE1-GRAMMAR"),
    (
        "E2 fenced tag",
        lambda t: t.replace("[CONTRACT-ACKNOWLEDGED]", "```\n[CONTRACT-ACKNOWLEDGED]\n```"),
        "PHASE1-GRAMMAR",
    ),
    (
        "E3 extra section",
        lambda t: t.replace("## Scoring Plan", "## Notes\n\nx\n\n## Scoring Plan"),
        "PHASE1-GRAMMAR",
    ),
    ("E4 paragraph floor", lambda t: t.replace(".\n\nD2", ".\nD2"), "PHASE1-GRAMMAR"),
    (
        "E5 out of role",
        lambda t: t.replace("### D3: argumentative_coherence", "### D1: methodology_rigor").replace(
            "dimension_id: D3", "dimension_id: D1"
        ),
        "PHASE1-OUT-OF-ROLE",
    ),
    (
        "E5 scope",
        lambda t: t[: t.index("### D4")] + t[t.index("### D5") :],
        "PHASE1-SCOPE",
    ),
    (
        "E5 name",
        lambda t: t.replace("### D4: cross_disciplinary_relevance", "### D4: x"),
        "PHASE1-GRAMMAR",
    ),
    (
        "E5 duplicate",
        lambda t: t.replace(
            "## Scoring Plan\n\n", "## Scoring Plan\n\n### D5: writing_and_structure\n\n"
        ),
        "PHASE1-GRAMMAR",
    ),
    (
        "E6 dimension_id",
        lambda t: t.replace("dimension_id: D4", "dimension_id: D5"),
        "PHASE1-GRAMMAR",
    ),
    (
        "E6 no fatal",
        lambda t: t.replace("what_triggers_fatal:", "what_triggers_fatality:"),
        "PHASE1-GRAMMAR",
    ),
    (
        "E6 fatal on a high dimension",
        lambda t: t.replace(
            f"what_triggers_warn: {WARN}",
            f"what_triggers_warn: {WARN}\nwhat_triggers_fatal: {WARN} now",
        ),
        "PHASE1-GRAMMAR",
    ),
    (
        "E0 bulleted field",
        lambda t: t.replace(f"what_triggers_warn: {WARN}", f"- what_triggers_warn: {WARN}"),
        "PHASE1-GRAMMAR",
    ),
    (
        "E0 fenced field",
        lambda t: t.replace("dimension_id: D4", "```\ndimension_id: D4\n```"),
        "PHASE1-GRAMMAR",
    ),
    (
        "E7 collision",
        lambda t: t.replace(
            f"what_triggers_warn: {WARN}",
            "what_triggers_warn: CROSS_disciplinary_relevance fails in a way  that undermines "
            "the central claim",
        ),
        "PHASE1-TRIGGER-COLLISION",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "tag"), [m[1:] for m in PHASE1_MUTATIONS], ids=[m[0] for m in PHASE1_MUTATIONS]
)
def test_each_phase1_rule_is_caught_with_its_tag(mutate: Callable[[str], str], tag: str) -> None:
    mutated = mutate(P1)
    assert mutated != P1
    assert tag in tags(p1_messages(mutated))


def test_a_short_trigger_is_a_warning() -> None:
    report = lint_phase1_v2(
        P1.replace(f"what_triggers_warn: {WARN}", "what_triggers_warn: too short"), SCOPE, ROLE
    )
    assert report.ok
    assert [f.message for f in report.findings] == [
        "[PHASE1-TRIGGER-SHORT: document: D4 what_triggers_warn has fewer than 8 words] "
        "'too short' has 2; a commitment of 8 words or more says what a report can quote"
    ]
    # on the short trigger's own line, not the subsection's heading
    mutated = P1.replace(f"what_triggers_warn: {WARN}", "what_triggers_warn: too short")
    (line,) = [n for n, t in enumerate(mutated.splitlines(), 1) if t.endswith(": too short")]
    assert [f.line for f in report.findings] == [line]


def test_a_role_outside_the_mode_is_a_usage_error() -> None:
    with pytest.raises(InputError) as info:
        lint_phase1_v2(P1, SCOPE, "boss")
    assert info.value.tag == "[ROLE-BINDING: --role boss is invalid for reviewer_full]"


MANUSCRIPT = " ".join(f"word{i}" for i in range(40))
METADATA = {"title": "A title", "field": "statistics", "word_count": 40}


def test_a_manuscript_shingle_in_phase1_leaks() -> None:
    leaked = P1.replace(
        "## Scoring Plan", " ".join(f"word{i}" for i in range(5, 17)) + "\n\n## Scoring Plan"
    )
    messages = [
        f.message
        for f in lint_phase1_v2(
            leaked, SCOPE, ROLE, manuscript=MANUSCRIPT, metadata=METADATA
        ).errors
    ]
    assert tags(messages) == {"PHASE1-MANUSCRIPT-LEAK"}
    eleven = P1.replace(
        "## Scoring Plan", " ".join(f"word{i}" for i in range(5, 16)) + "\n\n## Scoring Plan"
    )
    assert lint_phase1_v2(eleven, SCOPE, ROLE, manuscript=MANUSCRIPT, metadata=METADATA).ok


def test_a_shingle_of_the_title_is_exempt() -> None:
    title = " ".join(f"word{i}" for i in range(12))
    leaked = P1.replace("## Scoring Plan", title + "\n\n## Scoring Plan")
    meta = {**METADATA, "title": title}
    assert lint_phase1_v2(leaked, SCOPE, ROLE, manuscript=MANUSCRIPT, metadata=meta).ok


@pytest.mark.parametrize(
    "metadata",
    [
        {"title": "t", "field": "f"},
        {"title": "t", "field": "f", "word_count": True},
        {"title": " ", "field": "f", "word_count": 1},
        {"title": "t", "field": "f", "word_count": 3.0},
    ],
)
def test_a_bad_metadata_envelope_is_a_usage_error(metadata: dict[str, object]) -> None:
    with pytest.raises(InputError) as info:
        lint_phase1_v2(P1, SCOPE, ROLE, manuscript=MANUSCRIPT, metadata=metadata)
    assert info.value.tag is not None and info.value.tag.startswith("[METADATA-INVALID: ")


def _dissent(body: str) -> Callable[[str], str]:
    return lambda t: t.replace(
        "## Dimension Scores", f"## Scoring Plan Dissent\n\n{body}\n\n## Dimension Scores"
    )


PHASE2_MUTATIONS: list[tuple[str, Callable[[str], str], str]] = [
    ("F1 section", lambda t: t + "\n## Editorial Decision\n\nx\n", "V1-GRAMMAR-RETIRED"),
    ("F1 checks", lambda t: t + "\n## Failure Condition Checks\n\nx\n", "V1-GRAMMAR-RETIRED"),
    ("F1 bare line", lambda t: t + "\nEDITORIAL_DECISION=accept\n", "V1-GRAMMAR-RETIRED"),
    ("F2 missing", lambda t: t.replace("## Dimension Scores", "## Scores"), "REPORT-PARSE"),
    ("F2 duplicated", lambda t: t + "\n## Dimension Scores\n", "REPORT-PARSE"),
    ("F3 no role", lambda t: t.replace("contract_role: eic\n", ""), "REPORT-PARSE"),
    ("F3 two roles", lambda t: t + "\ncontract_role: eic\n", "REPORT-PARSE"),
    (
        "F3 unknown role",
        lambda t: t.replace("contract_role: eic", "contract_role: boss"),
        "REPORT-ROLE",
    ),
    (
        "E0.5 other role",
        lambda t: t.replace("contract_role: eic", "contract_role: perspective"),
        "ROLE-BINDING",
    ),
    (
        "F4 unknown",
        lambda t: t.replace("### D6: critical_weaknesses", "### D7: more"),
        "REPORT-PARSE",
    ),
    (
        "F4 name",
        lambda t: t.replace("### D6: critical_weaknesses", "### D6: weaknesses"),
        "REPORT-PARSE",
    ),
    (
        "F4 missing",
        lambda t: t.replace("### D6: critical_weaknesses\n\nscore: not_assessed\n", ""),
        "REPORT-PARSE",
    ),
    (
        "F5 two scores",
        lambda t: t.replace("score: pass", "score: pass\nscore: pass"),
        "REPORT-PARSE",
    ),
    ("F5 bad score", lambda t: t.replace("score: pass", "score: fine"), "REPORT-PARSE"),
    ("F5 bulleted score", lambda t: t.replace("score: pass", "- score: pass"), "REPORT-PARSE"),
    (
        "F6a abstain without reason",
        lambda t: t.replace(
            "### D5: writing_and_structure\n\nscore: pass",
            "### D5: writing_and_structure\n\nscore: not_assessed",
        ),
        "ABSTENTION-INVALID",
    ),
    (
        "F6b out of role",
        lambda t: t.replace(
            "### D1: methodology_rigor\n\nscore: not_assessed",
            "### D1: methodology_rigor\n\nscore: pass",
        ),
        "OUT-OF-ROLE-SCORE",
    ),
    (
        "F6c structural reason",
        lambda t: t.replace(
            "### D1: methodology_rigor\n\nscore: not_assessed",
            "### D1: methodology_rigor\n\nscore: not_assessed\nabstain_reason: x",
        ),
        "ABSTENTION-INVALID",
    ),
    (
        "F6d scored reason",
        lambda t: t.replace("score: pass", "score: pass\nabstain_reason: x"),
        "ABSTENTION-INVALID",
    ),
    ("F7 no class", lambda t: t.replace("block_class: repairable\n", ""), "BLOCK-CLASS-INVALID"),
    (
        "F7 class on warn",
        lambda t: t.replace("score: warn\n", "score: warn\nblock_class: fatal\n"),
        "BLOCK-CLASS-INVALID",
    ),
    ("F8 no trigger", lambda t: t.replace(f'trigger: "{WARN}"\n', ""), "TRIGGER-GRAMMAR"),
    (
        "F8 trigger on pass",
        lambda t: t.replace("score: pass", 'score: pass\ntrigger: "x"'),
        "TRIGGER-GRAMMAR",
    ),
    (
        "F9 drift",
        lambda t: t.replace(f'trigger: "{WARN}"', 'trigger: "gaps in relevance"'),
        "TRIGGER-DRIFT",
    ),
    (
        "F9 ambiguous",
        lambda t: t.replace(f'trigger: "{WARN}"', 'trigger: "cross_disciplinary_relevance"'),
        "TRIGGER-AMBIGUOUS",
    ),
    (
        "F9 fatal binds to fatal",
        lambda t: t.replace("block_class: repairable", "block_class: fatal"),
        "TRIGGER-DRIFT",
    ),
    (
        "F9 multi-dissent",
        _dissent("dimension_id: D4\nrationale: a\ndimension_id: D5\nrationale: b"),
        "PROTOCOL-VIOLATION",
    ),
    ("F9 unknown dissent", _dissent("dimension_id: D9\nrationale: a"), "DISSENT-GRAMMAR"),
    ("F9 uncommitted dissent", _dissent("dimension_id: D1\nrationale: a"), "DISSENT-GRAMMAR"),
    (
        "F9 dissent minting fatality",
        lambda t: _dissent("dimension_id: D3\nrationale: a")(
            t.replace("block_class: repairable", "block_class: fatal")
        ),
        "DISSENT-FATALITY",
    ),
    (
        "F10.1 two dissents",
        lambda t: _dissent("dimension_id: D4\nrationale: a\n\n## Scoring Plan Dissent\n\nx")(t),
        "DISSENT-GRAMMAR",
    ),
    ("F10.3 bulleted", _dissent("- dimension_id: D4\n- rationale: a"), "DISSENT-GRAMMAR"),
    ("F10.3 bold", _dissent("**Dimension ID**: D4\nrationale: a"), "DISSENT-GRAMMAR"),
    (
        "F10.3 fenced",
        _dissent("dimension_id: D4\nrationale: a\n\n```\ndimension_id: D5\n```"),
        "DISSENT-GRAMMAR",
    ),
    (  # DISSENT-GRAMMAR under ars="fork" (test_r20); later upstream main: hidden
        "F10.3 commented",
        _dissent("dimension_id: D4\nrationale: a\n\n<!--\nrationale: b\n-->"),
        "DISSENT-HIDDEN",
    ),
    (
        "F10.5 after the scores",
        lambda t: t + "\n## Scoring Plan Dissent\n\ndimension_id: D4\nrationale: a\n",
        "DISSENT-GRAMMAR",
    ),
    ("F10.5 no id", _dissent("rationale: a"), "DISSENT-GRAMMAR"),
    (
        "F10.5 repeated id",
        _dissent("dimension_id: D4\nrationale: a\ndimension_id: D4\nrationale: b"),
        "DISSENT-GRAMMAR",
    ),
    ("F10.5 no rationale", _dissent("dimension_id: D4"), "DISSENT-GRAMMAR"),
    ("F11.1a no body", lambda t: t.replace("## Review Body", "## Body"), "REVIEW-BODY-MISSING"),
    (
        "F11.1b outside",
        lambda t: t.replace("## Review Body", "**Severity**: Major\n\n## Review Body"),
        "FINDING-GRAMMAR",
    ),
    ("F11.1c duplicate", lambda t: t + "\n### W1: The main finding\n", "FINDING-GRAMMAR"),
    (
        "F11.1d before heading",
        lambda t: t.replace("The report's findings follow.", "**Severity**: Minor"),
        "FINDING-GRAMMAR",
    ),
    (
        "F11.1e non-finding heading",
        lambda t: t.replace("### W1: The main finding", "### Weakness 1"),
        "FINDING-GRAMMAR",
    ),
    ("F11.1f H4", lambda t: t + "\n#### detail\n", "FINDING-GRAMMAR"),
    (
        "F11.1g plain severity",
        lambda t: t.replace("**Severity**: Major", "**Severity:** Major"),
        "FINDING-GRAMMAR",
    ),
    (
        "F11.1g two severities",
        lambda t: t.replace("**Severity**: Major", "**Severity**: Major\n\n**Severity**: Minor"),
        "FINDING-GRAMMAR",
    ),
    (
        "F11.1h no anchor",
        lambda t: t.replace('**Evidence Anchor**: text: "the central claim of the abstract"', ""),
        "ANCHOR-MISSING",
    ),
    (
        "F11.2 untyped",
        lambda t: t.replace('text: "the central claim of the abstract"', "the abstract"),
        "ANCHOR-INVALID",
    ),
    (
        "F11.2 unquoted text",
        lambda t: t.replace('text: "the central claim of the abstract"', "text: the abstract"),
        "ANCHOR-INVALID",
    ),
    (
        "F11.2 wrapper",
        lambda t: t.replace('text: "the central claim of the abstract"', '[text: "the abstract"'),
        "ANCHOR-INVALID",
    ),
    (
        "F11.2 absence",
        lambda t: t.replace('text: "the central claim of the abstract"', "absence: methods"),
        "ANCHOR-INVALID",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "tag"), [m[1:] for m in PHASE2_MUTATIONS], ids=[m[0] for m in PHASE2_MUTATIONS]
)
def test_each_phase2_rule_is_caught_with_its_tag(mutate: Callable[[str], str], tag: str) -> None:
    mutated = mutate(P2)
    assert mutated != P2
    assert tag in tags(p2_messages(mutated))


DA_P2 = render_phase2_v2(SCOPE, "da", {"D3": "pass", "D6": "warn"}, critical=2)
DA_P1 = render_phase1_v2(SCOPE, "da")
DA_MUTATIONS: list[tuple[str, Callable[[str], str], str]] = [
    ("F11.3a comment", lambda t: t + "\n<!-- x -->\n", "DA-TABLE-PARSE"),
    ("F11.3c no body", lambda t: t.replace("## Review Body", "## Body"), "DA-TABLE-PARSE"),
    (
        "F11.3d severity",
        lambda t: t.replace("The report's findings follow.", "**Severity**: Major"),
        "DA-FINDING-GRAMMAR",
    ),
    (
        "F11.3e no critical",
        lambda t: t.replace("#### CRITICAL", "#### Critical"),
        "DA-CRITICAL-PARSE",
    ),
    ("F11.3e two majors", lambda t: t + "\n#### MAJOR\n", "DA-MAJOR-PARSE"),
    (
        "F11.3e order",
        lambda t: (
            t.replace("#### CRITICAL", "#### X")
            .replace("#### MAJOR", "#### CRITICAL")
            .replace("#### X", "#### MAJOR")
        ),
        "DA-TABLE-PARSE",
    ),
    (
        "F11.4 header",
        lambda t: t.replace(
            "| # | Evidence Anchor | Issue |\n| --- | --- | --- |\n| C1",
            "| No | Anchor | Issue |\n| --- | --- | --- |\n| C1",
        ),
        "DA-CRITICAL-PARSE",
    ),
    (
        "F11.4 separator",
        lambda t: t.replace("| --- | --- | --- |\n| C1", "| - | - | - |\n| C1"),
        "DA-CRITICAL-PARSE",
    ),
    ("F11.4 row cells", lambda t: t.replace("| unsupported claim 1 |", "|"), "DA-CRITICAL-PARSE"),
    ("F11.4 terminal", lambda t: t + "\nMore prose after the table.\n", "DA-MAJOR-PARSE"),
    (
        "F11.5 raw html",
        lambda t: t.replace("The report's findings follow.", "<table><tr><td>C1</td></tr></table>"),
        "DA-TABLE-PARSE",
    ),
    (
        "F11.5 shadow band",
        lambda t: t.replace("The report's findings follow.", '| C3 | text: "x" |'),
        "DA-TABLE-PARSE",
    ),
    ("F11.6 bad id", lambda t: t.replace("| C2 |", "| X2 |"), "DA-CRITICAL-PARSE"),
    ("F11.6 duplicate id", lambda t: t.replace("| C2 |", "| C1 |"), "DA-CRITICAL-PARSE"),
    (
        "F11.6 empty anchor",
        lambda t: t.replace('| C2 | text: "the claim in section 2" |', "| C2 |  |"),
        "ANCHOR-MISSING",
    ),
    ("F11.7 density", lambda t: t.replace("| C2 |", "| C3 |"), "DA-CRITICAL-ID"),
]


def test_the_da_report_is_clean() -> None:
    assert lint_phase2_v2(DA_P2, SCOPE, DA_P1, role="da").findings == ()


@pytest.mark.parametrize(
    ("mutate", "tag"), [m[1:] for m in DA_MUTATIONS], ids=[m[0] for m in DA_MUTATIONS]
)
def test_each_da_table_rule_is_caught_with_its_tag(mutate: Callable[[str], str], tag: str) -> None:
    mutated = mutate(DA_P2)
    assert mutated != DA_P2
    assert tag in tags(p2_messages(mutated, DA_P1, "da"))


# ---- the kernel's reading: fences, comments, no-break space ---------------------------------


@pytest.mark.parametrize(
    "hidden",
    [
        "```\n## Editorial Decision\neditorial_decision=accept\n```",
        "~~~~\n## Failure Condition Checks\n~~~\n```\neditorial_decision=reject\n~~~~",
        # a malformed closer is content: the decoys stay inside the fence to the end
        "```\n```not-a-close\n## Editorial Decision\neditorial_decision=accept",
        "````\n```\n## Editorial Decision\n````",
    ],
)
def test_fenced_decoys_stay_hidden(hidden: str) -> None:
    assert p2_messages(P2 + "\n" + hidden + "\n") == []


def test_a_no_break_space_before_a_field_unmakes_it() -> None:
    assert "REPORT-PARSE" in tags(p2_messages(P2.replace("score: pass", "\u00a0score: pass")))


def test_a_commented_field_is_a_finding() -> None:
    # A line reader counts it, a reader of the rendered report never sees it: neither may
    # decide the score, so the report fails (stricter than counting it).
    commented = P2.replace("score: pass", "score: pass\n\n<!--\nscore: block\n-->")
    assert [f.code for f in lint_phase2_v2(commented, SCOPE, P1, role=ROLE).errors] == ["P2-135"]
    # R20: a quoted score where a score belongs is no field for any reading, and a person
    # reads "score: block" on the page: it fails too.
    quoted = P2.replace("score: pass", "score: pass\n\n> score: block")
    assert [f.code for f in lint_phase2_v2(quoted, SCOPE, P1, role=ROLE).errors] == ["P2-135"]


def test_an_empty_dissent_is_a_warning() -> None:
    report = lint_phase2_v2(_dissent("nothing to say")(P2), SCOPE, P1, role=ROLE)
    assert report.ok
    assert [f.code for f in report.findings] == ["P2-119"]


def test_a_report_without_phase1_warns_that_binding_did_not_run() -> None:
    report = lint_phase2_v2(P2, SCOPE, role=ROLE)
    assert report.ok and [f.code for f in report.findings] == ["P2-127"]


def test_a_failing_phase1_fails_the_binding() -> None:
    messages = p2_messages(P2, P1.replace("[CONTRACT-ACKNOWLEDGED]\n", ""))
    assert any("trigger binding not checked" in m for m in messages)


# ---- properties over whole rounds ---------------------------------------------------------


@given(rounds_v2(SCOPE))
def test_every_valid_round_lints_clean(round_: RoundV2) -> None:
    for role in SCOPE.roles:
        assert lint_phase1_v2(round_.phase1[role], SCOPE, role).findings == ()
        report = lint_phase2_v2(round_.phase2[role], SCOPE, round_.phase1[role], role=role)
        assert report.findings == ()
        assert report.scores is not None
        for dim, seats in round_.matrix.items():
            if role in seats:
                assert report.scores[dim] == seats[role]


@given(
    contracts(dialect="13.2").map(load_contract).flatmap(rounds_v2),
    st.sampled_from(["F6b", "F1", "F3", "F2", "F8", "F6c"]),
    st.data(),
)
@example(None, "F6b", None)
def test_a_single_mutation_of_any_seat_is_caught(
    round_: RoundV2 | None, family: str, data: st.DataObject | None
) -> None:
    scope = SCOPE
    if round_ is None or data is None:  # the @example: one fixed seat
        round_text, role, phase1 = P2, ROLE, P1
    else:
        scope = round_.scope
        role = data.draw(st.sampled_from(scope.roles))
        round_text, phase1 = round_.phase2[role], round_.phase1[role]
    mutated, tag = _mutate(scope, role, round_text, family)
    assert mutated != round_text
    report = lint_phase2_v2(mutated, scope, phase1, role=role)
    assert tag in tags([f.message for f in report.errors])


def _mutate(scope: RoleScope, role: str, text: str, family: str) -> tuple[str, str]:
    """One mutation of a family that applies to any seat's report."""
    outside = next((d for d in scope.dimensions if role not in d.eligible_roles), None)
    if outside is None:  # a role eligible everywhere has no structural abstention
        family = "F1"
        outside = scope.dimensions[0]
    head = f"### {outside.id}: {outside.name}\n\nscore: not_assessed"
    if family == "F6b":
        return text.replace(head, head.replace("not_assessed", "pass")), "OUT-OF-ROLE-SCORE"
    if family == "F6c":
        return text.replace(head, head + "\nabstain_reason: x"), "ABSTENTION-INVALID"
    if family == "F8":
        return text.replace(head, head + '\ntrigger: "x"'), "TRIGGER-GRAMMAR"
    if family == "F1":
        return text + "\n## Editorial Decision\n", "V1-GRAMMAR-RETIRED"
    if family == "F2":
        return text.replace("## Dimension Scores", "## Scores"), "REPORT-PARSE"
    return text.replace(f"contract_role: {role}\n", ""), "REPORT-PARSE"


def test_the_loaded_contract_gives_the_same_scope() -> None:
    loaded = load_contract(CONTRACT)
    assert loaded.dialect == "13.2"
    assert scope_of(loaded) == SCOPE
    with pytest.raises(KernelError, match=r"not a 13\.2 reviewer contract"):
        scope_of("reviewer/full")


def test_the_public_lints_dispatch_on_the_dialect() -> None:
    from kernel import lint_phase1, lint_phase2, load_contract

    loaded = load_contract(CONTRACT)
    assert lint_phase1(P1, loaded, role=ROLE).findings == ()
    assert lint_phase2(P2, loaded, P1, role=ROLE).findings == ()
    with pytest.raises(Exception, match="role="):
        lint_phase1(P1, loaded)
    # one door: a Schema 13 lint takes the seat's role as the reviewer's name
    assert lint_phase1(P1, load_contract("reviewer/full"), role=ROLE).role == ROLE
    with pytest.raises(KernelError, match="role must be a str"):
        lint_phase1(P1, load_contract("reviewer/full"), role=1)  # type: ignore[arg-type]


def _mutate_phase1(scope: RoleScope, role: str, text: str, family: str) -> tuple[str, str]:
    """One mutation of a Phase 1 family that applies to any seat's plan."""
    first = scope.eligible(role)[0]
    head = f"### {first.id}: {first.name}\n"
    if family == "E1":
        return text.replace("## Scoring Plan", "## Plan"), "PHASE1-GRAMMAR"
    if family == "E2":
        return text.replace("[CONTRACT-ACKNOWLEDGED]", "[CONTRACT ACKNOWLEDGED]"), "PHASE1-GRAMMAR"
    if family == "E5":
        start = text.index(head)
        end = text.find("### ", start + len(head))
        end = text.index("[CONTRACT-ACKNOWLEDGED]") if end < 0 else end
        return text[:start] + text[end:], "PHASE1-SCOPE"
    if family == "E6":
        return text.replace(f"dimension_id: {first.id}\n", "", 1), "PHASE1-GRAMMAR"
    if family == "E7":
        plan = text[text.index(head) :]
        block = plan[plan.index("what_triggers_block: ") + 21 :].split("\n", 1)[0]
        warn = plan[plan.index("what_triggers_warn: ") + 20 :].split("\n", 1)[0]
        return text.replace(warn, block.upper(), 1), "PHASE1-TRIGGER-COLLISION"
    outside = next((d for d in scope.dimensions if role not in d.eligible_roles), None)
    if outside is None:  # a role eligible everywhere: planning a dimension twice instead
        return text.replace(head, head + "\n" + head, 1), "PHASE1-GRAMMAR"
    extra = f"### {outside.id}: {outside.name}\n\ndimension_id: {outside.id}\n\n"
    return text.replace("[CONTRACT-ACKNOWLEDGED]", extra + "[CONTRACT-ACKNOWLEDGED]"), (
        "PHASE1-OUT-OF-ROLE"
    )


@given(
    contracts(dialect="13.2").map(load_contract).flatmap(rounds_v2),
    st.sampled_from(["E1", "E2", "E5", "E6", "E7", "E5-out-of-role"]),
    st.data(),
)
@example(None, "E5-out-of-role", None)
def test_a_single_phase1_mutation_of_any_seat_is_caught(
    round_: RoundV2 | None, family: str, data: st.DataObject | None
) -> None:
    if round_ is None or data is None:  # the @example: the worked contract's eic seat
        scope, role, text = SCOPE, ROLE, P1
    else:
        scope = round_.scope
        role = data.draw(st.sampled_from(scope.roles))
        text = round_.phase1[role]
    mutated, tag = _mutate_phase1(scope, role, text, family)
    assert mutated != text
    messages = [f.message for f in lint_phase1_v2(mutated, scope, role).errors]
    assert tag in tags(messages)


def test_the_leak_check_matches_a_shingle_inside_longer_words() -> None:
    # 13.2 §E9.3: a substring of the Phase 1 text, not aligned on words (upstream's quirk).
    inside = "x" + " ".join(f"word{i}" for i in range(3, 15)) + "s"
    leaked = P1.replace("## Scoring Plan", inside + "\n\n## Scoring Plan")
    report = lint_phase1_v2(leaked, SCOPE, ROLE, manuscript=MANUSCRIPT, metadata=METADATA)
    assert [f.code for f in report.errors] == ["P1-112"]


# ---- pinned edges (each found by a surviving mutant) ----------------------------------------


def test_a_hidden_field_is_reported_at_its_own_line() -> None:
    hidden = P2.replace("score: pass", "score: pass\n\n<div>\nscore: block\n</div>", 1)
    line = hidden.split("\n").index("<div>") + 2
    errors = lint_phase2_v2(hidden, SCOPE, P1, role=ROLE).errors
    assert [(f.code, f.line) for f in errors] == [("P2-135", line)]


def test_an_ordinary_table_outside_the_bands_is_not_an_issue_table() -> None:
    table = "| Measure | Value |\n| --- | --- |\n| attrition | 4 % |"
    text = DA_P2.replace("The report's findings follow.", f"{table}\n\nThe findings follow.")
    assert p2_messages(text, DA_P1, "da") == []
    shadow = text.replace("| Measure | Value |", "| # | Value |")
    assert "DA-TABLE-PARSE" in tags(p2_messages(shadow, DA_P1, "da"))


def test_a_dissent_names_known_dimensions() -> None:
    assert p2_messages(_dissent("dimension_id: D4\nrationale: the plan missed a case")(P2)) == []
    unknown = p2_messages(_dissent("dimension_id: D9\nrationale: a")(P2))
    assert unknown == [
        "[DISSENT-GRAMMAR: unknown dimensions ['D9']] name a dimension of the contract: D1, D2, "
        "D3, D4, D5, D6"
    ]


def test_an_out_of_role_plan_is_reported_once() -> None:
    stray = P1.replace(
        "[CONTRACT-ACKNOWLEDGED]", "### D1: methodology_rigor\n\n[CONTRACT-ACKNOWLEDGED]"
    )
    assert p1_messages(stray) == [
        "[PHASE1-OUT-OF-ROLE: document: role eic planned D1] remove it: role eic plans "
        f"{EIC_PLAN}",
        "[PHASE1-SCOPE: document: planned=['D1', 'D3', 'D4', 'D5'], eligible=['D3', 'D4', 'D5']] "
        f"plan exactly {EIC_PLAN}",
    ]


INVALID_ANCHOR = (
    "[ANCHOR-INVALID: document:W1: The main finding: text anchor needs balanced quoted "
    "excerpts of at most 25 words] write one line '**Evidence Anchor**: <type>: <where>', the "
    "type one of text, table, figure, equation, dataset, absence (e.g. 'text: Introduction, "
    "para. 2, \"the quoted words\"')"
)
EIC_PLAN = (
    "'### D3: argumentative_coherence', '### D4: cross_disciplinary_relevance', "
    "'### D5: writing_and_structure'"
)


@pytest.mark.parametrize(
    ("anchor", "ok"),
    [
        ("text: \u201cthe central claim of the abstract\u201d", True),
        ('text: \u201cthe central claim "of" the abstract\u201d', True),
        ("text: the central claim\u201d", False),
        ('text: "the central claim\u201d', False),
    ],
)
def test_curly_quoted_excerpts(anchor: str, ok: bool) -> None:
    text = P2.replace('text: "the central claim of the abstract"', anchor)
    assert text != P2
    assert p2_messages(text) == ([] if ok else [INVALID_ANCHOR])


def test_13_2_options_are_refused_under_13() -> None:
    contract = load_contract("reviewer/full")
    from kernel.reviewer.lint import lint_phase1

    with pytest.raises(KernelError, match=r"^manuscript, metadata: only for dialect 13\.2"):
        lint_phase1("x", contract, manuscript="m", metadata={"title": "t"})


@pytest.mark.parametrize("title", ["Notes", "D9: unknown_dimension"])
def test_a_subsection_that_names_no_dimension_is_invalid(title: str) -> None:
    stray = P1.replace("[CONTRACT-ACKNOWLEDGED]", f"### {title}\n\nx\n\n[CONTRACT-ACKNOWLEDGED]")
    assert p1_messages(stray) == [
        f"[PHASE1-GRAMMAR: document: invalid subsection '### {title}'] a subsection of the plan "
        f"is one of {EIC_PLAN}"
    ]
