"""Arithmetic receipts: the ``## Arithmetic Receipts`` section of a 13.2 methodology card,
as upstream main reads it (ars-main §4), with the kernel's R20 guard (§4.9).

:func:`receipt_findings` is the gate: placement (§4.3), the section's lines (§4.4), its
``### AR<n>`` structure or the attestation (§4.5), the back-reference walk of the Review
Body (§4.8), each receipt's fields and the tails rule (§4.6, §4.7), then the two coverage
checks. As upstream, the first failure wins: at most one error is reported (the attestation
advisory is a warning). The gate proves a card auditable; it never judges the arithmetic
(the calculator and the extraction stage, §4.11 and §7, are not followed).

:func:`render_receipts` and :func:`render_attestation` write a section that passes.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from typing import Final, NamedTuple

import attrs

from kernel.errors import KernelError
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.lint.anchors import anchor_problem
from kernel.reviewer.lint.phase1 import too_large_finding
from kernel.reviewer.lint.readings import (
    MARKUP,
    comment_open_after,
    hidden_lines,
    letters,
    without_tags,
)
from kernel.reviewer.lint.report import Finding
from kernel.text.markdown import (
    Block,
    _code_spans,
    check_structure,
    parse_normalised,
    readable,
)
from kernel.text.skeleton import is_ignorable

__all__ = [
    "ATTESTATION",
    "FIELDS",
    "NOT_COMPUTABLE_REASONS",
    "PROCEDURES",
    "RECEIPTS",
    "STATUSES",
    "TAIL_CONVENTIONS",
    "Receipt",
    "receipt_findings",
    "render_attestation",
    "render_receipts",
]

#: The section's H2 title (exact, case-sensitive).
RECEIPTS: Final = "Arithmetic Receipts"
BODY: Final = "Review Body"
ATTESTATION: Final = "no_recomputable_statistics"
#: The 14 field keys of one receipt, in the order of §4.6's table.
FIELDS: Final = (
    "procedure_id",
    "evidence_anchor",
    "reported_inputs",
    "assumptions",
    "derivation",
    "comparison_rule",
    "derived_value_or_range",
    "status",
    "not_computable_reason",
    "tail_convention",
    "rounding_interval",
    "nearest_achievable",
    "df_identity",
    "finding_ref",
)
PROCEDURES: Final = ("p_from_test_statistic", "grim", "grimmer", "n_from_df")
STATUSES: Final = ("consistent", "mismatch", "not_computable", "not_applicable")
TAIL_CONVENTIONS: Final = ("two-tailed", "one-tailed", "upper-tail", "unstated")
NOT_COMPUTABLE_REASONS: Final = (
    "missing_reported_value",
    "test_family_ambiguous",
    "tail_ambiguous",
    "nonstandard_p_procedure",
    "inequality_unresolvable",
    "rounding_rule_ambiguous",
    "rounding_boundary_ambiguous",
    "scale_granularity_unknown",
    "scale_support_unknown",
    "analytic_n_ambiguous",
    "aggregation_or_weighting_unknown",
    "sd_convention_unknown",
    "mean_grim_inconsistent",
    "df_identity_ambiguous",
    "model_correction_or_pooling",
    "reachability_not_completed",
)
#: The procedure fields, in the order they are counted, and the procedures owning each.
_OWNED: Final = {
    "tail_convention": ("p_from_test_statistic",),
    "rounding_interval": ("grim", "grimmer"),
    "nearest_achievable": ("grim", "grimmer"),
    "df_identity": ("n_from_df",),
}
_FREE: Final = (
    "reported_inputs",
    "assumptions",
    "derivation",
    "comparison_rule",
    "derived_value_or_range",
)
_KEYS: Final = "|".join((*FIELDS, ATTESTATION))
#: A canonical machine line (§4.4 step 3), trailing spaces and tabs trimmed first.
_CANONICAL: Final = re.compile(
    rf"(?:[-*] )?(?:(?P<key>{_KEYS})|\*\*(?P<bold>{_KEYS})\*\*): (?P<value>\S(?:.*\S)?)"
)
#: Head letters (§4.4 step 4) of each machine key.
_SHAPES: Final = {k.replace("_", ""): k for k in (*FIELDS, ATTESTATION)}
_BACKREF_SHAPE: Final = "arithmeticreceipt"
#: A canonical back-reference, at the line start or after a ``|`` (§4.8).
_BACKREF: Final = re.compile(
    r"(?:^|\|)[ \t]*(?:[-*][ \t]*)?\*\*Arithmetic Receipt\*\*:[ \t]*"
    r"(?P<value>AR[1-9][0-9]*)[ \t]*(?:\||$)"
)
_RECEIPT_TITLE: Final = re.compile(r"AR[1-9][0-9]*")
_FINDING_TITLE: Final = re.compile(r"(?P<id>W[1-9][0-9]*): \S.*")
_FINDING_ID: Final = re.compile(r"W[1-9][0-9]*")
#: ``two`` or ``one``, at most one separator, ``tailed``, with no letter on either side.
_TAILED: Final = {
    label: re.compile(rf"(?<![^\W\d_]){label}[\s\-\u2010-\u2015]?tailed(?![^\W\d_])")
    for label in ("two", "one")
}
#: Container prefixes in front of a comment opener (13.2 §F10.3).
_PREFIX: Final = re.compile(r"(?:[-*+]|[0-9]{1,9}[.)])[ \t]{1,4}|>[ \t]{0,4}")
_ORDERED_ONE: Final = re.compile(r"1[.)][ \t]{1,4}")
_ATX: Final = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")


class _Line(NamedTuple):
    """One line of the card as the receipt gate sees it (§4.2): ``text`` in display form
    (a tuple: a 1 MiB card has a hundred thousand of them)."""

    n: int
    text: str
    fenced: bool = False
    #: A fence opener or closer (dropped from every rule).
    marker: bool = False
    hidden: bool = False
    code: bool = False


def _fence_run(line: str, chars: str) -> tuple[str, int, str, int] | None:
    """(character, run length, rest, indent) for at most three spaces and a run of three or
    more of one of ``chars``."""
    if line[:1] not in chars and line[:1] != " ":
        return None
    body = line.lstrip(" ")
    indent = len(line) - len(body)
    if indent > 3 or not body or body[0] not in chars:
        return None
    rest = body.lstrip(body[0])
    run = len(body) - len(rest)
    return (body[0], run, rest, indent) if run >= 3 else None


def _columns(line: str) -> int:
    """The columns of ``line``'s leading spaces and tabs (tabs to 4-column stops)."""
    if line[:1] not in " \t":
        return 0
    col = 0
    for c in line:
        if c == " ":
            col += 1
        elif c == "\t":
            col += 4 - col % 4
        else:
            break
    return col


