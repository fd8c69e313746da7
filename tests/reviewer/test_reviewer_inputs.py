"""Bad arguments to the reviewer API are KernelErrors naming what is wrong (issue 12):
renderers take every contract source the lints take, decide_documents checks its entries,
word_count stays printable, text that cannot be encoded as UTF-8 is refused."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kernel.contract.model import load_contract
from kernel.contract.templates import shipped_template
from kernel.errors import InputError, KernelError, MatrixError
from kernel.reviewer import review
from kernel.reviewer.cycle import start
from kernel.reviewer.lint import lint_phase1, lint_phase2
from kernel.reviewer.phase_inputs import (
    MAX_WORD_COUNT,
    phase1_from_input,
    phase1_input,
    phase2_input,
)
from kernel.reviewer.render import (
    default_plan,
    expected_decision,
    expected_fired,
    render_phase1,
    render_phase2,
)


def decide_documents(contract: Any, reviewers: Any, **options: Any) -> review.PanelOutcome:
    """``kernel.review.decide_documents`` on Schema 13 documents: a ``PanelOutcome``."""
    outcome = review.decide_documents(contract, reviewers, **options)
    assert isinstance(outcome, review.PanelOutcome)
    return outcome


FULL = load_contract("reviewer/full")
PASS = dict.fromkeys(FULL.dimension_ids, "pass")
META = {"title": "On samples", "field": "statistics", "word_count": 4200}


# -- renderers take what load_contract takes -------------------------------------------------

SOURCES: list[Any] = ["reviewer/full", shipped_template("reviewer/full"), FULL]


@pytest.mark.parametrize("source", SOURCES, ids=["template name", "mapping", "Contract"])
def test_renderers_take_every_contract_source(source: Any) -> None:
    p1 = render_phase1(source)
    assert p1 == render_phase1(FULL)
    p2 = render_phase2(source, PASS)
    assert p2 == render_phase2(FULL, PASS)
    assert default_plan(source) == default_plan(FULL)
    assert expected_fired(source, PASS) == expected_fired(FULL, PASS)
    assert expected_decision(source, expected_fired(FULL, PASS)) == "editorial_decision=accept"
    assert lint_phase1(p1, source).ok and lint_phase2(p2, source, p1).ok


def test_renderers_refuse_bad_contracts_and_arguments() -> None:
    sources: list[Any] = ["reviewer/none", 42, None, {"contract_id": "x"}]
    for source in sources:
        with pytest.raises(KernelError):
            render_phase1(source)
        with pytest.raises(KernelError):
            render_phase2(source, PASS)
    bad_calls: list[Callable[[], object]] = [
        lambda: render_phase1(FULL, plan=["D1"]),  # type: ignore[arg-type]
        lambda: render_phase1(FULL, paraphrase="D1"),  # type: ignore[arg-type]
        lambda: render_phase1(FULL, plan={"D1": "x"}),  # type: ignore[dict-item]
        lambda: render_phase2(FULL, ["pass"] * 5),  # type: ignore[arg-type]
        lambda: render_phase2(FULL, PASS, dissent=["D1"]),  # type: ignore[arg-type]
        lambda: render_phase2(FULL, PASS, fired=[True]),  # type: ignore[arg-type]
        lambda: render_phase2(FULL, PASS, fired=dict.fromkeys(("F1", "F2", "F3", "F0"), 1)),  # type: ignore[arg-type]
        lambda: render_phase2(FULL, PASS, plan=[]),  # type: ignore[arg-type]
        lambda: expected_decision(FULL, {"F1": True}),
    ]
    for call in bad_calls:
        with pytest.raises(KernelError):
            call()


# -- decide_documents checks its reviewers ---------------------------------------------------


def _docs(n: int = 5) -> list[tuple[str, str, str | None]]:
    p1 = render_phase1(FULL)
    # Each report distinct: identical ones would be duplicates (R16).
    return [(f"r{i}", render_phase2(FULL, PASS, body=f"Reviewed by r{i}."), p1) for i in range(n)]


def _gen(entries: list[Any]) -> Iterator[Any]:
    yield from entries


BAD_REVIEWERS: list[tuple[Any, str]] = [
    (None, "NoneType"),
    ("eic", "got str"),
    (b"eic", "got bytes"),
    ({"eic": ("a", "b")}, "got dict"),
    (42, "got int"),
    ([("eic", "text")], r"reviewers\[0\].*tuple of 2"),
    ([("eic", "text", None, "extra")], r"reviewers\[0\].*tuple of 4"),
    ([*_docs(2), "eic"], r"reviewers\[2\].*got str"),
    ([*_docs(1), 7], r"reviewers\[1\].*got int"),
    ([(1, "text", None)], r"reviewers\[0\]: role must be a str, got int"),
    ([(None, "text", None)], r"reviewers\[0\]: role must be a str"),
    ([("eic", None, None)], r"reviewers\[0\]: phase2_text must be a str"),
    ([("eic", "text", 3)], r"reviewers\[0\]: phase1_text must be a str or None"),
    (_gen([("eic", "text")]), r"reviewers\[0\]"),
]


@pytest.mark.parametrize(("reviewers", "match"), BAD_REVIEWERS)
def test_bad_reviewers_name_the_entry(reviewers: Any, match: str) -> None:
    with pytest.raises(KernelError, match=match):
        decide_documents(FULL, reviewers)


def test_reviewers_may_be_any_iterable_of_triples() -> None:
    expected = decide_documents(FULL, _docs())
    variants: list[Any] = [tuple(_docs()), _gen(_docs()), [list(d) for d in _docs()]]
    for reviewers in variants:
        outcome = decide_documents(FULL, reviewers)
        assert outcome.decision == expected.decision
        assert outcome.tags == expected.tags == ()


def test_endless_reviewers_are_refused_after_panel_size_plus_one() -> None:
    taken = []

    def endless() -> Iterator[tuple[str, str, None]]:
        i = 0
        while True:
            taken.append(i)
            yield (f"r{i}", "x", None)
            i += 1

    with pytest.raises(MatrixError, match="more than 5 reviewers"):
        decide_documents(FULL, endless())
    assert len(taken) == FULL.panel_size + 1
    with pytest.raises(MatrixError, match=r"^6 reviewers"):
        decide_documents(FULL, _docs(6))


@settings(max_examples=40)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.integers(),
            st.text(max_size=3),
            st.tuples(st.text(max_size=3)),
            st.tuples(st.integers(), st.text(max_size=3), st.none()),
            st.tuples(st.text(min_size=1, max_size=3), st.text(max_size=20), st.none()),
            st.lists(st.text(max_size=3), max_size=4),
        ),
        max_size=6,
    )
)
def test_any_reviewers_argument_is_an_outcome_or_kernel_error(reviewers: list[Any]) -> None:
    try:
        outcome = decide_documents(FULL, reviewers)
    except KernelError as exc:
        assert exc.message
        return
    assert outcome.decision is None
    assert outcome.tags[-1].startswith("[PANEL-SHRUNK")


# -- word_count and huge integers ------------------------------------------------------------


@given(st.integers(min_value=MAX_WORD_COUNT + 1))
@example(10**4300)
@example(10**5000)
@example(MAX_WORD_COUNT + 1)
def test_word_count_over_the_bound(count: int) -> None:
    with pytest.raises(KernelError, match="word_count"):
        phase1_input(FULL, META | {"word_count": count})


@given(st.integers(max_value=-1))
@example(-(10**5000))
def test_negative_word_count(count: int) -> None:
    with pytest.raises(KernelError, match="word_count"):
        phase1_input(FULL, META | {"word_count": count})


def test_word_count_at_the_bound() -> None:
    assert str(MAX_WORD_COUNT) in phase1_input(FULL, META | {"word_count": MAX_WORD_COUNT})
    assert '"word_count": 0' in phase1_input(FULL, META | {"word_count": 0})


# -- text that cannot be encoded as UTF-8 ----------------------------------------------------

SURROGATES = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
unencodable = st.tuples(st.text(max_size=10), SURROGATES, st.text(max_size=10)).map("".join)


@settings(max_examples=40)
@given(unencodable)
@example("\ud800")
@example("## Review Body\n\nfine \udfff")
def test_reviewer_text_functions_refuse_unencodable_text(text: str) -> None:
    p1 = render_phase1(FULL)
    calls: list[Callable[[], object]] = [
        lambda: lint_phase1(text, FULL),
        lambda: lint_phase2(text, FULL),
        lambda: lint_phase2(render_phase2(FULL, PASS), FULL, text),
        lambda: phase1_input(FULL, META | {"title": text}),
        lambda: phase1_input(FULL, META | {"field": text}),
        lambda: phase2_input(FULL, text, "paper"),
        lambda: phase2_input(FULL, p1, text),
        lambda: phase1_from_input(text),
        lambda: render_phase1(FULL, paraphrase={"D1": text.replace("\n", " ").strip() or "x"}),
        lambda: render_phase2(FULL, PASS, body="Prose " + text),
        lambda: render_phase2(FULL, PASS, dissent={"D1": text.replace("\n", " ").strip() + "x"}),
        lambda: decide_documents(FULL, [("eic", text, None)]),
        lambda: start(text or "\ud800", "c"),
    ]
    for call in calls:
        with pytest.raises(KernelError):
            call()


def test_unencodable_text_error_says_where() -> None:
    with pytest.raises(InputError, match=r"Phase 2 document: not encodable as UTF-8.*U\+D800"):
        lint_phase2("## Review Body\n\n\ud800", FULL)
    with pytest.raises(InputError, match=r"title: not encodable as UTF-8"):
        phase1_input(FULL, META | {"title": "a\udc80"})


# -- the cycle and the text output check their arguments too ---------------------------------


def test_cycle_and_output_functions_refuse_bad_arguments() -> None:
    from kernel.reviewer.cycle import exhaust, panel_tags, retry_hint, step
    from kernel.reviewer.review import finding_lines, text_lines

    outcome = decide_documents(FULL, _docs(1))
    report = outcome.reviewers[0][1]
    bad_calls: list[Callable[[], object]] = [
        lambda: step(start("a", "c"), None),  # type: ignore[arg-type]
        lambda: step(None, report),  # type: ignore[arg-type]
        lambda: retry_hint(None),  # type: ignore[arg-type]
        lambda: retry_hint(report, limit=0),
        lambda: exhaust("state"),  # type: ignore[arg-type]
        lambda: panel_tags(None, 5),  # type: ignore[arg-type]
        lambda: panel_tags([1], 5),  # type: ignore[list-item]
        lambda: panel_tags([], "5"),  # type: ignore[arg-type]
        lambda: panel_tags([], 0),
        lambda: panel_tags([], 10**5000),
        lambda: finding_lines(outcome, None),  # type: ignore[arg-type]
        lambda: text_lines(outcome, ["r0"]),  # type: ignore[arg-type]
        lambda: text_lines(outcome, {"r0": "r0.md"}),  # type: ignore[dict-item]
        lambda: text_lines(None, {}),  # type: ignore[arg-type]
    ]
    for call in bad_calls:
        with pytest.raises(KernelError):
            call()
    lines = text_lines(outcome, {"r0": ("r0.md", None)})
    assert lines[-1] == "[PANEL-SHRUNK: usable=1, panel_size=5]"


def test_max_bytes_reaches_every_document() -> None:
    p1 = render_phase1(FULL)
    p2 = render_phase2(FULL, PASS)
    limit = len(p2.encode()) - 1
    with pytest.raises(InputError, match="Phase 2 document"):
        lint_phase2(p2, FULL, max_bytes=limit)
    with pytest.raises(InputError, match="Phase 1 document"):
        lint_phase2("x", FULL, p1, max_bytes=len(p1.encode()) - 1)
    with pytest.raises(InputError, match="Phase 1 document"):
        lint_phase1(p1, FULL, max_bytes=len(p1.encode()) - 1)
    with pytest.raises(InputError):
        decide_documents(FULL, [("r0", p2, None)], max_bytes=limit)
    assert lint_phase2(p2, FULL, p1, max_bytes=max(len(p1), len(p2))).ok
