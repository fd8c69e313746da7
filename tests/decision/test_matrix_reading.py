"""Matrices are read, never probed: one snapshot through the mapping's own iteration, every
key and score checked by exact type before any path looks at it. The first decision (the slow
path), later ones (the generated path), ``decide_many`` and ``read_matrix`` agree on every
input, hostile mappings and values included."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel import decide, decide_many, load_contract
from kernel.decision.decision import _decide_slowly
from kernel.decision.matrix import read_matrix
from kernel.errors import KernelError, MatrixError
from kernel.expression.ast import SCORES
from kernel.testing import contracts, matrices

FULL = load_contract("reviewer/full")
FULL_IDS = FULL.dimension_ids


def _full(**rows: Any) -> dict[str, Any]:
    return {d: ["pass"] * 5 for d in FULL_IDS} | rows


class PassLike:
    """Not a str, but equal to one and hashing like it."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return other == self.text or (isinstance(other, PassLike) and other.text == self.text)

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"PassLike({self.text!r})"


class Text(str):
    """A str subclass: its class is not str."""


class Unhashable:
    def __hash__(self) -> int:
        raise TypeError("no hash for you")

    def __eq__(self, other: object) -> bool:
        raise ValueError("no comparing either")

    def __repr__(self) -> str:
        return "Unhashable()"


class Rows(Mapping[Any, Any]):
    """A mapping over ``rows`` whose iteration lists only ``listed`` keys and whose look-ups
    can invent rows or raise."""

    def __init__(
        self,
        rows: dict[Any, Any],
        *,
        listed: list[Any] | None = None,
        invent: bool = False,
        raise_get: type[Exception] | None = None,
        raise_iter_after: int | None = None,
    ) -> None:
        self.rows = rows
        self.listed = list(rows) if listed is None else listed
        self.invent = invent
        self.raise_get = raise_get
        self.raise_iter_after = raise_iter_after

    def __getitem__(self, key: Any) -> Any:
        if self.raise_get is not None:
            raise self.raise_get("look-up refused")
        if self.invent:
            return self.rows.get(key, ["pass"] * 5)
        return self.rows[key]

    def __iter__(self) -> Iterator[Any]:
        for i, key in enumerate(self.listed):
            if self.raise_iter_after is not None and i >= self.raise_iter_after:
                raise RuntimeError("iteration refused")
            yield key

    def __len__(self) -> int:
        return len(self.listed)


def _outcome(call: Callable[[], Any]) -> object:
    try:
        return call()
    except KernelError as exc:
        return (type(exc), exc.message)


def _paths(raw: dict[str, Any], matrix: Any) -> list[object]:
    """What each path answers for ``matrix``, each on a contract it has never seen."""
    first = load_contract(raw)
    once = _outcome(lambda: decide(first, matrix))  # a one-off decision: the slow path
    later = _outcome(lambda: decide(first, matrix))  # the generated path
    many = load_contract(raw)
    batch = _outcome(lambda: decide_many(many, [matrix]))
    if isinstance(batch, list):
        batch = batch[0]
    elif isinstance(batch, tuple):
        batch = (batch[0], batch[1].removeprefix("matrices[0]: "))
    slow = _outcome(lambda: _decide_slowly(load_contract(raw), matrix))
    return [once, later, batch, slow]


@st.composite
def hostile(draw: st.DrawFn, raw: dict[str, Any]) -> Any:
    """A matrix for ``raw``, maybe damaged, in a plain or a hostile container."""
    matrix: dict[Any, Any] = dict(draw(matrices(raw)))
    ids = list(matrix)
    for _ in range(draw(st.integers(0, 2))):
        d = draw(st.sampled_from(ids))
        row = list(matrix[d])
        j = draw(st.integers(0, len(row) - 1))
        kind = draw(st.sampled_from(["passlike", "text", "unhashable", "other", "drop", "tuple"]))
        if kind == "passlike":
            row[j] = PassLike(row[j])
        elif kind == "text":
            row[j] = Text(row[j])
        elif kind == "unhashable":
            row[j] = Unhashable()
        elif kind == "other":
            row[j] = draw(st.sampled_from([None, 1, b"pass", "Pass", "pass "]))
        elif kind == "drop":
            del matrix[d]
            ids.remove(d)
            if not ids:
                break
            continue
        matrix[d] = tuple(row) if kind == "tuple" else row
    renamed = draw(st.booleans())
    if ids and renamed:
        d = draw(st.sampled_from(ids))
        keys: list[Any] = [PassLike(d), Text(d), 1, "D100"]
        matrix[draw(st.sampled_from(keys))] = matrix.pop(d)
    wrap = draw(st.sampled_from(["dict", "ordered", "proxy", "rows", "invent", "get", "iter"]))
    if wrap == "dict":
        return matrix
    if wrap == "ordered":
        return OrderedDict(matrix)
    if wrap == "proxy":
        return MappingProxyType(matrix)
    if wrap == "rows":
        return Rows(matrix)
    if wrap == "invent":
        return Rows(matrix, listed=list(matrix)[: draw(st.integers(0, len(matrix)))], invent=True)
    if wrap == "get":
        return Rows(matrix, raise_get=draw(st.sampled_from([ValueError, KeyError, TypeError])))
    return Rows(matrix, raise_iter_after=draw(st.integers(0, len(matrix))))


