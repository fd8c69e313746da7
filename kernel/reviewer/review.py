"""From N reviewers' markdown to a decision (wire-format.md, "From lint to decision"), in
either dialect: dialect 13.2 rounds are decided by :mod:`kernel.reviewer.round_v2`, with
seats keyed by role; what follows is Schema 13's path.

:func:`decide_documents` is the offline path behind ``python -m kernel.decide``'s markdown
mode: each reviewer's documents are linted and run through the reviewer cycle
(:mod:`kernel.cycle`); a call the cycle would ask for next (a Phase 1 retry, a restart after a
multi-dissent) cannot be made offline, so that reviewer ends unusable with the tag the
exhausted retry carries. A later copy of an earlier usable reviewer's Phase 2 report is
unusable (R16, :mod:`kernel.reviewer.duplicates`). The usable reviewers' scores form the matrix
for :func:`decide`; fewer than ``panel_size`` of them abort the round with
``[PANEL-SHRUNK: …]`` (R9).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence, Sized
from typing import TYPE_CHECKING, Any, Final

import attrs

from kernel.contract.model import Contract, load_contract
from kernel.decision.decision import Decision, decide
from kernel.errors import KernelError, MatrixError
from kernel.io import MAX_INPUT_BYTES
from kernel.reviewer.cycle import ReviewerState, duplicate, exhaust, panel_tags, start, step
from kernel.reviewer.duplicates import duplicate_of
from kernel.reviewer.lint.ars import DEFAULT_ARS, Reading, reading
from kernel.reviewer.lint.linted import made_from
from kernel.reviewer.lint.phase1 import lint_phase1
from kernel.reviewer.lint.phase2 import lint_phase2
from kernel.reviewer.lint.report import LintReport
from kernel.reviewer.synthesis import SynthesisReport, check_synthesis
from kernel.strict import shown

if TYPE_CHECKING:  # a Schema 13 command line never loads the 13.2 lints
    from kernel.reviewer.round_v2 import RoundV2Outcome

__all__ = [
    "PanelOutcome",
    "ReviewerResult",
    "decide_documents",
    "finding_lines",
    "text_lines",
]


@attrs.frozen
class ReviewerResult:
    role: str
    #: The Phase 1 lint (``None`` when no Phase 1 text was given).
    phase1: LintReport | None
    #: The Phase 2 lint (``None`` when Phase 1 failed, so Phase 2 never counted).
    phase2: LintReport | None
    state: ReviewerState

    @property
    def report(self) -> LintReport:
        """The report that decided this reviewer's fate."""
        if self.phase2 is not None:
            return self.phase2
        assert self.phase1 is not None
        return self.phase1

    def to_dict(self) -> dict[str, Any]:
        return {
            "role": self.role,
            "usable": self.state.usable,
            "tag": self.state.tag,
            "phase1": self.phase1.to_dict() if self.phase1 is not None else None,
            "phase2": self.phase2.to_dict() if self.phase2 is not None else None,
        }


@attrs.frozen
class PanelOutcome:
    #: ``None`` when the round aborted.
    decision: Decision | None
    #: ``[PROTOCOL-VIOLATION: …]`` per unusable reviewer, then ``[PANEL-SHRUNK: …]``.
    tags: tuple[str, ...]
    #: (role, the report that decided the reviewer) in reviewer order.
    reviewers: tuple[tuple[str, LintReport], ...]
    details: tuple[ReviewerResult, ...]
    #: The usable reviewers' scores (dimension id → scores in reviewer order) that were
    #: decided on; ``None`` when the round aborted.
    matrix: Mapping[str, list[str]] | None = None
    #: The written synthesis checked against the decision (R17), when one was given and
    #: the round was decided.
    synthesis: SynthesisReport | None = None

    @property
    def aborted(self) -> bool:
        return self.decision is None

    def to_dict(self) -> dict[str, Any]:
        """``Decision.to_dict()`` at the top level (all ``None`` on an abort), plus
        ``reviewers`` and ``tags`` (api.md, ``kernel.decide``)."""
        if self.decision is not None:
            out = self.decision.to_dict()
        else:
            keys = ("action", "condition_id", "fallback", "fired", "counts", "thresholds")
            out = dict.fromkeys(keys)
        out["reviewers"] = [r.to_dict() for r in self.details]
        out["tags"] = list(self.tags)
        if self.synthesis is not None:
            out["synthesis"] = self.synthesis.to_dict()
        return out


