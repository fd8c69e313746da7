"""``lint_phase2_v2``: a 13.2 seat's Phase 2 report (13.2 §F1-§F11).

Read with the shared 13.2 reading (:mod:`kernel.reviewer.lint.fields`). Every rule is
checked (upstream stops at the first failure; the verdict is the same); a check that needs
what an earlier one could not read is skipped. Messages are upstream's bracketed tags with
the document's ``source`` name as the path.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Final

import attrs

from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint import advisory, dissent_html
from kernel.reviewer.lint.anchors import ANCHOR_TYPES, anchor_problem
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.da_tables import da_findings, read_da_tables
from kernel.reviewer.lint.fields import (
    FieldLine,
    decorated,
    field_lines,
    h2_sections,
    h3_sections,
    match_lines,
    normalise,
)
from kernel.reviewer.lint.phase1 import too_large_finding
from kernel.reviewer.lint.phase1_v2 import SAME_FOR_BOTH, analyse_phase1_v2
from kernel.reviewer.lint.readings import (
    Disagreement,
    Owner,
    Readings,
    disagreements,
    line_shapes,
    misplaced,
    readings,
    visible,
)
from kernel.reviewer.lint.receipts import receipt_findings
from kernel.reviewer.lint.report import Finding, LintReport
from kernel.reviewer.roles import RoleScope, require_role
from kernel.text.markdown import Document, Section, check_structure, parse_normalised, readable

__all__ = ["RETIRED", "ReportV2", "analyse_phase2_v2", "da_critical_ids", "lint_phase2_v2"]

SCORES_SECTION: Final = "Dimension Scores"
DISSENT: Final = "Scoring Plan Dissent"
BODY: Final = "Review Body"
#: v3.6.2 per-seat sections, forbidden under 13.2 (13.2 §F1).
RETIRED: Final = ("Failure Condition Checks", "Editorial Decision")
#: A whole line, searched in the whole text at once (``\s`` without the line break).
_BARE_DECISION: Final = re.compile(
    r"^[^\S\n]*editorial_decision=\S+[^\S\n]*$", re.IGNORECASE | re.MULTILINE
)
_ROLE: Final = {"contract_role": re.compile(r"contract_role: (?P<value>[a-z_]+)\s*")}
_SCORE_FIELDS: Final = {
    "score": re.compile(r"score: (?P<value>block|warn|pass|not_assessed)\s*"),
    "block_class": re.compile(r"block_class: (?P<value>fatal|repairable)\s*"),
    "trigger": re.compile(r'trigger: "(?P<value>[^"\n]+)"\s*'),
    "abstain_reason": re.compile(r"abstain_reason: (?P<value>\S(?:.*\S)?)\s*"),
}
_DISSENT_FIELDS: Final = {
    "dimension_id": re.compile(r"dimension_id: (?P<value>D\d+)\s*"),
    "rationale": re.compile(r"rationale: (?P<value>\S(?:.*\S)?)\s*"),
}
_FINDING_TITLE: Final = re.compile(r"W[1-9]\d*: \S.*")
#: ``\s`` of upstream's per-line pattern, minus the line break: it is searched in the whole
#: text at once.
_SEVERITY_DECLARED: Final = re.compile(r"\*\*Severity(?:\*\*)?[^\S\n]*:", re.IGNORECASE)
_SEVERITY: Final = re.compile(
    r"(?:^|\|)\s*(?:[-*]\s*)?\*\*Severity\*\*:\s*(?P<severity>Critical|Major|Minor)\b"
)
_ANCHOR_DECLARED: Final = re.compile(r"\*\*Evidence Anchor(?:\*\*)?\s*:", re.IGNORECASE)
_ANCHOR: Final = re.compile(r"(?:^|\|)\s*(?:[-*]\s*)?\*\*Evidence Anchor\*\*:\s*(?P<value>[^|]+)")
#: What passes for an evidence anchor (13.2 §F11.2).
_ANCHOR_FIX: Final = (
    "write one line '**Evidence Anchor**: <type>: <where>', the type one of "
    + ", ".join(ANCHOR_TYPES)
    + " (e.g. 'text: Introduction, para. 2, \"the quoted words\"')"
)
_TRIGGER_FIELD: Final = {"warn": "what_triggers_warn", "block": "what_triggers_block"}


@attrs.frozen
class ReportV2:
    findings: tuple[Finding, ...]
    #: The declared ``contract_role``, when exactly one valid line gives it.
    role: str | None
    #: dimension id → ``pass|warn|block|not_assessed``, with ``block:fatal`` /
    #: ``block:repairable`` where a block carries its class; ``None`` unless every
    #: dimension was read.
    scores: Mapping[str, str] | None
    dissent: tuple[str, ...]

    def lint_report(self, *, bound: bool) -> LintReport:
        """The report as a lint's result; ``bound``: it was read with its seat's Phase 1."""
        return LintReport(
            phase=2,
            findings=self.findings,
            multi_dissent=len(self.dissent) >= 2,
            scores=self.scores,
            consistency_checked=bound,
            role=self.role,
            dissent=self.dissent,
        )


def lint_phase2_v2(
    text: str,
    scope: RoleScope,
    phase1: str | None = None,
    *,
    role: str | None = None,
    source: str = "document",
    phase1_source: str = "phase1",
    max_bytes: int = MAX_INPUT_BYTES,
    ars: str | Reading = DEFAULT_ARS,
) -> LintReport:
    """Lint a 13.2 Phase 2 report. ``role`` is the seat it was dispatched as (the declared
    ``contract_role`` must equal it); ``phase1`` is the same seat's Phase 1, for trigger
    binding (13.2 §F9) and the dissent's commitments; ``ars`` the ARS reading."""
    report = analyse_phase2_v2(
        text,
        scope,
        phase1,
        role=role,
        source=source,
        phase1_source=phase1_source,
        max_bytes=max_bytes,
        ars=ars,
    )
    return report.lint_report(bound=phase1 is not None)


