"""``lint_phase1_v2``: a 13.2 seat's Phase 1 document, for its role (13.2 §E1-§E9).

Read with the shared 13.2 reading (:mod:`kernel.reviewer.lint.fields`). Every rule is
checked and reported (upstream stops at the first failure; the verdict is the same). Each
message is upstream's bracketed tag with the document's ``source`` name as its path.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.errors import InputError
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint import advisory
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.fields import (
    decorated,
    field_lines,
    h2_sections,
    h3_sections,
    normalise,
)
from kernel.reviewer.lint.phase1 import TAG, too_large_finding
from kernel.reviewer.lint.readings import Owner, Readings, disagreements, misplaced, readings
from kernel.reviewer.lint.report import Finding, LintReport
from kernel.reviewer.lint.shingles import shingles_found
from kernel.reviewer.roles import RoleScope, require_role
from kernel.text.markdown import Block, Document, Section, check_structure, parse_normalised
from kernel.text.markdown import readable as _readable

__all__ = [
    "PARAGRAPH_SEPARATOR",
    "PLAN_FIELDS",
    "Phase1V2",
    "analyse_phase1_v2",
    "lint_phase1_v2",
    "manuscript_leak",
    "read_metadata",
]

PARAPHRASE: Final = "Contract Paraphrase"
PLAN: Final = "Scoring Plan"
#: Scoring-plan fields in the order their counts are checked (13.2 §E6).
PLAN_FIELDS: Final = (
    "dimension_id",
    "what_to_look_for",
    "what_triggers_block",
    "what_triggers_warn",
    "what_triggers_fatal",
)
_PATTERNS: Final = {
    "dimension_id": re.compile(r"dimension_id: (?P<value>D\d+)"),
    **{f: re.compile(rf"{f}: (?P<value>\S.*)") for f in PLAN_FIELDS[1:]},
}
#: A trimmed paraphrase line that ends a paragraph without counting (13.2 §E4).
PARAGRAPH_SEPARATOR: Final = re.compile(r"#{1,6}(?:\s|$)|([-*_])(?:\s*\1){2,}$|<!--.*-->$|[-*+]$")
SHINGLE: Final = 12
SHORT_TRIGGER: Final = 8
#: What passes when the block and line readings disagree (R20).
SAME_FOR_BOTH: Final = (
    "write it at column 0, after a blank line, outside block quotes, lists, HTML and fences, "
    "so that every reading sees the same line"
)


@attrs.frozen
class Phase1V2:
    findings: tuple[Finding, ...]
    #: dimension id → its canonical plan fields, for each well-formed planned subsection.
    plans: Mapping[str, Mapping[str, str]]


def lint_phase1_v2(
    text: str,
    scope: RoleScope,
    role: str,
    *,
    source: str = "document",
    manuscript: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    max_bytes: int = MAX_INPUT_BYTES,
    ars: str | Reading = DEFAULT_ARS,
) -> LintReport:
    """Lint a 13.2 Phase 1 document of the seat ``role``. With ``manuscript`` (its text)
    and ``metadata`` (the ``title``/``field``/``word_count`` envelope), also the manuscript
    leak check (13.2 §E9). A role outside the mode's set or a bad envelope raises
    :class:`~kernel.errors.InputError` carrying upstream's tag. Both ARS readings
    (``ars``) read a Phase 1 alike: later main's criteria-binding lines and prose are
    tolerated by each."""
    reading(ars)
    role = require_role(scope, role)
    if (manuscript is None) != (metadata is None):
        raise InputError(
            "the manuscript leak check needs both the manuscript and its metadata",
            code="E-INPUT",
        )
    envelope = read_metadata(metadata) if metadata is not None else None
    text = _readable(text, source="Phase 1 document", max_bytes=max_bytes)
    problem = check_structure(text)
    if problem is not None:
        return LintReport(phase=1, findings=(too_large_finding("P1-115", problem),), role=role)
    doc = parse_normalised(text)
    findings = list(analyse_phase1_v2(doc, scope, role, source).findings)
    if manuscript is not None and envelope is not None:
        body = _readable(manuscript, source="manuscript", max_bytes=max_bytes)
        if manuscript_leak(text, body, envelope, scope.contract_text):
            findings.append(
                Finding(
                    "P1-112",
                    "[PHASE1-MANUSCRIPT-LEAK: 12-word manuscript shingle appears in Phase 1 "
                    "outside metadata/contract exemptions] write the plan in your own words: "
                    "no 12 consecutive words of the manuscript (its title, field and the "
                    "contract's words excepted)",
                    None,
                    "manuscript_leak",
                )
            )
    findings += advisory.phase1_findings(doc)
    return LintReport(phase=1, findings=tuple(findings), role=role)


def _grammar(
    source: str, what: str, line: int | None, code: str = "P1-101", fix: str | None = None
) -> Finding:
    """Upstream's tag, then (``fix``) what would pass."""
    tail = f" {fix}" if fix else ""
    return Finding(code, f"[PHASE1-GRAMMAR: {source}: {what}]{tail}", line, "grammar")


