"""The expression AST (R4): immutable values whose ``str()`` is the canonical text.

Dialect 13.2 reads the same atoms per dimension instead of per reviewer: each atom also says
which seat values satisfy it (:attr:`seats`, over :data:`SEAT_VALUES`) and how its selected
dimensions combine (:attr:`across`: ``any``, ``every`` or ``two`` or more). The five forms
only 13.2 has (:class:`FatalPriority` … :class:`EveryDimension`) have no reading over one
reviewer's column.

Each atom form is one class here plus one rule in ``grammar/expression.lark``. The class owns
everything the form means: its canonical text, its test on one reviewer's column
(:meth:`test`, used by the compiler) and its bitmask source over the whole panel
(:meth:`mask`, used by the decision engine's code generator). A column is a sequence of score
ranks (``pass`` 0, ``warn`` 1, ``block`` 2), one per contract dimension.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Final, Literal, TypeAlias

import attrs

from kernel.strict import shown

__all__ = [
    "ACROSS",
    "PRIORITIES",
    "SCORES",
    "SCORE_RANK",
    "SEAT_VALUES",
    "Across",
    "AnyScores",
    "AnyWorse",
    "Atom",
    "ColumnTest",
    "DimensionScores",
    "DimensionWorse",
    "EveryDimension",
    "EveryScores",
    "Expression",
    "FatalDimension",
    "FatalPriority",
    "Lane",
    "MaskWriter",
    "Priority",
    "Score",
    "TwoOrMore",
]

Score: TypeAlias = Literal["pass", "warn", "block"]
Priority: TypeAlias = Literal["mandatory", "high", "normal"]

#: Scores in rank order: ``pass < warn < block``.
SCORES: Final[tuple[Score, ...]] = ("pass", "warn", "block")
SCORE_RANK: Final[dict[str, int]] = {s: i for i, s in enumerate(SCORES)}
PRIORITIES: Final[tuple[Priority, ...]] = ("mandatory", "high", "normal")

ColumnTest: TypeAlias = Callable[[Sequence[int]], bool]

#: What one seat can say about one dimension under 13.2 (``not_assessed`` aside): a block on
#: an eligible mandatory dimension carries its class.
SEAT_VALUES: Final = ("pass", "warn", "block", "block:fatal", "block:repairable")
_BLOCKS: Final = frozenset({"block", "block:fatal", "block:repairable"})
Across: TypeAlias = Literal["any", "every", "two"]
ACROSS: Final[tuple[Across, ...]] = ("any", "every", "two")


def seats_exactly(score: str) -> frozenset[str]:
    """Seat values that are exactly ``score`` (a fatal or repairable block is a block)."""
    return _BLOCKS if score == "block" else frozenset({score})


def seats_or_worse(score: str) -> frozenset[str]:
    """Seat values that are ``score`` or worse."""
    rank = SCORE_RANK[score]
    return frozenset(v for v in SEAT_VALUES if SCORE_RANK[v.split(":")[0]] >= rank)


class Lane:
    """The four reviewer bitmasks of one matrix row: bit *j* is reviewer *j*."""

    PASS: Final = 0
    WARN: Final = 1
    BLOCK: Final = 2
    #: ``warn`` or ``block``.
    WORSE: Final = 3


class MaskWriter:
    """What an atom needs to write its bitmask source: the lane variable of a row
    (:meth:`lane`), a fresh temporary (:meth:`temp`) and statements (:meth:`emit`).

    The generated code stays flat whatever the contract size: a long ``|`` or ``&`` chain is
    written as one statement per operand, never as one deeply nested expression.
    """

    def __init__(self, full: int) -> None:
        #: The mask with every reviewer's bit set.
        self.full = full
        self.lines: list[str] = []
        self.read: set[tuple[int, int]] = set()
        self._temps = 0

    def lane(self, position: int, lane: int) -> str:
        self.read.add((position, lane))
        return f"m{position}_{lane}"

    def temp(self) -> str:
        self._temps += 1
        return f"t{self._temps}"

    def emit(self, line: str) -> None:
        self.lines.append(line)

    def fold(self, op: str, operands: Sequence[str], empty: str) -> str:
        """A temporary holding ``operands`` joined by ``op`` (``|`` or ``&``)."""
        if not operands:
            return empty
        if len(operands) == 1:
            return operands[0]
        out = self.temp()
        self.emit(f"{out} = {operands[0]}")
        for operand in operands[1:]:
            self.emit(f"{out} {op}= {operand}")
        return out


def _check_score(_: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in SCORE_RANK:
        raise ValueError(f"{attribute.name} must be one of {SCORES}, got {shown(value, 200)}")


def _check_priority(_: object, attribute: attrs.Attribute[str], value: str) -> None:
    if value not in PRIORITIES:
        raise ValueError(f"{attribute.name} must be one of {PRIORITIES}, got {shown(value, 200)}")


def _priority_scope(priority: str, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
    return tuple(i for i, (_, prio) in enumerate(dimensions) if prio == priority)


def _phrase(priority: str) -> str:
    """Canonical priority phrase: ``mandatory`` bare, the others suffixed."""
    return priority if priority == "mandatory" else f"{priority}-priority"


@attrs.frozen
class _PriorityAtom:
    """What the three priority forms share: a priority scope and a score."""

    priority: Priority = attrs.field(validator=_check_priority)
    score: Score = attrs.field(validator=_check_score)

    def scope(self, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
        """Positions of the contract dimensions (``(id, priority)`` pairs) this atom reads."""
        return _priority_scope(self.priority, dimensions)


def _some_exactly(score: str, positions: Sequence[int]) -> ColumnTest:
    rank = SCORE_RANK[score]
    return lambda col: any(col[i] == rank for i in positions)


def _some_exactly_mask(score: str, positions: Sequence[int], out: MaskWriter) -> str:
    rank = SCORE_RANK[score]
    return out.fold("|", [out.lane(p, rank) for p in positions], "0")


@attrs.frozen
class AnyScores(_PriorityAtom):
    """Form 1: some dimension of ``priority`` has score exactly ``score``."""

    across: ClassVar[Across] = "any"

    def __str__(self) -> str:
        return f"any {_phrase(self.priority)} dimension scores '{self.score}'"

    @property
    def seats(self) -> frozenset[str]:
        return seats_exactly(self.score)

    def test(self, positions: Sequence[int]) -> ColumnTest:
        return _some_exactly(self.score, positions)

    def mask(self, positions: Sequence[int], out: MaskWriter) -> str:
        return _some_exactly_mask(self.score, positions, out)


@attrs.frozen
class TwoOrMore(_PriorityAtom):
    """Form 2: at least two dimensions of ``priority`` score ``score`` or worse."""

    across: ClassVar[Across] = "two"

    def __str__(self) -> str:
        return f"two or more {_phrase(self.priority)} dimensions score '{self.score}' or worse"

    @property
    def seats(self) -> frozenset[str]:
        return seats_or_worse(self.score)

    def test(self, positions: Sequence[int]) -> ColumnTest:
        rank = SCORE_RANK[self.score]
        return lambda col: sum(1 for i in positions if col[i] >= rank) >= 2

    def mask(self, positions: Sequence[int], out: MaskWriter) -> str:
        if len(positions) < 2:
            return "0"
        if self.score == "pass":
            return str(out.full)
        lane = Lane.WORSE if self.score == "warn" else Lane.BLOCK
        # Reviewers with at least two set bits across the rows: one pass, no pairs.
        seen, twice = out.temp(), out.temp()
        first, second, *rest = [out.lane(p, lane) for p in positions]
        out.emit(f"{twice} = {first} & {second}")
        if rest:
            out.emit(f"{seen} = {first} | {second}")
        for i, row in enumerate(rest, 1):
            out.emit(f"{twice} |= {seen} & {row}")
            if i < len(rest):
                out.emit(f"{seen} |= {row}")
        return twice


@attrs.frozen
class EveryScores(_PriorityAtom):
    """Form 3: every dimension of ``priority`` has score exactly ``score`` (vacuous if none)."""

    across: ClassVar[Across] = "every"

    def __str__(self) -> str:
        return f"every {_phrase(self.priority)} dimension scores '{self.score}'"

    @property
    def seats(self) -> frozenset[str]:
        return seats_exactly(self.score)

    def test(self, positions: Sequence[int]) -> ColumnTest:
        rank = SCORE_RANK[self.score]
        return lambda col: all(col[i] == rank for i in positions)

    def mask(self, positions: Sequence[int], out: MaskWriter) -> str:
        rank = SCORE_RANK[self.score]
        return out.fold("&", [out.lane(p, rank) for p in positions], str(out.full))


def _check_dimension(_: object, attribute: attrs.Attribute[str], value: str) -> None:
    digits = value[1:]
    if not (
        value[:1] == "D"
        and digits.isascii()
        and digits.isdigit()
        and 1 <= len(digits) <= 2
        and digits[0] != "0"
    ):
        raise ValueError(f"{attribute.name} must be D1…D99, got {shown(value, 200)}")


@attrs.frozen
class DimensionScores:
    """Form 4: dimension ``dimension`` has score exactly ``score``."""

    dimension: str = attrs.field(validator=_check_dimension)
    score: Score = attrs.field(validator=_check_score)

    across: ClassVar[Across] = "any"

    def __str__(self) -> str:
        return f"{self.dimension} scores '{self.score}'"

    @property
    def seats(self) -> frozenset[str]:
        return seats_exactly(self.score)

    def scope(self, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
        """The position of :attr:`dimension`; ``LookupError`` when the contract lacks it."""
        for i, (dim_id, _) in enumerate(dimensions):
            if dim_id == self.dimension:
                return (i,)
        raise LookupError(self.dimension)

    def test(self, positions: Sequence[int]) -> ColumnTest:
        return _some_exactly(self.score, positions)

    def mask(self, positions: Sequence[int], out: MaskWriter) -> str:
        return _some_exactly_mask(self.score, positions, out)


def _dimension_scope(dimension: str, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
    for i, (dim_id, _) in enumerate(dimensions):
        if dim_id == dimension:
            return (i,)
    raise LookupError(dimension)


def _no_column(form: str) -> ColumnTest:
    raise TypeError(f"{form} exists only in dialect 13.2, which reads dimensions, not columns")


class _DimensionwiseOnly:
    """What the five 13.2-only forms share: no reading over reviewers' columns."""

    def test(self, positions: Sequence[int]) -> ColumnTest:
        return _no_column(str(self))

    def mask(self, positions: Sequence[int], out: MaskWriter) -> str:
        raise TypeError(f"{self} exists only in dialect 13.2, which has no reviewer bitmasks")


