"""Injection scan over agent output (shared; companions.md §C, wire-format advisory lint).

``scan_injection(text)`` returns one ``InjectionFinding`` per suspicious passage, each with
its ``category``, its ``span`` (start, end) in the ORIGINAL text and the ``matched`` text:

* ``instruction_override`` — a family: an imperative to disregard, ignore, forget or
  override earlier or other instructions, findings, rules or the review process ("ignore
  previous instructions", "disregard the other findings", "skip the review process"); a
  claim of new or real instructions ("here are your new instructions", "your real task
  is"); a request to reveal the system prompt; verdict dictation aimed at the reviewer ("the
  code is safe, approve it", "you must override the reviewer", "do not report any
  findings"). Phrases that give themselves away count anywhere; imperatives built from
  everyday words count only as whole words at the start of a clause (the start of a line, after
  punctuation, or after lead-ins such as "please" or "you must"), so "the parser ignores
  previous tokens" or "the authors ignore earlier findings" stay clean;
* ``role_reassignment`` — "you are now a …", "from now on you will …", "act as if you
  were …", "pretend to be …", "assume the role of …", "enter developer mode" ...
* ``forged_delimiter`` — an opening or closing tag of a kernel delimiter (default
  ``phase1_output``; pass ``delimiters=`` for others), an isolation marker
  (``REVIEW_TARGET_…``), chat-template control tokens (``<|im_start|>``, ``[INST]``,
  ``<<SYS>>`` ...);
* ``forged_provenance`` — text posing as a provenance marker (``provenance:`` /
  ``[PROVENANCE …``), which only the orchestrator may add;
* ``dangerous_command`` — ``rm -rf``, ``git push --force``, ``DROP TABLE``, ``mkfs``,
  ``dd if=``, fork bombs, a download piped into a shell, ``chmod -R 777`` ...

Matching runs on the skeleton of the text (``kernel.skeleton``: NFKC, default-ignorable
characters and combining marks removed, TS #39 confusables mapped to Latin, case-folded), so
zero-width splits, full-width letters and Cyrillic or Greek look-alikes do not hide a phrase.
Every category also reads the text a second time as a reader of the rendered markdown sees
it (R19; ``kernel.injection_markup``: ``ig**nore**``, ``[ig](u)nore``, ``[ignore][1]``,
``&#105;gnore``, ``rm&#32;-rf``, `` `rm` -rf``, ``ig<b>nore</b>``, ``ig<!-- -->nore``) when
the text has such markup; the phrase categories only when the markup can join or split their
words (emphasis that only stands next to blanks or punctuation cannot hide a phrase, so a
finding's span ends where the phrase ends). Every pattern is a fixed alternation with
bounded, possessive repetition; a phrase rule runs one regex per first word of its phrases
that the text holds as a word, and only when the text holds the other words every match of it
needs (``kernel.text.phrase_need``); with many such words, each regex is tried only where its
word stands and the next word may continue it. A plain rule runs only when the words or
characters every match needs are there: the scan is linear in the input.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence

import attrs

from kernel.errors import KernelError
from kernel.text import DEFAULT_DELIMITERS
from kernel.text import injection_match as _match
from kernel.text import injection_phrases as _phrases
from kernel.text.delimit import delimiters_in
from kernel.text.injection_markup import (
    emphasis_in_word,
    has_markup,
    has_sites,
    joins_ascii_words,
    splits_words,
    unmarked,
    unmarked_emphasis,
)
from kernel.text.injection_phrases import (
    CATEGORIES,
    DANGEROUS_COMMAND,
    FORGED_DELIMITER,
    FORGED_PROVENANCE,
    INSTRUCTION_OVERRIDE,
    ROLE_REASSIGNMENT,
)
from kernel.text.skeleton import skeletonize

__all__ = [
    "CATEGORIES",
    "DANGEROUS_COMMAND",
    "DEFAULT_DELIMITERS",
    "FORGED_DELIMITER",
    "FORGED_PROVENANCE",
    "INSTRUCTION_OVERRIDE",
    "ROLE_REASSIGNMENT",
    "InjectionFinding",
    "scan_injection",
]

# The matcher's names that tests and tools reach through the scan module.
_RULES = _match._RULES
PHRASES = _phrases.PHRASES
_any_plain = _match._any_plain
_gate_words = _match._gate_words
_matches = _match._matches
_may_match = _match._may_match
_phrase_matches = _match._phrase_matches
_phrase_parts = _match._phrase_parts
_phrases_data = _match._phrases_data
_stored_or_built = _match._stored_or_built
_Tokens = _match._Tokens
_words = _match._words
phrase_table = _match.phrase_table
_raw = _match._raw
_read = _match._read
_Compiler = _phrases._Compiler


@attrs.frozen
class InjectionFinding:
    """One suspicious passage: ``category`` (see ``CATEGORIES``), ``span`` = (start, end)
    into the original text, ``matched`` = ``text[start:end]``, and ``in_code``: whether it
    starts inside a fenced code block (still reported: a quoted example may be meant to be
    read)."""

    category: str
    span: tuple[int, int]
    matched: str
    in_code: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "category": self.category,
            "span": list(self.span),
            "matched": self.matched,
            "in_code": self.in_code,
        }


def _names(value: object, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, bytes | Mapping) or not isinstance(value, Iterable):
        raise KernelError(f"{what} must be a list of names, got {type(value).__name__}")
    names = tuple(value)
    if not all(isinstance(n, str) for n in names):
        raise KernelError(f"{what} must be a list of strings")
    return names


def scan_injection(
    text: str,
    *,
    delimiters: Sequence[str] = DEFAULT_DELIMITERS,
    categories: Iterable[str] | None = None,
    fenced: Sequence[tuple[int, int]] | None = None,
) -> tuple[InjectionFinding, ...]:
    """Scan agent output for injection attempts; findings in text order (see module doc).

    ``delimiters``: delimiter names whose opening or closing tags count as forged.
    ``categories``: restrict the scan to these categories (default: all).
    ``fenced``: the character ranges of the text's fenced code blocks, in order, from a
    caller that has parsed the text already (else the text is parsed when a finding needs
    it).
    """
    return _scan(text, delimiters, categories, fenced, full=False)


def _scan(
    text: str,
    delimiters: Sequence[str],
    categories: Iterable[str] | None,
    fenced: Sequence[tuple[int, int]] | None,
    *,
    full: bool,
) -> tuple[InjectionFinding, ...]:
    """``scan_injection``; ``full`` reads the reader's view by its general path every time."""
    if not isinstance(text, str):
        raise KernelError(f"scan_injection needs a string, got {type(text).__name__}")
    delimiters = _names(delimiters, "delimiters")
    wanted = set(CATEGORIES if categories is None else _names(categories, "categories"))
    unknown = wanted - set(CATEGORIES)
    if unknown:
        raise KernelError(f"unknown injection categories: {sorted(unknown)}")
    sk = skeletonize(text)
    raw, words, opened = _read(sk.text, wanted)
    spans = sk.spans((s, e) for _, s, e in raw)
    found = {(cat, span) for (cat, _, _), span in zip(raw, spans, strict=True)}
    if FORGED_DELIMITER in wanted:
        for name in delimiters:
            found.update((FORGED_DELIMITER, hit.span) for hit in delimiters_in(sk, name))
    found.update(
        _second_reading(
            text, wanted, delimiters, found, words, full=full, opened=opened, sk_text=sk.text
        )
    )
    merged = _merged(found)
    code = (_fenced(text) if fenced is None else list(fenced)) if merged else []
    firsts = [start for start, _ in code]  # fenced blocks are disjoint and in text order
    return tuple(
        InjectionFinding(
            category=cat,
            span=span,
            matched=text[span[0] : span[1]],
            in_code=bool(code) and _inside(code, firsts, span[0]),
        )
        for cat, span in merged
    )