def _comment_start(line: str, para: bool) -> bool:
    """Whether ``line`` opens an HTML comment at a block position (13.2 §F10.3)."""
    if "<!--" not in line:
        return False
    if _columns(line) > 3:
        return False
    rest = line.lstrip(" \t")
    if para:
        m = _ORDERED_ONE.match(rest)
        if m is not None:
            rest = rest[m.end() :]
    else:
        while (m := _PREFIX.match(rest)) is not None:
            rest = rest[m.end() :].lstrip(" ")
    return rest.startswith("<!--")


def _closes_paragraph(line: str, para: bool) -> bool:
    """An ATX heading, a thematic break, a lone ``-``, or (a paragraph open) a setext
    underline: no paragraph is open after it."""
    if line.lstrip(" \t")[:1] not in "#*-_=":
        return False
    if _ATX.match(line) is not None:
        return True
    if _columns(line) > 3:
        return False
    s = line.strip(" \t")
    bare = s.replace(" ", "").replace("\t", "")
    if s == "-" or (len(bare) >= 3 and bare[0] in "*-_" and bare == bare[0] * len(bare)):
        return True
    return para and bool(s) and (s == "=" * len(s) or (len(s) >= 2 and s == "-" * len(s)))


def _walk(lines: Sequence[str]) -> list[_Line]:
    """Every line in one pass with the three states of §4.2: fenced (in display form),
    hidden (inside or opening a comment at a block position), indented code."""
    out: list[_Line] = []
    fence: tuple[str, int, str, int] | None = None
    comment = para = False
    for n, text in enumerate(lines, start=1):
        if fence is not None:
            closer = _fence_run(text, fence[0])
            if closer is not None and closer[1] >= fence[1] and not closer[2].strip(" \t"):
                out.append(_Line(n, text, marker=True))
                fence = None
                continue
            shown = text[min(fence[3], len(text) - len(text.lstrip(" "))) :]
            out.append(_Line(n, shown, fenced=True))
            continue
        opener = _fence_run(text, "`~")
        if opener is not None and not (opener[0] == "`" and "`" in opener[2]):
            fence = opener  # fences first (13.2 §E0.2), a comment around them or not
            out.append(_Line(n, text, marker=True))
            para = False
            continue
        if comment:
            comment = comment_open_after(text, True)
            out.append(_Line(n, text, hidden=True))
            para = False
            continue
        if not text.strip(" \t"):
            out.append(_Line(n, text))
            para = False
            continue
        if _comment_start(text, para):
            comment = comment_open_after(text, False)
            out.append(_Line(n, text, hidden=True))
            para = False
            continue
        if not para and _columns(text) >= 4:
            out.append(_Line(n, text, code=True))
            continue
        out.append(_Line(n, text))
        para = not _closes_paragraph(text, para)
    return out


