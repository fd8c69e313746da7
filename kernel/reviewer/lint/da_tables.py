"""The devil's advocate's Review Body: CRITICAL and MAJOR issue tables (13.2 §F11.3-§F11.7).

Line-level reading inside the shared sections: a fenced block counts as one non-blank
line (so it can neither hide nor fake a table row), headings are the structural ATX
headings of levels 2 to 4 of the CommonMark parse (R20 has already failed a document whose
line reading sees other headings). The tables are read with each reading's fences (13.2
§E0.2 and CommonMark): when either fails, the report fails; when they give other CRITICAL
ids, it fails too (R20). A cell's rendered text drops every default-ignorable code point.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Final

import attrs

from kernel.reviewer.lint.anchors import ANCHOR_TYPES, anchor_problem
from kernel.reviewer.lint.readings import Readings, readings
from kernel.reviewer.lint.report import Finding
from kernel.reviewer.lint.spans import sub_closed
from kernel.text.markdown import Block, Document, Section
from kernel.text.skeleton import is_ignorable

__all__ = ["DaTables", "da_findings", "read_da_tables"]

_SEVERITY_DECLARED: Final = re.compile(r"\*\*Severity(?:\*\*)?\s*:", re.IGNORECASE)
_RAW_TABLE: Final = re.compile(r"<\s*(?:/\s*)?(?:table|thead|tbody|tr|th|td)\b", re.IGNORECASE)
_SEPARATOR_CELL: Final = re.compile(r":?-{3,}:?")
_CRITICAL_ID: Final = re.compile(r"C[1-9]\d*")
_SHADOW_ID: Final = re.compile(r"[cm][1-9]\d*")
_SHADOW_ANCHOR: Final = re.compile(r"(?:" + "|".join(ANCHOR_TYPES) + r")\s*:")
_ESCAPED: Final = re.compile(r"\\([!-/:-@\[-`{-~])")
_LINK: Final = re.compile(r"!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])?")
_TAG: Final = re.compile(r"<[^>]*>")
_SENTINEL: Final = "\x00fenced block"


@attrs.frozen
class DaTables:
    findings: tuple[Finding, ...]
    #: The CRITICAL IDs in row order (empty unless the tables parsed).
    critical: tuple[str, ...] = ()


def da_findings(r: Readings, bodies: Sequence[Section], source: str) -> list[Finding]:
    return list(read_da_tables(r.doc, bodies, source).findings)


def _lines(doc: Document, fenced: Mapping[int, int]) -> list[tuple[int, str]]:
    """(line, text) with each fenced block as one sentinel line."""
    out: list[tuple[int, str]] = []
    n = 1
    while n <= len(doc.lines):
        if n in fenced:
            out.append((n, _SENTINEL))
            n = fenced[n] + 1
        else:
            out.append((n, doc.lines[n - 1]))
            n += 1
    return out


def read_da_tables(doc: Document, bodies: Sequence[Section], source: str) -> DaTables:
    """The tables as both readings read them: the first that fails, or a finding when they
    give other CRITICAL ids."""
    r = readings(doc)
    by_blocks = _read(doc, r.block_fences, bodies, source)
    if not by_blocks.findings and r.hidden:
        row = next(
            (n for n, t in _lines(doc, r.block_fences) if n in r.hidden and t.startswith("|")),
            None,
        )
        if row is not None:
            return DaTables(
                (
                    Finding(
                        "P2-130",
                        f"[DA-TABLE-PARSE: {source}: a table row the rendered page does not "
                        "show as written (HTML hides or changes it, or a character reference); "
                        "the readings must agree (R20)] write the row in plain Markdown, with no "
                        "HTML or character reference",
                        row,
                        "da_tables",
                    ),
                )
            )
    if by_blocks.findings or r.line_fences == r.block_fences:
        return by_blocks
    by_lines = _read(doc, r.line_fences, bodies, source)
    if by_lines.findings or by_lines.critical == by_blocks.critical:
        return by_lines
    return DaTables(
        (
            Finding(
                "P2-130",
                f"[DA-TABLE-PARSE: {source}: the CRITICAL ids are {list(by_blocks.critical)!r} "
                f"for CommonMark and {list(by_lines.critical)!r} for the line reading (13.2 "
                "§E0.2 fences); the readings must agree (R20)]",
                None,
                "da_tables",
            ),
        )
    )


def _read(
    doc: Document, fences: Mapping[int, int], bodies: Sequence[Section], source: str
) -> DaTables:
    def fail(
        tag: str, what: str, line: int | None = None, where: str = source, fix: str = ""
    ) -> DaTables:
        message = f"[{tag}: {where}: {what}]" + (f" {fix}" if fix else "")
        return DaTables((Finding(_CODES[tag], message, line, "da_tables"),))

    comment = next((i for i, t in enumerate(doc.lines, 1) if "<!--" in t), None)
    if comment is not None:
        return fail(
            "DA-TABLE-PARSE",
            "HTML comments are forbidden in DA reports",
            comment,
            fix="remove the comment",
        )
    lines = _lines(doc, fences)
    if len(bodies) != 1:
        return fail(
            "DA-TABLE-PARSE",
            "expected exactly one ## Review Body",
            bodies[1].line if bodies else None,
            fix="keep one"
            if bodies
            else "add one '## Review Body' ending with the '#### CRITICAL' and '#### MAJOR' tables",
        )
    body = bodies[0]
    declared = next((n for n, t in lines if _SEVERITY_DECLARED.search(t)), None)
    if declared is not None:
        return fail(
            "DA-FINDING-GRAMMAR",
            "standalone Severity declarations are forbidden; use the CRITICAL and MAJOR issue "
            "tables",
            declared,
        )
    h4 = [b for b in body.blocks if b.structural and b.atx and b.level == 4]
    critical = [b for b in h4 if b.title == "CRITICAL"]
    major = [b for b in h4 if b.title == "MAJOR"]
    for tag, wanted, found in (
        ("DA-CRITICAL-PARSE", "CRITICAL", critical),
        ("DA-MAJOR-PARSE", "MAJOR", major),
    ):
        if len(found) != 1:
            cased = next((b for b in h4 if b.title.upper() == wanted and b.title != wanted), None)
            result = fail(
                tag,
                f"expected exactly one #### {wanted} section, found {len(found)}",
                found[1].line if found else cased.line if cased is not None else None,
                fix=""
                if cased is not None and not found
                else "keep one"
                if found
                else f"add '#### {wanted}' in '## Review Body', then a table "
                f"'{_HEADER}' (an empty table when there is none)",
            )
            if cased is None or found:
                return result
            (finding,) = result.findings
            hint = f" '#### {cased.title}' is not '#### {wanted}': headings are case-sensitive"
            return DaTables((attrs.evolve(finding, message=finding.message + hint),))
    if critical[0].line > major[0].line:
        return fail(
            "DA-TABLE-PARSE",
            "#### CRITICAL must precede #### MAJOR",
            major[0].line,
            fix="move the '#### CRITICAL' band and its table above '#### MAJOR'",
        )
    headings = {b.line: b for b in doc.blocks if b.structural and b.atx and 2 <= b.level <= 4}
    body_end = next(
        (n for n, b in sorted(headings.items()) if n > body.line and b.level <= 2),
        len(doc.lines) + 1,
    )
    shadow = _shadow(lines, headings, body, source)
    if shadow is not None:
        return DaTables((shadow,))
    in_critical = [(n, t) for n, t in lines if critical[0].line < n < major[0].line]
    in_major = [(n, t) for n, t in lines if major[0].line < n < body_end]
    rows: dict[str, list[tuple[int, tuple[str, str]]]] = {}
    for tag, block in (("DA-CRITICAL-PARSE", in_critical), ("DA-MAJOR-PARSE", in_major)):
        parsed = _table(block)
        if isinstance(parsed, tuple):
            at, what, fix = parsed
            return fail(tag, what, at, fix=fix)
        rows[tag] = parsed
    ids: list[str] = []
    for n, (number, anchor) in rows["DA-CRITICAL-PARSE"]:
        if not _CRITICAL_ID.fullmatch(number):
            return fail(
                "DA-CRITICAL-PARSE",
                f"invalid CRITICAL ID '{number}'; expected C1..Cn",
                n,
                fix=f"write C{len(ids) + 1} in the # cell",
            )
        if number in ids:
            return fail(
                "DA-CRITICAL-PARSE",
                f"duplicate CRITICAL ID {number}",
                n,
                fix=f"write C{len(ids) + 1} in the # cell",
            )
        ids.append(number)
        problem = anchor_problem(anchor)
        if problem is not None:
            return fail(problem[0], problem[1], n, f"{source}:{number}", _ANCHOR_CELL)
    for n, (number, anchor) in rows["DA-MAJOR-PARSE"]:
        if not number:
            return fail("DA-MAJOR-PARSE", "empty MAJOR # cell", n, fix="number the row")
        problem = anchor_problem(anchor)
        if problem is not None:
            return fail(problem[0], problem[1], n, f"{source}:DA MAJOR", _ANCHOR_CELL)
    dense = [f"C{i}" for i in range(1, len(ids) + 1)]
    if ids != dense:
        off = next(i for i, (a, b) in enumerate(zip(ids, dense, strict=True)) if a != b)
        return fail(
            "DA-CRITICAL-ID",
            f"IDs must be dense C1..Cn; got={ids!r}",
            rows["DA-CRITICAL-PARSE"][off][0],
            fix=f"number the CRITICAL rows {', '.join(dense)} in order ({ids[off]} here is "
            f"{dense[off]})",
        )
    return DaTables((), tuple(ids))


_HEADER: Final = "| # | Evidence Anchor |"
_RULE: Final = "|---|---|"
_ANCHOR_CELL: Final = (
    "write the Evidence Anchor cell as '<type>: <where>', the type one of "
    + ", ".join(ANCHOR_TYPES)
)
_CODES: Final = {
    "DA-TABLE-PARSE": "P2-130",
    "DA-FINDING-GRAMMAR": "P2-131",
    "DA-CRITICAL-PARSE": "P2-132",
    "DA-MAJOR-PARSE": "P2-133",
    "DA-CRITICAL-ID": "P2-134",
    "ANCHOR-MISSING": "P2-122",
    "ANCHOR-INVALID": "P2-123",
}


def _cells(line: str) -> list[str] | None:
    """The trimmed cells of an outer-pipe row, split at pipes not escaped by an odd run of
    backslashes; ``None`` when the line is not such a row."""
    text = line.strip()
    if len(text) < 2 or not (text.startswith("|") and text.endswith("|")):
        return None
    cells: list[str] = []
    current: list[str] = []
    slashes = 0
    for c in text[1:-1]:
        if c == "|" and slashes % 2 == 0:
            cells.append("".join(current).strip())
            current = []
        else:
            current.append(c)
        slashes = slashes + 1 if c == "\\" else 0
    cells.append("".join(current).strip())
    return cells


def _table(
    block: Sequence[tuple[int, str]],
) -> list[tuple[int, tuple[str, str]]] | tuple[int | None, str, str]:
    """Data rows as (line, (# cell, anchor cell)), or (line, what is wrong, what would pass)
    (13.2 §F11.4)."""
    content = [(n, t) for n, t in block]
    start = next((i for i, (_, t) in enumerate(content) if t.strip()), None)
    header_fix = f"start the band with the header '{_HEADER}' and the separator '{_RULE}'"
    if start is None:
        return None, "missing table header with # and Evidence Anchor columns", header_fix
    at = content[start][0]
    header = _cells(content[start][1])
    if header is None or "#" not in header or "Evidence Anchor" not in header:
        return (
            at,
            "missing table header: first nonblank line must have # and Evidence Anchor columns",
            header_fix,
        )
    if header.count("#") != 1 or header.count("Evidence Anchor") != 1:
        return (
            at,
            "table header must contain exactly one # and one Evidence Anchor column",
            header_fix,
        )
    number_at, anchor_at = header.index("#"), header.index("Evidence Anchor")
    rest = content[start + 1 :]
    separator = _cells(rest[0][1]) if rest else None
    if (
        separator is None
        or len(separator) != len(header)
        or not all(_SEPARATOR_CELL.fullmatch(c) for c in separator)
    ):
        return (
            rest[0][0] if rest else at,
            "missing or malformed Markdown table separator",
            f"write '{_RULE}' (one cell per column) right under the header",
        )
    rows: list[tuple[int, tuple[str, str]]] = []
    i = 1
    while i < len(rest) and rest[i][1].strip():
        cells = _cells(rest[i][1])
        if cells is None or len(cells) != len(header):
            return (
                rest[i][0],
                "every data row must be an outer-pipe-delimited row with the header column count",
                f"write the row as '| <#> | <anchor> |' with the header's {len(header)} cells",
            )
        rows.append((rest[i][0], (cells[number_at], cells[anchor_at])))
        i += 1
    after = next((n for n, t in rest[i:] if t.strip()), None)
    if after is not None:
        return (
            after,
            "the DA issue tables are terminal; put Review Body prose before #### CRITICAL and "
            "emit no nonblank content after a table ends",
            "move this text above '#### CRITICAL', or end the table with no blank line inside it",
        )
    return rows


def _rendered(cell: str) -> str:
    text = _ESCAPED.sub(r"\1", cell)
    text = sub_closed(_LINK, r"\1", text, {"[": "]", "(": ")"})
    text = sub_closed(_TAG, "", text, {"<": ">"})
    text = unicodedata.normalize("NFKC", html.unescape(text))
    text = "".join(
        c
        for c in text
        if c not in "*_~`" and unicodedata.category(c) != "Cf" and not is_ignorable(c)
    )
    return " ".join(text.split()).casefold()


def _shadow(
    lines: Sequence[tuple[int, str]], headings: dict[int, Block], body: Section, source: str
) -> Finding | None:
    """Issue-table surfaces outside the CRITICAL and MAJOR bands (13.2 §F11.5)."""
    band = False
    in_body = False
    for n, text in lines:
        heading = headings.get(n)
        if heading is not None:
            if heading.level <= 2:
                in_body = n == body.line
            band = in_body and heading.level == 4 and heading.title in ("CRITICAL", "MAJOR")
            continue
        if _RAW_TABLE.search(text):
            return Finding(
                "P2-130",
                f"[DA-TABLE-PARSE: {source}: unexpected raw HTML issue-table surface outside the "
                "canonical CRITICAL and MAJOR bands] write issues as Markdown rows under "
                "'#### CRITICAL' or '#### MAJOR', and no table elsewhere",
                n,
                "da_tables",
            )
        if band or "|" not in text:
            continue
        stripped = text.strip()
        inner = stripped[1:] if stripped.startswith("|") else stripped
        inner = inner[:-1] if inner.endswith("|") else inner
        for cell in (_rendered(c) for c in inner.split("|")):
            if (
                cell in ("#", "evidence anchor")
                or _SHADOW_ID.fullmatch(cell)
                or _SHADOW_ANCHOR.match(cell)
            ):
                return Finding(
                    "P2-130",
                    f"[DA-TABLE-PARSE: {source}: unexpected issue-table band outside the "
                    "canonical CRITICAL and MAJOR bands] move the row under '#### CRITICAL' or "
                    "'#### MAJOR', or write it as prose without '#' or anchor cells",
                    n,
                    "da_tables",
                )
    return None
