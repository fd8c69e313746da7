"""``lint_phase1``: wire-format.md, "Phase 1 document", checks 1-6."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import Any, Final

import attrs

from kernel.contract.model import Contract, Dimension, load_contract
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint import advisory
from kernel.reviewer.lint._structure import Codes, outline, stray_headings, subsections
from kernel.reviewer.lint.report import Finding, LintReport
from kernel.text.markdown import (
    Block,
    Document,
    Section,
    check_structure,
    key_values,
    parse_normalised,
    readable,
)

__all__ = [
    "PHASE1_SECTIONS",
    "PHASE2_ONLY_SECTIONS",
    "TAG",
    "Phase1Analysis",
    "analyse_phase1",
    "lint_phase1",
    "max_matching",
    "too_large_finding",
]

TAG: Final = "[CONTRACT-ACKNOWLEDGED]"
PHASE1_SECTIONS: Final = ("Contract Paraphrase", "Scoring Plan")
PHASE2_ONLY_SECTIONS: Final = (
    "Dimension Scores",
    "Failure Condition Checks",
    "Review Body",
    "Editorial Decision",
)
_CODES: Final = Codes(
    missing="P1-001", duplicate="P1-002", order="P1-003", unexpected="P1-004", preamble="P1-005"
)


@attrs.frozen
class Phase1Analysis:
    findings: tuple[Finding, ...]
    #: dimension id → its scoring-plan fields, or ``None`` when that plan is missing or broken.
    plans: Mapping[str, Mapping[str, str] | None]


def lint_phase1(
    text: str,
    contract: Contract | Mapping[str, Any] | str,
    *,
    max_bytes: int = MAX_INPUT_BYTES,
) -> LintReport:
    """Lint one reviewer's Phase 1 output against ``contract``.

    ``contract`` is a :class:`Contract` (fast) or anything :func:`load_contract` takes.
    Returns a :class:`LintReport`; raises :class:`~kernel.errors.KernelError` only for input
    that cannot be read at all (not a str, over ``max_bytes``, not encodable as UTF-8) or an
    invalid contract. A document over the work bound gets the one finding ``P1-015``.
    """
    loaded = _require_contract(contract)
    text = readable(text, source="Phase 1 document", max_bytes=max_bytes)
    problem = check_structure(text)
    if problem is not None:
        return LintReport(phase=1, findings=(too_large_finding("P1-015", problem),))
    analysis = analyse_phase1(parse_normalised(text), loaded)
    return LintReport(phase=1, findings=analysis.findings)


def too_large_finding(code: str, problem: str) -> Finding:
    """The one finding of a document refused before parsing (R13 work bound)."""
    return Finding(
        code,
        f"the document is too large to lint: {problem}; nothing else was checked (shorten it, "
        "or join short lines into paragraphs)",
        None,
        "sections",
    )


def _require_contract(contract: object) -> Contract:
    """A :class:`Contract` as is; anything else goes through :func:`load_contract` (a mapping
    or a shipped template name), so a bad contract is a :class:`ContractError`."""
    return contract if isinstance(contract, Contract) else load_contract(contract)


def analyse_phase1(
    doc: Document, contract: Contract, *, plans_only: bool = False
) -> Phase1Analysis:
    """All Phase 1 checks; with ``plans_only`` (the Phase 2 consistency check) the paraphrase
    and advisory checks are skipped, as only the per-dimension plans are used."""
    out, findings = outline(
        doc,
        PHASE1_SECTIONS,
        _CODES,
        other_phase=PHASE2_ONLY_SECTIONS,
        other_phase_code="P1-013",
        other_phase_check="no_phase2_sections",
    )
    sections_findings = [f for f in findings if f.check == "sections"]
    other = [f for f in findings if f.check != "sections"]
    for i, name in enumerate(PHASE1_SECTIONS):
        if name not in out.found:
            sections_findings.append(
                Finding(
                    _CODES.missing,
                    f"missing section '## {name}'"
                    + (f" (after '## {PHASE1_SECTIONS[i - 1]}')" if i else " (first)"),
                    None,
                    "sections",
                )
            )
    para_line, plan_line = out.first_line(PHASE1_SECTIONS[0]), out.first_line(PHASE1_SECTIONS[1])
    if para_line is not None and plan_line is not None and plan_line < para_line:
        sections_findings.append(
            Finding(
                _CODES.order,
                "'## Scoring Plan' comes before '## Contract Paraphrase'; "
                "write the paraphrase first",
                plan_line,
                "sections",
            )
        )
    paraphrase = out.unique(PHASE1_SECTIONS[0])
    if paraphrase is not None:
        sections_findings += stray_headings(paraphrase, "sections", _CODES.unexpected)
    sections_findings += _tag_findings(doc)

    coverage = (
        _paraphrase_findings(paraphrase, contract)
        if paraphrase is not None and not plans_only
        else []
    )
    plan = out.unique(PHASE1_SECTIONS[1])
    plan_findings: list[Finding] = []
    field_findings: list[Finding] = []
    plans: dict[str, Mapping[str, str] | None] = {d.id: None for d in contract.dimensions}
    if plan is not None:
        plan_findings, field_findings, plans = _plan_findings(plan, contract)
    advisories = [] if plans_only else advisory.phase1_findings(doc)
    return Phase1Analysis(
        tuple(sections_findings + coverage + plan_findings + field_findings + other + advisories),
        plans,
    )


def _tag_findings(doc: Document) -> list[Finding]:
    last = doc.last_nonblank()
    if last is not None and doc.lines[last - 1].strip(" \t") == TAG:
        holder = _block_at(doc.blocks, last)
        if holder is not None and holder.kind == "paragraph" and not holder.quoted:
            return []
        what = "code or HTML" if holder is None or holder.kind != "paragraph" else "a block quote"
        return [
            Finding(
                "P1-006",
                f"{TAG} on the last line is inside {what}; write it as its own paragraph, "
                "after a blank line",
                last,
                "sections",
            )
        ]
    if last is None:
        where = "; the document is empty"
    else:
        text = doc.lines[last - 1].strip(" \t")
        shown = text if len(text) <= 60 else text[:57] + "..."
        where = f"; the last non-blank line is {shown!r}"
    earlier = next((i + 1 for i, line in enumerate(doc.lines) if TAG in line), None)
    return [
        Finding(
            "P1-006",
            f"the tag {TAG} must be alone on the last non-blank line, outside code, HTML and "
            "quotes" + (f" (it appears on line {earlier})" if earlier is not None else "") + where,
            last,
            "sections",
        )
    ]


def _block_at(blocks: Sequence[Block], line: int) -> Block | None:
    for block in reversed(blocks):
        if block.line <= line <= block.end:
            return block
    return None


def _mention_pattern(dimensions: Sequence[Dimension]) -> re.Pattern[str]:
    words = sorted({w for d in dimensions for w in (d.id, d.name)}, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(w) for w in words) + r")(?!\w)")


def max_matching(adjacency: Sequence[Sequence[int]]) -> int:
    """Size of a maximum matching between left vertices (``adjacency`` rows) and right ones."""
    owner: dict[int, int] = {}

    def augment(left: int, seen: set[int]) -> bool:
        for right in adjacency[left]:
            if right in seen:
                continue
            seen.add(right)
            if right not in owner or augment(owner[right], seen):
                owner[right] = left
                return True
        return False

    return sum(1 for left in range(len(adjacency)) if augment(left, set()))


def _naming(texts: Sequence[str], names: Sequence[str]) -> list[int]:
    """The indexes, in order, of the texts that contain one of ``names`` (as any substring),
    found with one search per name through all the texts at once."""
    joined = "\n".join(texts)
    offsets = list(accumulate((len(t) + 1 for t in texts), initial=0))
    hits: set[int] = set()
    for name in names:
        at = joined.find(name)
        while at >= 0:
            p = bisect_right(offsets, at) - 1
            if name in texts[p]:
                hits.add(p)
                at = joined.find(name, offsets[p + 1])
            else:  # a match across the line break between two texts
                at = joined.find(name, at + 1)
    return sorted(hits)


def _paraphrase_findings(section: Section, contract: Contract) -> list[Finding]:
    k = contract.paraphrase_minimum
    dims = contract.dimensions
    index = {w: i for i, d in enumerate(dims) for w in (d.id, d.name)}
    pattern = _mention_pattern(dims)
    # Dimension → paragraphs mentioning it; m paragraphs per dimension suffice for a
    # maximum matching with m dimensions (any extra neighbour can replace a used one).
    cap = len(dims)
    neighbours: list[list[int]] = [[] for _ in dims]
    paragraphs = [b.text for b in section.blocks if b.kind == "paragraph" and not b.quoted]
    for p in _naming(paragraphs, tuple(index)):
        for i in {index[m.group(0)] for m in pattern.finditer(paragraphs[p])}:
            if len(neighbours[i]) < cap:
                neighbours[i].append(p)
    matched = max_matching(neighbours)
    if matched >= k:
        return []
    unmentioned = [f"{d.id} ({d.name})" for d, n in zip(dims, neighbours, strict=True) if not n]
    detail = f"; never mentioned: {', '.join(unmentioned)}" if unmentioned else ""
    need = "all" if k == len(dims) else str(k)
    return [
        Finding(
            "P1-007",
            f"the paraphrase covers {matched} distinct dimension(s) with separate paragraphs, "
            f"{need} needed ({k}); write one paragraph per dimension naming it by id or "
            f"name as a whole word (one paragraph counts for one dimension){detail}",
            section.line,
            "paraphrase",
        )
    ]


def _plan_findings(
    section: Section, contract: Contract
) -> tuple[list[Finding], list[Finding], dict[str, Mapping[str, str] | None]]:
    headings = {f"{d.id}: {d.name}": d.id for d in contract.dimensions}
    by_id = {d.id: d for d in contract.dimensions}
    subs = subsections(section, headings.get)
    plan: list[Finding] = []
    for sub in subs.unknown:
        assert sub.heading is not None
        title = sub.heading.title
        head = title.split(":", 1)[0].strip(" \t")
        if head in by_id:
            hint = f"; {head} is written '### {head}: {by_id[head].name}'"
        else:
            hint = "; expected '### <id>: <name>' of a contract dimension"
        plan.append(
            Finding(
                "P1-010", f"unexpected subsection '### {title}'{hint}", sub.line, "scoring_plan"
            )
        )
    for d in contract.dimensions:
        occurrences = subs.matched.get(d.id, [])
        if not occurrences:
            plan.append(
                Finding(
                    "P1-008",
                    f"no subsection '### {d.id}: {d.name}' in '## Scoring Plan' "
                    "(every dimension needs one)",
                    section.line,
                    "scoring_plan",
                )
            )
        for extra in occurrences[1:]:
            plan.append(
                Finding(
                    "P1-009",
                    f"'### {d.id}: {d.name}' appears again (first at line "
                    f"{occurrences[0].line}); one subsection per dimension",
                    extra.line,
                    "scoring_plan",
                )
            )
    fields: list[Finding] = []
    plans: dict[str, Mapping[str, str] | None] = {}
    for d in contract.dimensions:
        unique = subs.unique(d.id)
        if unique is None:
            plans[d.id] = None
            continue
        problems, values = _fields(unique, d, contract.scoring_plan_required)
        fields += problems
        plans[d.id] = None if problems else values
    return plan, fields, plans


def _fields(
    sub: Section, dim: Dimension, required: Sequence[str]
) -> tuple[list[Finding], dict[str, str]]:
    problems: list[Finding] = []
    values: dict[str, str] = {}
    lines: dict[str, list[tuple[str, int]]] = {}
    for kv in key_values(sub.blocks):
        lines.setdefault(kv.key, []).append((kv.value, kv.line))
    for name in required:
        found = lines.get(name, [])
        if not found:
            problems.append(
                Finding(
                    "P1-011",
                    f"'### {dim.id}: {dim.name}' has no '{name}: <value>' line",
                    sub.line,
                    "plan_fields",
                )
            )
            continue
        if len(found) > 1:
            problems.append(
                Finding(
                    "P1-014",
                    f"'{name}:' appears {len(found)} times in '### {dim.id}: {dim.name}' "
                    "(ambiguous); write it once",
                    found[1][1],
                    "plan_fields",
                )
            )
            continue
        value, line = found[0]
        if not value:
            problems.append(
                Finding(
                    "P1-011",
                    f"'{name}:' in '### {dim.id}: {dim.name}' has an empty value",
                    line,
                    "plan_fields",
                )
            )
        elif name == "dimension_id" and value != dim.id:
            problems.append(
                Finding(
                    "P1-012",
                    f"dimension_id is {value!r} but the subsection is {dim.id}; they must match",
                    line,
                    "plan_fields",
                )
            )
        values[name] = value
    if "dimension_id" not in required:
        given = lines.get("dimension_id", [])
        if any(value != dim.id for value, _ in given):
            problems.append(
                Finding(
                    "P1-012",
                    f"dimension_id in '### {dim.id}: {dim.name}' is not {dim.id}; they must match",
                    next(line for value, line in given if value != dim.id),
                    "plan_fields",
                )
            )
    return problems, values
