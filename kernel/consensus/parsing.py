"""``parse_response``: strict JSON first, then the limited recovery of companions §B."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, Final, Literal, TypeAlias

import attrs

from kernel.consensus.responses import (
    Kind,
    Response,
    check_kind,
    from_mapping,
    schema_errors,
    unknown_fields,
)
from kernel.errors import KernelError
from kernel.io import MAX_INPUT_BYTES, check_size, strict_decoder
from kernel.strict import shown

__all__ = [
    "FIRST_OBJECT_BUDGET",
    "MARKDOWN_LINE_LIMIT",
    "METHODS",
    "Attempt",
    "Method",
    "Outcome",
    "ParseResult",
    "parse_response",
]

Method: TypeAlias = Literal["strict", "fenced", "first_object"]
Outcome: TypeAlias = Literal["ok", "absent", "malformed", "not_object", "schema"]
METHODS: Final[tuple[Method, ...]] = ("strict", "fenced", "first_object")

_JSON_WS: Final = " \t\n\r"
# A fence run then an info string whose first character could unescape to 'j' (a json fence
# needs one); a cheap necessary condition that spares the Markdown parse on most texts. A run
# is tried only where it starts and is read possessively, so a long run costs one pass.
_FENCE_HINT: Final = re.compile(r"(?:(?<!`)`{3,}+|(?<!~)~{3,}+)[ \t]*+[jJ&\\]")
_OBJECT_START: Final = re.compile(r'\{[ \t\n\r]*["}]')

#: At most this many '{' positions that could begin an object are decoded by ``first_object``.
FIRST_OBJECT_BUDGET: Final = 1000
#: A text with more lines is not read as Markdown: the ``fenced`` stage is refused at once
#: (markdown-it-py spends up to ~0.4 ms on a line of nested list markers).
MARKDOWN_LINE_LIMIT: Final = 2000

# Reads a JSON value's syntax only (no strict hooks, no number conversion), to find where a
# candidate object ends even when the strict decoder rejects it.
_SYNTAX_ONLY: Final = json.JSONDecoder(
    object_pairs_hook=lambda _pairs: None,
    parse_constant=lambda _name: None,
    parse_int=lambda _text: 0,
    parse_float=lambda _text: 0,
)


@attrs.frozen
class Attempt:
    """One stage of ``parse_response``: what it tried and how that went.

    ``line`` is the 1-based line of the response text the outcome refers to, when known.
    """

    method: Method
    outcome: Outcome
    message: str
    line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


@attrs.frozen
class ParseResult:
    """The outcome of ``parse_response``.

    ``value`` is the response normalised to the kind's fields (absent lists as ``[]``, absent
    confidence as ``None``, unknown fields dropped and listed in ``notes``); each access returns
    a fresh dict.
    """

    kind: Kind
    method: Method | None
    response: Response | None
    attempts: tuple[Attempt, ...]
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.response is not None

    @property
    def value(self) -> dict[str, Any] | None:
        return None if self.response is None else self.response.to_dict()

    @property
    def errors(self) -> tuple[str, ...]:
        """One message per failed attempt, in the order tried."""
        return tuple(f"{a.method}: {a.message}" for a in self.attempts if a.outcome != "ok")

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "ok": self.ok,
            "method": self.method,
            "value": self.value,
            "errors": list(self.errors),
            "attempts": [a.to_dict() for a in self.attempts],
            "notes": list(self.notes),
        }


_Stage: TypeAlias = tuple[Attempt, Response | None, tuple[str, ...]]


@attrs.frozen
class _Decoded:
    value: Any = None
    error: str | None = None
    line: int | None = None


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _JSON_WS:
        pos += 1
    return pos


def _decode_at(text: str, pos: int, *, whole: bool) -> _Decoded:
    """Decode one JSON value at ``pos`` with the one strict decoder.

    With ``whole`` the value must be all of ``text`` but JSON whitespace.
    """
    try:
        value, end = strict_decoder().raw_decode(text, pos)
        if whole and _skip_ws(text, end) != len(text):
            end = _skip_ws(text, end)
            return _Decoded(error="extra data after the JSON value", line=_line_of(text, end))
    except json.JSONDecodeError as exc:
        return _Decoded(error=f"not JSON: {exc.msg} (column {exc.colno})", line=exc.lineno)
    except ValueError as exc:  # the decoder's hooks: duplicate keys, NaN/Infinity
        return _Decoded(error=f"not strict JSON: {exc}", line=_line_of(text, pos))
    except RecursionError:
        return _Decoded(error="JSON nested too deeply", line=_line_of(text, pos))
    return _Decoded(value=value)


def _check(method: Method, decoded: _Decoded, kind: Kind, line_offset: int) -> _Stage:
    """Turn a decode into an attempt: malformed, not an object, off-schema, or ok."""
    line = None if decoded.line is None else decoded.line + line_offset
    if decoded.error is not None:
        return Attempt(method, "malformed", decoded.error, line), None, ()
    if not isinstance(decoded.value, Mapping):
        got = type(decoded.value).__name__
        return Attempt(method, "not_object", f"decoded a JSON {got}, not an object", line), None, ()
    problems = schema_errors(decoded.value, kind)
    if problems:
        message = f"not a valid {kind} response: " + "; ".join(problems)
        return Attempt(method, "schema", message, line), None, ()
    notes = tuple(
        f"{method}: unknown field {shown(name)} ignored"
        for name in unknown_fields(decoded.value, kind)
    )
    return (
        Attempt(method, "ok", f"valid {kind} response", line),
        from_mapping(decoded.value, kind),
        notes,
    )


def _strict(text: str, kind: Kind) -> _Stage:
    start = 1 if text.startswith("\ufeff") else 0  # RFC 8259 §8.1 allows a leading BOM
    start = _skip_ws(text, start)
    decoded = _decode_at(text, start, whole=True)
    if decoded.error is None:
        decoded = attrs.evolve(decoded, line=_line_of(text, start))
    return _check("strict", decoded, kind, 0)


_NO_FENCE: Final[_Stage] = (
    Attempt("fenced", "absent", "no fenced code block with info string 'json'"),
    None,
    (),
)


def _line_count(text: str) -> int:
    """CommonMark lines: LF, CR LF and CR each end one."""
    return text.count("\n") + text.count("\r") - text.count("\r\n") + 1


def _fenced(text: str, kind: Kind) -> _Stage:
    if _FENCE_HINT.search(text) is None:  # no json fence can open: skip the Markdown parse
        return _NO_FENCE
    lines = _line_count(text)
    if lines > MARKDOWN_LINE_LIMIT:
        message = f"not read as Markdown: {lines} lines, over the limit of {MARKDOWN_LINE_LIMIT}"
        return Attempt("fenced", "absent", message), None, ()
    # Loaded here: a response without a json fence never needs the Markdown parser.
    from markdown_it.common.utils import unescapeAll

    from kernel.text.markdown import block_tokens

    for token in block_tokens(text):
        words = unescapeAll(token.info).split()
        if token.type != "fence" or not words:
            continue
        word = words[0]
        if not (word.isascii() and word.lower() == "json"):
            continue
        content = token.content
        first = 1 if token.map is None else token.map[0] + 2  # the line after the opening fence
        start = _skip_ws(content, 0)
        decoded = _decode_at(content, start, whole=True)
        if decoded.error is None:
            decoded = attrs.evolve(decoded, line=_line_of(content, start))
        return _check("fenced", decoded, kind, first - 1)
    return _NO_FENCE


def _extent(text: str, pos: int) -> int:
    """Where the candidate object at ``pos`` ends: after its closing brace when its syntax is
    JSON (whatever the strict hooks say about duplicate keys or NaN), else where the syntax
    breaks; everything from ``pos`` up to there is inside it."""
    try:
        return int(_SYNTAX_ONLY.raw_decode(text, pos)[1])
    except json.JSONDecodeError as exc:
        return max(exc.pos, pos + 1)
    except RecursionError:
        return len(text)


def _first_object(text: str, kind: Kind) -> _Stage:
    tried = 0
    first_failure = ""
    # Only a '{' followed by optional whitespace and '"' or '}' can begin an object, so the
    # other '{' need no decoding; the budget bounds the work on adversarial text. A '{' inside
    # an earlier candidate is never a candidate: the search goes on after that one's extent.
    pos = 0
    while (match := _OBJECT_START.search(text, pos)) is not None:
        if tried == FIRST_OBJECT_BUDGET:
            message = f"gave up after {tried} candidate '{{' positions{first_failure}"
            return Attempt("first_object", "absent", message), None, ()
        tried += 1
        start = match.start()
        decoded = _decode_at(text, start, whole=False)
        if decoded.error is None:
            return _check(
                "first_object", attrs.evolve(decoded, line=_line_of(text, start)), kind, 0
            )
        if not first_failure:
            first_failure = f"; the first, at line {_line_of(text, start)}: {decoded.error}"
        pos = _extent(text, start)
    message = (
        "no '{' that could start a JSON object"
        if tried == 0
        else f"none of the {tried} candidate '{{' positions starts a strict JSON object"
        f"{first_failure}"
    )
    return Attempt("first_object", "absent", message), None, ()


def parse_response(
    text: str, kind: str, strict_json: bool = False, *, max_bytes: int = MAX_INPUT_BYTES
) -> ParseResult:
    """Parse a model's ``kind`` response: strict, then fenced ``json`` block, then first object.

    Each stage decodes with the one strict decoder (no duplicate keys, NaN or Infinity) and then
    checks the kind's schema; a stage failing either way hands on to the next. ``strict_json``
    stops after the first stage. Raises ``KernelError`` only for a non-string ``text``, an
    unknown ``kind``, a non-bool ``strict_json`` or a text over the input size limit.
    """
    known = check_kind(kind)
    if not isinstance(text, str):
        raise KernelError(f"response text must be a str, got {type(text).__name__}")
    if not isinstance(strict_json, bool):
        raise KernelError(f"strict_json must be a bool, got {type(strict_json).__name__}")
    check_size(text, source="response", max_bytes=max_bytes)
    stages = (_strict,) if strict_json else (_strict, _fenced, _first_object)
    attempts: list[Attempt] = []
    for stage in stages:
        attempt, response, notes = stage(text, known)
        attempts.append(attempt)
        if response is not None:
            return ParseResult(known, attempt.method, response, tuple(attempts), notes)
    return ParseResult(known, None, None, tuple(attempts))