def _heading(text: str, prefix: str) -> str | None:
    """The title of a ``^## (.+?)\\s*$``-style heading line (13.2 §E0.3), else ``None``."""
    if text[:1] != "#" or not text.startswith(prefix) or len(text) == len(prefix):
        return None
    rest = text[len(prefix) :]
    return rest.rstrip() or rest[0]


def _fold(text: str) -> str:
    """HTML entities decoded, NFKC, case folded, default-ignorable code points removed."""
    if "&" in text:
        text = html.unescape(text)
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not folded.isascii():
        folded = "".join(c for c in folded if not is_ignorable(c))
    return folded


def _without_markup(text: str) -> str:
    return MARKUP.sub("", without_tags(text)).replace("[]", "")


def _head(text: str) -> str | None:
    """The letters (any script) before the first ``:`` of ``text`` once folded and with its
    markup spans removed; ``None`` without a colon."""
    if text.isascii() and ":" not in text and "&" not in text:
        return None
    head, colon, _ = _without_markup(_fold(text)).partition(":")
    return letters(head) if colon else None


def _blank_code(text: str) -> str:
    """``text`` with its code spans (equal-length backtick runs) blanked."""
    if "`" not in text:
        return text
    out: list[str] = []
    keep = 0
    for opener, _, _, closer in _code_spans(text):
        out += (text[keep:opener], " " * (closer - opener))
        keep = closer
    out.append(text[keep:])
    return "".join(out)


def _cells(text: str) -> list[str]:
    """The cell-split form of a line holding ``|`` (§4.4): markup spans, code spans and
    ``\\|`` blanked, then split at ``|``."""
    blanked = _blank_code(text).replace("\\|", "  ")
    if "<" in blanked or "]" in blanked or "[" in blanked:
        blanked = _blank_spans(blanked)
    return blanked.split("|")


def _blank_spans(text: str) -> str:
    """``text`` with each markup span (:data:`MARKUP`, ``[]``, ``<…>``) replaced by spaces
    of its length."""
    text = MARKUP.sub(lambda m: " " * len(m.group()), text).replace("[]", "  ")
    out: list[str] = []
    pos = 0
    while (start := text.find("<", pos)) >= 0:
        stop = text.find(">", start + 1)
        if stop < 0:
            break
        out += (text[pos:start], " " * (stop + 1 - start))
        pos = stop + 1
    out.append(text[pos:])
    return "".join(out)


def _shapes(text: str) -> Iterator[str]:
    """The head letters of ``text`` and, if it holds ``|``, of each cell."""
    head = _head(text)
    if head is not None:
        yield head
    if "|" in text:
        for cell in _cells(text):
            head = _head(cell)
            if head is not None:
                yield head


def _shape_key(text: str) -> str | None:
    """The machine key a decorated line spells (§4.4 step 4), if any."""
    return next((_SHAPES[s] for s in _shapes(text) if s in _SHAPES), None)


def _declarations(text: str) -> int:
    """How many back-reference declarations ``text`` holds (§4.8): its cells, or itself."""
    if "|" in text:
        return sum(1 for cell in _cells(text) if _head(cell) == _BACKREF_SHAPE)
    return 1 if _head(text) == _BACKREF_SHAPE else 0


def _declares_hidden(text: str) -> bool:
    blanked = text.replace("<!--", "    ").replace("-->", "   ")
    return _declarations(blanked) > 0 or _declarations(text) > 0


def _canonical(text: str) -> tuple[str, str] | None:
    """(key, value) of a canonical machine line (§4.4 step 3)."""
    m = _CANONICAL.fullmatch(text.rstrip(" \t"))
    if m is None:
        return None
    return m.group("key") or m.group("bold"), m.group("value")


@attrs.frozen
class _Receipt:
    title: str
    line: int
    #: key → [(line, value)] of its canonical lines.
    fields: Mapping[str, Sequence[tuple[int, str]]]


@attrs.frozen
class _BackRef:
    line: int
    #: The finding (``W<n>``) whose block holds it; ``None`` in the preamble or another H3.
    finding: str | None
    value: str


class _Failed(Exception):
    """The gate's first failure (caught in :func:`receipt_findings`)."""

    def __init__(self, finding: Finding) -> None:
        self.finding = finding


def _fail(code: str, tag: str, source: str, what: str, line: int | None) -> _Failed:
    return _Failed(Finding(code, f"[{tag}: {source}: {what}]", line, "receipts"))


