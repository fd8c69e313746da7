"""Public functions fail closed: any junk input gives a KernelError, nothing else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.panel import agreement_level, escalate, resolve_finding, resolve_verdict
from kernel.panel.budget import charge, open_ledger
from kernel.panel.convergence import advance, compare, start
from kernel.panel.guardrails import apply_guardrails
from kernel.text import delimit
from kernel.text.injection import scan_injection

junk = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True)
    | st.text(max_size=8)
    | st.binary(max_size=4)
    | st.sampled_from(["Agree", "Approve", "Critical", "Consensus", "A"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=3), inner, max_size=4)
        | st.tuples(inner, inner)
    ),
    max_leaves=12,
)

CALLS: dict[str, Callable[[Any, Any], object]] = {
    "resolve_finding": lambda a, b: resolve_finding(a, originator=b, n_global=3),
    "resolve_finding_n": lambda a, b: resolve_finding({}, originator="A", n_global=a),
    "agreement_level": lambda a, b: agreement_level(a),
    "resolve_verdict": lambda a, b: resolve_verdict(a),
    "escalate": lambda a, b: escalate(a, b),
    "compare": lambda a, b: compare(a, b),
    "advance": lambda a, b: advance(start(), a),
    "open_ledger": lambda a, b: open_ledger(a, b),
    "charge": lambda a, b: charge(open_ledger(["A"], 10), a, "p", b),
    "guardrails": lambda a, b: apply_guardrails(a, scope=b),
    "scan": lambda a, b: scan_injection(a, delimiters=b),
    "scan_categories": lambda a, b: scan_injection("x", categories=a),
    "escape": lambda a, b: delimit.escape(a, b),
    "wrap": lambda a, b: delimit.wrap(a, b),
    "unwrap": lambda a, b: delimit.unwrap(a, "phase1_output"),
    "unescape": lambda a, b: delimit.unescape(a),
    "nonce": lambda a, b: delimit.nonce_delimiter(a, b),
    "extract": lambda a, b: delimit.extract(a, b),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@given(a=junk, b=junk)
def test_only_kernel_errors_escape(name: str, a: Any, b: Any) -> None:
    try:
        CALLS[name](a, b)
    except KernelError as exc:
        assert str(exc), "a KernelError must say what is wrong"