def _review(
    contract: Contract,
    role: str,
    phase2: str,
    phase1: str | None,
    max_bytes: int,
    made: Linted = (None, None),
) -> ReviewerResult:
    state = start(role, contract.contract_id)
    report1: LintReport | None = None
    if phase1 is not None:
        report1 = made[0] or lint_phase1(phase1, contract, max_bytes=max_bytes)
        state = step(state, report1)
        if state.next_call != "phase2":
            return ReviewerResult(role, report1, None, exhaust(state))
    else:
        state = attrs.evolve(state, stage="phase2")
    report2 = made[1] or lint_phase2(phase2, contract, phase1, max_bytes=max_bytes)
    return ReviewerResult(role, report1, report2, exhaust(step(state, report2)))


#: Per reviewer, the caller's (Phase 1 report, Phase 2 report), either ``None`` when not given.
Linted = tuple[LintReport | None, LintReport | None]


def _linted(
    reports: object,
    entries: Sequence[tuple[str, str, str | None]],
    contract: Contract,
    max_bytes: int,
    ars: str,
) -> list[Linted]:
    """``reports`` checked against ``entries``: one item per reviewer, a Phase 2 report, a
    (Phase 1 report, Phase 2 report) pair or ``None``; each report given must be one the
    public lints just made from that reviewer's documents (:mod:`~kernel.reviewer.lint.
    linted`), else a :class:`KernelError` (a decision never uses a report of other text)."""
    if reports is None:
        return [(None, None)] * len(entries)
    if isinstance(reports, str | bytes | Mapping) or not isinstance(reports, Sequence):
        raise KernelError(
            f"reports must be a list of lint reports per reviewer, got {type(reports).__name__}"
        )
    if len(reports) != len(entries):
        raise KernelError(f"reports: {len(reports)} items for {len(entries)} reviewers")
    out: list[Linted] = []
    for i, (item, (_, phase2, phase1)) in enumerate(zip(reports, entries, strict=True)):
        pair = (None, item) if item is None or isinstance(item, LintReport) else item
        if not (isinstance(pair, tuple | list) and len(pair) == 2):
            raise KernelError(
                f"reports[{i}] must be a LintReport, a (phase1_report, phase2_report) pair or "
                f"None, got {type(item).__name__}"
            )
        one, two = pair
        for report, phase, text, against in ((one, 1, phase1, None), (two, 2, phase2, phase1)):
            if report is None:
                continue
            if text is None or not made_from(report, text, against, contract, max_bytes, ars):
                raise KernelError(
                    f"reports[{i}]: the Phase {phase} report is not the kernel's lint of "
                    f"reviewers[{i}]'s Phase {phase} text"
                    + (" against its Phase 1 text" if phase == 2 else "")
                    + " under this contract and reading (pass what lint_phase1/lint_phase2 "
                    "returned for exactly these documents, or None to lint them here)"
                )
        out.append((one, two))
    return out


def _entries(
    reviewers: object, panel_size: int, *, cap: bool = True
) -> list[tuple[str, str, str | None]]:
    """``reviewers`` checked entry by entry; at most ``panel_size + 1`` entries are read, so
    an endless iterable is refused too (with ``cap``, more than ``panel_size`` is a
    :class:`MatrixError`)."""
    if isinstance(reviewers, str | bytes | Mapping) or not isinstance(reviewers, Iterable):
        raise KernelError(
            "reviewers must be a list (or other iterable) of (role, phase2_text, phase1_text) "
            f"tuples, got {type(reviewers).__name__}"
        )
    entries: list[tuple[str, str, str | None]] = []
    for i, entry in enumerate(itertools.islice(reviewers, panel_size + 1)):
        if isinstance(entry, str | bytes) or not isinstance(entry, Sequence) or len(entry) != 3:
            size = f" of {len(entry)}" if isinstance(entry, Sequence) else ""
            raise KernelError(
                f"reviewers[{i}] must be a (role, phase2_text, phase1_text) tuple, got "
                f"{type(entry).__name__}{size}"
            )
        role, phase2, phase1 = entry
        for value, what in ((role, "role"), (phase2, "phase2_text")):
            if not isinstance(value, str):
                raise KernelError(
                    f"reviewers[{i}]: {what} must be a str, got {type(value).__name__}"
                )
        if phase1 is not None and not isinstance(phase1, str):
            raise KernelError(
                f"reviewers[{i}]: phase1_text must be a str or None, got {type(phase1).__name__}"
            )
        entries.append((role, phase2, phase1))
    if cap and len(entries) > panel_size:
        count = len(reviewers) if isinstance(reviewers, Sized) else f"more than {panel_size}"
        raise MatrixError(
            f"{count} reviewers for panel_size={panel_size}: more scores than the panel (R9)"
        )
    return entries