def _grammar(source: str, what: str, line: int | None) -> _Failed:
    return _fail("P2-142", "RECEIPT-GRAMMAR", source, what, line)


def _linkage(source: str, what: str, line: int | None) -> _Failed:
    return _fail("P2-144", "RECEIPT-LINKAGE", source, what, line)


@attrs.frozen
class _Blocks:
    """The kernel's CommonMark reading, per line (R20, §4.9); ``None`` when the card is over
    the work bound (the gate then still runs on the line reading, and the card fails)."""

    at: Sequence[Block | None]
    hidden: frozenset[int]

    def why(self, line: _Line, *, heading: int = 0) -> str | None:
        """How CommonMark reads ``line`` otherwise than the line reading does, if it does
        (``heading``: the level the line reading gives it)."""
        block = self.at[line.n]
        if block is None:
            return None
        if block.fenced != line.fenced:
            return (
                "is fenced code for CommonMark only"
                if block.fenced
                else "is fenced code for the line reading only"
            )
        if line.fenced:
            return None
        if line.n in self.hidden or block.kind == "html":
            return "is hidden in an HTML block or comment for CommonMark"
        if block.quoted:
            return "sits in a block quote for CommonMark (a line continuing a quote is part of it)"
        if block.kind == "code":
            return "is indented code for CommonMark"
        if heading:
            if not (block.kind == "heading" and block.atx and block.level == heading):
                return "is no heading of its level for CommonMark"
            if block.listed:
                return "is a heading inside a list item for CommonMark"
            return None
        if block.kind == "heading":
            return "is a heading for CommonMark"
        if block.listed and not line.text.startswith(("- ", "* ")):
            return "continues a list item for CommonMark"
        return None


def _blocks(text: str, count: int) -> _Blocks | None:
    if check_structure(text) is not None:
        return None
    doc = parse_normalised(text)
    at: list[Block | None] = [None] * (count + 2)
    for b in doc.blocks:
        for n in range(b.line, min(b.end, count) + 1):
            at[n] = b
    return _Blocks(tuple(at), hidden_lines(doc.blocks))


def receipt_findings(
    text: str, *, role: str, source: str = "document", max_bytes: int = MAX_INPUT_BYTES
) -> list[Finding]:
    """The receipt gate of a 13.2 Phase 2 card dispatched as ``role`` (ars-main §4):
    ``methodology`` must carry a valid ``## Arithmetic Receipts`` section; any other role
    may not carry one. The first failure only (as upstream), plus the attestation advisory;
    an empty list when the card passes."""
    text = readable(text, source="Phase 2 document", max_bytes=max_bytes)
    raw = text.split("\n")
    lines = _walk(raw)
    h2 = [
        (ln, title)
        for ln in lines
        if not (ln.fenced or ln.marker) and (title := _heading(ln.text, "## ")) is not None
    ]
    if role != "methodology":
        at = next((ln.n for ln, t in h2 if t == RECEIPTS), None)
        if at is None:
            return []
        return [
            Finding(
                "P2-145",
                f"[RECEIPT-SECTION-FORBIDDEN: {source}: role {role} may not emit "
                f"## {RECEIPTS}; only the methodology seat writes receipts] remove the section "
                "(its arithmetic belongs in the methodology card)",
                at,
                "receipts",
            )
        ]
    blocks = _blocks(text, len(raw))
    out: list[Finding] = []
    try:
        _gate(lines, h2, blocks, source, out)
    except _Failed as failed:
        return [failed.finding]
    if blocks is None:
        problem = check_structure(text)
        assert problem is not None
        return [too_large_finding("P2-126", problem)]
    return out