def _line(sections: Sequence[Section]) -> int | None:
    """The line of the first of ``sections`` (a repeated one), or ``None``."""
    return sections[0].line if sections else None


def _order(found: Sequence[Section], titles: list[str], source: str) -> Finding:
    """P1-103 on the first ``##`` heading out of place, naming the two sections to write."""
    expected = [PARAPHRASE, PLAN]
    at = next(
        (i for i, t in enumerate(titles) if i >= len(expected) or t != expected[i]),
        None,
    )
    line = found[at].line if at is not None else None
    fix = (f"'## {titles[at]}' is out of place: " if at is not None else "") + (
        f"write '## {PARAPHRASE}' then '## {PLAN}' and no other '##' section (a heading "
        "inside a section is '###' or deeper)"
    )
    return _grammar(
        source,
        f"H2 sections must be exactly ## {PARAPHRASE} then ## {PLAN}, found {titles!r}",
        line,
        "P1-103",
        fix,
    )


def analyse_phase1_v2(doc: Document, scope: RoleScope, role: str, source: str) -> Phase1V2:
    """Every 13.2 Phase 1 rule over a parsed document; the plans of the subsections that
    pass, for trigger binding (13.2 §F9)."""
    r = readings(doc)
    _, found = h2_sections(doc)
    findings: list[Finding] = []
    by_title: dict[str, list[Section]] = {}
    for s in found:
        assert s.heading is not None
        by_title.setdefault(s.heading.title, []).append(s)
    for name in (PLAN, PARAPHRASE):
        held = by_title.get(name, [])
        if len(held) != 1:
            fix = (
                f"add one '## {name}' section"
                if not held
                else f"'## {name}' is written {len(held)} times; keep one"
            )
            findings.append(
                _grammar(source, f"exactly one ## {name} required", _line(held[1:]), fix=fix)
            )
    findings += _tag(r, source)
    findings += _readings(r, source)
    titles = [s.heading.title for s in found if s.heading is not None]
    if titles != [PARAPHRASE, PLAN]:
        findings.append(_order(found, titles, source))
    paraphrase = by_title.get(PARAPHRASE, [])
    if len(paraphrase) == 1:
        count = min(_paragraphs(paraphrase[0]), _line_paragraphs(r, PARAPHRASE))
        if count < scope.paraphrase_minimum:
            findings.append(
                _grammar(
                    source,
                    f"Contract Paraphrase has {count} paragraph(s), fewer than the "
                    f"{scope.paraphrase_minimum} required",
                    paraphrase[0].line,
                    "P1-104",
                    f"write at least {scope.paraphrase_minimum} paragraphs of prose under it, "
                    "each separated by a blank line",
                )
            )
    plans: dict[str, Mapping[str, str]] = {}
    plan = by_title.get(PLAN, [])
    if len(plan) == 1:
        plan_findings, plans = _plan(doc, plan[0], scope, role, source)
        findings += plan_findings
    return Phase1V2(tuple(findings), plans)


def _in_plan(owner: Owner) -> bool:
    return owner[0] == PLAN


_PLACES: Final = {k: (lambda o: o[0] == PLAN and o[1] is not None) for k in PLAN_FIELDS}


