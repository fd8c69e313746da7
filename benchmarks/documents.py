"""Well-formed Phase 1 / Phase 2 reviewer documents for reviewer/full, padded to a size.

Documents grow the way long reviews do: more prose paragraphs (in the Contract Paraphrase
for Phase 1, in the Review Body for Phase 2), each a few hundred bytes of ordinary words with
some inline markup. Both are meant to pass the lints (the benchmark reports whether they do).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Final

DIMENSIONS = (
    ("D1", "methodology_rigor"),
    ("D2", "domain_accuracy"),
    ("D3", "argumentative_coherence"),
    ("D4", "cross_disciplinary_relevance"),
    ("D5", "writing_and_structure"),
)
TRIGGERS = {
    d: (f"{name.replace('_', ' ')} fatally compromised", f"{name.replace('_', ' ')} weakened")
    for d, name in DIMENSIONS
}
#: One reviewer's scores: F1 no, F2 yes (D1, D3 warn), F3 yes (D4 block), F0 no → F2 decides.
SCORES = {"D1": "warn", "D2": "pass", "D3": "warn", "D4": "block", "D5": "pass"}
FIRED = {"F1": False, "F2": True, "F3": True, "F0": False}
DECISION = "editorial_decision=major_revision"
CONDITIONS = {
    "F1": "any mandatory dimension scores 'block'",
    "F2": "two or more mandatory dimensions score 'warn' or worse",
    "F3": "any high-priority dimension scores 'block'",
    "F0": "every mandatory dimension scores 'pass'",
}
_TEXT = (
    "the authors report a careful study whose sample and analysis are described in some "
    "detail although several steps remain implicit and the reader must infer how the "
    "estimates were obtained from the tables in the appendix which are themselves *dense* "
    "and occasionally `inconsistent` with the text so a revision should **clarify** them"
)
_WORDS = _TEXT.split(" ")


def _paragraph(rng: random.Random, size: int = 400) -> str:
    words: list[str] = []
    length = 0
    while length < size:
        w = rng.choice(_WORDS)
        words.append(w)
        length += len(w) + 1
    return " ".join(words).capitalize() + "."


def _pad(head: str, tail: str, size: int, seed: int) -> str:
    rng = random.Random(seed)
    paragraphs: list[str] = []
    length = len(head) + len(tail)
    while length < size:
        p = _paragraph(rng)
        paragraphs.append(p)
        length += len(p) + 2
    return head + "".join(p + "\n\n" for p in paragraphs) + tail


def phase1(size: int) -> str:
    head = ["## Contract Paraphrase", ""]
    for d, name in DIMENSIONS:
        head += [f"{d} ({name}): the reviewer restates what {name} asks of the paper.", ""]
    tail = ["## Scoring Plan", ""]
    for d, name in DIMENSIONS:
        block, warn = TRIGGERS[d]
        tail += [
            f"### {d}: {name}",
            "",
            f"- dimension_id: {d}",
            f"- what_to_look_for: whether {name.replace('_', ' ')} holds throughout",
            f"- what_triggers_block: {block}",
            f"- what_triggers_warn: {warn}",
            "",
        ]
    tail += ["[CONTRACT-ACKNOWLEDGED]", ""]
    return _pad("\n".join(head) + "\n", "\n".join(tail), size, seed=1)


def phase2(size: int) -> str:
    head = ["## Dimension Scores", ""]
    for d, name in DIMENSIONS:
        head += [f"### {d}: {name}", "", f"score: {SCORES[d]}", ""]
    head += ["## Failure Condition Checks", ""]
    for c, text in CONDITIONS.items():
        head += [f"### {c}: {text}", "", f"fired: {'true' if FIRED[c] else 'false'}", ""]
    head += ["## Review Body", ""]
    for d, _ in DIMENSIONS:
        block, warn = TRIGGERS[d]
        if SCORES[d] == "block":
            head += [f"For {d} the {block} problem is visible throughout.", ""]
        elif SCORES[d] == "warn":
            head += [f"For {d} the {warn} impression comes from the appendix.", ""]
    tail = ["## Editorial Decision", "", DECISION, ""]
    return _pad("\n".join(head) + "\n", "\n".join(tail), size, seed=2)


def _short(rng: random.Random) -> str:
    return _paragraph(rng, 60)


def phase2_paragraphs(size: int) -> str:
    """A Phase 2 document whose Review Body is many short paragraphs (a sentence each): the
    paragraph-heavy shape, where per-block costs dominate."""
    full = phase2(0)
    head, tail = full.split("## Editorial Decision", 1)
    tail = "## Editorial Decision" + tail
    rng = random.Random(3)
    paragraphs: list[str] = []
    length = len(head) + len(tail)
    while length < size:
        p = _short(rng)
        paragraphs.append(p)
        length += len(p) + 2
    return head + "".join(p + "\n\n" for p in paragraphs) + tail


#: The worked 13.2 example (examples/full-13.2), read by the 13.2 benchmark rows.
EXAMPLE_13_2: Final = Path(__file__).resolve().parent.parent / "examples" / "full-13.2"


def phase2_v2(size: int) -> str:
    """The 13.2 example's methodology report with its Review Body padded with prose to about
    ``size`` characters (the findings stay at its end)."""
    text = (EXAMPLE_13_2 / "methodology.phase2.md").read_text("utf-8")
    head, tail = text.split("### W1:", 1)
    return _pad(head, "### W1:" + tail, size, seed=3)


DOCS: Final = Path(__file__).resolve().parent.parent / "docs"


def _docs_prose() -> list[str]:
    """The project's own documentation as plain prose paragraphs: English with a vocabulary
    of thousands of words, where the generated documents above use about 120 (the injection
    scan's cost grows with the number of distinct words it must follow)."""
    out: list[str] = []
    for page in sorted(DOCS.glob("*.md")):
        for block in page.read_text("utf-8").split("\n\n"):
            text = " ".join(re.sub(r"[^A-Za-z0-9 ,.;:()'-]", " ", block).split())
            if len(text) > 120:
                out.append(text)
    if not out:
        raise FileNotFoundError(f"{DOCS}: no documentation prose to pad with (copy docs/ too)")
    return list(dict.fromkeys(out))


def _pad_prose(head: str, tail: str, size: int) -> str:
    prose = _docs_prose()
    body: list[str] = []
    length = len(head) + len(tail)
    while length < size:
        p = prose[len(body) % len(prose)]
        body.append(p)
        length += len(p) + 2
    return head + "".join(p + "\n\n" for p in body) + tail


def phase2_v2_prose(size: int) -> str:
    """``phase2_v2`` with its Review Body padded with the documentation's prose instead."""
    text = (EXAMPLE_13_2 / "methodology.phase2.md").read_text("utf-8")
    head, tail = text.split("### W1:", 1)
    return _pad_prose(head, "### W1:" + tail, size)


def phase2_prose(size: int) -> str:
    """``phase2`` (dialect 13) with its Review Body padded with the documentation's prose."""
    head, tail = phase2(0).split("## Editorial Decision", 1)
    return _pad_prose(head, "## Editorial Decision" + tail, size)