def analyse_phase2_v2(
    text: str,
    scope: RoleScope,
    phase1: str | None = None,
    *,
    role: str | None = None,
    source: str = "document",
    phase1_source: str = "phase1",
    max_bytes: int = MAX_INPUT_BYTES,
    ars: str | Reading = DEFAULT_ARS,
) -> ReportV2:
    chosen = reading(ars)
    if role is not None:
        role = require_role(scope, role)
    text = readable(text, source="Phase 2 document", max_bytes=max_bytes)
    phase1_text = (
        readable(phase1, source="Phase 1 document", max_bytes=max_bytes)
        if phase1 is not None
        else None
    )
    problem = check_structure(text)
    if problem is not None:
        return ReportV2((too_large_finding("P2-126", problem),), None, None, ())
    doc = parse_normalised(text)
    r = readings(doc)
    _, found = h2_sections(doc)
    by_title: dict[str, list[Section]] = {}
    for s in found:
        assert s.heading is not None
        by_title.setdefault(s.heading.title, []).append(s)
    findings = _retired(r, by_title, source)
    findings += _readings(r, source, dissent_html=chosen.dissent_html)
    scores_sections = by_title.get(SCORES_SECTION, [])
    if len(scores_sections) != 1:
        what = "missing" if not scores_sections else "duplicated"
        findings.append(
            Finding(
                "P2-103",
                f"[REPORT-PARSE: {source}: {what} ## {SCORES_SECTION}] "
                + (
                    f"add one '## {SCORES_SECTION}' section holding a '### <Dn>: <name>' "
                    "subsection per dimension"
                    if not scores_sections
                    else f"keep one '## {SCORES_SECTION}'"
                ),
                scores_sections[1].line if scores_sections else None,
                "report",
            )
        )
    declared, role_findings = _role(doc, scope, role, source)
    findings += role_findings
    scores: dict[str, tuple[str, str | None, str | None]] | None = None
    trigger_lines: dict[str, int] = {}
    if len(scores_sections) == 1:
        read, score_findings = _scores(
            doc, scores_sections[0], scope, declared, source, trigger_lines
        )
        findings += score_findings
        if read is not None and not any(f.severity == "error" for f in score_findings):
            scores = read
    plans: Mapping[str, Mapping[str, str]] | None = None
    seat = role or declared
    if phase1_text is not None and seat is not None:
        p1_problem = check_structure(phase1_text)
        if p1_problem is None:
            p1 = analyse_phase1_v2(parse_normalised(phase1_text), scope, seat, phase1_source)
            if not any(f.severity == "error" for f in p1.findings):
                plans = p1.plans
        if plans is None:
            findings.append(
                Finding(
                    "P2-125",
                    f"trigger binding not checked: the {seat} Phase 1 document fails its lint "
                    "(13.2 §E), so it commits to no trigger; fix the Phase 1 document's findings "
                    "first",
                    None,
                    "binding",
                )
            )
    elif phase1_text is None:
        findings.append(
            Finding(
                "P2-127",
                "trigger binding was not checked: no Phase 1 document was given; lint the "
                "report with its seat's Phase 1 document (ROLE.phase1.md beside it, or "
                "--phase1)",
                None,
                "binding",
                "warning",
            )
        )
    dissent, dissent_findings = _dissent(
        r, found, by_title, scope, plans, source, html=chosen.dissent_html
    )
    findings += dissent_findings
    if scores is not None and plans is not None:
        findings += _binding(scores, set(dissent), plans, trigger_lines)
    if seat == "da":
        findings += da_findings(r, by_title.get(BODY, []), source)
    elif seat is not None:
        bodies = by_title.get(BODY, [])
        escalation = chosen.severity_escalation
        block = _findings(doc, found, bodies, source, r.block_fenced, escalation)
        lines = (
            []
            if _failed(block)
            else _findings(doc, found, bodies, source, r.line_fenced, escalation)
        )
        findings += lines if _failed(lines) else block
    if chosen.receipts and seat is not None:
        findings += receipt_findings(text, role=seat, source=source, max_bytes=max_bytes)
    findings += advisory.phase2_findings(doc)
    shown = (
        MappingProxyType(
            {d: (f"{s}:{c}" if c is not None else s) for d, (s, c, _) in scores.items()}
        )
        if scores is not None
        else None
    )
    return ReportV2(tuple(findings), declared, shown, tuple(dissent))


