"""Provenance markers and mediated communication (seed 004, "Injection Resistance").

The orchestrator gives each agent a marker ``[PROVENANCE:AGENT:NONCE]`` (*chosen* format) to
end its output with. ``verify_output`` checks that the output ends with exactly that marker,
strips it, and reports every other provenance-looking or injection passage in the rest, so
the text routed to other agents carries no marker at all.
"""

from __future__ import annotations

import re

import attrs

from kernel.errors import KernelError
from kernel.strict import shown
from kernel.text.injection import InjectionFinding, scan_injection

__all__ = ["Verified", "provenance_marker", "verify_output"]

_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def provenance_marker(agent: str, nonce: str) -> str:
    """The marker an agent must end its output with."""
    for what, value in (("agent", agent), ("nonce", nonce)):
        if not isinstance(value, str) or _TOKEN.fullmatch(value) is None:
            raise KernelError(f"{what} must be 1-64 ASCII letters, digits, '_' or '-'")
    return f"[PROVENANCE:{agent}:{nonce}]"


@attrs.frozen
class Verified:
    """``ok`` when the marker was present, last and unique, and the rest scanned clean;
    ``text`` is the output without its marker (what the orchestrator may route on)."""

    ok: bool
    text: str
    problems: tuple[str, ...]
    findings: tuple[InjectionFinding, ...]


def verify_output(output: str, agent: str, nonce: str) -> Verified:
    """Verify and strip ``agent``'s marker; scan the remaining text for injection."""
    marker = provenance_marker(agent, nonce)
    if not isinstance(output, str):
        raise KernelError(f"output must be a string, got {type(output).__name__}")
    problems: list[str] = []
    body = output.rstrip()
    if body.endswith(marker):
        body = body[: -len(marker)].rstrip()
    else:
        problems.append(f"output does not end with its provenance marker {marker}")
    if marker in body:
        problems.append("the provenance marker occurs more than once")
    findings = scan_injection(body)
    problems.extend(
        f"{f.category} at {f.span[0]}-{f.span[1]}: {shown(f.matched)}" for f in findings
    )
    return Verified(ok=not problems, text=body, problems=tuple(problems), findings=findings)