def _second_reading(
    text: str,
    wanted: set[str],
    delimiters: Sequence[str],
    found: set[tuple[str, tuple[int, int]]],
    words: frozenset[str] | None,
    *,
    full: bool,
    opened: bool = True,
    sk_text: str | None = None,
) -> list[tuple[str, tuple[int, int]]]:
    """What the reader's view of ``text`` adds to the first reading's ``found`` (R19): every
    rule reads the text again without the markup that renders as nothing (``ig**nore**``,
    ``[ig](u)nore``, ``rm&#32;-rf``, `` `rm` -rf``); the phrase rules only when markup can join
    or split their words. Spans map back twice.

    A text without tags, comments, character references, links or images (``has_sites``)
    reads as the text less its emphasis characters (no markup search); when those characters
    also join no two ASCII words, the view's words are the first reading's ``words``.
    ``full`` takes the general path every time (the reference the quick one is tested
    against).
    """
    phrases, others = wanted & _PHRASE_CATEGORIES, wanted - _PHRASE_CATEGORIES
    if full:
        joins = bool(phrases) and splits_words(text)
        marked = bool(others) and has_markup(text)
        sites = True  # the markup search runs whatever the text holds
    else:
        marked = bool(phrases or others) and has_markup(text)
        sites = marked and has_sites(text)
        joins = sites or (marked and emphasis_in_word(text))  # splits_words, in two parts
    again = (phrases if joins else set()) | (others if marked else set())
    if not again:
        return []
    emphasis_only = not sites
    same_words = emphasis_only and not (joins and joins_ascii_words(text))
    # With the same words, the view opens no gate the text kept shut (``opened``: whether
    # the first reading opened any): removing emphasis creates no word and no gate piece.
    # Nor a "<" that a delimiter needs: the view's skeleton is the text's (``sk_text``) less
    # the emphasis characters.
    quiet = same_words and not opened and not full
    if quiet and (FORGED_DELIMITER not in again or (sk_text is not None and "<" not in sk_text)):
        return []
    plain = unmarked_emphasis(text) if emphasis_only else unmarked(text)
    if not plain.changed:
        return []
    sk2 = skeletonize(plain.text)
    raw2 = [] if quiet else _raw(sk2.text, again, words if same_words else None)[0]
    spans2 = plain.spans(sk2.spans((s, e) for _, s, e in raw2))
    second = [(cat, span) for (cat, _, _), span in zip(raw2, spans2, strict=True)]
    if FORGED_DELIMITER in again:
        for name in delimiters:
            hits = [hit.span for hit in delimiters_in(sk2, name)]
            second.extend((FORGED_DELIMITER, span) for span in plain.spans(hits))
    return _new_to(found, second)


