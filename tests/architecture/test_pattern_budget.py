"""Linear time by construction (issue 30): every compiled regex the ``kernel`` package holds
runs in linear time on long runs of each ASCII punctuation and whitespace character, alone
and after each of the pattern's literal prefixes, with ``search``, ``match`` and
``fullmatch``.

The budget (docs/testing.md, "The pattern budget") is a ratio, not a speed: a call over
64 KB that takes under :data:`FAST` of CPU passes; a slower one is measured again at 32 KB
and 64 KB (the best of two runs each) and fails when it costs more than :data:`CAP`, or
more than :data:`RATIO` times the 32 KB cost (a linear pattern doubles, a quadratic one
quadruples). A loaded machine slows both sizes alike.
"""

from __future__ import annotations

import functools
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support.patterns import SHIMS, Pattern, collect, distinct_chars, methods_used, prefixes

from kernel.reviewer.lint.spans import sub_closed

SIZE = 64 * 1024
#: Each input is also tried with this after the run: a run that ends the text lets
#: ``x\S.*?\s*`` (under ``fullmatch``) succeed at once; one more letter makes it backtrack.
TAIL = "a"
#: CPU seconds under which a 64 KB call needs no second look.
FAST = 0.04
#: CPU seconds no 64 KB call may take.
CAP = 1.0
#: The most a 64 KB call may cost over a 32 KB one.
RATIO = 3.0
#: The fewest patterns the walk must find (397 when this was written): a walk that silently
#: finds nothing fails here.
MINIMUM = 350

#: (pattern source, flags) → why it is not held to the budget.
EXEMPT: dict[tuple[str | bytes, int], str] = {
    (r"(^|/)(contracts?/.*|.*\.contract)\.json$", re.UNICODE): (
        "kernel.cli.check.HOOK_FILES reads file paths, never a document (the system bounds a "
        "path to a few KB: 4 KB of '/' costs about 30 ms), and must equal the pre-commit "
        "hook's files: pattern in .pre-commit-hooks.yaml character for character"
    ),
}

#: Patterns the kernel only ever runs through a helper, held to the budget as they are run.
THROUGH: dict[str, Callable[[Any, str], object]] = {
    "kernel.reviewer.lint.da_tables._LINK": lambda p, t: sub_closed(
        p, r"\1", t, {"[": "]", "(": ")"}
    ),
    "kernel.reviewer.lint.da_tables._TAG": lambda p, t: sub_closed(p, "", t, {"<": ">"}),
}

PATTERNS = collect()


def _cpu(call: Callable[[], object]) -> float:
    start = time.process_time()
    call()
    return time.process_time() - start


def _calls(pattern: Pattern, where: str) -> list[tuple[str, Callable[[int], object]]]:
    """(what, call over a text of n characters) for every input and method used."""
    out: list[tuple[str, Callable[[int], object]]] = []
    heads = ["", *prefixes(pattern)]
    raw = isinstance(pattern.pattern, bytes)
    used = methods_used(where)
    methods: list[Callable[[Any], object]] = [
        getattr(pattern, m) for m in ("search", "match", "fullmatch") if m in used
    ]
    if where in THROUGH:
        methods = [functools.partial(THROUGH[where], pattern)]
    for char in distinct_chars(pattern):
        for head in heads:
            for tail in ("", TAIL):
                for method in methods:

                    def call(
                        n: int,
                        method: Callable[..., object] = method,
                        text: tuple[str, str, str] = (head, char, tail),
                    ) -> object:
                        made = text[0] + text[1] * n + text[2]
                        return method(made.encode("latin-1") if raw else made)

                    name = getattr(method, "__name__", "through")
                    out.append((f"{name}({head!r} + {char!r} * n + {tail!r})", call))
    return out


def _growth(call: Callable[[int], object]) -> str | None:
    """Why ``call`` is not linear, or ``None``. An 8 KB call comes first, so a quadratic
    one fails in well under a second instead of running for minutes at 64 KB."""
    small = _cpu(lambda: call(SIZE // 8))
    if small > CAP:
        return f"{small:.3f} s at 8 KB"
    if small < FAST / 16 and _cpu(lambda: call(SIZE)) < FAST:
        return None  # quadratic growth from 8 KB would have cost more
    for n in (SIZE // 4, SIZE // 2, SIZE):
        big = min(_cpu(functools.partial(call, n)) for _ in range(2))
        if big > CAP:
            return f"{big:.3f} s at {n // 1024} KB"
        if big > FAST:
            half = min(_cpu(functools.partial(call, n // 2)) for _ in range(2))
            if big > RATIO * max(half, FAST / RATIO):
                return f"{half:.3f} s at {n // 2048} KB, {big:.3f} s at {n // 1024} KB"
    return None


def _slow(pattern: Pattern, where: str) -> list[str]:
    slow: list[str] = []
    for what, call in _calls(pattern, where):
        why = _growth(call)
        if why is not None:
            slow.append(f"{what}: {why}")
    return slow


def test_the_walk_finds_every_pattern() -> None:
    assert len(PATTERNS) >= MINIMUM
    sources = {where.split("[")[0].rsplit(".", 1)[0] for _, where in PATTERNS.values()}
    # A pattern from each corner of the package: module globals, a lint table, a table
    # built on first need, and one written inline in a call.
    assert "kernel.reviewer.lint.phase2_v2._SCORE_FIELDS" in {
        where.split("[")[0] for _, where in PATTERNS.values()
    }
    assert any(where.endswith("()") or "()." in where for _, where in PATTERNS.values())
    assert any(":" in where.split(".")[-1] for _, where in PATTERNS.values())
    assert "kernel.text.injection" in {s.rsplit(".", 1)[0] for s in sources} | sources
    assert set(EXEMPT) <= set(PATTERNS)
    assert SHIMS  # read from source, never imported


@pytest.mark.parametrize("where", sorted(THROUGH))
def test_a_pattern_run_through_a_helper_is_never_run_directly(where: str) -> None:
    module, name = where.rsplit(".", 1)
    source = Path(__import__(module, fromlist=["_"]).__file__ or "").read_text(encoding="utf-8")
    direct = re.compile(rf"\b{name}\.(?:search|match|fullmatch|sub|subn|findall|finditer|split)\(")
    assert direct.search(source) is None
    assert where in {w for _, w in PATTERNS.values()}


@pytest.mark.parametrize(
    "key", [k for k in PATTERNS if k not in EXEMPT], ids=lambda k: PATTERNS[k][1]
)
def test_each_pattern_is_linear_on_long_runs(key: tuple[str | bytes, int]) -> None:
    pattern, where = PATTERNS[key]
    assert _slow(pattern, where) == [], f"{where}: {pattern.pattern!r}"
