"""The compiled fast path of :func:`kernel.decide`: one generated function per contract.

Like ``attrs`` generating ``__init__``, the kernel writes a small Python function for each
contract when it is first decided on. Each matrix row (one dimension, all reviewers) becomes
four reviewer bitmasks — bit *j* is reviewer *j* — for ``pass``, ``warn``, ``block`` and
``warn or worse``, by one table look-up. Every predicate is then a few integer ``&``/``|``
operations over the whole panel at once (R3: all atoms of an expression hold for the same
reviewer, which is the same bit), ``int.bit_count`` gives the reviewer counts, and the
counts select a precomputed :class:`~kernel.decision.Decision`.

The generated function returns ``None`` for anything it does not recognise (a missing or
extra dimension, a row of the wrong type or length, a score outside the vocabulary, a count
vector with no decision); the caller then takes the slow path, which names the problem.
Only validated values reach the generated source: dimension ids (``D1``…``D99``) and
integers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from kernel.ast import SCORE_RANK, SCORES, AnyScores, Atom, DimensionScores, EveryScores

if TYPE_CHECKING:
    from kernel.decision import Decision
    from kernel.model import Contract

__all__ = ["MAX_PANEL", "Lookup", "compile_lookup"]

#: The row table has 3**panel_size entries; larger panels use the slow path.
MAX_PANEL: Final = 9

Lookup = Callable[[Any], "Decision | None"]

_PASS, _WARN, _BLOCK, _WORSE = range(4)
_LANE_NAMES: Final = ("p", "w", "b", "g")


def _row_table(n: int) -> dict[tuple[str, ...], tuple[int, int, int, int]]:
    table: dict[tuple[str, ...], tuple[int, int, int, int]] = {}
    for ranks in itertools.product(range(3), repeat=n):
        lanes = [0, 0, 0, 0]
        for j, r in enumerate(ranks):
            lanes[r] |= 1 << j
            if r >= SCORE_RANK["warn"]:
                lanes[_WORSE] |= 1 << j
        table[tuple(SCORES[r] for r in ranks)] = (lanes[0], lanes[1], lanes[2], lanes[3])
    return table


def _atom_source(
    atom: Atom, positions: Sequence[int], full: int, read: set[tuple[int, int]]
) -> str:
    """A Python expression for the reviewers (as a bitmask) for whom ``atom`` holds."""

    def lane(p: int, which: int) -> str:
        read.add((p, which))
        return f"{_LANE_NAMES[which]}{p}"

    rank = SCORE_RANK[atom.score]
    if isinstance(atom, AnyScores | DimensionScores):
        return "(" + (" | ".join(lane(p, rank) for p in positions) or "0") + ")"
    if isinstance(atom, EveryScores):
        return "(" + (" & ".join(lane(p, rank) for p in positions) or str(full)) + ")"
    # TwoOrMore: some pair of the scoped dimensions both score `score` or worse.
    if rank == SCORE_RANK["pass"]:
        return str(full) if len(positions) >= 2 else "0"
    which = _WORSE if rank == SCORE_RANK["warn"] else _BLOCK
    names = [lane(p, which) for p in positions]
    pairs = [f"{a} & {b}" for i, a in enumerate(names) for b in names[i + 1 :]]
    return "(" + (" | ".join(pairs) or "0") + ")"


def compile_lookup(
    contract: Contract,
    decisions: Mapping[int, Decision | None] | None,
    width: int,
    resolve: Callable[[tuple[int, ...]], Decision | None],
) -> Lookup | None:
    """The generated ``matrix → Decision | None`` for ``contract``, or ``None`` when the panel
    is over :data:`MAX_PANEL`.

    ``decisions`` maps count vectors packed ``width`` bits per condition to decisions (or is
    ``None`` when there are too many to precompute, and ``resolve`` is called instead).
    """
    n = contract.panel_size
    if n > MAX_PANEL:
        return None
    full = (1 << n) - 1
    by_priority: dict[str, list[int]] = {}
    for d in contract.dimensions:
        by_priority.setdefault(d.priority, []).append(d.position)
    index = {d.id: d.position for d in contract.dimensions}

    read: set[tuple[int, int]] = set()
    counts = []
    for i, condition in enumerate(contract.conditions):
        terms = [
            _atom_source(
                atom,
                [index[atom.dimension]]
                if isinstance(atom, DimensionScores)
                else by_priority.get(atom.priority, []),
                full,
                read,
            )
            for atom in condition.expression.atoms
        ]
        counts.append(f"    c{i} = ({' & '.join(terms)}).bit_count()")
    names = [f"c{i}" for i in range(len(contract.conditions))]
    if decisions is not None:
        key = " | ".join(f"({c} << {i * width})" for i, c in enumerate(names))
        tail = f"    return decisions.get({key})"
    else:
        tail = f"    return resolve(({', '.join(names)},))"

    dims = contract.dimensions
    lines = [
        "def lookup(matrix):",
        "    try:",
        f"        if len(matrix) != {len(dims)}:",
        "            return None",
    ]
    lines += [f"        q{d.position} = matrix[{d.id!r}]" for d in dims]
    lines += [
        "        if not ("
        + " and ".join(
            f"(type(q{d.position}) is list or type(q{d.position}) is tuple)" for d in dims
        )
        + "):",
        "            return None",
    ]
    for d in dims:
        p = d.position
        targets = ", ".join(f"{_LANE_NAMES[w]}{p}" if (p, w) in read else "_" for w in range(4))
        # A row no predicate reads is still looked up: that checks its length and scores.
        lines.append(f"        {targets} = row(tuple(q{p}))")
    lines += ["    except (KeyError, TypeError, ValueError):", "        return None"]
    lines += counts
    lines.append(tail)
    namespace: dict[str, Any] = {
        "row": _row_table(n).__getitem__,
        "decisions": decisions,
        "resolve": resolve,
    }
    exec("\n".join(lines), namespace)  # the source holds only validated ids and integers
    lookup: Lookup = namespace["lookup"]
    return lookup