def _gate(
    lines: Sequence[_Line],
    h2: Sequence[tuple[_Line, str]],
    blocks: _Blocks | None,
    source: str,
    out: list[Finding],
) -> None:
    """Raise :class:`_Failed` at the first failure; append the attestation advisory."""
    section = _placement(lines, h2, blocks, source)
    receipts, attestations = _section(lines[section:], blocks, source)
    start = lines[section - 1].n
    _agree(blocks, lines[section - 1], source, f"## {RECEIPTS}", 2)
    if not receipts:
        if len(attestations) != 1:
            raise _grammar(
                source,
                f"## {RECEIPTS} without ### AR<n> receipts needs exactly one {ATTESTATION}: "
                f"line, found {len(attestations)}",
                attestations[1][0] if len(attestations) > 1 else start,
            )
        line, basis = attestations[0]
        refs = _backrefs(lines, h2, blocks, source)
        if refs:
            raise _linkage(
                source,
                f"**Arithmetic Receipt**: {refs[0].value} does not correspond to a mismatch "
                f"receipt: ## {RECEIPTS} holds only the {ATTESTATION}: attestation",
                refs[0].line,
            )
        out.append(
            Finding(
                "P2-146",
                f"[RECEIPT-ATTESTATION: {source}: declaration-only, no receipt to audit "
                f"({ATTESTATION}: {basis})] write a receipt for each reported value you can "
                "recompute; the declaration alone stands only when none can be",
                line,
                "receipts",
                "warning",
            )
        )
        return
    if attestations:
        raise _grammar(
            source,
            f"{ATTESTATION}: is forbidden when ### AR<n> receipts are present",
            attestations[0][0],
        )
    refs = _backrefs(lines, h2, blocks, source)
    findings = _finding_ids(lines, h2)
    named: dict[str, str] = {}
    for receipt in receipts:
        finding_ref = _fields(receipt, source)
        if finding_ref is None:
            continue
        line, value = finding_ref
        if not _FINDING_ID.fullmatch(value):
            raise _linkage(source, f"{receipt.title} finding_ref must name one W<n>", line)
        if value not in findings:
            raise _linkage(
                source,
                f"{receipt.title} finding_ref {value} has no matching ### {value}: finding in "
                f"## {BODY}",
                line,
            )
        if value in named:
            raise _linkage(
                source,
                f"{named[value]} and {receipt.title} share a finding_ref ({value})",
                line,
            )
        named[value] = receipt.title
    for finding, title in named.items():
        held = [r.value for r in refs if r.finding == finding]
        if held != [title]:
            raise _linkage(
                source,
                f"{finding} must carry exactly one **Arithmetic Receipt**: {title} "
                f"back-reference, found {held!r}",
                findings[finding],
            )
    for ref in refs:
        if named.get(ref.finding or "") != ref.value:
            raise _linkage(
                source,
                f"**Arithmetic Receipt**: {ref.value} does not correspond to a mismatch receipt "
                f"whose finding_ref names the finding it sits in",
                ref.line,
            )


def _placement(
    lines: Sequence[_Line],
    h2: Sequence[tuple[_Line, str]],
    blocks: _Blocks | None,
    source: str,
) -> int:
    """The index in ``lines`` of the section's first line (§4.3)."""
    found = [ln for ln, t in h2 if t == RECEIPTS]
    if not found:
        raise _fail(
            "P2-141",
            "RECEIPT-MISSING",
            source,
            f"the methodology card has no ## {RECEIPTS} section (write the receipts, or "
            f"{ATTESTATION}: <basis>) at its end",
            # the card's last written line: a final newline opens no line of its own
            next((ln.n for ln in reversed(lines) if ln.text.strip()), 1) if lines else None,
        )
    if len(found) > 1:
        raise _grammar(source, f"duplicate ## {RECEIPTS} section", found[1].n)
    head = found[0]
    final = f"## {RECEIPTS} must be the final section of the card"
    later = next((ln for ln, _ in h2 if ln.n > head.n), None)
    if later is not None:
        raise _grammar(source, final, later.n)
    index = head.n  # lines are numbered from 1: the next line's index
    for ln in lines[index:]:
        if not (ln.fenced or ln.marker or ln.hidden) and ln.text.startswith(
            (" ##", "  ##", "   ##")
        ):
            raise _grammar(source, final, ln.n)
        if blocks is not None and not ln.fenced and not ln.marker:
            block = blocks.at[ln.n]
            if (
                block is not None
                and block.kind == "heading"
                and block.level <= 2
                and block.line == ln.n
                and ln.n not in blocks.hidden
            ):
                raise _grammar(source, f"{final} (CommonMark reads a heading here)", ln.n)
    return index


