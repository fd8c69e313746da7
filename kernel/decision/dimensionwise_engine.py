"""The compiled fast path of the dialect 13.2 decision: one generated function per contract.

As for Schema 13 (:mod:`kernel.decision.engine`), the work is done once per contract. Each
dimension's row (its eligible seats' values, in seat order) has only a few hundred possible
values; a table maps each to an *entry*: the number of assessed seats, how many of them are
in each seat set the atoms that select the dimension test (atoms merged as in
:class:`~kernel.decision.dimensionwise.Plan`), and the dimension's verdict. Dimensions with
the same values, seats and seat sets share one table, and the tables' work is capped
(:data:`MAX_TABLE_WORK`): past the cap, or past the 13 engine's ``MAX_SOURCE``, the
interpreter (the slow path) decides, with the same results. The generated
function reads each row with one table look-up and returns the decision kept for that
combination of entries, computed (trace included) on first need by the slow path's own
arithmetic. It takes only a plain ``dict`` of ``dict`` rows holding the eligible seats (and
ineligible roles saying ``not_assessed``), each an exact ``str``; anything else returns
``None`` and goes to
:func:`~kernel.decision.dimensionwise.decide_dimensionwise`, which names the problem.
"""

from __future__ import annotations

import functools
import itertools
import linecache
import weakref
from collections.abc import Callable
from typing import Any, Final

from kernel.contract.model import Contract
from kernel.decision.dimensionwise import (
    NOT_ASSESSED,
    VERDICTS,
    Plan,
    allowed_values,
    eligibility,
    plan_of,
    planned_decision,
    verdict_rank,
)
from kernel.decision.value import Decision, held_weakly
from kernel.errors import ContractError

__all__ = [
    "DECISIONS_MAX",
    "MAX_ROWS",
    "MAX_TABLE_WORK",
    "STORE_CELLS",
    "build_lookup",
    "table_work",
]

#: A dimension with more possible rows than this is decided on the slow path.
MAX_ROWS: Final = 1 << 12
#: The most rows of row tables built for one contract (about 0.6 µs each), summed over its
#: distinct tables: dimensions with the same values, seats and seat sets share one. A contract
#: over it is decided by the interpreter (the slow path), with the same results.
MAX_TABLE_WORK: Final = 1 << 18
#: Decisions kept per contract (one per combination of entries met) when there are more
#: combinations than :data:`DENSE_MAX`; up to that many, every one has its slot in a list.
DECISIONS_MAX: Final = 1 << 17
DENSE_MAX: Final = 1 << 20
#: The most per-dimension counts the kept decisions' traces hold together: a contract whose
#: one trace is large keeps fewer decisions (each further one is computed when met).
STORE_CELLS: Final = 1 << 21

#: (assessed seats, satisfying seats per seat set read at the dimension, verdict index)
_Entry = tuple[int, tuple[int, ...], int]


def _values(priority: str) -> tuple[str, ...]:
    return (*allowed_values(priority), NOT_ASSESSED)


@functools.lru_cache(maxsize=64)
def _table(
    values: tuple[str, ...], seats: int, sets: tuple[frozenset[str], ...]
) -> tuple[dict[Any, int], tuple[_Entry, ...]]:
    """Every row of ``seats`` values to its entry's index, and the entries: shared by every
    dimension (of any contract) with the same values, seats and seat sets read."""
    entries: dict[_Entry, int] = {}
    table: dict[Any, int] = {}
    by_multiset: dict[tuple[str, ...], int] = {}
    for row in itertools.product(values, repeat=seats):
        key = tuple(sorted(row))
        index = by_multiset.get(key)
        if index is None:
            assessed = [v for v in row if v != NOT_ASSESSED]
            if not assessed:
                continue
            entry = (
                len(assessed),
                tuple(sum(v in s for v in assessed) for s in sets),
                max(verdict_rank(v) for v in assessed),
            )
            index = by_multiset[key] = entries.setdefault(entry, len(entries))
        table[row] = index
    return table, tuple(entries)


def _keys(contract: Contract, plan: Plan) -> list[tuple[tuple[str, ...], int, Any]]:
    return [
        (
            _values(d.priority),
            len(d.eligible_roles),
            tuple(plan.seat_sets[s] for s in plan.reads[d.position]),
        )
        for d in contract.dimensions
    ]


def table_work(contract: Contract) -> int:
    """The work of building the contract's row tables (see :data:`MAX_TABLE_WORK`)."""
    return sum(len(values) ** seats for values, seats, _ in set(_keys(contract, plan_of(contract))))


