"""The compiled fast path of the dialect 13.2 decision: one generated function per contract.

As for Schema 13 (:mod:`kernel.decision.engine`), the work is done once per contract. Each
dimension's row (its eligible seats' values, in seat order) has only a few hundred possible
values; a table maps each to an *entry*: the number of assessed seats, how many of them
satisfy each atom that selects the dimension, and the dimension's verdict. The generated
function reads each row with one table look-up and returns the decision kept for that
combination of entries, computed (trace included) on first need by the slow path's own
arithmetic. It takes only a plain ``dict`` of ``dict`` rows holding the eligible seats (and
ineligible roles saying ``not_assessed``), each an exact ``str``; anything else returns
``None`` and goes to
:func:`~kernel.decision.dimensionwise.decide_dimensionwise`, which names the problem.
"""

from __future__ import annotations

import itertools
import linecache
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Final

from kernel.contract.model import Contract
from kernel.decision.dimensionwise import (
    NOT_ASSESSED,
    VERDICTS,
    allowed_values,
    traced_decision,
    verdict_rank,
)
from kernel.decision.value import Decision
from kernel.errors import ContractError

__all__ = ["DECISIONS_MAX", "MAX_ROWS", "build_lookup"]

#: A dimension with more possible rows than this is decided on the slow path.
MAX_ROWS: Final = 1 << 12
#: Decisions kept per contract (one per combination of entries met) when there are more
#: combinations than :data:`DENSE_MAX`; up to that many, every one has its slot in a list.
DECISIONS_MAX: Final = 1 << 17
DENSE_MAX: Final = 1 << 20

#: (assessed seats, satisfying seats per atom that selects the dimension, verdict index)
_Entry = tuple[int, tuple[int, ...], int]


def _atoms_of(contract: Contract) -> list[tuple[int, int, frozenset[str], tuple[int, ...]]]:
    """(condition, atom index, seat values that satisfy it, positions) of every atom."""
    return [
        (i, j, atom.seats, scope)
        for i, c in enumerate(contract.conditions)
        for j, (atom, scope) in enumerate(zip(c.expression.atoms, c.predicate.scopes, strict=True))
    ]


def _table(
    contract: Contract, position: int, atoms: Sequence[tuple[int, int, frozenset[str], Any]]
) -> tuple[dict[Any, int], list[_Entry]]:
    d = contract.dimensions[position]
    seats = [r for r in contract.roles if r in d.eligible_roles]
    values = (*allowed_values(d.priority), NOT_ASSESSED)
    mine = [a for a in atoms if position in a[3]]
    entries: dict[_Entry, int] = {}
    table: dict[Any, int] = {}
    for row in itertools.product(values, repeat=len(seats)):
        assessed = [v for v in row if v != NOT_ASSESSED]
        if not assessed:
            continue
        entry = (
            len(assessed),
            tuple(sum(v in a[2] for v in assessed) for a in mine),
            max(verdict_rank(v) for v in assessed),
        )
        table[row] = entries.setdefault(entry, len(entries))
    return table, list(entries)


def build_lookup(contract: Contract) -> tuple[Callable[[Any], Decision | None] | None, str]:
    """The generated lookup and its source, or ``(None, "")`` when the contract is decided
    on the slow path only (refused by it, or a dimension with too many rows)."""
    try:
        from kernel.decision.dimensionwise import eligibility

        eligibility(contract)
    except ContractError:
        return None, ""
    dims = contract.dimensions
    seats = [[r for r in contract.roles if r in d.eligible_roles] for d in dims]
    sizes = [
        (len(allowed_values(d.priority)) + 1) ** len(s) for d, s in zip(dims, seats, strict=True)
    ]
    if max(sizes) > MAX_ROWS:
        return None, ""
    atoms = _atoms_of(contract)
    tables, entries = zip(*(_table(contract, d.position, atoms) for d in dims), strict=True)
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
    filename = f"<kernel lookup 13.2 {contract.contract_id} {hash(source) & (1 << 48) - 1:012x}>"
    namespace: dict[str, Any] = {}
    exec(compile(source, filename, "exec"), namespace)  # only validated ids and role names
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    store: list[Decision | None] | dict[int, Decision] = [None] * weight if dense else {}
    ref = weakref.ref(contract)

    def fill(index: int) -> Decision | None:
        live = ref()
        if live is None:  # pragma: no cover - the lookup is reached through its contract
            return None
        chosen = []
        for found, w in zip(entries, weights, strict=True):
            chosen.append(found[index // w % len(found)])
        decision = _decision(live, atoms, chosen)
        if isinstance(store, list) or len(store) < DECISIONS_MAX:
            store[index] = decision
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


def _decision(
    contract: Contract,
    atoms: Sequence[tuple[int, int, frozenset[str], tuple[int, ...]]],
    chosen: Sequence[_Entry],
) -> Decision:
    """The decision, with its trace, for one entry per dimension."""
    # Where each atom's count sits in the entry of each dimension it selects.
    slot: dict[tuple[int, int, int], int] = {}
    for position in range(len(contract.dimensions)):
        mine = [a for a in atoms if position in a[3]]
        for k, a in enumerate(mine):
            slot[a[0], a[1], position] = k
    def seats(condition: int, atom: int, position: int) -> tuple[int, int]:
        n, satisfied, _ = chosen[position]
        return n, satisfied[slot[condition, atom, position]]

    verdicts = {d.id: VERDICTS[chosen[d.position][2]] for d in contract.dimensions}
    return traced_decision(contract, seats, verdicts)  # type: ignore[no-any-return]
