"""Compiled contracts for :func:`kernel.decide` on a mapping or a template name.

Compiling a contract (schema, invariants, expressions, then the generated fast path on the
first decision) takes milliseconds; deciding on the compiled contract takes about a
microsecond. So ``decide(mapping, m)`` and ``decide("reviewer/full", m)`` reuse compiled
contracts:

* a shipped template name maps to its compiled contract, compiled once per process (the
  installed template file is read once too, :mod:`kernel.contract.templates`);
* a ``dict`` is looked up by *content*: the key is its ``repr()``, which shows every nested
  value with its type (a tuple is not a list, ``True`` is not ``1``, ``5.0`` is not ``5``),
  and a hit must also compare equal to a private deep copy taken when the entry was made.
  A mapping mutated in place therefore has a different key, and never meets the contract
  compiled from its old content. The cache keeps the :data:`CACHE_SIZE` most recently used
  contracts (LRU). Measured key cost on ``reviewer/full``: see ``benchmarks/bench_decide_cache.py``.

Other sources (a path, a mapping that is not a ``dict``) are compiled on every call: a file
may change between calls, and an arbitrary mapping need not show its content in ``repr()``.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Final

from kernel.contract.model import Contract, load_contract
from kernel.contract.templates import TEMPLATE_NAMES

__all__ = ["CACHE_SIZE", "cache_clear", "cache_info", "compiled"]

#: How many compiled contracts built from dicts are kept (least recently used dropped first).
CACHE_SIZE: Final = 128

_lock = threading.Lock()
#: repr(mapping) → (deep copy of the mapping, its compiled contract), oldest first.
_by_content: OrderedDict[str, tuple[dict[str, Any], Contract]] = OrderedDict()
_by_name: dict[str, Contract] = {}


def compiled(source: Contract | Mapping[str, Any] | str) -> Contract:
    """The compiled contract for ``source``; anything :func:`load_contract` takes."""
    if type(source) is Contract:
        return source
    if type(source) is str:
        if source in TEMPLATE_NAMES:
            found = _by_name.get(source)
            if found is None:
                found = _by_name.setdefault(source, load_contract(source))
            return found
        return load_contract(source)
    if type(source) is not dict:
        return load_contract(source)
    try:
        key = repr(source)
        with _lock:
            entry = _by_content.get(key)
            if entry is not None and entry[0] == source:
                _by_content.move_to_end(key)
                return entry[1]
        snapshot = copy.deepcopy(source)
    except Exception:  # a value that cannot be shown, compared or copied: no caching
        return load_contract(source)
    contract = load_contract(snapshot)
    with _lock:
        _by_content[key] = (snapshot, contract)
        _by_content.move_to_end(key)
        while len(_by_content) > CACHE_SIZE:
            _by_content.popitem(last=False)
    return contract


def cache_info() -> dict[str, int]:
    """``{"size": …, "maxsize": CACHE_SIZE, "templates": …}`` for the content cache."""
    with _lock:
        return {"size": len(_by_content), "maxsize": CACHE_SIZE, "templates": len(_by_name)}


def cache_clear() -> None:
    """Forget every compiled contract built from a dict (the template entries stay)."""
    with _lock:
        _by_content.clear()