def _section(
    lines: Sequence[_Line], blocks: _Blocks | None, source: str
) -> tuple[list[_Receipt], list[tuple[int, str]]]:
    """The section's lines (§4.4) and structure (§4.5): its receipts in order and its
    attestation lines."""
    titles: list[tuple[int, str]] = []
    fields: list[dict[str, list[tuple[int, str]]]] = []
    attestations: list[tuple[int, str]] = []
    for ln in lines:
        if ln.marker:
            continue
        text = ln.text
        if not ln.fenced and ("<!--" in text or "-->" in text):
            raise _grammar(source, f"HTML comment markup in ## {RECEIPTS}", ln.n)
        title = _heading(text, "### ")
        if title is not None:
            if ln.hidden:
                raise _grammar(
                    source, f"receipt heading '### {title}' is inside an HTML comment", ln.n
                )
            _agree(blocks, ln, source, f"the heading '### {title}'", 3)
            titles.append((ln.n, title))
            fields.append({})
            continue
        canonical = _canonical(text)
        if canonical is not None:
            key, value = canonical
            if ln.hidden:
                raise _grammar(source, f"{key}: line inside an HTML comment", ln.n)
            _agree(blocks, ln, source, f"the {key}: line", 0)
            if key == ATTESTATION:
                attestations.append((ln.n, value))
            elif not titles:
                raise _grammar(source, f"{key}: line outside every ### AR<n> subsection", ln.n)
            else:
                fields[-1].setdefault(key, []).append((ln.n, value))
            continue
        shaped = _shape_key(text)
        if shaped is not None:
            raise _grammar(
                source,
                f"decorated or non-canonical {shaped}: line (write it plain at column 0: "
                f"'{shaped}: <value>')",
                ln.n,
            )
        if blocks is not None and not ln.fenced:
            block = blocks.at[ln.n]
            if (
                block is not None
                and block.kind == "heading"
                and block.level == 3
                and block.line == ln.n
            ):
                raise _grammar(
                    source,
                    "a line CommonMark reads as a level-3 heading is no '### ' heading at "
                    "column 0 for the line reading; the readings must agree (R20)",
                    ln.n,
                )
    seen: dict[str, int] = {}
    again = [n for n, t in titles if seen.setdefault(t, n) != n]
    if again:
        repeated = sorted(t for t, n in seen.items() if sum(1 for _, u in titles if u == t) > 1)
        raise _grammar(source, f"duplicate receipt heading(s) {repeated!r}", again[0])
    for n, title in titles:
        if not _RECEIPT_TITLE.fullmatch(title):
            raise _grammar(
                source, f"invalid receipt subsection '### {title}' (expected ### AR<n>)", n
            )
    for i, (n, title) in enumerate(titles, start=1):
        if title != f"AR{i}":
            raise _grammar(
                source,
                f"receipt headings must be dense AR1..AR{len(titles)} in order: "
                f"'### {title}' where '### AR{i}' belongs",
                n,
            )
    receipts = [
        _Receipt(title, n, {k: tuple(v) for k, v in f.items()})
        for (n, title), f in zip(titles, fields, strict=True)
    ]
    return receipts, attestations


def _agree(blocks: _Blocks | None, ln: _Line, source: str, what: str, heading: int) -> None:
    if blocks is None:
        return
    why = blocks.why(ln, heading=heading)
    if why is not None:
        raise _grammar(source, f"{what} {why}; the readings must agree (R20)", ln.n)


def _body(lines: Sequence[_Line], h2: Sequence[tuple[_Line, str]]) -> Sequence[_Line]:
    """The lines of the first ``## Review Body`` (to the next unfenced H2)."""
    start = next((ln.n for ln, t in h2 if t == BODY), None)
    if start is None:
        return ()
    stop = next((ln.n for ln, _ in h2 if ln.n > start), len(lines) + 1)
    return lines[start : stop - 1]


def _finding_ids(lines: Sequence[_Line], h2: Sequence[tuple[_Line, str]]) -> dict[str, int]:
    """``W<n>`` → the line of its ``### W<n>: …`` heading in the Review Body."""
    out: dict[str, int] = {}
    for ln in _body(lines, h2):
        if ln.fenced or ln.marker:
            continue
        title = _heading(ln.text, "### ")
        m = _FINDING_TITLE.fullmatch(title) if title is not None else None
        if m is not None:
            out.setdefault(m.group("id"), ln.n)
    return out


def _inline_parts(text: str, open_: bool) -> tuple[list[tuple[str, bool]], bool]:
    """``text`` cut into (part, hidden) by paragraph-inline comments (``<!--`` anywhere
    opens, the next ``-->`` closes), and whether a comment is open after it."""
    parts: list[tuple[str, bool]] = []
    pos = 0
    while True:
        k = text.find("-->" if open_ else "<!--", pos)
        if k < 0:
            parts.append((text[pos:], open_))
            break
        end = k + 3 if open_ else k
        parts.append((text[pos:end], open_))
        pos, open_ = end, not open_
    return [(p, h) for p, h in parts if p], open_


