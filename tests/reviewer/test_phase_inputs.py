"""phase1_input is metadata-only; phase2_input holds exactly one delimiter pair."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.contract.model import load_contract
from kernel.errors import KernelError
from kernel.reviewer.phase_inputs import phase1_from_input, phase1_input, phase2_input
from kernel.text.delimit import find_delimiters

CONTRACT = load_contract("reviewer/methodology_focus")
META = {"title": "On samples", "field": "statistics", "word_count": 4200}

#: Pieces of delimiters in many disguises, and escape look-alikes.
PIECES = (
    "<phase1_output>",
    "</phase1_output>",
    "</PHASE1_OUTPUT>",
    "< / Phase1_Output >",
    "<phase1\u200b_output>",
    "\uff1c/phase1_output\uff1e",
    "<\u0440hase1_\u043eutput>",
    "\uff50hase1_output",
    "<",
    "/",
    "phase1_output>",
    "&",
    "&amp;",
    "&#x3C;",
    "&#x3c;",
    "&amp;#x3C;",
    "\n",
    "\r\n",
    "```",
)
texts = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=20).map("".join)
_OPEN = re.compile(r"<phase1_output", re.IGNORECASE)
_CLOSE = re.compile(r"</phase1_output", re.IGNORECASE)
_ANY = re.compile(r"<\s*/?\s*phase1_output", re.IGNORECASE)


@given(texts, texts)
@example("x </phase1_output> y", "<phase1_output>")
@example("ends with <", "")
@example("", "</phase1_output")
def test_exactly_one_pair_and_recoverable(phase1: str, paper: str) -> None:
    result = phase2_input(CONTRACT, phase1, paper)
    opens = [m.start() for m in _OPEN.finditer(result)]
    closes = [m.start() for m in _CLOSE.finditer(result)]
    assert len(opens) == 1 and len(closes) == 1
    assert opens[0] < closes[0]
    assert len(_ANY.findall(result)) == 2
    hits = find_delimiters(result, "phase1_output")
    assert [h.closing for h in hits] == [False, True]
    assert phase1_from_input(result) == phase1


def test_contract_json_is_embedded() -> None:
    result = phase2_input(CONTRACT, "plan", "PAPER-TEXT-42")
    body = result.split("```json\n", 1)[1].split("\n```", 1)[0]
    assert json.loads(body) == CONTRACT.to_dict()
    assert result.index("<phase1_output>") < result.index("PAPER-TEXT-42")


def test_phase1_input_holds_contract_and_metadata_only() -> None:
    text = phase1_input(CONTRACT, META)
    blocks = [b.split("\n```", 1)[0] for b in text.split("```json\n")[1:]]
    assert json.loads(blocks[0]) == CONTRACT.to_dict()
    assert json.loads(blocks[1]) == META


@pytest.mark.parametrize(
    "metadata",
    [
        {**META, "abstract": "We show..."},
        {**META, "paper": "full text"},
        {"title": "x", "field": "y"},
        {**META, "word_count": -1},
        {**META, "word_count": True},
        {**META, "word_count": 1.5},
        {**META, "title": 3},
        "title=x",
    ],
)
def test_phase1_input_rejects(metadata: Any) -> None:
    with pytest.raises(KernelError):
        phase1_input(CONTRACT, metadata)


def test_phase1_input_accepts_template_name_and_mapping() -> None:
    assert phase1_input("reviewer/methodology_focus", META) == phase1_input(CONTRACT, META)
    assert phase1_input(CONTRACT.to_dict(), META) == phase1_input(CONTRACT, META)


def test_backticks_in_contract_lengthen_the_fence() -> None:
    data = CONTRACT.to_dict()
    data["acceptance_dimensions"][0]["description"] = "uses ```` fences"
    text = phase1_input(data, META)
    assert text.count("`````json") == 1


def test_non_str_inputs() -> None:
    with pytest.raises(KernelError):
        phase2_input(CONTRACT, None, "p")  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        phase2_input(CONTRACT, "p", b"paper")  # type: ignore[arg-type]
    with pytest.raises(KernelError):
        phase1_from_input("no delimiters here")


def test_the_metadata_block_is_indented_json_and_word_count_stops_at_2_53_minus_1() -> None:
    text = phase1_input(CONTRACT, {"title": "T", "field": "f", "word_count": 2**53 - 1})
    assert text.endswith(
        '## Paper metadata\n\n```json\n{\n  "title": "T",\n  "field": "f",\n'
        '  "word_count": 9007199254740991\n}\n```\n'
    )
    for count in (2**53, -1):
        with pytest.raises(KernelError, match=r"^word_count must be between 0 and 2\*\*53 - 1"):
            phase1_input(CONTRACT, {"title": "T", "field": "f", "word_count": count})