def decide_documents(
    contract: Contract | Mapping[str, Any] | str,
    reviewers: Iterable[tuple[str, str, str | None]],
    *,
    synthesis: str | None = None,
    max_bytes: int = MAX_INPUT_BYTES,
    ars: str | Reading = DEFAULT_ARS,
    reports: Sequence[LintReport | Linted | None] | None = None,
) -> PanelOutcome | RoundV2Outcome:
    """Lint each ``(role, phase2_text, phase1_text)``, then decide or abort, in the
    contract's dialect.

    ``reports``, when given, holds per reviewer (in the same order) the reports the caller
    has just made of those documents with :func:`~kernel.reviewer.lint.lint_phase1` and
    :func:`~kernel.reviewer.lint.lint_phase2` (the Phase 2 report against that reviewer's
    Phase 1 text, the same ``max_bytes``): a Phase 2 report, a (Phase 1 report, Phase 2
    report) pair, or ``None`` (either report ``None`` too): the decision uses them as they
    are (with the names and role the caller linted them with) instead of linting the same
    documents again. A report not made by those lints from exactly these documents is a
    :class:`KernelError`.

    ``reviewers`` is a list, tuple or any other iterable (a generator too) of 3-tuples (or
    3-item lists): a str role, the Phase 2 text and the Phase 1 text or ``None``. Anything
    else is a :class:`KernelError` naming the entry. ``max_bytes`` limits each document.
    ``synthesis``, a written synthesis, is checked against the decision (R17; under 13.2
    against the recomputation, 13.2 §G) into the outcome's ``synthesis`` (``ok``,
    ``findings``, ``to_dict()``); it is ``None`` when none was given or the round aborted.

    Schema 13 (a :class:`PanelOutcome`): the role is a name for the tags; a ``None`` Phase 1
    text skips the consistency check (the Phase 2 report carries a warning saying so); more
    reviewers than ``panel_size`` (:class:`MatrixError`) or repeated roles are refused.

    Dialect 13.2 (a :class:`~kernel.reviewer.round_v2.RoundV2Outcome`): the role is the
    seat the documents were dispatched as, and each Phase 2's ``contract_role:`` must name
    it (``[ROLE-BINDING: …]``); the seats must be exactly the mode's roles
    (``[PANEL-CARDINALITY: …]``). A round that cannot be decided has no decision and its
    tags say why. Both outcomes have ``decision``, ``tags``, ``reviewers`` ((role, the
    report that decided the seat)), ``matrix``, ``aborted`` and ``to_dict()``. ``ars`` is
    the ARS reading of 13.2 documents (``"main"``, the default, or ``"fork"``).
    """
    chosen = reading(ars)
    loaded = load_contract(contract)
    if synthesis is not None and not isinstance(synthesis, str):
        raise KernelError(f"synthesis must be a str or None, got {type(synthesis).__name__}")
    entries = _entries(reviewers, loaded.panel_size, cap=_DOORS[loaded.dialect].cap)
    made = _linted(reports, entries, loaded, max_bytes, chosen.name)
    return _DOORS[loaded.dialect].decide(loaded, entries, synthesis, max_bytes, chosen, made)


def _decide_13(
    contract: Contract,
    reviewers: list[tuple[str, str, str | None]],
    synthesis: str | None,
    max_bytes: int,
    ars: Reading,
    made: Sequence[Linted],
) -> PanelOutcome:
    roles = [r[0] for r in reviewers]
    if len(set(roles)) != len(roles):
        raise KernelError(f"reviewer roles must be distinct: {', '.join(roles)}")
    details = tuple(
        _review(contract, role, p2, p1, max_bytes, m)
        for (role, p2, p1), m in zip(reviewers, made, strict=True)
    )
    details = _without_duplicates(details, [r[1] for r in reviewers])
    tags = panel_tags([d.state for d in details], contract.panel_size)
    decision: Decision | None = None
    matrix: dict[str, list[str]] | None = None
    if not any(t.startswith("[PANEL-SHRUNK") for t in tags):
        matrix = {
            d.id: [r.phase2.scores[d.id] for r in details if r.phase2 and r.phase2.scores]
            for d in contract.dimensions
        }
        decision = decide(contract, matrix)
    checked = (
        check_synthesis(contract, decision, synthesis)
        if synthesis is not None and decision is not None
        else None
    )
    assert checked is None or isinstance(checked, SynthesisReport)  # a Schema 13 round
    reports = tuple((r.role, r.report) for r in details)
    return PanelOutcome(decision, tags, reports, details, matrix, checked)