def _backrefs(
    lines: Sequence[_Line],
    h2: Sequence[tuple[_Line, str]],
    blocks: _Blocks | None,
    source: str,
) -> list[_BackRef]:
    """The back-references of the Review Body, each credited only where every reading sees
    it (§4.8, §4.9)."""
    out: list[_BackRef] = []
    current: str | None = None
    inline = False
    for ln in _body(lines, h2):
        if ln.marker:
            inline = False
            continue
        text = ln.text
        if not ln.fenced:
            title = _heading(text, "### ")
            if title is not None:
                m = _FINDING_TITLE.fullmatch(title)
                current = m.group("id") if m is not None else None
            if _ATX.match(text) is not None or not text.strip(" \t"):
                inline = False
        state = (
            "fenced"
            if ln.fenced
            else "commented-out"
            if ln.hidden
            else "indented-code"
            if ln.code
            else None
        )
        if state is not None:
            inline = False
            if _declares_hidden(text):
                raise _linkage(
                    source,
                    f"a {state} **Arithmetic Receipt** back-reference is not credited",
                    ln.n,
                )
            continue
        blanked = _blank_code(text)
        if "<!--" not in blanked and "-->" not in blanked and not inline:
            visible = blanked
        else:
            parts, inline = _inline_parts(blanked, inline)
            if any(h and _declares_hidden(p) for p, h in parts):
                raise _linkage(
                    source,
                    "a paragraph-inline commented-out **Arithmetic Receipt** back-reference is "
                    "not credited",
                    ln.n,
                )
            first = next((i for i, (_, h) in enumerate(parts) if h), len(parts))
            if any(_declarations(p) for p, h in parts[first:] if not h):
                raise _linkage(
                    source,
                    "an **Arithmetic Receipt** back-reference after a comment closed on its "
                    "line is not credited (R20)",
                    ln.n,
                )
            visible = "".join(p for p, h in parts if not h)
        declared = _declarations(visible)
        if not declared:
            continue
        values = [m.group("value") for m in _BACKREF.finditer(visible)]
        if len(values) != declared:
            raise _linkage(
                source,
                f"{declared} **Arithmetic Receipt** declaration(s) do not all parse canonically "
                "(write '**Arithmetic Receipt**: AR<n>' alone on its line or in its cell)",
                ln.n,
            )
        if blocks is not None:
            why = blocks.why(ln)
            if why is not None:
                raise _linkage(
                    source,
                    f"the **Arithmetic Receipt** back-reference {why}; the readings must "
                    "agree (R20)",
                    ln.n,
                )
        out += [_BackRef(ln.n, current, v) for v in values]
    return out


def _count(receipt: _Receipt, key: str, source: str, *, exactly: bool) -> Sequence[tuple[int, str]]:
    found = receipt.fields.get(key, ())
    if (len(found) != 1) if exactly else (len(found) > 1):
        amount = "exactly one" if exactly else "at most one"
        line = found[1][0] if len(found) > 1 else receipt.line
        raise _grammar(
            source,
            f"{receipt.title} expected {amount} canonical {key}: line, found {len(found)}",
            line,
        )
    return found


def _one(receipt: _Receipt, key: str, source: str) -> tuple[int, str]:
    return _count(receipt, key, source, exactly=True)[0]


def _fields(receipt: _Receipt, source: str) -> tuple[int, str] | None:
    """Check one receipt's fields (§4.6, §4.7); its ``finding_ref`` (line, value)."""
    t = receipt.title
    line, procedure = _one(receipt, "procedure_id", source)
    if procedure not in PROCEDURES:
        raise _grammar(
            source,
            f"{t} procedure_id {procedure!r} is not a bounded procedure ({', '.join(PROCEDURES)})",
            line,
        )
    line, anchor = _one(receipt, "evidence_anchor", source)
    problem = anchor_problem(anchor)
    if problem is not None:
        tag, reason = problem
        code = "P2-122" if tag == "ANCHOR-MISSING" else "P2-123"
        raise _Failed(Finding(code, f"[{tag}: {source}:{t}: {reason}]", line, "receipts"))
    for key in _FREE[:4]:
        _one(receipt, key, source)
    derived = _one(receipt, "derived_value_or_range", source)[1]
    line, status = _one(receipt, "status", source)
    if status not in STATUSES:
        raise _grammar(
            source,
            f"{t} status {status!r} is not in the closed status enum ({', '.join(STATUSES)})",
            line,
        )
    reasons = receipt.fields.get("not_computable_reason", ())
    if status == "not_computable":
        _count(receipt, "not_computable_reason", source, exactly=True)
    elif reasons:
        raise _grammar(
            source,
            f"{t} not_computable_reason is forbidden unless status is not_computable",
            reasons[0][0],
        )
    if reasons and reasons[0][1] not in NOT_COMPUTABLE_REASONS:
        raise _grammar(
            source,
            f"{t} not_computable_reason {reasons[0][1]!r} is not in the closed v1 enum",
            reasons[0][0],
        )
    decided = status in ("consistent", "mismatch")
    for key, owners in _OWNED.items():
        if procedure not in owners:
            present = receipt.fields.get(key, ())
            if present:
                raise _grammar(
                    source, f"{t} {key} is forbidden for procedure {procedure}", present[0][0]
                )
            continue
        _count(receipt, key, source, exactly=key == "tail_convention" or decided)
    if procedure == "p_from_test_statistic":
        line, tail = _one(receipt, "tail_convention", source)
        if tail not in TAIL_CONVENTIONS:
            raise _grammar(
                source,
                f"{t} tail_convention {tail!r} is not in the closed enum "
                f"({', '.join(TAIL_CONVENTIONS)})",
                line,
            )
        if tail == "unstated" and decided and not _tails_shown(derived):
            raise _fail(
                "P2-143",
                "RECEIPT-TAILS",
                source,
                f"{t} tail_convention is unstated: derived_value_or_range must show both the "
                "two-tailed and the one-tailed value (each label with a number, in one "
                "';'-separated part)",
                receipt.fields["derived_value_or_range"][0][0],
            )
    refs = _count(receipt, "finding_ref", source, exactly=status == "mismatch")
    if not refs:
        return None
    if status != "mismatch":
        raise _linkage(
            source, f"{t} finding_ref is forbidden unless status is mismatch", refs[0][0]
        )
    return refs[0]