def _retired(r: Readings, by_title: Mapping[str, list[Section]], source: str) -> list[Finding]:
    doc = r.doc
    findings = [
        Finding(
            "P2-101",
            f"[V1-GRAMMAR-RETIRED: {source}: ## {title} is forbidden under Schema 13.2] remove "
            f"it: a 13.2 report holds '## {SCORES_SECTION}' and '## {BODY}' (and at most "
            f"'## {DISSENT}'); the contract computes fired conditions and the decision",
            by_title[title][0].line,
            "retired",
        )
        for title in RETIRED
        if title in by_title
    ]
    # Every match holds a literal "=" (no case to fold): a text without one has none.
    lines = match_lines(doc, _BARE_DECISION) if "=" in doc.source else []
    bare = next((n for n in lines if not r.fenced_by_both(n)), None)
    if bare is not None:
        findings.append(
            Finding(
                "P2-102",
                f"[V1-GRAMMAR-RETIRED: {source}: bare editorial_decision line is forbidden under "
                "Schema 13.2] remove it: under 13.2 the decision is computed from the seats' "
                "scores, never written by a reviewer",
                bare,
                "retired",
            )
        )
    return findings


def _in_scores(owner: Owner) -> bool:
    return owner[0] == SCORES_SECTION


def _anywhere(owner: Owner) -> bool:
    return True


def _field_section(owner: Owner) -> bool:
    return owner[0] == SCORES_SECTION or owner[0] == DISSENT


#: Where each field belongs: a ``###`` subsection of the scores, the dissent section.
_PLACES: Final = {
    **{k: (lambda o: o[0] == SCORES_SECTION and o[1] is not None) for k in _SCORE_FIELDS},
    **{k: (lambda o: o[0] == DISSENT) for k in _DISSENT_FIELDS},
}
_PLACE_NAMES: Final = {
    **{k: f"a '### <Dn>: <name>' subsection of '## {SCORES_SECTION}'" for k in _SCORE_FIELDS},
    **{k: f"'## {DISSENT}'" for k in _DISSENT_FIELDS},
}


def _in_scores_section(owner: Owner) -> bool:
    return owner[0] == SCORES_SECTION


def _readings(r: Readings, source: str, *, dissent_html: bool = False) -> list[Finding]:
    """Headings and field lines the readings disagree on, and field lines out of their
    place (R20). ``dissent_html``: the reading aborts on raw HTML in the dissent section
    itself (DISSENT-RAW-HTML), so the strict rule leaves that section to it."""
    shaped = {**{k: _in_scores for k in _SCORE_FIELDS}, "contract_role": _anywhere}
    strict = _in_scores_section if dissent_html else _field_section
    found = disagreements(r, {**_ROLE, **_SCORE_FIELDS}, shaped, strict)
    findings = [_disagreement(d, source) for d in found]
    for n, key in misplaced(
        r, {**_SCORE_FIELDS, **_DISSENT_FIELDS}, _PLACES, skip={d.line for d in found}
    ):
        findings.append(
            Finding(
                "P2-136",
                f"[REPORT-PARSE: {source}: {key}: line outside {_PLACE_NAMES[key]}; a field "
                f"line stands only in its own place] move it into {_PLACE_NAMES[key]}, or "
                f"reword the line so that it does not start with '{key}:'",
                n,
                "report",
            )
        )
    return findings


def _disagreement(d: Disagreement, source: str) -> Finding:
    what = "the line" if d.key is None else f"the {d.key}: line"
    return Finding(
        "P2-135",
        f"[REPORT-PARSE: {source}: {what} {d.why}; the readings must agree (R20)] " + SAME_FOR_BOTH,
        d.line,
        "report",
    )


#: The values a field may have, named when a line at column 0 gives it another one.
_ALLOWED: Final = {
    "score": ("block", "warn", "pass", "not_assessed"),
    "block_class": ("fatal", "repairable"),
}


def _written(f: FieldLine) -> str | None:
    """The value of a plain ``key: value`` line at column 0 whose value is not one its
    pattern takes (``score: Warn``); ``None`` for a canonical or decorated line."""
    head = f"{f.key}: "
    if f.canonical or not f.raw.startswith(head):
        return None
    value = f.raw[len(head) :].rstrip()
    return value if value and not value[0].isspace() else None