def _readings(r: Readings, source: str) -> list[Finding]:
    """Headings and plan field lines the readings disagree on, and plan field lines outside
    a scoring-plan subsection (R20)."""
    found = disagreements(r, _PATTERNS, {k: _in_plan for k in PLAN_FIELDS}, _in_plan)
    findings = [
        _grammar(
            source,
            f"{'the line' if d.key is None else f'the {d.key}: line'} {d.why}; the readings "
            "must agree (R20)",
            d.line,
            "P1-116",
            SAME_FOR_BOTH,
        )
        for d in found
    ]
    findings += [
        _grammar(
            source,
            f"{key}: line outside a '### <Dn>: <name>' subsection of '## {PLAN}'; a field line "
            "stands only in its own place",
            n,
            "P1-117",
            f"move it under its '### <Dn>: <name>' subsection, or reword the line so that it "
            f"does not start with '{key}:'",
        )
        for n, key in misplaced(r, _PATTERNS, _PLACES, skip={d.line for d in found})
    ]
    return findings


def _line_paragraphs(r: Readings, title: str) -> int:
    """The paraphrase's paragraphs as the line reading counts them (13.2 §E4): fence-stripped
    lines of the section, trimmed; blank lines, headings, rules, one-line comments and lone
    list markers separate; a comment left open hides lines up to the one that closes it;
    every run of other lines is one paragraph."""
    lines = r.doc.lines
    h2 = sorted(n for n, (level, _) in r.line_headings.items() if level == 2)
    heads = [n for n in h2 if r.line_headings[n][1] == title]
    if len(heads) != 1:
        return 0
    end = next((n for n in h2 if n > heads[0]), len(lines) + 1)
    count = 0
    running = hiding = False
    for n in range(heads[0] + 1, end):
        if n in r.line_fenced:
            continue
        text = lines[n - 1].strip()
        if hiding:
            hiding = "-->" not in text
            continue
        if text.startswith("<!--") and "-->" not in text:
            hiding = running = False
            continue
        if not text or PARAGRAPH_SEPARATOR.match(text):
            running = False
            continue
        if not running:
            count += 1
        running = True
    return count


def _tag(r: Readings, source: str) -> list[Finding]:
    doc = r.doc
    last = doc.last_nonblank()
    unfenced = next(
        (
            n
            for n in range(len(doc.lines), 0, -1)
            if n not in r.line_fenced and doc.lines[n - 1].strip()
        ),
        None,
    )
    if last is not None and last == unfenced and doc.lines[last - 1].rstrip() == TAG:
        holder = next((b for b in reversed(doc.blocks) if b.line <= last <= b.end), None)
        if holder is not None and holder.kind == "paragraph" and not holder.quoted:
            return []
    found = f"the last line reads {doc.lines[last - 1].strip()!r}; " if last is not None else ""
    return [
        _grammar(
            source,
            f"final nonblank line must be {TAG}",
            last,
            "P1-102",
            f"{found}end the document with a line holding only {TAG}, after a blank line, "
            "outside quotes, lists and fences",
        ),
    ]


def _paragraphs(section: Section) -> int:
    """Paragraphs of the paraphrase: runs of prose blocks with no blank line between them
    (a tight list is one run); headings, rules and comments separate (13.2 §E4)."""
    count = 0
    previous: Block | None = None
    for block in section.blocks:
        prose = block.kind == "paragraph" or (
            block.kind == "html" and not block.text.lstrip().startswith("<!--")
        )
        if block.kind == "paragraph" and PARAGRAPH_SEPARATOR.match(block.text.strip()):
            prose = False
        if prose and (previous is None or block.line > previous.end + 1):
            count += 1
        previous = block if prose else None
    return count


