"""The compiled fast path of :func:`kernel.decide`: one generated function per contract.

Like ``attrs`` generating ``__init__``, the kernel writes a small Python function for each
contract when it is decided on a second time (a one-off decision takes the slow path, which
costs less than writing the code), and registers its source with :mod:`linecache` so that
tracebacks and debuggers show it. The generated function first reads the matrix with
:func:`~kernel.decision.matrix.read_matrix`, the one reader every path uses (so it refuses
exactly what the slow path refuses, with the same message). One table look-up then turns a
row (one dimension, all reviewers) into the reviewer bitmasks the contract's predicates
read — bit *j* is reviewer *j*, one mask per :class:`~kernel.expression.ast.Lane` (``pass``,
``warn``, ``block``, ``warn or worse``). Every atom then writes its own bitmask source
(:meth:`kernel.expression.ast.AnyScores.mask` and its siblings): integer ``&``/``|`` over the
whole panel at once (R3: all atoms of an expression hold for the same reviewer, which is the
same bit). A per-condition table maps each condition's reviewer mask to its reviewer count,
already scaled to that condition's place in the count vector's index, and the index selects
the :class:`~kernel.decision.value.Decision` (computed on first need, then kept).

The generated function returns ``None`` only for a count vector with no decision; the caller
then takes the slow path, which names the problem. Only validated values reach the
generated source: dimension ids (``D1``…``D99``) and integers. The engines live here,
keyed by the identity of the contract object and dropped with it, not on the contract value.
"""

from __future__ import annotations

import functools
import linecache
import weakref
from collections.abc import Callable, Sequence
from typing import Any, Final

import attrs

from kernel.contract.model import Contract
from kernel.decision.matrix import read_matrix
from kernel.decision.value import Decision, decide_counts, held_weakly
from kernel.errors import ContractError
from kernel.expression.ast import AnyAtom, MaskWriter

__all__ = [
    "DECISIONS_MAX",
    "MAX_PANEL",
    "MAX_SOURCE",
    "Engine",
    "Lookup",
    "engine_for",
    "lookup_of",
    "lookup_source",
    "seen_before",
]

#: The row tables have 3**panel_size entries; larger panels use the slow path.
MAX_PANEL: Final = 9
#: With at most this many count vectors the decisions sit in a list indexed by the vector;
#: with more, in a dict that keeps at most this many of them.
DECISIONS_MAX: Final = 1 << 17
#: The largest generated source compiled (characters); a contract whose source is longer is
#: decided by the interpreter (the slow path), with the same results.
MAX_SOURCE: Final = 200_000
#: Operands per generated ``|``/``&``/``+`` chain: longer chains continue in the next statement,
#: so the source stays flat (no deep expression nesting) whatever the contract size.
CHAIN: Final = 16

Lookup = Callable[[Any], "Decision | None"]


@attrs.frozen
class Engine:
    #: The generated fast path, or ``None`` for panels over :data:`MAX_PANEL` and sources over
    #: :data:`MAX_SOURCE`.
    lookup: Lookup | None
    #: Its Python source (empty without a fast path).
    source: str = attrs.field(repr=False)


_ENGINES: dict[int, Engine] = {}
#: id(contract) → its generated lookup, for contracts that have one: :func:`decide`'s
#: dispatch is one ``dict.get`` on the identity of the contract it is given.
_LOOKUPS: dict[int, Lookup] = {}
#: Contracts decided on once: a one-off decision does not pay for generating code.
_SEEN: set[int] = set()

#: ``lookup_of(id(contract), default)``: the contract's generated lookup once its engine is
#: built, else ``default``. An id found here belongs to a live contract (entries are dropped
#: when their contract is), so a hit also says the object is that :class:`Contract`.
lookup_of: Final[Callable[[int, Lookup], Lookup]] = _LOOKUPS.get


def seen_before(contract: Contract) -> bool:
    """Whether ``contract`` was given to this function before (it is, from now on)."""
    key = id(contract)
    if key in _SEEN:
        return True
    _SEEN.add(key)
    weakref.finalize(contract, _forget, key)
    return False