def _decorated(
    lines: Sequence[FieldLine],
    source: str,
    where: str,
    allowed: Mapping[str, Sequence[str]] = _ALLOWED,
) -> list[Finding]:
    """One finding per non-canonical field line: a wrong value names the allowed ones."""
    out = []
    for f in lines:
        value = _written(f)
        if value is not None and f.key in allowed:
            what = f"{f.key} {value!r}{where} is not one of {', '.join(allowed[f.key])}"
        else:
            what = (
                f"{f.key}: line{where} must be a canonical unbulleted field line at column 0, "
                "outside HTML"
            )
        fix = (
            f"write one of {', '.join(f'{f.key}: {v}' for v in allowed[f.key])}"
            if f.key in allowed
            else f"write it as '{f.key}: <value>' with nothing before the key and no markup"
        )
        out.append(Finding("P2-109", f"[REPORT-PARSE: {source}: {what}] {fix}", f.line, "report"))
    return out


def _role(
    doc: Document, scope: RoleScope, dispatched: str | None, source: str
) -> tuple[str | None, list[Finding]]:
    lines = field_lines(doc, doc.blocks, _ROLE)
    findings = _decorated(decorated(lines), source, "", {"contract_role": scope.roles})
    canonical = [f for f in lines if f.value is not None]
    if not canonical and len(lines) == 1 and _written(lines[0]) is not None:
        return None, findings  # a wrong role, named once
    if len(canonical) != 1:
        findings.append(
            Finding(
                "P2-104",
                f"[REPORT-PARSE: {source}: expected exactly one contract_role line, found "
                f"{len(canonical)}] "
                + (
                    "keep one"
                    if canonical
                    else "write one line 'contract_role: <role>' at column 0 (roles of "
                    f"{scope.mode}: {', '.join(scope.roles)})"
                ),
                canonical[1].line if len(canonical) > 1 else None,
                "report",
            )
        )
        return None, findings
    declared = canonical[0].value
    assert declared is not None
    if declared not in scope.roles:
        findings.append(
            Finding(
                "P2-105",
                f"[REPORT-ROLE: {source}: role={declared} is not valid for {scope.mode}] "
                f"write 'contract_role: <role>' with one of the roles of {scope.mode}: "
                f"{', '.join(scope.roles)}",
                canonical[0].line,
                "report",
            )
        )
        return None, findings
    if dispatched is not None and declared != dispatched:
        findings.append(
            Finding(
                "P2-106",
                f"[ROLE-BINDING: report declares {declared}, dispatched as {dispatched}] write "
                f"'contract_role: {dispatched}', or lint the document as the {declared} seat",
                canonical[0].line,
                "report",
            )
        )
    return declared, findings


def _parse(source: str, what: str, line: int | None, code: str = "P2-107") -> Finding:
    return Finding(code, f"[REPORT-PARSE: {source}: {what}]", line, "report")


