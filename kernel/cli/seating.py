"""What ``lint`` and ``decide`` read beside the documents they are given, and which seat each
13.2 document fills.

A ``NAME.phase2.md`` goes with the ``NAME.phase1.md`` in the same directory: the one given
in the same call, else the one on disk (so that a pre-commit hook, which passes only the
files a commit changes, still checks a Phase 2 report against its Phase 1). Under 13.2 the
seats are read from the documents (:mod:`kernel.reviewer.lint.seating`).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import attrs

from kernel.cli.files import PHASE1, PHASE2, is_excluded, phase1_partners
from kernel.contract.model import Contract
from kernel.errors import KernelError
from kernel.reviewer.lint.report import LintReport

if TYPE_CHECKING:  # the 13.2 lints load only when a 13.2 round is seated
    from kernel.cli.config import Settings
    from kernel.reviewer.lint.seating import Seating

__all__ = ["Partners", "Seated", "add_verbose", "partners", "seat_documents"]


@attrs.frozen
class Partners:
    #: Each Phase 2 document → the Phase 1 document it is read with.
    of: Mapping[str, str]
    #: The Phase 1 documents of ``of`` that were not given but found beside their Phase 2.
    from_disk: frozenset[str]

    def entry(self, phase2: str) -> dict[str, object]:
        """The JSON keys that say which Phase 1 a Phase 2 document was read with."""
        if phase2 not in self.of:
            return {}
        return {"phase1_file": self.of[phase2], "phase1_from_disk": phase2 in self.from_disk}

    def told(self, phase2: str) -> list[str]:
        """The verbose line about a Phase 1 document read from disk."""
        if phase2 not in self.from_disk:
            return []
        return [f"{phase2}: read with {self.of[phase2]}, found beside it"]


def partners(files: Sequence[str], settings: Settings | None = None) -> Partners:
    """Each ``NAME.phase2.md`` among ``files`` paired with its ``NAME.phase1.md``: given in
    ``files``, else the regular file of that name beside it, unless the configuration's
    ``exclude`` covers it (``settings``)."""
    given = phase1_partners(files)
    found: dict[str, str] = {}
    for path in files:
        if path.endswith(PHASE2) and path not in given:
            partner = path[: -len(PHASE2)] + PHASE1
            if os.path.isfile(partner) and (settings is None or not is_excluded(partner, settings)):
                found[path] = partner
    return Partners({**given, **found}, frozenset(found))


def add_verbose(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also say which Phase 1 documents were read from disk and which seat each "
        "document takes",
    )


@attrs.frozen
class Seated:
    seating: Seating
    #: The Phase 2 reports, linted once while their seats were read (or why they were not).
    reports: Mapping[str, LintReport | KernelError]

    def told(self, doc: str) -> list[str]:
        role = self.seating.roles.get(doc)
        return [f"{doc}: seat {role}"] if role is not None else []


def _named(path: str) -> str | None:
    name = os.path.basename(path)
    return name[: -len(PHASE1)] if name.endswith(PHASE1) else None


def seat_documents(
    contract: Contract,
    read: Mapping[str, tuple[int, str, str | None]],
    paired: Partners,
    max_bytes: int,
    *,
    phase1_name: str | None = None,
    name_of: Callable[[str], str] = lambda path: path,
    ars: str = "main",
) -> Seated:
    """Lint each Phase 2 document of ``read`` (path → phase, text, Phase 1 text) for the
    seat it declares (its report's ``role``), then seat every document. ``phase1_name``
    names a Phase 1 text that is not a partner (``--phase1``); ``name_of`` gives the name a
    document has in the reports (``-`` may have a --stdin-filename); ``ars``: the ARS
    reading."""
    from kernel.reviewer.lint.dialects import lint_phase2
    from kernel.reviewer.lint.seating import Claim, seat

    reports: dict[str, LintReport | KernelError] = {}
    declared: dict[str, str | None] = {}
    for doc, (phase, text, before) in read.items():
        if phase != 2:
            continue
        try:
            report = lint_phase2(
                text,
                contract,
                before,
                source=doc,
                phase1_source=paired.of.get(doc, phase1_name or "phase1"),
                max_bytes=max_bytes,
                ars=ars,
            )
        except KernelError as exc:
            reports[doc], declared[doc] = exc, None
        else:
            reports[doc], declared[doc] = report, report.role
    partner_of = {p1: p2 for p2, p1 in paired.of.items() if p2 in read}
    claims = [
        Claim(doc, 2, declared[doc])
        if phase == 2
        else Claim(doc, 1, _named(name_of(doc)), partner_of.get(doc))
        for doc, (phase, _, _) in read.items()
    ]
    return Seated(seat(contract, claims), reports)
