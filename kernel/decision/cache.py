"""Compiled contracts for :func:`kernel.decide` on a mapping or a template name.

Compiling a contract (schema, invariants, expressions, then the generated fast path on the
first decision) takes milliseconds; deciding on the compiled contract takes about a
microsecond. So ``decide(mapping, m)`` and ``decide("reviewer/full", m)`` reuse compiled
contracts:

* a shipped template name maps to its compiled contract, compiled once per process (the
  installed template file is read once too, :mod:`kernel.contract.templates`);
* a ``dict`` is looked up by *content*: the key is ``marshal.dumps(mapping, 2)``, an exact
  encoding of built-in values that keeps their types (a tuple is not a list, ``True`` is not
  ``1``, ``5.0`` is not ``5``). Equal keys mean equal content, so a mapping mutated in place
  has a different key and never meets the contract compiled from its old content. (Format 2
  writes no back-references, so the bytes do not depend on reference counts; a string that
  gets interned later changes the key, which costs one recompilation, never a stale hit.)
  The cache keeps the :data:`CACHE_SIZE` most recently used contracts (LRU). The key costs
  about 3x a decision on ``reviewer/full`` (``benchmarks/bench_decide_cache.py``).

Other sources are compiled on every call: a path (the file may change between calls), a
mapping that is not a ``dict``, and a dict holding anything marshal cannot encode exactly (a
subclass of a built-in type, a custom object), whose content a key could not pin down.
"""

from __future__ import annotations

import marshal
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any, Final

from kernel.contract.model import Contract, load_contract
from kernel.contract.templates import TEMPLATE_NAMES

__all__ = ["CACHE_SIZE", "cache_clear", "cache_info", "compiled"]

#: How many compiled contracts built from dicts are kept (least recently used dropped first).
CACHE_SIZE: Final = 128
#: marshal format 2: no back-references, so the bytes do not depend on reference counts.
_MARSHAL_VERSION: Final = 2

_lock = threading.Lock()
#: marshal key of the dict → its compiled contract, least recently used first.
_by_content: OrderedDict[bytes, Contract] = OrderedDict()
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
        key = marshal.dumps(source, _MARSHAL_VERSION)
    except (ValueError, RecursionError):  # a value marshal cannot encode, or nested too deeply
        return load_contract(source)
    with _lock:
        found = _by_content.get(key)
        if found is not None:
            _by_content.move_to_end(key)
            return found
    contract = load_contract(source)
    with _lock:
        _by_content[key] = contract
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