def engine_for(contract: Contract) -> Engine:
    """The contract's engine, built on first use and dropped with the contract."""
    key = id(contract)
    engine = _ENGINES.get(key)
    if engine is None:
        engine = _ENGINES[key] = _BUILDERS.get(contract.dialect, _build)(contract)
        if engine.lookup is not None:
            _LOOKUPS[key] = engine.lookup
        seen_before(contract)  # registers the clean-up, once per contract
    return engine


def _forget(key: int) -> None:
    _SEEN.discard(key)
    _ENGINES.pop(key, None)
    _LOOKUPS.pop(key, None)


class _Writer(MaskWriter):
    """The atoms' :class:`MaskWriter`, writing chains of up to :data:`CHAIN` operands as one
    expression and longer ones as a temporary extended by one statement per chunk."""

    def fold(self, op: str, operands: Sequence[str], empty: str) -> str:
        if not operands:
            return empty
        if len(operands) == 1:
            return operands[0]
        chunks = [operands[i : i + CHAIN] for i in range(0, len(operands), CHAIN)]
        joined = [f"({f' {op} '.join(chunk)})" if len(chunk) > 1 else chunk[0] for chunk in chunks]
        if len(joined) == 1:
            return joined[0]
        out = self.temp()
        self.emit(f"{out} = {joined[0]}")
        for chunk in joined[1:]:
            self.emit(f"{out} {op}= {chunk}")
        return out


def _is_constant(expression: str) -> bool:
    return expression.isascii() and expression.isdigit()


@functools.lru_cache(maxsize=64)
def _row_table(n: int, lanes: tuple[int, ...]) -> dict[tuple[str, ...], Any]:
    """The table from a row (``n`` scores) to the masks of ``lanes``: one mask when one lane is
    wanted, a tuple of them when several, ``None`` when none. Shared by every contract with
    panel size ``n`` (the tables are never modified)."""
    rows: list[tuple[tuple[str, ...], tuple[int, int, int, int]]] = [((), (0, 0, 0, 0))]
    for j in range(n):
        bit = 1 << j
        rows = [
            step
            for key, (p, w, b, worse) in rows
            for step in (
                ((*key, "pass"), (p | bit, w, b, worse)),
                ((*key, "warn"), (p, w | bit, b, worse | bit)),
                ((*key, "block"), (p, w, b | bit, worse | bit)),
            )
        ]
    if not lanes:
        return dict.fromkeys(key for key, _ in rows)
    if len(lanes) == 1:
        (lane,) = lanes
        return {key: masks[lane] for key, masks in rows}
    return {key: tuple(masks[i] for i in lanes) for key, masks in rows}


def _table_name(lanes: tuple[int, ...]) -> str:
    return "R" + "".join(str(lane) for lane in lanes) if lanes else "R_"


def lookup_source(contract: Contract) -> str:
    """The generated source: ``make(tables…)`` returning ``lookup(matrix) -> Decision | None``.

    Its parameters: ``read`` and ``ids`` (:func:`~kernel.decision.matrix.read_matrix` and the
    contract's dimension ids), ``R<lanes>`` (row tables, see :func:`_row_table`), ``W<i>``
    (condition *i*'s mask → its count times ``(panel_size + 1) ** i``), ``D`` (decisions by
    that index) and ``fill`` (computes and keeps a missing decision).
    """
    return _generate(contract)[0]


