"""Upstream's column-0 line reading of a 13.2 Phase 2 report (13.2 §E0, §F2-§F5), written
apart from the kernel from the rules' own regular expressions: what the seat's role and
scores are for a line reader, or that the report does not parse."""

from __future__ import annotations

import re
from collections.abc import Sequence

_LINE_END = re.compile(r"\r\n|\r|\n")
_OPEN = re.compile(r" {0,3}(?P<fence>`{3,}|~{3,})(?P<info>.*)")
_CLOSE = re.compile(r" {0,3}(?P<fence>`{3,}|~{3,})[ \t]*")
_H2 = re.compile(r"## (?P<title>.+)")
_H3 = re.compile(r"### (?P<title>.+)")
_ROLE = re.compile(r"contract_role: (?P<value>[a-z_]+)\s*")
_FIELDS = {
    "score": re.compile(r"score: (?P<value>block|warn|pass|not_assessed)\s*"),
    "block_class": re.compile(r"block_class: (?P<value>fatal|repairable)\s*"),
    "trigger": re.compile(r'trigger: "(?P<value>[^"\n]+)"\s*'),
    "abstain_reason": re.compile(r"abstain_reason: (?P<value>\S.*)"),
}


def fence_stripped(text: str) -> list[str]:
    """The lines a line reader keeps (13.2 §E0.1, §E0.2)."""
    kept: list[str] = []
    fence: str | None = None
    for line in _LINE_END.split(text):
        if fence is None:
            m = _OPEN.fullmatch(line)
            if m and not (m["fence"][0] == "`" and "`" in m["info"]):
                fence = m["fence"]
                continue
            kept.append(line)
        else:
            m = _CLOSE.fullmatch(line)
            if m and m["fence"][0] == fence[0] and len(m["fence"]) >= len(fence):
                fence = None
    return kept


def _title(m: re.Match[str] | None) -> str | None:
    return None if m is None else m["title"].rstrip() or m["title"][0]


def _sections(lines: Sequence[str], heading: re.Pattern[str]) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for line in lines:
        title = _title(heading.fullmatch(line))
        if title is not None:
            out.append((title, []))
        elif out:
            out[-1][1].append(line)
    return out


def read_report(
    text: str, dimensions: Sequence[tuple[str, str]]
) -> tuple[str, dict[str, str]] | None:
    """(role, dimension id → ``score`` or ``block:<class>``) as a line reader reads the
    report, or ``None`` when it does not parse (§F2-§F5)."""
    lines = fence_stripped(text)
    roles = [m["value"] for line in lines if (m := _ROLE.fullmatch(line))]
    scores_sections = [body for title, body in _sections(lines, _H2) if title == "Dimension Scores"]
    if len(roles) != 1 or len(scores_sections) != 1:
        return None
    subs = _sections(scores_sections[0], _H3)
    titles = [t for t, _ in subs]
    if len(set(titles)) != len(titles) or sorted(titles) != sorted(
        f"{d}: {n}" for d, n in dimensions
    ):
        return None
    scores: dict[str, str] = {}
    for title, body in subs:
        values = {
            key: [m["value"] for line in body if (m := pattern.fullmatch(line))]
            for key, pattern in _FIELDS.items()
        }
        if len(values["score"]) != 1 or any(len(v) > 1 for v in values.values()):
            return None
        classes = values["block_class"]
        scores[title.split(":")[0]] = values["score"][0] + (f":{classes[0]}" if classes else "")
    return roles[0], scores


_PLAN_FIELDS = ("what_to_look_for", "what_triggers_block", "what_triggers_warn")
_PLAN = {
    "dimension_id": re.compile(r"dimension_id: (?P<value>D\d+)"),
    **{f: re.compile(rf"{f}: (?P<value>\S.*)") for f in (*_PLAN_FIELDS, "what_triggers_fatal")},
}


def read_plan(
    text: str, eligible: Sequence[tuple[str, str, bool]]
) -> dict[str, dict[str, str]] | None:
    """Dimension id → plan field → value as a line reader reads a Phase 1 document's plan
    (13.2 §E1, §E3, §E5, §E6), for the ``(id, name, mandatory)`` dimensions the seat plans;
    ``None`` when the plan does not parse."""
    lines = fence_stripped(text)
    sections = _sections(lines, _H2)
    if [t.strip() for t, _ in sections] != ["Contract Paraphrase", "Scoring Plan"]:
        return None
    subs = _sections(sections[1][1], _H3)
    titles = [t for t, _ in subs]
    wanted = {f"{d}: {n}": (d, mandatory) for d, n, mandatory in eligible}
    if len(set(titles)) != len(titles) or set(titles) != set(wanted):
        return None
    plans: dict[str, dict[str, str]] = {}
    for title, body in subs:
        dim, mandatory = wanted[title]
        values = {
            key: [m["value"] for line in body if (m := pattern.fullmatch(line))]
            for key, pattern in _PLAN.items()
        }
        needed = ("dimension_id", *_PLAN_FIELDS, *(["what_triggers_fatal"] if mandatory else []))
        if any(len(values[k]) != 1 for k in needed) or values["dimension_id"] != [dim]:
            return None
        if not mandatory and values["what_triggers_fatal"]:
            return None
        plans[dim] = {k: v[0] for k, v in values.items() if v}
    return plans
