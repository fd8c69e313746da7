"""``--prior`` / ``--prior-file``: score probabilities for ``analyze`` and ``migrate``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, overload

from kernel.cli.scaffold import Parser, Reader

if TYPE_CHECKING:  # the probability module loads only when a prior is given
    from kernel.analysis.exact import PriorLike
    from kernel.analysis.probability import Prior

__all__ = ["add_prior_options", "read_prior"]


def add_prior_options(parser: Parser, what: str) -> None:
    """The two mutually exclusive options; ``what`` says what the prior is used for."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--prior",
        metavar="pass=P,warn=P,block=P",
        help=f"score probabilities for every dimension: {what} (13.2: also block:fatal=P, "
        "the part of block that is fatal on a mandatory dimension)",
    )
    group.add_argument(
        "--prior-file",
        metavar="FILE",
        help='JSON: {"pass": .., "warn": .., "block": ..} or per dimension id ("*": the rest; '
        "13.2: also per role, and D1/role)",
    )


@overload
def read_prior(args: Any, reader: Reader) -> Prior | None: ...
@overload
def read_prior(args: Any, reader: Reader, dialect: str) -> PriorLike | None: ...


def read_prior(args: Any, reader: Reader, dialect: str = "13") -> PriorLike | None:
    """The prior the options give for a contract of ``dialect``, or ``None``; a bad one
    raises ``PriorError``."""
    if args.prior is None and args.prior_file is None:
        return None
    if dialect == "13.2":
        from kernel.analysis.seat_prior import parse_seat_prior, seat_prior_from_json

        if args.prior is not None:
            return parse_seat_prior(args.prior)
        return seat_prior_from_json(reader.json(args.prior_file), args.prior_file)
    from kernel.analysis.probability import parse_prior, prior_from_json

    if args.prior is not None:
        return parse_prior(args.prior)
    return prior_from_json(reader.json(args.prior_file), args.prior_file)