def _scores(
    doc: Document,
    section: Section,
    scope: RoleScope,
    role: str | None,
    source: str,
    trigger_lines: dict[str, int] | None = None,
) -> tuple[dict[str, tuple[str, str | None, str | None]] | None, list[Finding]]:
    """dimension → (score, block_class, trigger), each subsection checked (13.2 §F4-§F8);
    ``trigger_lines`` gets the line of each dimension's trigger (and, keyed
    ``"<Dn> block_class"``, of its block_class)."""
    _, subs = h3_sections(section)
    titles = [s.heading.title for s in subs if s.heading is not None]
    findings: list[Finding] = []
    repeated = sorted({t for t in titles if titles.count(t) > 1})
    if repeated:
        again = next(
            s.line
            for i, s in enumerate(subs)
            if s.heading is not None and s.heading.title in titles[:i]
        )
        findings.append(
            _parse(
                source,
                f"duplicated Dimension Scores subsection(s) {repeated!r}",
                again,
            ).fixed("keep one subsection per dimension")
        )
    expected = ", ".join(f"'### {d.id}: {d.name}'" for d in scope.dimensions)
    out: dict[str, tuple[str, str | None, str | None]] = {}
    for sub in subs:
        assert sub.heading is not None
        title = sub.heading.title
        titled = scope.titled(title)
        if titled is None:
            findings.append(
                _parse(
                    source, f"unknown Dimension Scores subsection '### {title}'", sub.line
                ).fixed(f"a subsection of '## {SCORES_SECTION}' is one of {expected}")
            )
            continue
        dim, name = titled
        if name != dim.name:
            finding = _parse(source, f"{dim.id} name mismatch", sub.line)
            findings.append(
                attrs.evolve(
                    finding,
                    message=f"{finding.message} write '### {dim.id}: {dim.name}' (headings "
                    "name the dimension exactly as the contract does, case included)",
                )
            )
            continue
        if title in repeated:
            continue
        lines = field_lines(doc, sub.blocks, _SCORE_FIELDS)
        sub_findings = _decorated(decorated(lines), source, f" in {dim.id}")
        values: dict[str, list[str]] = {}
        every: dict[str, list[int]] = {}
        for f in lines:
            if f.value is not None:
                values.setdefault(f.key, []).append(f.value)
                every.setdefault(f.key, []).append(f.line)
        wrong = [f.key for f in lines if _written(f) is not None]
        bulleted = {f.key for f in decorated(lines)}
        for key in _SCORE_FIELDS:
            k = len(values.get(key, []))
            if k == 0 and (wrong == [key] or key in bulleted):
                continue  # one defect, one finding: its P2-109 names the line
            if (k != 1) if key == "score" else (k > 1):
                amount = "exactly" if key == "score" else "at most"
                sub_findings.append(
                    _parse(
                        source,
                        f"expected {amount} one {key} ({dim.id}) line, found {k}",
                        every[key][1] if k > 1 else sub.line,
                        "P2-108",
                    ).fixed(
                        f"keep one {key}: line"
                        if k > 1
                        else f"add one line 'score: <{'|'.join(_ALLOWED['score'])}>' under "
                        f"'### {title}'"
                    )
                )
        if sub_findings or role is None:
            findings += sub_findings
            continue
        (score,) = values["score"]
        block_class = values.get("block_class", [None])[0]
        trigger = values.get("trigger", [None])[0]
        reason = values.get("abstain_reason", [None])[0]
        eligible = role in dim.eligible_roles
        at = {f.key: f.line for f in reversed(lines) if f.value is not None}
        line = at.get("score", sub.line)
        trigger_at = at.get("trigger", line)
        if trigger_lines is not None and trigger is not None:
            trigger_lines[dim.id] = trigger_at
        if trigger_lines is not None and block_class is not None:
            trigger_lines[f"{dim.id} block_class"] = at["block_class"]
        if eligible and score == "not_assessed" and reason is None:
            sub_findings.append(
                Finding(
                    "P2-110",
                    f"[ABSTENTION-INVALID: {source}: eligible role {role} must give "
                    f"abstain_reason for {dim.id}] add a line 'abstain_reason: <why {role} "
                    "cannot assess it>' after the score, or score it",
                    line,
                    "abstention",
                )
            )
        if not eligible and score != "not_assessed":
            sub_findings.append(
                Finding(
                    "P2-111",
                    f"[OUT-OF-ROLE-SCORE: {source}: role {role} may not score {dim.id}] write "
                    f"'score: not_assessed' (a structural abstention, with no abstain_reason)",
                    at.get("score", line),
                    "abstention",
                )
            )
        if not eligible and reason is not None:
            sub_findings.append(
                Finding(
                    "P2-110",
                    f"[ABSTENTION-INVALID: {source}: structural abstention on {dim.id} must not "
                    "carry abstain_reason] remove it",
                    at.get("abstain_reason", line),
                    "abstention",
                )
            )
        if score != "not_assessed" and reason is not None:
            sub_findings.append(
                Finding(
                    "P2-110",
                    f"[ABSTENTION-INVALID: {source}: {dim.id} scored result may not carry "
                    "abstain_reason] remove it",
                    at.get("abstain_reason", line),
                    "abstention",
                )
            )
        needs_class = eligible and score == "block" and dim.priority == "mandatory"
        if (block_class is not None) != needs_class:
            sub_findings.append(
                Finding(
                    "P2-112",
                    f"[BLOCK-CLASS-INVALID: {source}: {dim.id} block_class is required iff an "
                    "eligible mandatory dimension scores block] "
                    + (
                        "remove it: only a block on a mandatory dimension the role may score "
                        "takes one"
                        if block_class is not None
                        else "add block_class: repairable or block_class: fatal"
                    ),
                    at.get("block_class", line),
                    "block_class",
                )
            )
        needs_trigger = eligible and score in ("block", "warn")
        if (trigger is not None) != needs_trigger:
            fix = (
                f"remove it: {dim.id} scores {score}, which takes no trigger"
                if trigger is not None
                else f"add a trigger: line quoting the {_TRIGGER_FIELD[score]} commitment of "
                "your Phase 1 plan"
            )
            sub_findings.append(
                Finding(
                    "P2-113",
                    f"[TRIGGER-GRAMMAR: {source}: {dim.id} trigger is required iff an eligible "
                    f"dimension scores block or warn] {fix}",
                    trigger_at if trigger is not None else line,
                    "trigger",
                )
            )
        findings += sub_findings
        out[dim.id] = (score, block_class, trigger)
    missing = [
        d.id for d in scope.dimensions if d.id not in out and f"{d.id}: {d.name}" not in titles
    ]
    if missing:
        heads = ", ".join(f"'### {d.id}: {d.name}'" for d in scope.dimensions if d.id in missing)
        findings.append(
            _parse(source, f"missing Dimension Scores for {missing!r}", section.line).fixed(
                f"add {heads}"
            )
        )
    complete = len(out) == len(scope.dimensions)
    return (out if complete else None), findings


