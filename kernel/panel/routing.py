"""Domain-aware challenge routing (companions.md §C2): who sees which finding first.

During the challenge round every specialist other than a finding's originator receives the
finding. Routing only orders each specialist's queue: findings in one of its primary
domains first, then those in an adjacent domain, then the rest, each band in the findings'
own order. It is advisory (a specialist may still challenge anything); the band counts let a
pipeline measure how much cross-agent attention the hint saves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from kernel.errors import KernelError
from kernel.panel.inputs import (
    PanelInputError,
    Problem,
    check_schema,
    findings_list,
    has_strings,
    json_list,
    pointer,
    validator,
)
from kernel.strict import shown

__all__ = [
    "BANDS",
    "FINDINGS_SCHEMA",
    "PROFILES",
    "Routed",
    "Routing",
    "Specialist",
    "band_of",
    "route",
    "route_document",
]

PRIMARY, ADJACENT, REST = "primary", "adjacent", "rest"
BANDS: tuple[str, ...] = (PRIMARY, ADJACENT, REST)


@attrs.frozen
class Specialist:
    code: str
    primary: tuple[str, ...]
    adjacent: tuple[str, ...]


def _profile(*rows: tuple[str, str, str]) -> Mapping[str, Specialist]:
    return MappingProxyType(
        {
            code: Specialist(code, tuple(primary.split(", ")), tuple(adjacent.split(", ")))
            for code, primary, adjacent in rows
        }
    )


#: The two profiles, specialists in table order, domains exactly as the tables list them.
PROFILES: Mapping[str, Mapping[str, Specialist]] = MappingProxyType(
    {
        "code": _profile(
            ("SEC", "injection, auth, crypto, secrets", "input-validation, error-handling"),
            ("PERF", "complexity, memory, io, caching", "concurrency, scalability"),
            ("QUAL", "naming, duplication, solid, error-handling", "readability, testing"),
            ("CORR", "logic, edge-cases, races, invariants", "error-propagation, null-safety"),
            ("ARCH", "coupling, cohesion, boundaries, extensibility", "patterns, dependencies"),
        ),
        "strategy": _profile(
            ("FEAS", "effort, dependencies, phasing, technical-risk", "timeline, resources"),
            (
                "ARCH",
                "integration, api-contracts, boundaries, failure-modes",
                "patterns, scalability",
            ),
            ("SEC", "threat-model, auth, data-handling, compliance", "crypto, network"),
            ("USER", "backward-compat, migration, usability, documentation", "api-design, ux"),
            ("SCOP", "scope, acceptance-criteria, completeness, nfr", "edge-cases, priorities"),
            ("TEST", "testability, coverage, test-strategy, verification", "ci-cd, environments"),
        ),
    }
)

_ID = {"type": "string", "minLength": 1}
#: A JSON array of findings; each needs ``id``, ``originator`` and ``domain`` (other members
#: are allowed and ignored).
FINDINGS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["id", "originator", "domain"],
        "properties": {"id": _ID, "originator": _ID, "domain": _ID},
    },
}


def _specialists(profile: object) -> Mapping[str, Specialist]:
    if not isinstance(profile, str) or profile not in PROFILES:
        raise KernelError(
            f"unknown profile {shown(profile)} (expected one of {', '.join(PROFILES)})"
        )
    return PROFILES[profile]


def band_of(domain: str, specialist: str, profile: str) -> str:
    """``"primary"``, ``"adjacent"`` or ``"rest"``: where a finding tagged ``domain`` falls
    for ``specialist`` of ``profile``."""
    table = _specialists(profile)
    if specialist not in table:
        raise KernelError(
            f"unknown specialist {shown(specialist)} for the {profile} profile "
            f"(expected one of {', '.join(table)})"
        )
    return _band(domain, table[specialist])


def _band(domain: str, s: Specialist) -> str:
    return PRIMARY if domain in s.primary else ADJACENT if domain in s.adjacent else REST


@attrs.frozen
class Routed:
    """One entry of a specialist's queue."""

    id: str
    band: str


@attrs.frozen
class Routing:
    """Each specialist's queue, in routing order, and the pair counts per band.

    ``queues`` maps every specialist of the profile (table order) to finding ids;
    ``routes`` holds the same queues with each entry's band; ``bands`` counts
    (finding, specialist) pairs per band; ``unlisted`` names the domains that no
    specialist of the profile lists (first-seen order), which land in ``rest`` for all.
    """

    profile: str
    routes: Mapping[str, tuple[Routed, ...]]
    bands: Mapping[str, int]
    unlisted: tuple[str, ...] = ()

    @property
    def queues(self) -> Mapping[str, tuple[str, ...]]:
        return MappingProxyType(
            {who: tuple(r.id for r in queue) for who, queue in self.routes.items()}
        )

    @property
    def pairs(self) -> int:
        return sum(self.bands.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "queues": {who: list(ids) for who, ids in self.queues.items()},
            "routes": {
                who: [{"id": r.id, "band": r.band} for r in queue]
                for who, queue in self.routes.items()
            },
            "bands": dict(self.bands),
            "pairs": self.pairs,
            "unlisted_domains": list(self.unlisted),
        }


def _route(findings: Any, profile: object, prefix: str) -> Routing:
    table = _specialists(profile)
    if not has_strings(findings, ("id", "originator", "domain")):
        check_schema(validator(FINDINGS_SCHEMA), findings, prefix=prefix)
    problems: list[Problem] = []
    seen: set[str] = set()
    for i, f in enumerate(findings):
        if f["id"] in seen:
            problems.append(
                Problem(f"duplicate finding id {shown(f['id'])}", prefix + pointer(i, "id"))
            )
        seen.add(f["id"])
        if f["originator"] not in table:
            problems.append(
                Problem(
                    f"{shown(f['originator'])} is not a specialist of the {profile} profile "
                    f"(expected one of {', '.join(table)})",
                    prefix + pointer(i, "originator"),
                )
            )
    if problems:
        raise PanelInputError(problems)
    listed = {d for s in table.values() for d in (*s.primary, *s.adjacent)}
    unlisted = tuple(dict.fromkeys(f["domain"] for f in findings if f["domain"] not in listed))
    bands = dict.fromkeys(BANDS, 0)
    routes: dict[str, tuple[Routed, ...]] = {}
    for who, s in table.items():
        entries = [
            Routed(f["id"], _band(f["domain"], s)) for f in findings if f["originator"] != who
        ]
        entries.sort(key=lambda r: BANDS.index(r.band))  # stable: ties keep the findings' order
        for r in entries:
            bands[r.band] += 1
        routes[who] = tuple(entries)
    return Routing(
        profile=str(profile),
        routes=MappingProxyType(routes),
        bands=MappingProxyType(bands),
        unlisted=unlisted,
    )


def route(findings: Iterable[Mapping[str, Any]], profile: str) -> Routing:
    """Route ``findings`` (mappings with ``id``, ``originator``, ``domain``) for the
    challenge round of ``profile`` (``"code"`` or ``"strategy"``).

    Raises ``KernelError`` for an unknown profile, and ``PanelInputError`` (a
    ``KernelError``) naming the JSON path of each bad finding, duplicate id or originator
    that is not a specialist of the profile.
    """
    return _route(json_list(findings, "findings"), profile, "")


def route_document(document: Any, profile: str) -> Routing:
    """``route`` over a decoded JSON document: an array of findings, or an object with a
    ``findings`` array (problems then name ``/findings/…``)."""
    findings, prefix = findings_list(document)
    return _route(findings, profile, prefix)