def _tails_shown(derived: str) -> bool:
    """Both labels shown (§4.7): for ``two`` and ``one``, a ``;`` part holds the label and a
    digit."""
    parts = unicodedata.normalize("NFKC", derived).casefold().split(";")
    return all(
        any(pattern.search(p) is not None and any(c.isdigit() for c in p) for p in parts)
        for pattern in _TAILED.values()
    )


# --- rendering -----------------------------------------------------------------------------


@attrs.frozen
class Receipt:
    """One receipt to render. ``own``: the procedure's own fields (``tail_convention``,
    ``rounding_interval`` and ``nearest_achievable``, or ``df_identity``);
    ``finding_ref``: the finding a mismatch names."""

    procedure_id: str
    evidence_anchor: str
    reported_inputs: str
    assumptions: str
    derivation: str
    derived_value_or_range: str
    comparison_rule: str
    status: str
    own: Mapping[str, str] = attrs.field(factory=dict)
    not_computable_reason: str | None = None
    finding_ref: str | None = None


def _one_line(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\n" in value or "\r" in value:
        raise KernelError(f"receipt {what}: expected a non-blank one-line string, got {value!r}")
    return value.strip()


def render_receipts(receipts: Sequence[Receipt]) -> str:
    """A ``## Arithmetic Receipts`` section holding ``receipts`` as ``### AR1`` … (its text
    ends with a line break). A mismatch's finding must carry ``**Arithmetic Receipt**:
    AR<k>`` in its own block. Raises :class:`KernelError` for a receipt the gate refuses."""
    if not receipts:
        raise KernelError(
            "no receipt to render: write the attestation (render_attestation) instead"
        )
    out = [f"## {RECEIPTS}", ""]
    for k, r in enumerate(receipts, start=1):
        out.append(f"### AR{k}")
        values: dict[str, str | None] = {
            "procedure_id": r.procedure_id,
            "evidence_anchor": r.evidence_anchor,
            "reported_inputs": r.reported_inputs,
            "assumptions": r.assumptions,
            "derivation": r.derivation,
            "derived_value_or_range": r.derived_value_or_range,
            "comparison_rule": r.comparison_rule,
            **{key: r.own.get(key) for key in _OWNED},
            "status": r.status,
            "not_computable_reason": r.not_computable_reason,
            "finding_ref": r.finding_ref,
        }
        unknown = set(r.own) - set(_OWNED)
        if unknown:
            raise KernelError(f"AR{k}: unknown procedure field(s) {sorted(unknown)!r}")
        out += [
            f"{key}: {_one_line(value, f'AR{k} {key}')}"
            for key, value in values.items()
            if value is not None
        ]
        out.append("")
    document = "\n".join(out)
    refs = "".join(
        f"### {r.finding_ref}: finding\n**Arithmetic Receipt**: AR{k}\n"
        for k, r in enumerate(receipts, start=1)
        if r.finding_ref is not None
    )
    problem = receipt_findings(
        f"## {BODY}\n{refs}\n{document}", role="methodology", source="rendered receipts"
    )
    if problem:
        raise KernelError(f"the rendered receipts would fail the gate: {problem[0].message}")
    return document


def render_attestation(basis: str) -> str:
    """A ``## Arithmetic Receipts`` section that attests ``basis``: the card restates no
    statistic that can be recomputed."""
    return f"## {RECEIPTS}\n\n{ATTESTATION}: {_one_line(basis, ATTESTATION)}\n"