def _new_to(
    found: set[tuple[str, tuple[int, int]]], second: list[tuple[str, tuple[int, int]]]
) -> list[tuple[str, tuple[int, int]]]:
    """The second reading's findings, less those of the other categories that overlap a
    finding of the first in the same category (the same passage, seen through its markup);
    phrase findings are merged by ``_merged`` instead."""
    firsts: dict[str, list[int]] = {}  # category -> starts of its first-reading spans, sorted
    reach: dict[str, list[int]] = {}  # category -> the furthest end up to each of those
    for cat, (start, end) in sorted(found, key=lambda f: f[1]):
        ends = reach.setdefault(cat, [])
        firsts.setdefault(cat, []).append(start)
        ends.append(max(end, ends[-1]) if ends else end)
    out = []
    for cat, (start, end) in second:
        if cat not in _PHRASE_CATEGORIES and cat in firsts:
            i = bisect_left(firsts[cat], end) - 1  # the last first-reading span starting before end
            if i >= 0 and reach[cat][i] > start:
                continue
        out.append((cat, (start, end)))
    return out


def _inside(ranges: Sequence[tuple[int, int]], firsts: Sequence[int], at: int) -> bool:
    i = bisect_right(firsts, at) - 1
    return i >= 0 and at < ranges[i][1]


def _fenced(text: str) -> list[tuple[int, int]]:
    """Where fenced code blocks stand in ``text`` (none known over the work bound)."""
    if "```" not in text and "~~~" not in text:
        return []
    from kernel.text.markdown import fenced_ranges  # the block parser, only when needed

    return fenced_ranges(text) or []


_PHRASE_CATEGORIES = frozenset({INSTRUCTION_OVERRIDE, ROLE_REASSIGNMENT})


def _merged(found: Iterable[tuple[str, tuple[int, int]]]) -> list[tuple[str, tuple[int, int]]]:
    """Findings in text order; overlapping phrase findings of one category become one (the
    family's rules and the two readings of a text can match parts of the same passage)."""
    ordered = sorted(found, key=lambda f: (f[1][0], f[1][1], f[0]))
    out: list[tuple[str, tuple[int, int]]] = []
    last: dict[str, int] = {}  # category -> index in ``out`` of its latest phrase finding
    for cat, (start, end) in ordered:
        i = last.get(cat)
        if cat in _PHRASE_CATEGORIES and i is not None and start < out[i][1][1]:
            begin, stop = out[i][1]
            out[i] = (cat, (begin, max(stop, end)))
            continue
        if cat in _PHRASE_CATEGORIES:
            last[cat] = len(out)
        out.append((cat, (start, end)))
    return out
