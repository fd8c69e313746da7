"""``lint_phase2``: wire-format.md, "Phase 2 document", checks 1-8 (and R12)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Final

from kernel.contract.model import Contract
from kernel.contract.quantifiers import winner
from kernel.expression.ast import SCORE_RANK, SCORES
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint import advisory
from kernel.reviewer.lint._structure import Codes, Outline, outline, stray_headings, subsections
from kernel.reviewer.lint.phase1 import _require_contract, analyse_phase1, too_large_finding
from kernel.reviewer.lint.placement import misplaced_key_lines
from kernel.reviewer.lint.report import Finding, LintReport
from kernel.reviewer.lint.tokens import WordLookup, trigger_tokens
from kernel.text.markdown import (
    MAX_BACKTICKS,
    MAX_INLINE_MARKUP,
    Document,
    Section,
    check_structure,
    key_values,
    parse_normalised,
    prose_word_text,
    readable,
    sections,
)

__all__ = ["CHECKS", "DISSENT", "PHASE2_SECTIONS", "lint_phase2"]

DISSENT: Final = "Scoring Plan Dissent"
PHASE2_SECTIONS: Final = (
    DISSENT,
    "Dimension Scores",
    "Failure Condition Checks",
    "Review Body",
    "Editorial Decision",
)
#: The Phase 2 checks in wire-format order (the ``<check>`` of ``phase2_lint_failed=``).
CHECKS: Final = (
    "sections",
    "dimension_scores",
    "failure_condition_checks",
    "dissent",
    "consistency",
    "editorial_decision",
    "key_lines",
)
_CODES: Final = Codes(
    missing="P2-001", duplicate="P2-002", order="P2-003", unexpected="P2-004", preamble="P2-005"
)
_DECISION_LINE: Final = re.compile(r"editorial_decision=([A-Za-z_]+)")
_ID_HEAD: Final = re.compile(r"([A-Z][0-9]+)(?:$|[: \t])")
_SEPARATORS: Final = re.compile(r"[ \t,]+")


def lint_phase2(
    text: str,
    contract: Contract | Mapping[str, Any] | str,
    phase1: str | None = None,
    *,
    max_bytes: int = MAX_INPUT_BYTES,
) -> LintReport:
    """Lint one reviewer's Phase 2 output against ``contract`` (and, when given, that
    reviewer's Phase 1 text, for the consistency check).

    ``contract`` is a :class:`Contract` (fast) or anything :func:`load_contract` takes.
    Returns a :class:`LintReport`; raises :class:`~kernel.errors.KernelError` only for input
    that cannot be read at all (not a str, over ``max_bytes``, not encodable as UTF-8) or an
    invalid contract. A document over the work bound gets the one finding ``P2-006``.
    """
    contract = _require_contract(contract)
    text = readable(text, source="Phase 2 document", max_bytes=max_bytes)
    phase1_text = (
        readable(phase1, source="Phase 1 document", max_bytes=max_bytes)
        if phase1 is not None
        else None
    )
    too_large = check_structure(text)
    if too_large is not None:
        return LintReport(phase=2, findings=(too_large_finding("P2-006", too_large),))
    doc = parse_normalised(text)
    phase1_doc: Document | None = None
    phase1_problem: str | None = None
    if phase1_text is not None:
        phase1_problem = check_structure(phase1_text)
        if phase1_problem is None:
            phase1_doc = parse_normalised(phase1_text)
    out, findings = outline(doc, PHASE2_SECTIONS, _CODES)
    findings += _section_findings(out)

    scores, score_findings = _scores(out.unique("Dimension Scores"), contract)
    fired, fired_findings = _fired(out.unique("Failure Condition Checks"), contract, scores)
    dissent = out.unique(DISSENT)
    dissent_ids, dissent_findings = _dissent(dissent, contract) if dissent else (set(), [])
    multi = len(dissent_ids) >= 2

    consistency: list[Finding] = []
    body = out.unique("Review Body")
    if phase1_text is None:
        consistency.append(
            Finding(
                "P2-043",
                "consistency with Phase 1 was not checked: no Phase 1 document was given "
                "(only checks 1-4, 6 and 8 ran)",
                None,
                "consistency",
                "warning",
            )
        )
    elif scores is not None and body is not None:
        if phase1_doc is None:
            unread = f"the Phase 1 document is too large to read: {phase1_problem}"
            plans: Mapping[str, Mapping[str, str] | None] = dict.fromkeys(contract.dimension_ids)
        else:
            unread = ""
            plans = analyse_phase1(phase1_doc, contract, plans_only=True).plans
        consistency = _consistency(contract, scores, dissent_ids, plans, body, unread)

    decision, decision_findings = _decision(out.unique("Editorial Decision"), contract, fired)
    decision_findings += misplaced_key_lines(doc, out)
    advisories = advisory.phase2_findings(doc)
    return LintReport(
        phase=2,
        findings=tuple(
            findings
            + score_findings
            + fired_findings
            + dissent_findings
            + consistency
            + decision_findings
            + advisories
        ),
        multi_dissent=multi,
        scores=MappingProxyType(scores) if scores is not None else None,
        fired=MappingProxyType(fired) if fired is not None else None,
        decision=decision,
        consistency_checked=phase1_text is not None and scores is not None and body is not None,
    )


def _section_findings(out: Outline) -> list[Finding]:
    findings = [
        Finding(_CODES.missing, f"missing section '## {name}'", None, "sections")
        for name in PHASE2_SECTIONS[1:]
        if name not in out.found
    ]
    dissent_line = out.first_line(DISSENT)
    scores_line = out.first_line("Dimension Scores")
    if dissent_line is not None and scores_line is not None and dissent_line > scores_line:
        findings.append(
            Finding(
                _CODES.order,
                f"'## {DISSENT}' must come before '## Dimension Scores' (line {scores_line})",
                dissent_line,
                "sections",
            )
        )
    decision = out.unique("Editorial Decision")
    if decision is not None:
        findings += stray_headings(decision, "sections", _CODES.unexpected)
    return findings


def _scores(
    section: Section | None, contract: Contract
) -> tuple[dict[str, str] | None, list[Finding]]:
    if section is None:
        return None, []
    headings = {f"{d.id}: {d.name}": d.id for d in contract.dimensions}
    subs = subsections(section, headings.get)
    findings = [
        Finding(
            "P2-012",
            f"unexpected subsection '### {s.heading.title}' in '## Dimension Scores'; "
            "expected '### <id>: <name>' of a contract dimension",
            s.line,
            "dimension_scores",
        )
        for s in subs.unknown
        if s.heading is not None
    ]
    scores: dict[str, str] = {}
    for d in contract.dimensions:
        occurrences = subs.matched.get(d.id, [])
        title = f"'### {d.id}: {d.name}'"
        if not occurrences:
            findings.append(
                Finding(
                    "P2-010",
                    f"no subsection {title} in '## Dimension Scores'",
                    section.line,
                    "dimension_scores",
                )
            )
            continue
        if len(occurrences) > 1:
            findings.append(
                Finding(
                    "P2-011",
                    f"{title} appears again (first at line {occurrences[0].line})",
                    occurrences[1].line,
                    "dimension_scores",
                )
            )
            continue
        sub = occurrences[0]
        values = [kv for kv in key_values(sub.blocks) if kv.key == "score"]
        if len(values) != 1:
            findings.append(
                Finding(
                    "P2-013",
                    f"{title} has {len(values)} 'score:' lines; exactly one is required",
                    values[1].line if values else sub.line,
                    "dimension_scores",
                )
            )
        elif values[0].value not in SCORES:
            findings.append(
                Finding(
                    "P2-014",
                    f"score {values[0].value!r} for {d.id} is not one of block, warn, pass",
                    values[0].line,
                    "dimension_scores",
                )
            )
        else:
            scores[d.id] = values[0].value
    complete = len(scores) == len(contract.dimensions) and not findings
    return (scores if complete else None), findings


def _condition_key(ids: frozenset[str]) -> Callable[[str], str | None]:
    def key(title: str) -> str | None:
        m = _ID_HEAD.match(title)
        return m.group(1) if m is not None and m.group(1) in ids else None

    return key


def _fired(
    section: Section | None, contract: Contract, scores: Mapping[str, str] | None
) -> tuple[dict[str, bool] | None, list[Finding]]:
    if section is None:
        return None, []
    ids = frozenset(c.condition_id for c in contract.conditions)
    key = _condition_key(ids)
    subs = subsections(section, key)
    findings = [
        Finding(
            "P2-022",
            f"unexpected subsection '### {s.heading.title}' in '## Failure Condition Checks'; "
            "expected '### <condition_id>' (optionally followed by ':' and text)",
            s.line,
            "failure_condition_checks",
        )
        for s in subs.unknown
        if s.heading is not None
    ]
    fired: dict[str, bool] = {}
    for c in contract.conditions:
        occurrences = subs.matched.get(c.condition_id, [])
        if not occurrences:
            findings.append(
                Finding(
                    "P2-020",
                    f"no subsection '### {c.condition_id}' in '## Failure Condition Checks'",
                    section.line,
                    "failure_condition_checks",
                )
            )
            continue
        if len(occurrences) > 1:
            findings.append(
                Finding(
                    "P2-021",
                    f"'### {c.condition_id}' appears again (first at line {occurrences[0].line})",
                    occurrences[1].line,
                    "failure_condition_checks",
                )
            )
            continue
        values = [kv for kv in key_values(occurrences[0].blocks) if kv.key == "fired"]
        if len(values) != 1:
            findings.append(
                Finding(
                    "P2-023",
                    f"'### {c.condition_id}' has {len(values)} 'fired:' lines; exactly one is "
                    "required",
                    values[1].line if values else occurrences[0].line,
                    "failure_condition_checks",
                )
            )
        elif values[0].value not in ("true", "false"):
            findings.append(
                Finding(
                    "P2-024",
                    f"fired value {values[0].value!r} for {c.condition_id} is not true or false",
                    values[0].line,
                    "failure_condition_checks",
                )
            )
        else:
            flag = values[0].value == "true"
            fired[c.condition_id] = flag
            if scores is not None:
                column = [SCORE_RANK[scores[d.id]] for d in contract.dimensions]
                holds = c.predicate.holds(column)
                if holds != flag:
                    findings.append(
                        Finding(
                            "P2-025",
                            f"{c.condition_id} says fired: {values[0].value}, but its predicate "
                            f"'{c.text}' is {'true' if holds else 'false'} on this reviewer's "
                            "own scores (R12)",
                            values[0].line,
                            "failure_condition_checks",
                        )
                    )
    complete = len(fired) == len(contract.conditions) and not any(
        f.code != "P2-025" for f in findings
    )
    return (fired if complete else None), findings


def _dissent(section: Section, contract: Contract) -> tuple[set[str], list[Finding]]:
    ids = set(contract.dimension_ids)
    named: dict[str, int] = {}
    findings: list[Finding] = []
    _, subs = sections(section.blocks, 3)
    for sub in subs:
        assert sub.heading is not None
        m = _ID_HEAD.match(sub.heading.title)
        if m is not None and m.group(1) in ids:
            named.setdefault(m.group(1), sub.line)
        else:
            findings.append(
                Finding(
                    "P2-032",
                    f"'### {sub.heading.title}' in '## {DISSENT}' names no contract dimension; "
                    "write '### <Dn>' or a 'dimension_id: <Dn>' line",
                    sub.line,
                    "dissent",
                )
            )
    for kv in key_values(section.blocks):
        if kv.key != "dimension_id":
            continue
        for part in _SEPARATORS.split(kv.value):
            if not part:
                continue
            if part in ids:
                named.setdefault(part, kv.line)
            else:
                findings.append(
                    Finding(
                        "P2-032",
                        f"dissent dimension_id {part!r} is not a dimension id of the contract",
                        kv.line,
                        "dissent",
                    )
                )
    if not named and not findings:
        findings.append(
            Finding(
                "P2-030",
                f"'## {DISSENT}' names no contract dimension; give 'dimension_id: <Dn>' "
                "or remove the section",
                section.line,
                "dissent",
            )
        )
    if len(named) >= 2:
        listed = ", ".join(sorted(named, key=lambda i: named[i]))
        findings.append(
            Finding(
                "P2-031",
                f"multi-dissent: the dissent names {len(named)} dimensions ({listed}); at most "
                "one per Phase 2 (the reviewer restarts from Phase 1)",
                section.line,
                "dissent",
            )
        )
    return set(named), findings


def _consistency(
    contract: Contract,
    scores: Mapping[str, str],
    dissent: set[str],
    plans: Mapping[str, Mapping[str, str] | None],
    body: Section,
    unread: str = "",
) -> list[Finding]:
    findings: list[Finding] = []
    body_words: WordLookup | None = None
    for d in contract.dimensions:
        score = scores[d.id]
        if score == "pass" or d.id in dissent:
            continue
        field = f"what_triggers_{score}"
        plan = plans.get(d.id)
        if plan is None or field not in plan:
            findings.append(
                Finding(
                    "P2-042",
                    f"{d.id} scores {score!r} but the reviewer's Phase 1 plan for {d.id} is "
                    + (unread if unread else "missing or fails the Phase 1 lint")
                    + f", so no {field} can be met",
                    body.line,
                    "consistency",
                )
            )
            continue
        tokens = trigger_tokens(plan[field])
        if not tokens:
            findings.append(
                Finding(
                    "P2-041",
                    f"{d.id} scores {score!r} but its Phase 1 {field} {plan[field]!r} has no "
                    "token left after stop words, so it can never be met",
                    body.line,
                    "consistency",
                )
            )
            continue
        if body_words is None:
            prose = prose_word_text(body.blocks)
            if prose is None:
                too_much = (
                    f"'## Review Body' holds more than {MAX_INLINE_MARKUP} '&' and '<' or "
                    f"more than {MAX_BACKTICKS} '`' in its prose, so its words cannot be read "
                    "within the work bound and no trigger can be met"
                )
                return [*findings, Finding("P2-045", too_much, body.line, "consistency")]
            body_words = WordLookup(prose)
        if not body_words.has_any(tokens):
            findings.append(
                Finding(
                    "P2-040",
                    f"{d.id} scores {score!r} but '## Review Body' uses none of the words of "
                    f"its Phase 1 {field} ({', '.join(sorted(tokens))}); cite the trigger or "
                    "declare a dissent",
                    body.line,
                    "consistency",
                )
            )
    return findings


def _decision(
    section: Section | None, contract: Contract, fired: Mapping[str, bool] | None
) -> tuple[str | None, list[Finding]]:
    if section is None:
        return None, []
    occurrences = sum(b.text.count("editorial_decision") for b in section.blocks)
    lines = [
        (m.group(0), b.line + i)
        for b in section.blocks
        if b.kind == "paragraph" and not b.quoted
        for i, raw in enumerate(b.text.split("\n"))
        if (m := _DECISION_LINE.fullmatch(raw.strip(" \t"))) is not None
    ]
    if occurrences != 1 or len(lines) != 1:
        return None, [
            Finding(
                "P2-050",
                "'## Editorial Decision' must hold exactly one line "
                f"'editorial_decision=<action>' and no other mention of it (found {occurrences} "
                f"mention(s), {len(lines)} such line(s))",
                lines[1][1] if len(lines) > 1 else section.line,
                "editorial_decision",
            )
        ]
    action, line = lines[0]
    actions = {c.action for c in contract.conditions}
    if action not in actions:
        return None, [
            Finding(
                "P2-051",
                f"{action} is not an action of this contract ({', '.join(sorted(actions))})",
                line,
                "editorial_decision",
            )
        ]
    if fired is None:
        return action, []
    position = winner(contract.precedence, [fired[c.condition_id] for c in contract.conditions])
    if position is None:
        if contract.fallback is None:
            return action, [
                Finding(
                    "P2-053",
                    "no condition is marked fired and the contract has no accept-grade "
                    "fallback (R5), so no editorial decision follows from the checks",
                    line,
                    "editorial_decision",
                )
            ]
        expected, why = contract.conditions[contract.fallback].action, "nothing fired: R5 fallback"
    else:
        expected = contract.conditions[position].action
        why = f"{contract.conditions[position].condition_id} decides by R6 precedence"
    if action != expected:
        return action, [
            Finding(
                "P2-052",
                f"{action} does not follow from the fired flags: expected {expected} ({why})",
                line,
                "editorial_decision",
            )
        ]
    return action, []