@given(
    contracts(max_dimensions=4, max_conditions=4, panel_sizes=st.integers(1, 6)).flatmap(
        lambda raw: st.tuples(st.just(raw), hostile(raw))
    )
)
def test_every_path_reads_every_matrix_alike(case: tuple[dict[str, Any], Any]) -> None:
    raw, matrix = case
    once, later, batch, slow = _paths(raw, matrix)
    assert once == later == batch == slow


@pytest.mark.parametrize("score", [PassLike("pass"), Text("pass")])
def test_a_score_that_only_looks_like_pass_is_refused_on_every_decision(score: object) -> None:
    # Regression: the generated path looked the row up in its table and decided it.
    matrix = _full(D1=[score, "pass", "pass", "pass", "pass"])
    contract = load_contract("reviewer/full")
    shown = "PassLike('pass')" if isinstance(score, PassLike) else "'pass' (a Text)"
    message = f"matrix['D1'][0]: {shown} is not a score (block|warn|pass)"
    for _ in range(3):
        with pytest.raises(MatrixError) as info:
            decide(contract, matrix)
        assert info.value.message == message
    with pytest.raises(MatrixError) as info:
        decide_many(contract, [_full(), matrix])
    assert info.value.message == f"matrices[1]: {message}"


def test_a_mapping_that_invents_rows_is_refused() -> None:
    # Regression: `key in matrix` and `matrix[key]` made D5's row up; it was decided.
    matrix = Rows(_full(), listed=list(FULL_IDS[:4]), invent=True)
    contract = load_contract("reviewer/full")
    for _ in range(2):
        with pytest.raises(MatrixError) as info:
            decide(contract, matrix)
        assert info.value.message == "matrix: missing scores for dimension(s) D5"


@pytest.mark.parametrize(
    ("matrix", "message"),
    [
        (Rows(_full(), raise_get=ValueError), "matrix['D1']: reading it raised ValueError"),
        (Rows(_full(), raise_get=KeyError), "matrix['D1']: reading it raised KeyError"),
        (
            Rows(_full(), raise_iter_after=2),
            "matrix: iterating it raised RuntimeError after 2 key(s)",
        ),
        (
            Rows({}, listed=[Unhashable()]),
            "matrix[Unhashable()]: unknown dimension id (contract dimensions: D1, D2, D3, D4, D5)",
        ),
    ],
)
def test_what_a_callers_mapping_raises_becomes_a_matrix_error(matrix: Any, message: str) -> None:
    # Regression: these escaped as ValueError, RuntimeError and TypeError.
    contract = load_contract("reviewer/full")
    for _ in range(2):
        with pytest.raises(MatrixError) as info:
            decide(contract, matrix)
        assert info.value.message == message


class Treacherous:
    """Hashes like "D1" once (to get into a dict), then raises on hashing and comparing."""

    hashed = False

    def __hash__(self) -> int:
        if self.hashed:
            raise ValueError("hash refused")
        self.hashed = True
        return hash("D1")

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("comparison refused")

    def __repr__(self) -> str:
        return "Treacherous()"


def test_a_key_whose_hash_or_comparison_raises_is_named_not_called() -> None:
    matrix: dict[Any, Any] = {Treacherous(): ["pass"] * 5}
    matrix.update((d, ["pass"] * 5) for d in FULL_IDS[1:])
    for _ in range(2):
        with pytest.raises(MatrixError, match=r"matrix\[Treacherous\(\)\]: unknown dimension id"):
            decide(FULL, matrix)
    with pytest.raises(MatrixError, match=r"matrices\[0\]: matrix\[Treacherous\(\)\]"):
        decide_many(FULL, [matrix])


