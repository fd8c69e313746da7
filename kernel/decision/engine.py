"""The compiled fast path of :func:`kernel.decide`: one generated function per contract.

Like ``attrs`` generating ``__init__``, the kernel writes a small Python function for each
contract when it is first decided on, and registers its source with :mod:`linecache` so that
tracebacks and debuggers show it. Each matrix row (one dimension, all reviewers) becomes four
reviewer bitmasks — bit *j* is reviewer *j* — for ``pass``, ``warn``, ``block`` and ``warn or
worse``, by one table look-up. Every atom then writes its own bitmask source
(:meth:`kernel.expression.ast.AnyScores.mask` and its siblings): integer ``&``/``|`` over the
whole panel at once (R3: all atoms of an expression hold for the same reviewer, which is the
same bit). ``int.bit_count`` gives the reviewer counts, and the counts select a precomputed
:class:`~kernel.decision.value.Decision`.

The generated function returns ``None`` for anything it does not recognise (not a plain
``dict``, a missing or extra dimension, a row of the wrong type or length, a score outside the
vocabulary, a count vector with no decision); the caller then takes the slow path, which
names the problem. Only validated values reach the generated source: dimension ids
(``D1``…``D99``) and integers. The engines live here, keyed by the contract object, not on
the contract value.
"""

from __future__ import annotations

import hashlib
import itertools
import linecache
import weakref
from collections.abc import Callable
from typing import Any, Final

import attrs

from kernel.contract.model import Contract
from kernel.decision.value import Decision, decide_counts
from kernel.errors import ContractError
from kernel.expression.ast import SCORE_RANK, SCORES, Lane, MaskWriter

__all__ = ["DECISIONS_MAX", "MAX_PANEL", "Engine", "Lookup", "engine_for", "lookup_source"]

#: The row table has 3**panel_size entries; larger panels use the slow path.
MAX_PANEL: Final = 9
#: Precompute every decision when there are at most this many count vectors.
DECISIONS_MAX: Final = 20_000

Lookup = Callable[[Any], "Decision | None"]


@attrs.frozen
class Engine:
    #: The generated fast path, or ``None`` for panels over :data:`MAX_PANEL`.
    lookup: Lookup | None
    #: Its Python source (empty without a fast path).
    source: str = attrs.field(repr=False)


_ENGINES: dict[int, Engine] = {}


def engine_for(contract: Contract) -> Engine:
    """The contract's engine, built on first use and dropped with the contract."""
    engine = _ENGINES.get(id(contract))
    if engine is None:
        engine = _ENGINES[id(contract)] = _build(contract)
        weakref.finalize(contract, _ENGINES.pop, id(contract), None)
    return engine


def _row_table(n: int) -> dict[tuple[str, ...], tuple[int, int, int, int]]:
    table: dict[tuple[str, ...], tuple[int, int, int, int]] = {}
    for ranks in itertools.product(range(3), repeat=n):
        lanes = [0, 0, 0, 0]
        for j, r in enumerate(ranks):
            lanes[r] |= 1 << j
            if r >= SCORE_RANK["warn"]:
                lanes[Lane.WORSE] |= 1 << j
        table[tuple(SCORES[r] for r in ranks)] = (lanes[0], lanes[1], lanes[2], lanes[3])
    return table


def _resolver(contract: Contract) -> Callable[[tuple[int, ...]], Decision | None]:
    def resolve(counts: tuple[int, ...]) -> Decision | None:
        try:
            return decide_counts(contract, counts)
        except ContractError:
            return None

    return resolve


def lookup_source(contract: Contract, *, precomputed: bool) -> str:
    """The generated function's source: ``lookup(matrix) -> Decision | None``."""
    n = contract.panel_size
    width = n.bit_length()
    out = MaskWriter(full=(1 << n) - 1)
    counts = []
    for i, condition in enumerate(contract.conditions):
        atoms = condition.expression.atoms
        masks = [
            atom.mask(scope, out)
            for atom, scope in zip(atoms, condition.predicate.scopes, strict=True)
        ]
        held = out.fold("&", masks, str(out.full))
        out.emit(f"c{i} = ({held}).bit_count()")
        counts.append(f"c{i}")
    dims = contract.dimensions
    lines = [
        "def lookup(matrix):",
        f"    if type(matrix) is not dict or len(matrix) != {len(dims)}:",
        "        return None",
        "    try:",
    ]
    for d in dims:
        p = d.position
        lines.append(f"        q = matrix[{d.id!r}]")
        lines.append("        if type(q) is not list and type(q) is not tuple:")
        lines.append("            return None")
        names = ", ".join(f"m{p}_{w}" if (p, w) in out.read else "_" for w in range(4))
        # A row no predicate reads is still looked up: that checks its length and scores.
        lines.append(f"        {names} = row(tuple(q))")
    lines += ["    except (KeyError, TypeError):", "        return None"]
    lines += [f"    {line}" for line in out.lines]
    if precomputed:
        key = " | ".join(f"({c} << {i * width})" for i, c in enumerate(counts))
        lines.append(f"    return decisions.get({key})")
    else:
        lines.append(f"    return resolve(({', '.join(counts)},))")
    return "\n".join(lines) + "\n"


def _build(contract: Contract) -> Engine:
    n = contract.panel_size
    if n > MAX_PANEL:
        return Engine(None, "")
    k = len(contract.conditions)
    width = n.bit_length()
    resolve = _resolver(contract)
    decisions: dict[int, Decision | None] | None = None
    if (n + 1) ** k <= DECISIONS_MAX:
        decisions = {
            sum(c << (i * width) for i, c in enumerate(counts)): resolve(counts)
            for counts in itertools.product(range(n + 1), repeat=k)
        }
    source = lookup_source(contract, precomputed=decisions is not None)
    digest = hashlib.sha256(source.encode()).hexdigest()[:12]
    filename = f"<kernel lookup {contract.contract_id} {digest}>"
    namespace: dict[str, Any] = {
        "row": _row_table(n).__getitem__,
        "decisions": decisions,
        "resolve": resolve,
    }
    # The source holds only validated ids and integers.
    exec(compile(source, filename, "exec"), namespace)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    lookup: Lookup = namespace["lookup"]
    return Engine(lookup, source)