def _binding(
    scores: Mapping[str, tuple[str, str | None, str | None]],
    dissent: set[str],
    plans: Mapping[str, Mapping[str, str]],
    lines: Mapping[str, int] | None = None,
) -> list[Finding]:
    """Each emitted trigger against the seat's Phase 1 commitment (13.2 §F9 (4))."""
    findings: list[Finding] = []
    for dim_id, (score, block_class, trigger) in scores.items():
        if dim_id in dissent:
            if block_class == "fatal":
                findings.append(
                    Finding(
                        "P2-118",
                        f"[DISSENT-FATALITY: {dim_id} dissent may not mint fatality] write "
                        f"'block_class: repairable', or drop the dissent on {dim_id} and quote "
                        "the Phase 1 what_triggers_fatal commitment",
                        (lines or {}).get(f"{dim_id} block_class"),
                        "dissent",
                    )
                )
            continue
        if trigger is None:
            continue
        field = "what_triggers_fatal" if block_class == "fatal" else _TRIGGER_FIELD[score]
        plan = plans.get(dim_id, {})
        wanted = normalise(trigger)
        if wanted not in normalise(plan.get(field, "")) or field not in plan:
            findings.append(
                Finding(
                    "P2-114",
                    f"[TRIGGER-DRIFT: {dim_id} {field} does not contain emitted trigger text] "
                    f"trigger {trigger!r} is not in the Phase 1 {field} "
                    + (
                        f"{plan[field]!r}; quote words of that commitment"
                        if field in plan
                        else "(the plan has none)"
                    ),
                    (lines or {}).get(dim_id),
                    "binding",
                )
            )
            continue
        matches = sorted(
            f
            for f in ("what_triggers_block", "what_triggers_warn", "what_triggers_fatal")
            if f in plan and wanted in normalise(plan[f])
        )
        if matches != [field]:
            findings.append(
                Finding(
                    "P2-115",
                    f"[TRIGGER-AMBIGUOUS: {dim_id} emitted trigger matches {matches!r}, expected "
                    f"only {field}] trigger {trigger!r} is in "
                    + " and ".join(f"{m} {plan[m]!r}" for m in matches)
                    + f"; quote words found only in {field}",
                    (lines or {}).get(dim_id),
                    "binding",
                )
            )
    return findings


def _field_shaped(r: Readings, n: int) -> bool:
    return not line_shapes(r, n).isdisjoint(("dimensionid", "rationale"))


def _dissent(
    r: Readings,
    found: Sequence[Section],
    by_title: Mapping[str, list[Section]],
    scope: RoleScope,
    plans: Mapping[str, Mapping[str, str]] | None,
    source: str,
    *,
    html: bool = False,
) -> tuple[list[str], list[Finding]]:
    """The dissent (13.2 §F10, §F9 (1)-(3)); with ``html`` (later upstream main, ars-main
    §5.2-§5.3) raw HTML in the section, and a field behind a comment, abort."""
    sections = by_title.get(DISSENT, [])
    if not sections:
        return [], []
    if len(sections) > 1:
        return [], [_dissent_grammar(f"duplicate ## {DISSENT}", sections[1].line, "keep one")]
    doc = r.doc
    section = sections[0]
    following = [s.line for s in found if s.line > section.line]
    end = following[0] if following else len(doc.lines) + 1
    lines = field_lines(doc, section.blocks, _DISSENT_FIELDS)
    lines = [f for f in lines if f.value is None or visible(r, f.line)]
    seen = {f.line for f in lines if f.value is not None}
    span = range(section.line + 1, min(end + 1, len(doc.lines) + 1))
    if html:
        lines_in = range(section.line + 1, end)
        abort = dissent_html.scan(
            ((n, doc.lines[n - 1]) for n in lines_in if not r.fenced_by_both(n)),
            lambda n: _field_shaped(r, n),
        )
        if abort is not None:
            return [], [_HTML_ABORTS[abort[0]](abort[1])]
    shaped = [n for n in span if _field_shaped(r, n)]
    unseen = next((n for n in shaped if n not in seen), None)
    if unseen is not None:
        if html and _commented(r, unseen):
            return [], [_HTML_ABORTS["hidden"](unseen)]
        return [], [
            _dissent_grammar(
                "dissent fields must be canonical unbulleted dimension_id: and rationale: lines",
                unseen,
                "write 'dimension_id: <Dn>' and 'rationale: <text>' at column 0, with no markup",
            )
        ]
    ids = [f.value for f in lines if f.key == "dimension_id" and f.value is not None]
    rationales = [f for f in lines if f.key == "rationale" and f.value is not None]
    if not ids and not rationales:
        nonblank = sum(1 for n in range(section.line + 1, end) if doc.lines[n - 1].strip())
        return [], [
            Finding(
                "P2-119",
                f"[DISSENT-EMPTY-SECTION: ## {DISSENT} spells no dissent field; read as no "
                "dissent, with full Phase 1 trigger binding enforced on every dimension; "
                f"{nonblank} non-blank line(s) present — read the archived response if any "
                "narrate a deviation]",
                section.line,
                "dissent",
                "warning",
            )
        ]
    scores_at = by_title.get(SCORES_SECTION, [])
    if scores_at and section.line > scores_at[0].line:
        return [], [
            _dissent_grammar(
                f"## {DISSENT} must precede ## {SCORES_SECTION}",
                section.line,
                f"move '## {DISSENT}' above '## {SCORES_SECTION}'",
            )
        ]
    id_lines = [f.line for f in lines if f.key == "dimension_id" and f.value is not None]
    if not ids:
        return [], [
            _dissent_grammar(
                "dissent section must name dimension_id",
                rationales[0].line,
                "add a line 'dimension_id: <Dn>' before the rationale: line",
            )
        ]
    if len(set(ids)) != len(ids):
        again = next(n for i, n in enumerate(id_lines) if ids[i] in ids[:i])
        return [], [_dissent_grammar("duplicate dimension_id", again, "name each dimension once")]
    if len(rationales) != len(ids):
        fix = (
            "give each dimension_id: line one 'rationale: <why the plan no longer fits>' line"
            if len(rationales) < len(ids)
            else "keep one rationale: line per dimension_id: line"
        )
        return [], [
            _dissent_grammar(
                "each dissent requires one rationale: line",
                id_lines[0] if len(rationales) < len(ids) else rationales[len(ids)].line,
                fix,
            )
        ]
    if len(ids) >= 2:
        return ids, [
            Finding(
                "P2-116",
                f"[PROTOCOL-VIOLATION: multi_dissent=true, dimensions={ids!r}] a seat dissents "
                "on one dimension at most: keep one dimension_id: line and its rationale",
                id_lines[1],
                "dissent",
            )
        ]
    unknown = [i for i in ids if scope.dimension(i) is None]
    if unknown:
        return ids, [
            _dissent_grammar(
                f"unknown dimensions {unknown!r}",
                id_lines[ids.index(unknown[0])],
                "name a dimension of the contract: " + ", ".join(d.id for d in scope.dimensions),
            )
        ]
    if plans is not None:
        uncommitted = [i for i in ids if i not in plans]
        if uncommitted:
            return ids, [
                _dissent_grammar(
                    f"dissent dimensions were not committed by this seat {uncommitted!r}",
                    id_lines[ids.index(uncommitted[0])],
                    "dissent only on a dimension your Phase 1 plan commits to: "
                    + ", ".join(sorted(plans)),
                )
            ]
    return ids, []


