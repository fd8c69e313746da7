"""R11: baseline digest and runtime injection."""

from __future__ import annotations

import datetime as dt
import hashlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel import ContractError, baseline_digest, inject, load_contract, shipped_template
from kernel.contract.validator import BASELINE_FIELDS


def test_digest_is_sha256_of_canonical_baseline_json() -> None:
    c = shipped_template("reviewer/full")
    subset = {k: c[k] for k in BASELINE_FIELDS if k in c}
    text = json.dumps(subset, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert baseline_digest(c) == hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert baseline_digest(load_contract("reviewer/full")) == baseline_digest(c)


@given(
    st.text(max_size=500),
    st.lists(st.text(max_size=20), max_size=4),
    st.datetimes(timezones=st.just(dt.UTC)),
)
def test_inject_never_changes_the_digest(notes: str, hints: list[str], when: dt.datetime) -> None:
    template = shipped_template("reviewer/full")
    result = inject(
        template,
        generated_at=when,
        amendments={"stage_specific_notes": notes, "additional_measurement_hints": hints},
    )
    assert baseline_digest(result) == baseline_digest(template)
    assert result["agent_amendments"]["stage_specific_notes"] == notes
    assert "generated_at" not in template  # the template is not mutated


def test_changing_a_baseline_field_changes_the_digest() -> None:
    c = shipped_template("reviewer/full")
    before = baseline_digest(c)
    c["failure_conditions"][0]["severity"] = 89
    assert baseline_digest(c) != before


def test_inject_validates() -> None:
    t = shipped_template("reviewer/full")
    with pytest.raises(ContractError):
        inject(t, generated_at="yesterday")
    with pytest.raises(ContractError):
        inject(t, generated_at=dt.datetime(2026, 1, 1))  # naive: no offset
    with pytest.raises(ContractError):
        inject(t, generated_at="2026-11-22T00:00:00Z", amendments={"panel_size": 1})
    with pytest.raises(ContractError):
        inject(
            t, generated_at="2026-11-22T00:00:00Z", amendments={"stage_specific_notes": "x" * 501}
        )
    ok = inject(t, generated_at="2026-11-22T00:00:00+01:00")
    assert ok["generated_at"] == "2026-11-22T00:00:00+01:00"


def test_digest_rejects_non_json() -> None:
    with pytest.raises(ContractError):
        baseline_digest(["not", "a", "mapping"])
    with pytest.raises(ContractError):
        baseline_digest({"panel_size": float("nan")})