def _decide_13_2(
    contract: Contract,
    reviewers: list[tuple[str, str, str | None]],
    synthesis: str | None,
    max_bytes: int,
    ars: Reading,
    made: Sequence[Linted],
) -> RoundV2Outcome:
    from kernel.reviewer.round_v2 import decide_reports_v2

    roles = [r[0] for r in reviewers]
    return decide_reports_v2(
        contract,
        reviewers,
        roles=roles,
        synthesis=synthesis,
        max_bytes=max_bytes,
        ars=ars,
        linted=[m[1] for m in made],
    )


@attrs.frozen
class _Door:
    decide: Callable[
        [
            Contract,
            list[tuple[str, str, str | None]],
            str | None,
            int,
            Reading,
            Sequence[Linted],
        ],
        PanelOutcome | RoundV2Outcome,
    ]
    #: Whether more reviewers than ``panel_size`` are refused on reading (13), rather than
    #: aborting the round with a tag (13.2, ``[PANEL-CARDINALITY: got=…]``).
    cap: bool


#: dialect → how a round of its documents is decided.
_DOORS: Final[Mapping[str, _Door]] = {
    "13": _Door(_decide_13, cap=True),
    "13.2": _Door(_decide_13_2, cap=False),
}


def _without_duplicates(
    details: tuple[ReviewerResult, ...], texts: Sequence[str]
) -> tuple[ReviewerResult, ...]:
    """R16: each later copy of a usable Phase 2 report becomes unusable."""
    usable = [t if d.state.usable else None for d, t in zip(details, texts, strict=True)]
    return tuple(
        d if earlier is None else attrs.evolve(d, state=duplicate(d.state))
        for d, earlier in zip(details, duplicate_of(usable), strict=True)
    )


def finding_lines(
    outcome: PanelOutcome, sources: Mapping[str, tuple[str, str | None]]
) -> list[str]:
    """``file:line: CODE message`` per finding; ``sources`` maps each role to its
    (Phase 2 file, Phase 1 file)."""
    if not isinstance(outcome, PanelOutcome):
        raise KernelError(f"outcome must be a PanelOutcome, got {type(outcome).__name__}")
    if not isinstance(sources, Mapping):
        raise KernelError(f"sources must be a mapping, got {type(sources).__name__}")
    lines: list[str] = []
    for r in outcome.details:
        pair = sources.get(r.role, (r.role, None))
        if not (isinstance(pair, tuple | list) and len(pair) == 2):
            raise KernelError(f"sources[{shown(r.role)}] must be a (phase2_file, phase1_file) pair")
        p2_file, p1_file = str(pair[0]), None if pair[1] is None else str(pair[1])
        for file, report in ((p1_file or f"{r.role} (phase 1)", r.phase1), (p2_file, r.phase2)):
            if report is None:
                continue
            for f in report.findings:
                where = file if f.line is None else f"{file}:{f.line}"
                message = f.message if f.severity == "error" else f"{f.severity}: {f.message}"
                lines.append(f"{where}: {f.code} {message}")
    return lines


def text_lines(outcome: PanelOutcome, sources: Mapping[str, tuple[str, str | None]]) -> list[str]:
    """Text output: the findings (:func:`finding_lines`), then the tags, then the decision
    and fired table."""
    lines = finding_lines(outcome, sources)
    lines += list(outcome.tags)
    if outcome.decision is not None:
        d = outcome.decision
        how = "R5 fallback: nothing fired" if d.fallback else f"decided by {d.condition_id}"
        lines.append(f"{d.action} ({how})")
        for cid, flag in d.fired.items():
            lines.append(
                f"  {cid}: {'fired' if flag else 'not fired'} "
                f"({d.counts[cid]} reviewer(s), {d.thresholds[cid]} needed)"
            )
    return lines