def build_lookup(
    contract: Contract, *, max_source: int
) -> tuple[Callable[[Any], Decision | None] | None, str]:
    """The generated lookup and its source, or ``(None, "")`` when the contract is decided
    by the interpreter only: refused by it, a dimension with more than :data:`MAX_ROWS` rows,
    tables over :data:`MAX_TABLE_WORK` or a source over ``max_source`` characters (the 13
    engine passes its ``MAX_SOURCE``)."""
    try:
        eligibility(contract)
    except ContractError:
        return None, ""
    dims = contract.dimensions
    seats = [[r for r in contract.roles if r in d.eligible_roles] for d in dims]
    plan = plan_of(contract)
    keys = _keys(contract, plan)
    if max(len(values) ** k for values, k, _ in keys) > MAX_ROWS:
        return None, ""
    if table_work(contract) > MAX_TABLE_WORK:
        return None, ""
    tables, entries = zip(*(_table(*key) for key in keys), strict=True)
    weights = []
    weight = 1
    for found in entries:
        weights.append(weight)
        weight *= len(found)
    dense = weight <= DENSE_MAX
    # Each table gives its entry already weighted by its place in the decision index.
    tables = tuple(
        {(row[0] if len(row) == 1 else row): e * w for row, e in table.items()}
        for table, w in zip(tables, weights, strict=True)
    )
    body = [
        "def make("
        + ", ".join(f"T{p}" for p in range(len(dims)))
        + ", "
        + ", ".join(f"E{p}" for p in range(len(dims)))
        + ", D, fill, X):",
        "    def lookup(m):",
        # Keys are exact strs before any look-up: a caller's key is never hashed or compared.
        # (Loops, not map(type, ...): cheaper on rows of a few keys.)
        f"        if type(m) is not dict or len(m) != {len(dims)}:",
        "            return None",
        "        for k in m:",
        "            if type(k) is not str:",
        "                return None",
        "        try:",
    ]
    for p, (d, s) in enumerate(zip(dims, seats, strict=True)):
        names = [f"v{p}_{k}" for k in range(len(s))]
        body.append(f"            r = m[{d.id!r}]")
        # More keys than seats: ineligible roles saying not_assessed, or the slow path.
        body.append("            if type(r) is not dict:")
        body.append("                return None")
        body.append("            for k in r:")
        body.append("                if type(k) is not str:")
        body.append("                    return None")
        body.append(f"            if len(r) != {len(s)} and not X(r, E{p}):")
        body.append("                return None")
        for name, role in zip(names, s, strict=True):
            body.append(f"            {name} = r[{role!r}]")
        checks = " or ".join(f"type({n}) is not str" for n in names)
        body.append(f"            if {checks}:")
        body.append("                return None")
        # A one-seat row is looked up by its value, a longer one by the tuple of values.
        key = names[0] if len(names) == 1 else f"({', '.join(names)})"
        body.append(f"            i {'=' if p == 0 else '+='} T{p}[{key}]")
    body += [
        "        except (KeyError, TypeError):",
        "            return None",
        "        return D[i] or fill(i)" if dense else "        return D.get(i) or fill(i)",
        "    return lookup",
    ]
    source = "\n".join(body) + "\n"
    if len(source) > max_source:
        return None, ""
    filename = f"<kernel lookup 13.2 {contract.contract_id} {hash(source) & (1 << 48) - 1:012x}>"
    namespace: dict[str, Any] = {}
    exec(compile(source, filename, "exec"), namespace)  # only validated ids and role names
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    store: list[Decision | None] | dict[int, Decision] = [None] * weight if dense else {}
    keep = min(DECISIONS_MAX, max(1, STORE_CELLS // max(1, plan.cells)))
    kept = [0]
    ref = weakref.ref(contract)

    def fill(index: int) -> Decision | None:
        live = ref()
        if live is None:  # pragma: no cover - the lookup is reached through its contract
            return None
        chosen = [found[index // w % len(found)] for found, w in zip(entries, weights, strict=True)]
        decision: Decision = held_weakly(
            planned_decision(
                live,
                plan,
                [e[0] for e in chosen],
                [e[1] for e in chosen],
                {d.id: VERDICTS[e[2]] for d, e in zip(live.dimensions, chosen, strict=True)},
            )
        )
        if kept[0] < keep:
            store[index] = decision
            kept[0] += 1
        return decision

    eligible = [frozenset(s) for s in seats]
    roles = frozenset(contract.roles)

    def abstaining_others(row: dict[Any, Any], mine: frozenset[str]) -> bool:
        """Whether every key of ``row`` outside ``mine`` is another role of the mode saying
        exactly ``not_assessed``."""
        return all(
            key in mine or (key in roles and type(value) is str and value == NOT_ASSESSED)
            for key, value in row.items()
        )

    lookup = namespace["make"](*tables, *eligible, store, fill, abstaining_others)
    return lookup, source

