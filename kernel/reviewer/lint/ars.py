"""Which ARS reads a 13.2 reviewer document: upstream main or the fork (``ars``).

Dialect 13.2 has two readings (docs/reviewer-documents.md, "The two readings of 13.2"):

* ``"main"`` (the default): the original repository as users install it. Synthesis audit
  lines are also read inside code fences and whole-line code spans, equal copies collapse
  and different ones abort; a finding may restate its Severity upwards (the last value
  counts, with the ``SEVERITY-SUPERSEDED`` warning); the methodology seat's card ends with
  ``## Arithmetic Receipts``; a dissent hidden behind a comment or written beside raw HTML
  aborts.
* ``"fork"``: the fork whose reviewer checkers the kernel followed first (dialect-13.2).

The reading is a value, one row of :data:`READINGS`; each rule asks the row, never the
name. Contracts, dialect 13 and decisions from matrices do not depend on it. Nothing is
detected: a project that needs the fork's reading says so (``ars = "fork"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from kernel.errors import KernelError
from kernel.strict import shown
from kernel.suggest import did_you_mean

__all__ = ["ARS", "DEFAULT_ARS", "READINGS", "Reading", "reading"]


@attrs.frozen
class Reading:
    """What one ARS reading changes in the 13.2 document rules."""

    name: str
    #: Synthesis audit lines are read in fenced code (display form) and whole-line code
    #: spans too; repeats with one value collapse, different values abort.
    display_forms: bool
    #: A scoring seat's finding may restate its Severity, strictly upwards; the last value
    #: is the operative one (warning ``SEVERITY-SUPERSEDED``).
    severity_escalation: bool
    #: The methodology seat's Phase 2 carries ``## Arithmetic Receipts``; other seats may not.
    receipts: bool
    #: A dissent field hidden by a comment (``DISSENT-HIDDEN``), or a dissent section holding
    #: raw HTML (``DISSENT-RAW-HTML``), aborts the report.
    dissent_html: bool


#: The readings, by the name a setting gives; the default first.
READINGS: Final[Mapping[str, Reading]] = {
    "main": Reading(
        "main", display_forms=True, severity_escalation=True, receipts=True, dissent_html=True
    ),
    "fork": Reading(
        "fork", display_forms=False, severity_escalation=False, receipts=False, dissent_html=False
    ),
}
ARS: Final = tuple(READINGS)
DEFAULT_ARS: Final = "main"


def reading(ars: object) -> Reading:
    """The reading ``ars`` names (a :class:`Reading` is taken as it is); anything else is a
    :class:`KernelError` naming the readings."""
    if isinstance(ars, Reading):
        return ars
    if isinstance(ars, str) and ars in READINGS:
        return READINGS[ars]
    if isinstance(ars, str):
        hint = did_you_mean(ars, ARS)
        raise KernelError(f"ars: {shown(ars)} is no ARS reading{hint} (readings: {', '.join(ARS)})")
    raise KernelError(f"ars must be one of {', '.join(ARS)}, got {type(ars).__name__}")