def _generate(contract: Contract) -> tuple[str, list[tuple[int, ...]]]:
    """The source and the lanes of each row table it takes, in parameter order."""
    n = contract.panel_size
    out = _Writer(full=(1 << n) - 1)
    terms: list[str] = []
    constant = 0
    # Identical atoms (across the contract) and identical conjunctions are written once.
    mask_of: dict[tuple[AnyAtom, tuple[int, ...]], str] = {}
    held_of: dict[tuple[str, ...], str] = {}
    for i, condition in enumerate(contract.conditions):
        masks = []
        for pair in zip(condition.expression.atoms, condition.predicate.scopes, strict=True):
            mask = mask_of.get(pair)
            if mask is None:
                mask = mask_of[pair] = pair[0].mask(pair[1], out)
            masks.append(mask)
        unique = tuple(dict.fromkeys(masks))
        held = held_of.get(unique)
        if held is None:
            held = held_of[unique] = out.fold("&", unique, str(out.full))
        if _is_constant(held):
            constant += int(held).bit_count() * (n + 1) ** i
        else:
            terms.append(f"W{i}[{held}]")
    if constant or not terms:
        terms.append(str(constant))
    key = out.fold("+", terms, "0")
    tables: dict[str, tuple[int, ...]] = {}
    # read_matrix has checked every row: panel_size scores, each an exact str of the vocabulary.
    body = [f"    rows = read(matrix, ids, {n})"]
    for d in contract.dimensions:
        p = d.position
        lanes = tuple(lane for lane in range(4) if (p, lane) in out.read)
        if not lanes:
            continue
        tables[_table_name(lanes)] = lanes
        target = ", ".join(f"m{p}_{lane}" for lane in lanes)
        body.append(f"    {target} = {_table_name(lanes)}[rows[{p}]]")
    body += [f"    {line}" for line in out.lines]
    body.append(f"    k = {key}")
    dense = (n + 1) ** len(contract.conditions) <= DECISIONS_MAX
    body.append("    return D[k] or fill(k)" if dense else "    return D.get(k) or fill(k)")
    params = sorted(tables)
    weights = [f"W{i}" for i in range(len(contract.conditions))]
    free = ["read", "ids", *params, *weights, "D", "fill"]
    lines = [f"def make({', '.join(free)}):", "    def lookup(matrix):"]
    lines += [f"    {line}" for line in body]
    lines.append("    return lookup")
    return "\n".join(lines) + "\n", [tables[name] for name in params]


def _decisions(contract: Contract) -> tuple[list[Any] | dict[int, Any], Callable[[int], Any]]:
    """The decision store and ``fill(index)``, which computes the decision for the count
    vector at ``index`` (``None`` when nothing fires and there is no fallback) and keeps it."""
    base = contract.panel_size + 1
    k = len(contract.conditions)
    size = base**k
    store: list[Any] | dict[int, Any] = [None] * size if size <= DECISIONS_MAX else {}
    # A weak reference: the engine must not keep its contract alive (it is dropped with it).
    ref = weakref.ref(contract)

    def fill(index: int) -> Decision | None:
        counts = []
        rest = index
        for _ in range(k):
            rest, count = divmod(rest, base)
            counts.append(count)
        live = ref()
        if live is None:  # pragma: no cover - the lookup is reached through its contract
            return None
        try:
            decision = held_weakly(decide_counts(live, counts))
        except ContractError:
            return None
        if isinstance(store, list) or len(store) < DECISIONS_MAX:
            store[index] = decision
        return decision

    return store, fill


def _build_13_2(contract: Contract) -> Engine:
    from kernel.decision.dimensionwise_engine import build_lookup

    return Engine(*build_lookup(contract, max_source=MAX_SOURCE))


#: How the engine of each dialect that is not Schema 13's is built.
_BUILDERS: Final[dict[str, Callable[[Contract], Engine]]] = {"13.2": _build_13_2}


def _build(contract: Contract) -> Engine:
    n = contract.panel_size
    if n > MAX_PANEL:
        return Engine(None, "")
    source, lanes = _generate(contract)
    if len(source) > MAX_SOURCE:
        return Engine(None, "")
    # Named by the source's hash: equal sources share one linecache entry.
    filename = f"<kernel lookup {contract.contract_id} {hash(source) & (1 << 48) - 1:012x}>"
    namespace: dict[str, Any] = {}
    # The source holds only validated ids and integers.
    exec(compile(source, filename, "exec"), namespace)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    counts = [mask.bit_count() for mask in range(1 << n)]
    weights = [tuple(c * (n + 1) ** i for c in counts) for i in range(len(contract.conditions))]
    store, fill = _decisions(contract)
    tables = [_row_table(n, t) for t in lanes]
    lookup: Lookup = namespace["make"](
        read_matrix, contract.dimension_ids, *tables, *weights, store, fill
    )
    return Engine(lookup, source)
