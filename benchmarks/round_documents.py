"""A real-size review round, generated: five seats, each a Phase 1 of 3 to 8 KB and a Phase 2 of
10 to 25 KB of varied English (sentences of the documentation, frozen in
``benchmarks/data/prose.txt.gz``, shuffled and recombined per seat),
with findings, evidence anchors, dissent and DA tables as real reports carry them; a 30 KB
manuscript; the shipped round's synthesis.

The seats start from the shipped rounds (``examples/full`` for Schema 13,
``examples/full-13.2``) and keep what makes them pass: the prose goes where a reviewer
writes prose (the Contract Paraphrase, the Review Body), and 13.2 findings are added as
``### W<n>:`` sections with a severity and an anchor.
"""

from __future__ import annotations

import gzip
import random
from pathlib import Path
from typing import Final

import attrs

from benchmarks.documents import EXAMPLE_13_2

EXAMPLE_13: Final = EXAMPLE_13_2.parent / "full"
ROLES: Final = ("eic", "methodology", "domain", "perspective", "da")
#: dialect → (contract argument, the shipped round's folder).
DIALECTS: Final = {
    "13": ("reviewer/full", EXAMPLE_13),
    "13.2": (str(EXAMPLE_13_2 / "contract.json"), EXAMPLE_13_2),
}
METADATA: Final = {
    "title": "Completion rates under a tutoring intervention",
    "field": "education",
    "word_count": 5200,
}


@attrs.frozen
class Round:
    dialect: str
    contract: str
    #: (role, Phase 2, Phase 1) per seat.
    seats: tuple[tuple[str, str, str], ...]
    manuscript: str
    synthesis: str

    @property
    def documents(self) -> tuple[str, ...]:
        """The ten seat documents and the synthesis."""
        return (*(t for _, p2, p1 in self.seats for t in (p1, p2)), self.synthesis)


#: 2,258 sentences of the project's documentation as it read when the round was made (a
#: frozen copy: a later edit of the documentation does not change the round), none with a
#: colon in its first 30 characters (no sentence reads as a field line) and none that the
#: injection scan flags on its own (ordinary review English, not a page about injections).
PROSE: Final = Path(__file__).resolve().parent / "data" / "prose.txt.gz"


def _sentences(rng: random.Random, part: int) -> list[str]:
    """The frozen sentences, every other one (``part`` 0: the reviewers', 1: the
    manuscript's, so that no seat quotes the manuscript), shuffled."""
    found = gzip.decompress(PROSE.read_bytes()).decode("utf-8").splitlines()
    out = list(dict.fromkeys(found))[part::2]
    rng.shuffle(out)
    if part:  # the manuscript's words in another order: no twelve of them as a seat writes them
        out = [" ".join(rng.sample(s.split(" "), s.count(" ") + 1)) for s in out]
    return out


class _Prose:
    """Paragraphs of three to seven sentences drawn without repeats, with some inline markup."""

    def __init__(self, seed: str, part: int = 0) -> None:
        self.rng = random.Random(seed)
        self.pool = _sentences(self.rng, part)
        self.i = 0

    def sentence(self) -> str:
        s = self.pool[self.i % len(self.pool)]
        self.i += 1
        if self.rng.random() < 0.2:
            words = s.split(" ")
            k = self.rng.randrange(len(words))
            mark = self.rng.choice(("*", "**", "`"))
            words[k] = f"{mark}{words[k]}{mark}"
            s = " ".join(words)
        return s

    def paragraph(self) -> str:
        return " ".join(self.sentence() for _ in range(self.rng.randint(3, 7)))

    def fill(self, size: int) -> list[str]:
        out: list[str] = []
        length = 0
        while length < size:
            p = self.paragraph()
            out.append(p)
            length += len(p) + 2
        return out


#: The heading of the methodology card's last section under ARS main.
RECEIPTS = "## Arithmetic Receipts"


def _grow(text: str, heading: str, paragraphs: list[str]) -> str:
    """``text`` with ``paragraphs`` after the first paragraph under ``heading``."""
    at = text.index(heading)
    first = text.index("\n\n", text.index("\n\n", at) + 2)
    return text[:first] + "\n\n" + "\n\n".join(paragraphs) + text[first:]


def _findings_v2(prose: _Prose, start: int, size: int) -> str:
    """``### W<n>:`` findings of about ``size`` characters (13.2 §F: severity, anchor, text)."""
    out: list[str] = []
    length, n = 0, start
    severities = ("Major", "Minor", "Minor", "Major")
    while length < size:
        claim = prose.sentence()
        quoted = " ".join(claim.split(" ")[:6]).strip(".,;:*`")
        block = (
            f"### W{n}: {' '.join(prose.sentence().split(' ')[:7]).rstrip('.,;:')}\n\n"
            f"**Severity**: {severities[n % 4]}\n\n"
            f'**Evidence Anchor**: text: "{quoted}"\n\n'
            + "\n\n".join(prose.paragraph() for _ in range(prose.rng.randint(1, 3)))
        )
        out.append(block)
        length += len(block) + 2
        n += 1
    return "\n\n".join(out)


def _da_rows(prose: _Prose, letter: str, start: int, count: int) -> list[str]:
    return [
        f'| {letter}{i} | text: "{" ".join(prose.sentence().split(" ")[:5]).strip(".,;:*`")}" '
        f"| {prose.sentence().replace('|', '/')} |"
        for i in range(start, start + count)
    ]


def _phase2(dialect: str, role: str, text: str, prose: _Prose, size: int) -> str:
    if dialect == "13":
        return _grow(text, "## Review Body", prose.fill(size - len(text)))
    if role == "da":
        # More MAJOR rows after the shipped table keep the DA's critical findings as they are.
        rows = _da_rows(prose, "M", 2, 12)
        grown = _grow(text, "## Review Body", prose.fill(size - len(text) - 2000))
        return grown.rstrip("\n") + "\n" + "\n".join(rows) + "\n"
    grown = _grow(text, "## Review Body", prose.fill((size - len(text)) // 3))
    if "### W" not in grown:
        return grown
    # The findings close the Review Body: before the methodology card's receipts, the last
    # section under ARS main.
    body, receipts, tail = grown.partition(RECEIPTS)
    findings = _findings_v2(prose, 3, size - len(grown))
    return (
        body.rstrip("\n") + "\n\n" + findings + "\n" + (f"\n{receipts}{tail}" if receipts else "")
    )


def round_of(dialect: str, seed: int = 0) -> Round:
    contract, folder = DIALECTS[dialect]
    rng = random.Random(f"round/{dialect}/{seed}")
    seats: list[tuple[str, str, str]] = []
    for role in ROLES:
        prose = _Prose(f"{dialect}/{role}/{seed}")
        p1 = (folder / f"{role}.phase1.md").read_text("utf-8")
        p2 = (folder / f"{role}.phase2.md").read_text("utf-8")
        p1 = _grow(p1, "## Contract Paraphrase", prose.fill(rng.randint(3000, 8000) - len(p1)))
        p2 = _phase2(dialect, role, p2, prose, rng.randint(10_000, 25_000))
        seats.append((role, p2, p1))
    body = "\n\n".join(_Prose(f"manuscript/{seed}", part=1).fill(30_000))
    manuscript = f"# {METADATA['title']}\n\n{body}\n"
    synthesis = (folder / "synthesis.md").read_text("utf-8")
    return Round(dialect, contract, tuple(seats), manuscript, synthesis)
