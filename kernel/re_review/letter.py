"""The decision letter's required-item blocks (design §2.3, letter)."""

from __future__ import annotations

import re
from typing import Final

import attrs

from kernel.errors import KernelError
from kernel.strict import shown

__all__ = ["SECTION", "LetterBlock", "parse_letter_blocks"]

SECTION: Final = "### Required Item Details"
_BLOCK: Final = re.compile(r"\*\*(R[0-9]+): .*\*\*")
_CRITERION: Final = "- **Acceptance criteria**:"


@attrs.frozen
class LetterBlock:
    """Block ``ref`` (``R1`` …) opened at ``line`` (1-based); ``criterion`` is the text of its
    first acceptance-criteria line (``None`` when it has none), found at ``criterion_line``."""

    ref: str
    line: int
    criterion: str | None = None
    criterion_line: int | None = None


def parse_letter_blocks(text: str) -> tuple[LetterBlock, ...]:
    """The ``**Rn: …**`` blocks of the letter's ``### Required Item Details`` section, in
    document order (none when the section is missing)."""
    if not isinstance(text, str):
        raise KernelError(f"letter must be text, got {shown(text)}")
    blocks: list[LetterBlock] = []
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        if not inside:
            inside = line.rstrip() == SECTION
            continue
        if line.startswith("## "):
            break
        opened = _BLOCK.fullmatch(line.rstrip())
        if opened is not None:
            blocks.append(LetterBlock(opened.group(1), number))
        elif blocks and blocks[-1].criterion is None and line.startswith(_CRITERION):
            rest = line[len(_CRITERION) :]
            criterion = rest[1:] if rest.startswith(" ") else rest
            blocks[-1] = attrs.evolve(blocks[-1], criterion=criterion, criterion_line=number)
    return tuple(blocks)