def _plan(
    doc: Document, plan: Section, scope: RoleScope, role: str, source: str
) -> tuple[list[Finding], dict[str, Mapping[str, str]]]:
    findings: list[Finding] = []
    _, subs = h3_sections(plan)
    titles = [s.heading.title for s in subs if s.heading is not None]
    repeated = sorted({t for t in titles if titles.count(t) > 1})
    if repeated:
        again = next(
            s.line
            for i, s in enumerate(subs)
            if s.heading is not None and s.heading.title in titles[:i]
        )
        findings.append(
            _grammar(
                source,
                f"duplicate scoring-plan subsection: {', '.join(repeated)}",
                again,
                "P1-105",
                "keep one subsection per dimension",
            )
        )
    eligible = {d.id for d in scope.eligible(role)}
    expected = ", ".join(f"'### {d.id}: {d.name}'" for d in scope.eligible(role))
    planned: set[str] = set()
    plans: dict[str, Mapping[str, str]] = {}
    for sub in subs:
        assert sub.heading is not None
        title = sub.heading.title
        titled = scope.titled(title)
        if titled is None:
            findings.append(
                _grammar(
                    source,
                    f"invalid subsection '### {title}'",
                    sub.line,
                    "P1-105",
                    f"a subsection of the plan is one of {expected}",
                )
            )
            continue
        dim, name = titled
        planned.add(dim.id)
        if dim.id not in eligible:
            findings.append(
                Finding(
                    "P1-106",
                    f"[PHASE1-OUT-OF-ROLE: {source}: role {role} planned {dim.id}] remove "
                    f"it: role {role} plans {expected}",
                    sub.line,
                    "scope",
                )
            )
            continue
        if name != dim.name:
            finding = _grammar(source, f"{dim.id} name mismatch", sub.line, "P1-105")
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
        sub_findings, fields = _fields(doc, sub, dim.id, dim.priority == "mandatory", source)
        findings += sub_findings
        if not any(f.severity == "error" for f in sub_findings):
            plans[dim.id] = fields
    if planned & eligible != eligible or planned - eligible:
        absent = [d for d in scope.eligible(role) if d.id not in planned]
        fix = (
            "add " + ", ".join(f"'### {d.id}: {d.name}'" for d in absent)
            if absent
            else f"plan exactly {expected}"
        )
        findings.append(
            Finding(
                "P1-107",
                f"[PHASE1-SCOPE: {source}: planned={sorted(planned)!r}, "
                f"eligible={sorted(eligible)!r}] {fix}",
                plan.line,
                "scope",
            )
        )
    return findings, plans


def _fields(
    doc: Document, sub: Section, dim_id: str, mandatory: bool, source: str
) -> tuple[list[Finding], dict[str, str]]:
    lines = field_lines(doc, sub.blocks, _PATTERNS)
    findings: list[Finding] = [
        Finding(
            "P1-109",
            f"[PHASE1-GRAMMAR: {source}: {f.key}: line for dimension {dim_id} must be a "
            f"canonical unbulleted field line at column 0, outside HTML] write it as "
            f"'{f.key}: <value>' with nothing before the key and no markup",
            f.line,
            "fields",
        )
        for f in decorated(lines)
    ]
    values: dict[str, list[str]] = {}
    at: dict[str, int] = {}
    every: dict[str, list[int]] = {}
    for f in lines:
        if f.value is not None:
            values.setdefault(f.key, []).append(f.value)
            at.setdefault(f.key, f.line)
            every.setdefault(f.key, []).append(f.line)
    heading = f"'### {sub.heading.title}'" if sub.heading is not None else "its heading"
    bulleted = {f.key for f in decorated(lines)}
    for key in PLAN_FIELDS:
        k = len(values.get(key, []))
        if k == 0 and key in bulleted:
            continue  # one defect, one finding: its P1-109 names the line
        if key == "what_triggers_fatal" and not mandatory:
            if k > 1:
                findings.append(
                    _grammar(
                        source,
                        f"expected at most one canonical {key}: line for dimension {dim_id}, "
                        f"found {k}",
                        every[key][1],
                        "P1-108",
                        f"remove it: {dim_id} is not mandatory and takes no {key}",
                    )
                )
            elif k == 1:
                findings.append(
                    _grammar(
                        source,
                        f"what_triggers_fatal is forbidden on non-mandatory dimension {dim_id}",
                        at[key],
                        "P1-108",
                        "remove it: only a mandatory dimension commits to a fatal trigger",
                    )
                )
        elif k != 1:
            findings.append(
                _grammar(
                    source,
                    f"expected exactly one canonical {key}: line for dimension {dim_id}, found {k}",
                    every[key][1] if k > 1 else sub.line,
                    "P1-108",
                    f"keep one {key}: line"
                    if k > 1
                    else f"add a line '{key}: <text>' under {heading}"
                    if key != "dimension_id"
                    else f"add a line 'dimension_id: {dim_id}' under {heading}",
                )
            )
    ids = values.get("dimension_id", [])
    if len(ids) == 1 and ids[0] != dim_id:
        findings.append(
            _grammar(
                source,
                f"heading {dim_id} disagrees with dimension_id={ids[0]}",
                at["dimension_id"],
                "P1-108",
                f"write 'dimension_id: {dim_id}' (the id of the heading {heading})",
            )
        )
    fields = {k: v[0] for k, v in values.items() if len(v) == 1}
    if findings:
        return findings, fields
    triggers = [f for f in PLAN_FIELDS[2:] if f in fields]
    normal = [normalise(fields[f]) for f in triggers]
    if len(set(normal)) != len(normal):
        second = next(i for i, t in enumerate(normal) if t in normal[:i])
        first = triggers[normal.index(normal[second])]
        findings.append(
            Finding(
                "P1-110",
                f"[PHASE1-TRIGGER-COLLISION: {source}: {dim_id} trigger commitments must be "
                f"pairwise distinct] {triggers[second]} repeats {first} "
                f"{fields[first]!r}; commit to a different observation for each level",
                at[triggers[second]],
                "triggers",
            )
        )
    for name in triggers:
        if len(fields[name].split()) < SHORT_TRIGGER:
            findings.append(
                Finding(
                    "P1-111",
                    f"[PHASE1-TRIGGER-SHORT: {source}: {dim_id} {name} has fewer than 8 words] "
                    f"{fields[name]!r} has {len(fields[name].split())}; a commitment of "
                    f"{SHORT_TRIGGER} words or more says what a report can quote",
                    at.get(name, sub.line),
                    "triggers",
                    "warning",
                )
            )
    return findings, fields


