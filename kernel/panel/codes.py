"""Diagnostic codes of the panel's ``route``, ``delta`` and ``audit`` commands, for the
registry: code → (severity, one-line summary, rule reference in docs/panel.md)."""

from __future__ import annotations

from typing import Final

__all__ = ["CODES"]

CODES: Final[dict[str, tuple[str, str, str]]] = {
    "PANEL-INPUT": (
        "error",
        "an input document breaks its schema or the panel's rules (names the JSON path/line)",
        "docs/panel.md#input-documents",
    ),
    "PANEL-LIFECYCLE": (
        "error",
        "a finding's lifecycle event is out of order (names the finding and both states)",
        "docs/panel.md#audit-log",
    ),
    "ROUTE": (
        "info",
        "one specialist's challenge queue, by band",
        "docs/panel.md#challenge-routing",
    ),
    "ROUTE-BANDS": (
        "info",
        "(finding, specialist) pairs per band: primary, adjacent, rest",
        "docs/panel.md#challenge-routing",
    ),
    "UNLISTED-DOMAIN": (
        "warning",
        "a finding's domain is listed by no specialist of the profile (routed to the rest)",
        "docs/panel.md#challenge-routing",
    ),
    "DELTA-TARGET": ("info", "a changed path to review", "docs/panel.md#delta-mode"),
    "DELTA-KEPT": ("info", "a finding on an unchanged path, kept", "docs/panel.md#delta-mode"),
    "DELTA-DROPPED": (
        "info",
        "a finding on a changed path, dropped for re-review",
        "docs/panel.md#delta-mode",
    ),
    "DELTA": ("info", "delta-mode totals", "docs/panel.md#delta-mode"),
    "SESSION": ("info", "the review parameters of a session log", "docs/panel.md#audit-log"),
    "PHASE": ("info", "a phase's timestamps and tokens", "docs/panel.md#audit-log"),
    "FINDING": ("info", "a finding's lifecycle and final state", "docs/panel.md#audit-log"),
    "SCRIPT": ("info", "a script's exit status", "docs/panel.md#audit-log"),
    "AUDIT": ("info", "session-log totals", "docs/panel.md#audit-log"),
}