def test_a_key_that_hashes_like_an_id_is_not_one() -> None:
    matrix: dict[Any, Any] = _full()
    matrix[PassLike("D1")] = matrix.pop("D1")
    for _ in range(2):
        with pytest.raises(MatrixError, match=r"matrix\[PassLike\('D1'\)\]: unknown dimension id"):
            decide(FULL, matrix)


@given(st.lists(st.sampled_from(SCORES), min_size=5, max_size=5))
@example(["pass"] * 5)
def test_read_matrix_returns_exact_str_rows_in_dimension_order(row: list[str]) -> None:
    matrix = dict(reversed(list(_full(D3=row).items())))
    rows = read_matrix(matrix, FULL_IDS, 5)
    assert rows == tuple(tuple(matrix[d]) for d in FULL_IDS)
    assert all(type(s) is str for r in rows for s in r)


# --- dialect 13.2: the same reader, the same rules --------------------------------------

FULL_13_2 = load_contract("13.2/reviewer/full")


class Colliding:
    """A key that hashes like a dimension id or a role and raises when compared."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __hash__(self) -> int:
        return hash(self.text)

    def __eq__(self, other: object) -> bool:
        raise ValueError("compared")

    def __repr__(self) -> str:
        return f"Colliding({self.text!r})"


def _seats_13_2() -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for d in FULL_13_2.dimensions:
        out[d.id] = {role: "pass" for role in d.eligible_roles}
    return out


@pytest.mark.parametrize("where", ["matrix", "row"])
def test_a_13_2_key_that_collides_with_an_id_or_role_is_named_on_every_decision(
    where: str,
) -> None:
    """Regression: the generated 13.2 look-up compared a caller's key with a dimension id or a
    role, so its ValueError escaped from the second decision on."""
    contract = load_contract("13.2/reviewer/full")  # a fresh contract: first decision slow
    matrix = _seats_13_2()
    if where == "matrix":
        matrix[Colliding("D1")] = matrix.pop("D1")  # type: ignore[index]
    else:
        row = matrix["D3"]
        role = next(iter(row))
        row[Colliding(role)] = row.pop(role)  # type: ignore[index]
    decide(contract, _seats_13_2())  # the generated path exists from here on
    for _ in range(3):
        with pytest.raises(MatrixError, match="is not a string"):
            decide(contract, matrix)
    with pytest.raises(MatrixError, match=r"matrices\[0\].*is not a string"):
        decide_many(contract, [matrix])


@pytest.mark.parametrize("value", [Text("pass"), PassLike("pass")])
def test_a_13_2_seat_value_that_only_looks_like_pass_is_refused(value: object) -> None:
    contract = load_contract("13.2/reviewer/full")
    matrix = _seats_13_2()
    matrix["D3"][next(iter(matrix["D3"]))] = value
    for _ in range(3):
        with pytest.raises(MatrixError, match="is not a seat value"):
            decide(contract, matrix)


class _NoIteration(Mapping[str, Any]):
    """A mapping whose ``__iter__`` itself raises."""

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("no iteration")

    def __len__(self) -> int:
        return 5


@pytest.mark.parametrize("contract", [FULL, FULL_13_2])
def test_a_mapping_that_cannot_be_iterated_is_a_matrix_error(contract: Any) -> None:
    for _ in range(3):  # the first decision and the generated path alike
        with pytest.raises(MatrixError, match=r"matrix: cannot be iterated \(RuntimeError\)"):
            decide(contract, _NoIteration())


def test_a_13_2_contract_the_decision_refuses_is_refused_on_every_decision() -> None:
    """Regression (fail-open): the generated 13.2 path must check eligibility as the slow
    path does, so a panel that does not fit the mode is refused on later decisions too."""
    import copy

    import attrs

    from kernel import shipped_template

    data = copy.deepcopy(shipped_template("13.2/reviewer/full"))
    # the loader refuses such a contract (E-INELIGIBLE); decide must still, whatever it gets
    contract = attrs.evolve(load_contract(data), panel_size=4)
    matrix = _seats_13_2()
    for _ in range(3):
        with pytest.raises(KernelError, match="CONTRACT-INELIGIBLE"):
            decide(contract, matrix)
    with pytest.raises(KernelError, match="CONTRACT-INELIGIBLE"):
        decide_many(contract, [matrix])