def read_metadata(metadata: object) -> Mapping[str, Any]:
    """The manuscript's metadata envelope, checked (13.2 §E9.1); a bad one is an
    :class:`~kernel.errors.InputError` carrying the ``METADATA-INVALID`` tag."""
    if not isinstance(metadata, Mapping) or set(metadata) != {"title", "field", "word_count"}:
        got = sorted(metadata) if isinstance(metadata, Mapping) else type(metadata).__name__
        tag = f"[METADATA-INVALID: expected exact title/field/word_count envelope, got {got}]"
        raise InputError(f"metadata: {tag}", code="E-INPUT", tag=tag)
    title, field, count = metadata["title"], metadata["field"], metadata["word_count"]
    if not (
        isinstance(title, str)
        and title.strip()
        and isinstance(field, str)
        and field.strip()
        and type(count) is int
        and count >= 0
    ):
        tag = (
            "[METADATA-INVALID: title and field must be non-empty strings; word_count must be "
            "a non-negative integer]"
        )
        raise InputError(f"metadata: {tag}", code="E-INPUT", tag=tag)
    return metadata


@functools.lru_cache(maxsize=1)
def _words(manuscript: str) -> tuple[str, ...]:
    """The manuscript's normalised words (kept for the round's next seat)."""
    return tuple(normalise(manuscript).split(" "))


def manuscript_leak(
    phase1: str, manuscript: str, metadata: Mapping[str, Any], contract_text: str
) -> bool:
    """Whether a 12-word shingle of the manuscript occurs in the Phase 1 text outside the
    exemptions (13.2 §E9.2-§E9.4)."""
    words = _words(manuscript)
    if len(words) < SHINGLE:
        return False
    leaked = shingles_found(words, SHINGLE, normalise(phase1), range(len(words) - SHINGLE + 1))

    def exempt() -> Iterator[str]:  # each normalised only when something is still leaked
        yield normalise(metadata["title"])
        yield normalise(metadata["field"])
        yield str(metadata["word_count"])
        yield normalise(contract_text)

    for text in exempt():
        if not leaked:
            break
        leaked -= shingles_found(words, SHINGLE, text, leaked)
    return bool(leaked)
