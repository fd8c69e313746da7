"""Hostile inputs for the "no escapes" suites: arbitrary JSON, mutated documents, the careless
Python objects a caller may hand the API, and an in-process CLI runner that checks the
promise (exit 0, 1 or 2, never a traceback).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import re
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from support.paths import CORPUS

__all__ = [
    "CORPUS_TEXTS",
    "HUGE",
    "JSON",
    "KEYS",
    "LEAVES",
    "OBJECTS",
    "Inventing",
    "Main",
    "anything",
    "call_cli",
    "deep",
    "dump",
    "mutated",
    "mutated_text",
    "texts",
]

#: Keys the kernel's documents use: mutations and arbitrary objects hit real fields this way.
KEYS = [
    "specialists", "findings", "id", "originator", "votes", "severity", "withdrawn",
    "verdicts", "participants", "round", "critiques", "approve", "critical", "objections",
    "missing", "edits", "confidence", "candidate", "previous_candidate", "max_rounds",
    "approval_ratio", "change_threshold", "event", "timestamp", "round_index", "config",
    "contract_id", "panel_size", "dimensions", "conditions", "priority", "expression",
    "action", "quantifier", "baseline_version", "scoring_plan_schema", "pass", "warn", "block",
    "title", "field", "word_count", "D1", "F1",
]  # fmt: skip
#: Larger than Python's 4,300-digit int/str conversion limit.
HUGE = 10**5000
LEAVES: st.SearchStrategy[Any] = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([2**64, -1, 0])
    | st.integers(4300, 5000).map(lambda k: 10**k)
    | st.integers(4300, 5000).map(lambda k: -(10**k))
    | st.floats()  # NaN and infinities included: Python's json writes and reads them
    | st.text(max_size=6)
    | st.sampled_from(
        [
            *["\ud800", "SEC", "Agree", "Challenge", "Critical", "Revise", "0.67", "2/3", "1/0"],
            *["pass", "warn", "block", "mandatory", "high", "any", "majority", "all"],
            *["reviewer/full", "v3.6.7", "D1 scores 'block'"],
        ]
    )
)
#: Arbitrary JSON values (as Python's ``json`` module reads them).
JSON: st.SearchStrategy[Any] = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.sampled_from(KEYS), inner, max_size=5)
    ),
    max_leaves=20,
)


class Inventing(Mapping[str, Any]):
    """A careless mapping: it lists ``keys`` but answers any key with ``value``."""

    def __init__(self, keys: Sequence[str], value: Any) -> None:
        self._keys = list(keys)
        self._value = value

    def __getitem__(self, key: str) -> Any:
        return copy.deepcopy(self._value)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def _generator(items: list[Any]) -> Iterator[Any]:
    yield from items


def _inventing_default(value: Any) -> defaultdict[str, Any]:
    return defaultdict(lambda: copy.deepcopy(value))


#: Non-JSON objects a careless caller passes: containers of the wrong kind, bytes, generators,
#: mappings that make up values, huge numbers and NaN.
OBJECTS: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([None, b"bytes", b"\xff", object(), math.nan, math.inf, ..., len]),
    st.builds(set, st.lists(st.text(max_size=3), max_size=3)),
    st.builds(frozenset, st.lists(st.integers(), max_size=3)),
    st.builds(tuple, st.lists(JSON, max_size=3)),
    st.builds(_generator, st.lists(JSON, max_size=3)),
    st.builds(_inventing_default, JSON),
    st.builds(Inventing, st.lists(st.sampled_from(KEYS) | st.text(max_size=3), max_size=4), JSON),
    st.builds(bytearray, st.binary(max_size=4)),
)


def anything() -> st.SearchStrategy[Any]:
    """Arbitrary JSON or a careless Python object."""
    return JSON | OBJECTS


def _paths(doc: Any) -> list[list[Any]]:
    """Every path to a node of ``doc`` (including the root, ``[]``)."""
    found: list[list[Any]] = [[]]
    stack: list[tuple[list[Any], Any]] = [([], doc)]
    while stack:
        path, node = stack.pop()
        keys: list[Any] = (
            sorted(node) if isinstance(node, dict) else list(range(len(node)))
            if isinstance(node, list)
            else []
        )
        for key in keys:
            found.append([*path, key])
            stack.append(([*path, key], node[key]))
    return found


@st.composite
def mutated(draw: st.DrawFn, document: Any, values: st.SearchStrategy[Any] = JSON) -> Any:
    """``document`` (JSON) with one to three edits: a node replaced by ``values``, a key
    dropped, a key renamed, or a list item dropped or repeated."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(_paths(doc)))
        if not path:
            return draw(values)
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        how = draw(st.sampled_from(["replace", "replace", "drop", "rename", "repeat"]))
        if how == "replace":
            parent[key] = draw(values)
        elif how == "drop":
            del parent[key]
        elif how == "rename" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6) | st.sampled_from(KEYS))] = parent.pop(key)
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
    return doc