def _dissent_grammar(what: str, line: int | None, fix: str) -> Finding:
    return Finding("P2-117", f"[DISSENT-GRAMMAR: {what}] {fix}", line, "dissent")


#: Later main's dissent aborts (ars-main §5.2, §5.3), by what the scan found.
_HTML_ABORTS: Final[Mapping[str, Callable[[int], Finding]]] = {
    "hidden": lambda n: Finding(
        "P2-148",
        f"[DISSENT-HIDDEN: a dissent field may not stand inside an HTML comment in ## {DISSENT}] "
        "close the comment before it, or remove the comment",
        n,
        "dissent",
    ),
    "raw_html": lambda n: Finding(
        "P2-149",
        f"[DISSENT-RAW-HTML: ## {DISSENT} may not hold raw HTML] remove the HTML; the section "
        "holds only dimension_id: and rationale: lines and prose",
        n,
        "dissent",
    ),
}


def _commented(r: Readings, n: int) -> bool:
    """Whether a comment hides line ``n`` for some reading: the page hides it, it sits in an
    HTML block, or it holds comment markup."""
    text = r.doc.lines[n - 1]
    if n in r.hidden or "<!--" in text or "-->" in text:
        return True
    return any(b.kind == "html" and b.line <= n <= b.end for b in r.doc.blocks)


def _failed(findings: Sequence[Finding]) -> bool:
    return any(f.severity == "error" for f in findings)


#: Severities in rising order (ars-main §3).
_RANK: Final = {"Minor": 0, "Major": 1, "Critical": 2}


