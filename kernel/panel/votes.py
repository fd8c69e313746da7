"""Votes documents: their schema, their problems, and their resolution (findings, agreement
level, verdict)."""

from __future__ import annotations

import functools
from typing import Any, Final

from kernel.panel.verdicts import SEVERITIES, VERDICTS, escalate, resolve_verdict
from kernel.panel.voting import VOTES, agreement_level, resolve_finding
from kernel.schema import schema_errors, strict_validator
from kernel.strict import shown

__all__ = ["VOTES_SCHEMA", "resolve_document", "votes_problems"]

VOTES_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "required": ["specialists", "findings"],
    "additionalProperties": False,
    "properties": {
        "specialists": {
            "type": "array",
            "minItems": 1,
            "uniqueItems": True,
            "items": {"type": "string", "minLength": 1},
        },
        "findings": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "originator", "votes"],
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string", "minLength": 1},
                    "originator": {"type": "string", "minLength": 1},
                    "severity": {"enum": list(SEVERITIES)},
                    "votes": {"type": "object", "additionalProperties": {"enum": list(VOTES)}},
                    "withdrawn": {"type": "boolean"},
                },
            },
        },
        "verdicts": {"type": "object", "additionalProperties": {"enum": list(VERDICTS)}},
    },
}


@functools.cache
def _validator() -> Any:
    return strict_validator(VOTES_SCHEMA)


def votes_problems(doc: object) -> list[str]:
    """Why ``doc`` is not a usable votes document (each naming its JSON path); empty if it is."""
    out = [str(e) for e in schema_errors(_validator(), doc)]
    if out:
        return out
    assert isinstance(doc, dict)
    panel = set(doc["specialists"])
    seen: set[str] = set()
    for i, f in enumerate(doc["findings"]):
        if f["id"] in seen:
            out.append(f"$.findings[{i}].id: duplicate finding id {shown(f['id'])}")
        seen.add(f["id"])
        for who in [f["originator"], *f["votes"]]:
            if who not in panel:
                out.append(f"$.findings[{i}]: {shown(who)} is not one of the specialists")
    for who in doc.get("verdicts", {}):
        if who not in panel:
            out.append(f"$.verdicts: {shown(who)} is not one of the specialists")
    return out


def resolve_document(doc: Any) -> dict[str, Any]:
    """Resolve a votes document (without :func:`votes_problems`) into a JSON-ready result."""
    n = len(doc["specialists"])
    rows: list[dict[str, Any]] = []
    for f in doc["findings"]:
        r = resolve_finding(
            f["votes"], originator=f["originator"], n_global=n, withdrawn=f.get("withdrawn", False)
        )
        rows.append({"id": f["id"], "severity": f.get("severity"), **r.to_dict()})
    verdict: dict[str, Any] | None = None
    if doc.get("verdicts"):
        panel = resolve_verdict(list(doc["verdicts"].values()))
        esc = escalate(
            panel, [(r["severity"], r["outcome"]) for r in rows if r["severity"] is not None]
        )
        verdict = {"panel": panel, "final": esc.verdict, "reasons": list(esc.reasons)}
    return {
        "findings": rows,
        "agreement_level": agreement_level([r["outcome"] for r in rows]),
        "verdict": verdict,
    }
