"""Section structure shared by both lints: the ``##`` sections and ``###`` subsections."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from kernel.reviewer.lint.report import Finding
from kernel.text.markdown import Block, Document, Section, sections

__all__ = ["Codes", "Outline", "Subsections", "outline", "subsections"]


@attrs.frozen
class Codes:
    """The finding codes of one phase's ``sections`` check."""

    missing: str
    duplicate: str
    order: str
    unexpected: str
    preamble: str


@attrs.frozen
class Outline:
    #: Known section name → every occurrence, in document order.
    found: dict[str, list[Section]]

    def unique(self, name: str) -> Section | None:
        """The section when it occurs exactly once (else the lint has already failed)."""
        occurrences = self.found.get(name, [])
        return occurrences[0] if len(occurrences) == 1 else None

    def first_line(self, name: str) -> int | None:
        occurrences = self.found.get(name)
        return occurrences[0].line if occurrences else None


def _heading_problem(block: Block) -> str | None:
    if block.quoted or block.level > 2:
        return None
    hashes = "#" * block.level
    if not block.atx:
        return (
            f"setext heading {block.title!r} (text underlined with = or -): sections must be "
            f"ATX '{hashes} ' headings; to draw a rule under a paragraph, leave a blank line "
            "before it"
        )
    if block.listed:
        return f"heading '{hashes} {block.title}' inside a list item; section headings start a line"
    if block.level == 1:
        return f"'# {block.title}': a level-1 heading is not part of the format"
    return None


def outline(
    doc: Document,
    known: Sequence[str],
    codes: Codes,
    *,
    other_phase: Sequence[str] = (),
    other_phase_code: str = "",
    other_phase_check: str = "",
) -> tuple[Outline, list[Finding]]:
    """Split at every level-1/2 heading; report the ones that are not an exact known name.

    Only ATX ``##`` headings outside block quotes and list items can name a section; every
    other level-1/2 heading (``#``, setext, inside a list item) is a finding.
    """
    findings: list[Finding] = []
    found: dict[str, list[Section]] = {}
    preamble: list[Block] = []
    current: list[Block] | None = None
    heading: Block | None = None

    def close() -> None:
        if heading is not None and current is not None:
            name = heading.title
            if heading.atx and heading.level == 2 and name in known:
                found.setdefault(name, []).append(Section(heading, tuple(current)))

    for block in doc.blocks:
        if block.kind == "heading" and not block.quoted and block.level <= 2:
            problem = _heading_problem(block)
            if problem is not None:
                findings.append(Finding(codes.unexpected, problem, block.line, "sections"))
            if block.listed:
                (preamble if current is None else current).append(block)
                continue
            close()
            heading, current = block, []
            if problem is None and block.title not in known:
                if block.title in other_phase:
                    findings.append(
                        Finding(
                            other_phase_code,
                            f"'## {block.title}' belongs to the other phase; remove it",
                            block.line,
                            other_phase_check,
                        )
                    )
                else:
                    expected = ", ".join(f"'## {k}'" for k in known)
                    findings.append(
                        Finding(
                            codes.unexpected,
                            f"unexpected section '## {block.title}' (headings are compared "
                            f"exactly after collapsing spaces); the sections are {expected}",
                            block.line,
                            "sections",
                        )
                    )
        elif current is None:
            preamble.append(block)
        else:
            current.append(block)
    close()
    if preamble:
        first = known[0] if known else "the first section"
        findings.append(
            Finding(
                codes.preamble,
                f"text before the first section; the document must start with '## {first}'",
                preamble[0].line,
                "sections",
            )
        )
    for name, occurrences in found.items():
        for extra in occurrences[1:]:
            findings.append(
                Finding(
                    codes.duplicate,
                    f"'## {name}' appears again (first at line {occurrences[0].line}); "
                    "a section may appear only once",
                    extra.line,
                    "sections",
                )
            )
    return Outline(found), findings


@attrs.frozen
class Subsections:
    #: key → every subsection with that key.
    matched: dict[str, list[Section]]
    #: Subsections whose heading names no expected key.
    unknown: list[Section]

    def unique(self, key: str) -> Section | None:
        occurrences = self.matched.get(key, [])
        return occurrences[0] if len(occurrences) == 1 else None


def subsections(section: Section, key_of: Callable[[str], str | None]) -> Subsections:
    """The ``###`` subsections of ``section``, matched by ``key_of(heading title)``."""
    _, subs = sections(section.blocks, 3)
    matched: dict[str, list[Section]] = {}
    unknown: list[Section] = []
    for sub in subs:
        assert sub.heading is not None
        key = key_of(sub.heading.title)
        if key is None:
            unknown.append(sub)
        else:
            matched.setdefault(key, []).append(sub)
    return Subsections(matched, unknown)


def stray_headings(section: Section, check: str, code: str, *, lowest: int = 3) -> list[Finding]:
    """Findings for structural headings of level >= ``lowest`` where none belong."""
    return [
        Finding(
            code,
            f"unexpected heading '{'#' * b.level} {b.title}' inside '## {_name(section)}'",
            b.line,
            check,
        )
        for b in section.blocks
        if b.structural and b.level >= lowest
    ]


def _name(section: Section) -> str:
    return section.heading.title if section.heading is not None else ""