def _findings(
    doc: Document,
    found: Sequence[Section],
    bodies: Sequence[Section],
    source: str,
    hidden: frozenset[int],
    escalation: bool = False,
) -> list[Finding]:
    """Review Body findings of a scoring seat (13.2 §F11.1), first failure; ``hidden``: the
    fenced lines of one reading. With ``escalation`` (upstream main, ars-main §3) a finding
    may restate its Severity strictly upwards: the last value is the operative one, and each
    such chain is a ``SEVERITY-SUPERSEDED`` warning, given before the first failure."""
    if len(bodies) != 1:
        return [
            Finding(
                "P2-120",
                f"[REVIEW-BODY-MISSING: {source}] "
                + (
                    f"add one '## {BODY}' section holding the findings ('### W<n>: <title>')"
                    if not bodies
                    else f"keep one '## {BODY}'"
                ),
                bodies[1].line if bodies else None,
                "review_body",
            )
        ]
    body = bodies[0]
    following = [s.line for s in found if s.line > body.line]
    end = following[0] if following else len(doc.lines) + 1
    declared_at = [n for n in match_lines(doc, _SEVERITY_DECLARED) if n not in hidden]

    notes: list[Finding] = []

    def grammar(what: str, line: int | None, fix: str) -> list[Finding]:
        return [
            *notes,
            Finding("P2-121", f"[FINDING-GRAMMAR: {source}: {what}] {fix}", line, "review_body"),
        ]

    outside = next((n for n in declared_at if not body.line <= n < end), None)
    if outside is not None:
        return grammar(
            "Severity outside ## Review Body",
            outside,
            f"move the finding under its '### W<n>: <title>' heading in '## {BODY}'",
        )
    _, subs = h3_sections(body)
    titles = [s.heading.title for s in subs if s.heading is not None]
    if len(set(titles)) != len(titles):
        again = next(
            s.line
            for i, s in enumerate(subs)
            if s.heading is not None and s.heading.title in titles[:i]
        )
        return grammar("duplicate finding heading", again, "give each finding its own W<n> heading")
    first_h3 = subs[0].line if subs else end
    early = next((n for n in declared_at if body.line < n < first_h3), None)
    if early is not None:
        return grammar(
            "every finding with Severity must have its own ### finding heading",
            early,
            "put a '### W<n>: <title>' heading above it",
        )
    for i, sub in enumerate(subs):
        assert sub.heading is not None
        title = sub.heading.title
        stop = subs[i + 1].line if i + 1 < len(subs) else end
        numbered = [(n, doc.lines[n - 1]) for n in range(sub.line + 1, stop) if n not in hidden]
        lines = [t for _, t in numbered]
        own = [n for n in declared_at if sub.line < n < stop]
        declared = len(own)
        if not _FINDING_TITLE.fullmatch(title):
            if declared:
                return grammar(
                    "every finding with Severity must have its own ### W<n>: <title> heading",
                    sub.line,
                    f"rename it '### W<n>: {title}'",
                )
            continue
        if any(b.structural and b.atx and b.level == 4 for b in sub.blocks):
            return grammar(
                f"{title} may not nest a Severity finding under H4",
                next(b.line for b in sub.blocks if b.structural and b.atx and b.level == 4),
                "give each finding its own '### W<n>: <title>' heading",
            )
        marked = [t for t in lines if "**" in t]  # every pattern below needs a "**"
        per_line = [[m.group("severity") for m in _SEVERITY.finditer(t)] for t in marked]
        severities = [v for values in per_line for v in values]
        several = escalation and not any(len(values) > 1 for values in per_line)
        if declared != len(severities) or not severities or (len(severities) > 1 and not several):
            unread = next(
                (n for n in own if not _SEVERITY.search(doc.lines[n - 1])),
                own[1] if len(own) > 1 else sub.line,
            )
            return grammar(
                f"{title} must contain exactly one parseable Severity declaration",
                unread,
                "write one line '**Severity**: Critical', '**Severity**: Major' or "
                "'**Severity**: Minor'",
            )
        if len(severities) > 1:
            chain = " -> ".join(severities)
            if any(_RANK[a] >= _RANK[b] for a, b in itertools.pairwise(severities)):
                return grammar(
                    f"{title}: Severity may be restated only strictly escalating (Minor < "
                    f"Major < Critical), found {chain}",
                    own[-1],
                    "keep one Severity line, or restate it only upwards",
                )
            notes.append(
                Finding(
                    "P2-147",
                    f"[SEVERITY-SUPERSEDED: {source}: {title}: {chain}] the last value "
                    f"({severities[-1]}) counts; write it once to silence this",
                    own[-1],
                    "review_body",
                    "warning",
                )
            )
        severity = severities[-1]
        anchors_declared = sum(len(_ANCHOR_DECLARED.findall(t)) for t in marked)
        anchors = [m.group("value") for t in marked for m in _ANCHOR.finditer(t)]
        if severity in ("Critical", "Major"):
            if anchors_declared != 1 or len(anchors) != 1:
                return [
                    *notes,
                    Finding(
                        "P2-122",
                        f"[ANCHOR-MISSING: {source}: {title} {severity} finding needs "
                        f"exactly one Evidence Anchor] {_ANCHOR_FIX}",
                        sub.line,
                        "review_body",
                    ),
                ]
        elif anchors_declared > 1 or len(anchors) != anchors_declared:
            return grammar(
                f"{title} may contain at most one parseable Evidence Anchor declaration",
                sub.line,
                _ANCHOR_FIX,
            )
        if anchors:
            problem = anchor_problem(anchors[0])
            if problem is not None:
                tag, reason = problem
                code = "P2-122" if tag == "ANCHOR-MISSING" else "P2-123"
                return [
                    *notes,
                    Finding(
                        code,
                        f"[{tag}: {source}:{title}: {reason}] {_ANCHOR_FIX}",
                        next((n for n, t in numbered if _ANCHOR.search(t)), sub.line),
                        "review_body",
                    ),
                ]
    return notes


def da_critical_ids(text: str, *, max_bytes: int = MAX_INPUT_BYTES) -> tuple[str, ...] | None:
    """The CRITICAL ids of a DA report in row order, or ``None`` when its tables do not
    parse (13.2 §F11.3-§F11.6)."""
    text = readable(text, source="Phase 2 document", max_bytes=max_bytes)
    if check_structure(text) is not None:
        return None
    doc = parse_normalised(text)
    _, found = h2_sections(doc)
    bodies = [s for s in found if s.heading is not None and s.heading.title == BODY]
    tables = read_da_tables(doc, bodies, "document")
    return None if tables.findings else tables.critical