@attrs.frozen
class FatalPriority(_DimensionwiseOnly):
    """13.2 form 6a: some dimension of ``priority`` has a fatal block (on a mandatory one)."""

    priority: Priority = attrs.field(validator=_check_priority)
    across: ClassVar[Across] = "any"
    seats: ClassVar[frozenset[str]] = frozenset({"block:fatal"})

    def __str__(self) -> str:
        return f"any {self.priority} dimension has a fatal block"

    def scope(self, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
        return _priority_scope(self.priority, dimensions)



@attrs.frozen
class FatalDimension(_DimensionwiseOnly):
    """13.2 form 6b: dimension ``dimension`` has a fatal block."""

    dimension: str = attrs.field(validator=_check_dimension)
    across: ClassVar[Across] = "any"
    seats: ClassVar[frozenset[str]] = frozenset({"block:fatal"})

    def __str__(self) -> str:
        return f"{self.dimension} has a fatal block"

    def scope(self, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
        return _dimension_scope(self.dimension, dimensions)



@attrs.frozen
class AnyWorse(_DimensionwiseOnly):
    """13.2 form 7: some dimension, whatever its priority, scores ``score`` or worse."""

    score: Score = attrs.field(validator=_check_score)
    across: ClassVar[Across] = "any"

    def __str__(self) -> str:
        return f"any dimension scores '{self.score}' or worse"

    @property
    def seats(self) -> frozenset[str]:
        return seats_or_worse(self.score)

    def scope(self, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
        return tuple(range(len(dimensions)))



@attrs.frozen
class DimensionWorse(_DimensionwiseOnly):
    """13.2 form 8: dimension ``dimension`` scores ``score`` or worse."""

    dimension: str = attrs.field(validator=_check_dimension)
    score: Score = attrs.field(validator=_check_score)
    across: ClassVar[Across] = "any"

    def __str__(self) -> str:
        return f"{self.dimension} scores '{self.score}' or worse"

    @property
    def seats(self) -> frozenset[str]:
        return seats_or_worse(self.score)

    def scope(self, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
        return _dimension_scope(self.dimension, dimensions)



@attrs.frozen
class EveryDimension(_DimensionwiseOnly):
    """13.2 form 9: every dimension, whatever its priority, has exactly ``score``."""

    score: Score = attrs.field(validator=_check_score)
    across: ClassVar[Across] = "every"

    def __str__(self) -> str:
        return f"every dimension scores '{self.score}'"

    @property
    def seats(self) -> frozenset[str]:
        return seats_exactly(self.score)

    def scope(self, dimensions: Sequence[tuple[str, str]]) -> tuple[int, ...]:
        return tuple(range(len(dimensions)))



#: The atoms of Schema 13 (dialect 13.2 has them too).
Atom: TypeAlias = AnyScores | TwoOrMore | EveryScores | DimensionScores
#: Every atom of either dialect.
AnyAtom: TypeAlias = (
    AnyScores
    | TwoOrMore
    | EveryScores
    | DimensionScores
    | FatalPriority
    | FatalDimension
    | AnyWorse
    | DimensionWorse
    | EveryDimension
)
_ATOM_TYPES: Final = (
    AnyScores,
    TwoOrMore,
    EveryScores,
    DimensionScores,
    FatalPriority,
    FatalDimension,
    AnyWorse,
    DimensionWorse,
    EveryDimension,
)


def _check_atoms(
    _: object, attribute: attrs.Attribute[tuple[AnyAtom, ...]], value: object
) -> None:
    if not isinstance(value, tuple) or not value:
        raise ValueError(f"{attribute.name} must be a non-empty tuple of atoms")
    for atom in value:
        if not isinstance(atom, _ATOM_TYPES):
            raise ValueError(f"{attribute.name} holds a non-atom: {shown(atom, 200)}")


@attrs.frozen
class Expression:
    """Form 5: a conjunction of one or more atoms, all for the same reviewer (R3)."""

    atoms: tuple[AnyAtom, ...] = attrs.field(validator=_check_atoms)

    def __str__(self) -> str:
        return " AND ".join(str(atom) for atom in self.atoms)
