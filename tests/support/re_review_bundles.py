"""The tests' Hypothesis strategy for valid re-review bundles of any size, over the builder
the benchmarks use (:mod:`benchmarks.re_review_bundles`, re-exported here for the tests).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from support.bench import register_benchmarks

register_benchmarks()  # the benchmarks' package, loaded by location (support.bench says why)

from benchmarks.re_review_bundles import (  # noqa: E402
    _MAG,
    ORIGINAL,
    ORIGINAL_SHA,
    OUTCOMES,
    PATCH,
    PATCH_SHA,
    RESPONSE_SHA,
    REVISED,
    REVISED_SHA,
    SCENARIOS,
    C,
    Draft,
    F,
    Item,
    N,
    P,
    W,
    build,
    folder_files,
    records,
    scenario_files,
    sized,
    write,
)

__all__ = [
    "ORIGINAL",
    "ORIGINAL_SHA",
    "OUTCOMES",
    "PATCH",
    "PATCH_SHA",
    "RESPONSE_SHA",
    "REVISED",
    "REVISED_SHA",
    "SCENARIOS",
    "Draft",
    "Item",
    "build",
    "drafts",
    "folder_files",
    "items",
    "records",
    "scenario_files",
    "sized",
    "write",
]


# --- a strategy for valid bundles -------------------------------------------------------------


@st.composite
def items(draw: Callable[..., Any], max_items: int = 12) -> tuple[Item, ...]:
    """Roadmap items with 2A and final verdicts (a changed final rides an adjustment; no
    move to CANNOT_VERIFY, which needs the fail-closed deferral loop)."""
    count = draw(st.integers(0, max_items))
    found = []
    for n in range(1, count + 1):
        priority = draw(st.sampled_from(("must_fix", "should_fix", "consider")))
        severity = draw(st.sampled_from(("critical", "major", "minor", None)))
        verdict = draw(st.sampled_from((F, P, N, W, C)))
        final = draw(st.sampled_from((F, P, N, W, verdict)))
        reviewer, labels = draw(
            st.sampled_from((("R1", ("R1",)), ("EIC", ("EIC",)), ("R2, R3", ("R2", "R3"))))
        )
        found.append(
            Item(
                f"REV-{n:03d}",
                priority,
                severity,
                verdict,
                final,
                magnitude=draw(st.sampled_from(_MAG)),
                final_magnitude=draw(st.sampled_from(_MAG)),
                reviewer=reviewer,
                labels=labels,
            )
        )
    return tuple(found)


@st.composite
def drafts(draw: Callable[..., Any], max_items: int = 12) -> Draft:
    """A :class:`Draft` of any shape the strategy covers; :func:`build` seals it valid."""
    original = draw(st.booleans())
    new_issues = draw(
        st.lists(
            st.tuples(
                st.sampled_from(("regression", "previously_missed", "indeterminate")),
                st.sampled_from(("critical", "major", "minor")),
            ),
            max_size=3,
        )
    )
    escalations = draw(
        st.lists(
            st.tuples(
                st.sampled_from(
                    ("research_integrity", "ethics", "safety", "legal_compliance", "fatal_validity")
                ),
                st.sampled_from(("Minor Revision", "Major Revision")),
                st.sampled_from(("approved", "rejected")),
            ),
            max_size=2,
        )
        if original
        else st.just([])
    )
    return Draft(
        draw(items(max_items)),
        original=original,
        letter=draw(st.booleans()),
        new_issues=tuple(new_issues),
        escalations=tuple(escalations),
        reports=draw(st.integers(0, 3)),
    )


