"""Reading a scoring matrix (R9): the one function every decision path calls first.

:func:`read_matrix` takes one snapshot of the caller's mapping through its own iteration
(never ``key in matrix`` or a look-up of a key the mapping did not list, so a mapping that
invents rows is read only through the keys it lists) and checks every key and score by exact
type (``type(x) is str``) before anything else looks at it. What it returns, rows of exact
``str`` scores in dimension order, is all the slow and the generated paths ever see, so they
cannot disagree on what a matrix holds. An exception raised by the caller's objects (its
iteration, a look-up) becomes a :class:`~kernel.errors.MatrixError` naming where.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kernel.errors import MatrixError, PanelShrunk
from kernel.expression.ast import SCORE_RANK
from kernel.strict import shown

__all__ = ["Rows", "entries", "named", "read_matrix"]

#: A matrix as read: per dimension, in contract order, the reviewers' scores.
Rows = tuple[tuple[str, ...], ...]

_SCORES: Final = frozenset(SCORE_RANK)


def read_matrix(matrix: object, ids: Sequence[str], panel_size: int) -> Rows:
    """The rows of ``matrix`` (dimension id → ``panel_size`` scores) in the order of ``ids``,
    or :class:`MatrixError` naming the first problem (:class:`PanelShrunk` when every row has
    the same number of scores, fewer than ``panel_size``)."""
    if type(matrix) is dict and len(matrix) == len(ids):
        rows = _well_formed(matrix, ids, panel_size)
        if rows is not None:
            return rows
    return _diagnosed(matrix, ids, panel_size)


def _well_formed(matrix: dict[Any, Any], ids: Sequence[str], panel_size: int) -> Rows | None:
    """The rows of a plain dict that is well formed, else ``None``; no caller code runs."""
    for key in matrix:
        if type(key) is not str:
            return None
    rows = []
    for d in ids:
        row = matrix.get(d)  # every key is an exact str: the look-up compares only strs
        if type(row) is list:
            row = tuple(row)
        elif type(row) is not tuple:
            return None
        if len(row) != panel_size:
            return None
        for score in row:
            if type(score) is not str:
                return None
        if not _SCORES.issuperset(row):
            return None
        rows.append(row)
    return tuple(rows)


def _diagnosed(matrix: object, ids: Sequence[str], panel_size: int) -> Rows:
    """:func:`read_matrix` for any input, naming the first problem."""
    if isinstance(matrix, Mapping):
        pairs = entries(matrix, "matrix", len(ids))
    else:
        raise MatrixError(
            f"matrix must map dimension ids to lists of scores, got {type(matrix).__name__}"
        )
    known = ids if len(ids) <= 8 else frozenset(ids)
    by_id: dict[str, Any] = {}
    for key, row in pairs:
        # Exact str first: only then is hashing or comparing the key free of caller code.
        if type(key) is not str or key not in known:
            raise MatrixError(
                f"matrix[{shown(key)}]: unknown dimension id "
                f"(contract dimensions: {', '.join(ids)})"
            )
        if key in by_id:
            raise MatrixError(f"matrix[{shown(key)}]: listed twice by the mapping's iteration")
        by_id[key] = row
    if len(by_id) != len(ids):
        missing = [d for d in ids if d not in by_id]
        raise MatrixError(f"matrix: missing scores for dimension(s) {', '.join(missing)}")
    rows = tuple(_row(d, by_id[d], panel_size) for d in ids)
    lengths = {len(r) for r in rows}
    if len(lengths) > 1:
        detail = ", ".join(f"{d} has {len(r)}" for d, r in zip(ids, rows, strict=True))
        raise MatrixError(
            f"matrix rows have different lengths ({detail}); expected {panel_size} each"
        )
    (length,) = lengths
    if length > panel_size:
        raise MatrixError(
            f"matrix[{shown(ids[0])}]: {length} scores for panel_size={panel_size}; more than "
            "the panel"
        )
    if length < panel_size:
        raise PanelShrunk(length, panel_size)
    return rows


def named(value: object) -> str:
    """``value`` as a message quotes it, with its class when it is a ``str`` subclass (which
    reads like a score but is refused: a matrix holds exact ``str`` values)."""
    if type(value) is not str and isinstance(value, str):
        return f"{shown(value)} (a {type(value).__name__})"
    return shown(value)


def entries(mapping: Mapping[Any, Any], where: str, size: int) -> list[tuple[Any, Any]]:
    """The (key, value) pairs of a caller's mapping, read once through its own iteration (a
    plain ``dict`` through its C-level items). Reading stops after ``size + 1`` keys (past
    ``size`` there is an unknown or repeated one) and at the first key that is not an exact
    ``str``, which is the last pair, with ``None``, so that the caller names it without ever
    hashing or comparing it. Whatever the mapping raises is a :class:`MatrixError` at
    ``where``. Every matrix reader of every dialect reads a caller's mapping with this."""
    if type(mapping) is dict:
        return list(itertools.islice(mapping.items(), size + 1))  # no caller code runs
    try:
        keys = iter(mapping)
    except Exception as exc:  # the caller's __iter__
        raise MatrixError(f"{where}: cannot be iterated ({type(exc).__name__})") from None
    pairs: list[tuple[Any, Any]] = []
    for _ in range(size + 1):
        try:
            key = next(keys)
        except StopIteration:
            break
        except Exception as exc:
            raise MatrixError(
                f"{where}: iterating it raised {type(exc).__name__} after {len(pairs)} key(s)"
            ) from None
        if type(key) is not str:  # named without hashing it
            pairs.append((key, None))
            break
        try:
            row = mapping[key]
        except Exception as exc:  # the caller's __getitem__
            raise MatrixError(
                f"{where}[{shown(key)}]: reading it raised {type(exc).__name__}"
            ) from None
        pairs.append((key, row))
    return pairs


def _row(dimension: str, row: object, panel_size: int) -> tuple[str, ...]:
    if type(row) is tuple:
        scores: tuple[Any, ...] = row
    elif type(row) is list:
        scores = tuple(row)
    else:
        raise MatrixError(
            f"matrix[{shown(dimension)}]: expected a list of {panel_size} scores, got "
            f"{type(row).__name__}"
        )
    if all(map(operator.is_, map(type, scores), itertools.repeat(str))) and _SCORES.issuperset(
        scores
    ):
        return scores
    for j, score in enumerate(scores):
        if type(score) is not str or score not in _SCORES:
            raise MatrixError(
                f"matrix[{shown(dimension)}][{j}]: {named(score)} is not a score (block|warn|pass)"
            )
    raise AssertionError("unreachable")  # pragma: no cover