#: The adversarial reviewer documents, as text.
CORPUS_TEXTS = tuple(
    p.read_text(encoding="utf-8") for p in sorted(CORPUS.glob("*.md"))
)
_NASTY = ["\ud800", "\x00", "\u2028", "\ufeff", "\r", "```", "<!--", "# ", "## Scoring Plan"]


@st.composite
def mutated_text(draw: st.DrawFn, text: str) -> str:
    """``text`` with one to four line edits: deleted, repeated, swapped with another line,
    a line of arbitrary text inserted, or a character cut or replaced by a nasty one."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, max(len(lines) - 1, 0)))
        how = draw(st.integers(0, 4))
        if not lines:
            lines = [draw(st.text(max_size=20))]
        elif how == 0:
            del lines[i]
        elif how == 1:
            lines.insert(i, lines[i])
        elif how == 2:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif how == 3:
            lines.insert(i, draw(st.text(max_size=20) | st.sampled_from(_NASTY)))
        else:
            k = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:k] + draw(st.sampled_from(["", *_NASTY])) + lines[i][k + 1 :]
    return "\n".join(lines)


def texts(*documents: str) -> st.SearchStrategy[str]:
    """Arbitrary text, the given documents and the corpus, each as is or mutated."""
    sources = st.sampled_from([*documents, *CORPUS_TEXTS])
    return st.one_of(
        st.text(max_size=200), sources, sources.flatmap(mutated_text)
    )


def deep(depth: int) -> str:
    """A placeholder that :func:`dump` turns into ``depth`` nested arrays (built as text: the
    test's own ``json.dumps`` would run out of stack first)."""
    return f"<deep {depth}>"


def dump(document: Any) -> str:
    """``document`` as JSON text, :func:`deep` placeholders expanded."""
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # the test writes huge integers; the kernel must refuse them
    try:
        text = json.dumps(document)
    finally:
        sys.set_int_max_str_digits(limit)
    return re.sub(
        r'"<deep (\d+)>"', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), text
    )


Main = Callable[[Sequence[str] | None], int]


def call_cli(main: Main, argv: Sequence[str], files: Mapping[str, str], workdir: Path) -> int:
    """Run ``main(argv)`` in-process under the scaffold's ``run``, each ``files`` name in
    ``argv`` replaced by a file in ``workdir`` holding its text (lone surrogates written as
    is, so the file is not UTF-8). Standard output and error are strict UTF-8 streams, as a
    real terminal's are. Asserts the CLI promise and returns the exit code."""
    from kernel.cli.scaffold import run

    paths = {}
    for name, content in files.items():
        path = workdir / name
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
        paths[name] = str(path)
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = run(main, [paths.get(a, a) for a in argv])
        except SystemExit as exc:  # argparse's way out: the process would exit with this
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    out.flush()
    err.flush()
    text = out.buffer.getvalue() + err.buffer.getvalue()
    assert code in (0, 1, 2), (argv, code, text[-2000:])
    assert b"Traceback" not in text, (argv, text[-2000:])
    return code
