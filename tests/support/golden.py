"""The golden-findings corpus: a few thousand generated reviewer documents and mutations, and
the findings today's code reports on each, kept in ``tests/data/golden_findings.json.gz``.

Documents start from the shipped rounds (``examples/full``, Schema 13, and
``examples/full-13.2``): every seat's Phase 1 and Phase 2 and the synthesis, grown with
review prose (the paragraphs of ``tests/corpus/review-prose`` and sentences drawn from their
words) to real sizes, then changed by seeded mutations a model's output shows: lines
dropped, doubled or swapped, bullets, quotes and bold keys, fences opened and left open,
comments, invisible characters, other case and full-width colons, self-corrections, DA
table rows, injected instructions (``tests/corpus/injection``), manuscript shingles.

Every case is linted (Phase 2 against its seat's Phase 1), some whole rounds are decided
with their synthesis, and each finding is recorded as (code, check, severity, line,
message). ``tests/reviewer/test_golden_findings.py`` compares them; plain ``pytest`` checks
every eighth case, ``HYPOTHESIS_PROFILE=heavy`` (or ``GOLDEN=all``) every case.

Regenerate after a change that is meant to change findings::

    python -m tests.support.golden --write

``READINGS`` holds the readings every case is linted under (keyword arguments added to each
lint and decision call); a new reading is one more entry.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import attrs

ROOT: Final = Path(__file__).resolve().parents[2]
GOLDEN: Final = ROOT / "tests" / "data" / "golden_findings.json.gz"
EXAMPLES: Final = ROOT / "examples"
CORPUS: Final = ROOT / "tests" / "corpus"
ROLES: Final = ("eic", "methodology", "domain", "perspective", "da")
#: dialect → (contract, the shipped round's folder).
DIALECTS: Final = {
    "13": ("reviewer/full", EXAMPLES / "full"),
    "13.2": (str(EXAMPLES / "full-13.2" / "contract.json"), EXAMPLES / "full-13.2"),
}
#: reading name → keyword arguments of every lint and decision call under it.
READINGS: Final[Mapping[str, Mapping[str, Any]]] = {
    "main": {"ars": "main"},
    "fork": {"ars": "fork"},
}
#: Documents per dialect and kind (a few thousand in all).
SEEDS: Final = 600
#: Plain ``pytest`` checks every ``SUBSET``-th case.
SUBSET: Final = 8

Finding = tuple[str, str, str, int | None, str]


@attrs.frozen
class Case:
    id: str
    dialect: str
    #: ``phase1``, ``phase2`` or ``round``.
    kind: str
    role: str
    text: str
    phase1: str | None = None
    manuscript: str | None = None
    #: A round's seats (role, phase2, phase1) and synthesis.
    seats: tuple[tuple[str, str, str | None], ...] = ()
    synthesis: str | None = None


# --- prose ------------------------------------------------------------------------------


def _paragraphs() -> list[str]:
    out: list[str] = []
    for path in sorted((CORPUS / "review-prose").glob("[0-9][0-9]-*.md")):
        for block in path.read_text("utf-8").split("\n\n"):
            block = block.strip()
            if len(block) > 80 and not block.startswith("#"):
                out.append(block)
    return out


def _attacks() -> list[str]:
    rows: list[str] = []
    for path in sorted((CORPUS / "injection").glob("*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line)["text"])
    return rows


_PARAGRAPHS: Final = _paragraphs()
_WORDS: Final = sorted({w for p in _PARAGRAPHS for w in re.findall(r"[A-Za-z][a-z'-]+", p)})
_ATTACKS: Final = _attacks()


def sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 24))]
    if rng.random() < 0.3:
        i = rng.randrange(len(words))
        mark = rng.choice(("*", "**", "`"))
        words[i] = f"{mark}{words[i]}{mark}"
    if rng.random() < 0.15:
        words.insert(rng.randrange(len(words)), f"(Table {rng.randint(1, 9)})")
    if rng.random() < 0.1:
        words.append(f"[see {rng.choice(_WORDS)}](https://example.org/{rng.randint(1, 99)})")
    return " ".join(words).capitalize() + rng.choice((".", ".", ".", ";", "?"))


def paragraph(rng: random.Random) -> str:
    if rng.random() < 0.4:
        return rng.choice(_PARAGRAPHS)
    return " ".join(sentence(rng) for _ in range(rng.randint(2, 7)))


def prose(rng: random.Random, size: int) -> str:
    parts: list[str] = []
    length = 0
    while length < size:
        p = paragraph(rng)
        parts.append(p)
        length += len(p) + 2
    return "\n\n".join(parts)


def manuscript(rng: random.Random, size: int) -> str:
    return "# A study of completion rates\n\n" + prose(rng, size) + "\n"


METADATA: Final = {"title": "A study of completion rates", "field": "education", "word_count": 9000}


# --- mutations --------------------------------------------------------------------------


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _at(rng: random.Random, lines: list[str]) -> int:
    return rng.randrange(len(lines)) if lines else 0


def _keyed(lines: list[str]) -> list[int]:
    return [i for i, s in enumerate(lines) if re.match(r"[a-z_]+:", s)]


def _m_drop(rng: random.Random, lines: list[str]) -> None:
    if lines:
        del lines[_at(rng, lines)]


def _m_double(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    lines.insert(i, lines[i] if lines else "")


def _m_swap(rng: random.Random, lines: list[str]) -> None:
    if len(lines) > 1:
        i = rng.randrange(len(lines) - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]


def _m_decorate(rng: random.Random, lines: list[str]) -> None:
    keyed = _keyed(lines) or [_at(rng, lines)]
    i = rng.choice(keyed)
    how = rng.choice(("- ", "> ", "* ", "  ", "    ", "**", "`", "1. ", "\t"))
    if how in ("**", "`"):
        key, colon, rest = lines[i].partition(":")
        lines[i] = f"{how}{key}{how}{colon}{rest}"
    else:
        lines[i] = how + lines[i]


def _m_case(rng: random.Random, lines: list[str]) -> None:
    keyed = _keyed(lines)
    if keyed:
        i = rng.choice(keyed)
        key, colon, rest = lines[i].partition(":")
        key = rng.choice((key.upper(), key.title(), key.replace("_", " "), key + " "))
        lines[i] = key + rng.choice((colon, "\uff1a", " :")) + rest


def _m_invisible(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    s = lines[i] if lines else ""
    k = rng.randint(0, len(s))
    lines[i : i + 1] = [s[:k] + rng.choice("\u200b\u00ad\u2060\ufeff\u200d\u00a0") + s[k:]]


def _m_fence(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    fence = rng.choice(("```", "~~~", "````", "```text", "  ```", "``` `x`"))
    lines.insert(i, fence)
    if rng.random() < 0.6:
        j = min(len(lines), i + rng.randint(1, 8))
        closer = re.match(r"[`~]+", fence.strip())
        lines.insert(j, closer.group() if closer else "```")


def _m_comment(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    what = rng.choice(("<!--", "<!-- note -->", "-->", "<!-- hidden", "<div>", "<!-->"))
    if rng.random() < 0.5:
        lines.insert(i, what)
    elif lines:
        lines[i] = what + " " + lines[i]


def _m_score(rng: random.Random, lines: list[str]) -> None:
    scored = [i for i, s in enumerate(lines) if s.startswith(("score:", "fired:"))]
    if scored:
        i = rng.choice(scored)
        key = lines[i].partition(":")[0]
        values = (
            ("pass", "warn", "block", "not_assessed", "fatal", "WARN", "maybe")
            if key == "score"
            else ("true", "false", "yes", "True")
        )
        lines[i] = f"{key}: {rng.choice(values)}"


def _m_correction(rng: random.Random, lines: list[str]) -> None:
    scored = [i for i, s in enumerate(lines) if s.startswith("score:")]
    if scored:
        i = rng.choice(scored)
        note = rng.choice(
            (
                ["", "Correction: on reflection the score above should read block.", ""],
                ["", "~~score: pass~~ score: warn", ""],
                ["score: block"],
                ["", "(I earlier wrote pass here; the evidence supports warn.)", ""],
            )
        )
        lines[i + 1 : i + 1] = note


def _m_heading(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    lines.insert(
        i,
        rng.choice(
            (
                "## Review Body",
                "### D7: extra_dimension",
                "## Dimension Scores",
                "#### CRITICAL",
                "##Review Body",
                " ## Scoring Plan",
                "Review Body\n-----------",
                "### W9: A late weakness",
                "## Scoring Plan Dissent",
            )
        ),
    )


def _m_table(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    row = rng.choice(
        (
            '| C9 | text: "quoted claim" | An objection the paper does not answer. |',
            "| M9 | absence: Section 2 — expected a control; checked Tables 1-3 | Missing. |",
            "| C1 | | empty anchor |",
            "| # | Evidence Anchor | Issue |",
            "| --- | --- |",
        )
    )
    lines.insert(i, row)


def _m_attack(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    attack = rng.choice(_ATTACKS)
    if rng.random() < 0.5:
        lines.insert(i, attack)
    elif lines:
        lines[i] = lines[i] + " " + attack


def _m_prose(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    lines[i:i] = ["", paragraph(rng), ""]


def _m_line_ends(rng: random.Random, lines: list[str]) -> None:
    i = _at(rng, lines)
    if lines:
        lines[i] = lines[i] + rng.choice(("\r", "  ", "\t", "\u2028", "\x0c"))


MUTATIONS: Final[tuple[Callable[[random.Random, list[str]], None], ...]] = (
    _m_drop,
    _m_double,
    _m_swap,
    _m_decorate,
    _m_case,
    _m_invisible,
    _m_fence,
    _m_comment,
    _m_score,
    _m_correction,
    _m_heading,
    _m_table,
    _m_attack,
    _m_prose,
    _m_line_ends,
)


def mutate(rng: random.Random, text: str, count: int) -> str:
    lines = _lines(text)
    for _ in range(count):
        rng.choice(MUTATIONS)(rng, lines)
    return "\n".join(lines)


def grow(rng: random.Random, text: str, size: int, heading: str) -> str:
    """``text`` with prose added after ``heading`` (or at its end) up to about ``size``."""
    extra = size - len(text)
    if extra <= 0:
        return text
    body = "\n\n" + prose(rng, extra) + "\n\n"
    at = text.find(heading)
    if at < 0:
        return text.rstrip("\n") + body
    end = text.find("\n", at)
    end = len(text) if end < 0 else end + 1
    # The prose goes after the heading's first paragraph.
    stop = text.find("\n\n", end + 1)
    stop = len(text) if stop < 0 else stop
    return text[:stop] + body + text[stop:].lstrip("\n")


def _size(rng: random.Random, low: int, high: int) -> int:
    return 0 if rng.random() < 0.5 else rng.randint(low, high)


# --- cases ------------------------------------------------------------------------------


def _manuscript_shingle(rng: random.Random, text: str, manuscript_text: str) -> str:
    words = manuscript_text.split()
    if len(words) < 20:
        return text
    k = rng.randrange(len(words) - 14)
    return text + "\n\nAs the paper puts it, " + " ".join(words[k : k + 14]) + "\n"


def cases() -> Iterator[Case]:
    for dialect, (_, folder) in DIALECTS.items():
        base = {
            role: (
                (folder / f"{role}.phase1.md").read_text("utf-8"),
                (folder / f"{role}.phase2.md").read_text("utf-8"),
            )
            for role in ROLES
        }
        synthesis = (folder / "synthesis.md").read_text("utf-8")
        for seed in range(SEEDS):
            rng = random.Random(f"{dialect}/{seed}")
            role = ROLES[seed % len(ROLES)]
            p1, p2 = base[role]
            count = rng.choice((0, 1, 1, 2, 3, 5))
            grown = grow(rng, p1, _size(rng, 3000, 8000), "## Contract Paraphrase")
            one = mutate(rng, grown, count)
            ms = None
            if dialect == "13.2" and rng.random() < 0.3:
                ms = manuscript(rng, rng.randint(2000, 6000))
                if rng.random() < 0.5:
                    one = _manuscript_shingle(rng, one, ms)
            yield Case(f"{dialect}/p1/{seed}", dialect, "phase1", role, one, manuscript=ms)
            two = mutate(rng, grow(rng, p2, _size(rng, 10000, 25000), "## Review Body"), count)
            against = one if rng.random() < 0.3 else (p1 if rng.random() < 0.8 else None)
            yield Case(f"{dialect}/p2/{seed}", dialect, "phase2", role, two, phase1=against)
            if seed % 4 == 0:
                seats = []
                for r in ROLES:
                    a, b = base[r]
                    if rng.random() < 0.3:
                        b = mutate(rng, b, 1)
                    seats.append((r, b, a))
                text = mutate(rng, synthesis, rng.choice((0, 0, 1, 2)))
                yield Case(
                    f"{dialect}/round/{seed}",
                    dialect,
                    "round",
                    role,
                    text,
                    seats=tuple(seats),
                    synthesis=text,
                )


# --- findings ---------------------------------------------------------------------------


def _findings(report: Any) -> list[Finding]:
    return [(f.code, f.check, f.severity, f.line, f.message) for f in report.findings]


def findings_of(case: Case, reading: Mapping[str, Any]) -> dict[str, Any]:
    """What today's code says about ``case``: its findings, or an error's class and message."""
    from kernel import load_contract
    from kernel.errors import KernelError
    from kernel.reviewer.lint import lint_phase1, lint_phase2
    from kernel.reviewer.review import decide_documents

    contract = load_contract(DIALECTS[case.dialect][0])
    try:
        if case.kind == "phase1":
            extra: dict[str, Any] = {}
            if case.manuscript is not None:
                extra = {"manuscript": case.manuscript, "metadata": METADATA}
            report = lint_phase1(case.text, contract, role=case.role, **extra, **reading)
            return {"findings": _findings(report)}
        if case.kind == "phase2":
            report = lint_phase2(case.text, contract, case.phase1, role=case.role, **reading)
            return {"findings": _findings(report), "scores": _plain(report.scores)}
        outcome = decide_documents(contract, case.seats, synthesis=case.synthesis, **reading)
        checked = outcome.synthesis
        return {
            "tags": list(outcome.tags),
            "action": outcome.decision.action if outcome.decision is not None else None,
            "findings": [_findings(r) for _, r in outcome.reviewers],
            "synthesis": _findings(checked) if checked is not None else None,
        }
    except KernelError as exc:
        return {"error": [type(exc).__name__, str(exc)]}


def _plain(value: Any) -> Any:
    return dict(value) if isinstance(value, Mapping) else value


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value))


def compute(every: int = 1) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, case in enumerate(cases()):
        if i % every:
            continue
        for name, reading in READINGS.items():
            out[f"{case.id}@{name}"] = _jsonable(findings_of(case, reading))
    return out


def load() -> dict[str, Any]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def write(data: Mapping[str, Any]) -> None:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    GOLDEN.parent.mkdir(parents=True, exist_ok=True)
    with GOLDEN.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as f:
        f.write(text.encode("utf-8"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.support.golden", description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the golden file")
    args = parser.parse_args(argv)
    data = compute()
    if args.write:
        write(data)
        print(f"{GOLDEN.relative_to(ROOT)}: {len(data)} cases, {GOLDEN.stat().st_size} bytes")
        return 0
    golden = load()
    changed = sorted(k for k in set(data) | set(golden) if data.get(k) != golden.get(k))
    for key in changed[:20]:
        print(f"{key}: differs")
    print(f"{len(data)} cases, {len(changed)} differ")
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
