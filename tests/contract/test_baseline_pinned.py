"""Pinned baseline (R11) behaviour: error texts, what the digest covers, injection's copies."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from kernel import ContractError, baseline_digest, inject, load_contract, shipped_template


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: baseline_digest(["x"]), "a contract must be a JSON object, got list"),
        (lambda: baseline_digest({"panel_size": {1}}), "baseline fields are not plain JSON: "),
        (
            lambda: baseline_digest({"panel_size": float("inf")}),
            "baseline fields are not plain JSON: ",
        ),
        (
            lambda: inject(3, generated_at="2026-01-01T00:00:00Z"),
            "a template must be a mapping, got int",
        ),
        (
            lambda: inject(shipped_template("reviewer/full"), generated_at=dt.datetime(2026, 1, 1)),
            "generated_at must be timezone-aware (RFC 3339 needs an offset)",
        ),
    ],
)
def test_error_texts(call: object, message: str) -> None:
    with pytest.raises(ContractError) as info:
        call()  # type: ignore[operator]
    assert info.value.message.startswith(message)
    if not message.endswith(": "):
        assert info.value.message == message


def test_digest_covers_exactly_the_baseline_fields() -> None:
    assert baseline_digest({}) == hashlib.sha256(b"{}").hexdigest()
    assert baseline_digest({"panel_size": 5, "generated_at": "x", "note": 1}) == (
        hashlib.sha256(b'{"panel_size":5}').hexdigest()
    )
    assert baseline_digest({"mode": "é"}) == hashlib.sha256('{"mode":"é"}'.encode()).hexdigest()
    c = shipped_template("reviewer/full")
    for field in ("contract_id", "mode", "stage", "baseline_version", "panel_size"):
        changed = dict(c)
        changed[field] = "x"
        assert baseline_digest(changed) != baseline_digest(c), field
    with_ladder = {**c, "override_ladder": [1]}
    assert baseline_digest(with_ladder) != baseline_digest(c)


def test_inject_copies_and_formats() -> None:
    contract = load_contract("reviewer/full")
    hints = ["h"]
    amendments = {"stage_specific_notes": "n", "additional_measurement_hints": hints}
    when = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    result = inject(contract, generated_at=when, amendments=amendments)
    assert result["generated_at"] == "2026-01-02T03:04:05+02:00"
    assert result["agent_amendments"] == amendments
    hints.append("later")
    assert result["agent_amendments"]["additional_measurement_hints"] == ["h"]
    assert {k: v for k, v in result.items() if k not in ("generated_at", "agent_amendments")} == (
        contract.to_dict()
    )
    plain = inject(shipped_template("reviewer/full"), generated_at="2026-01-01T00:00:00Z")
    assert "agent_amendments" not in plain
    template = shipped_template("reviewer/full")
    inject(template, generated_at="2026-01-01T00:00:00Z")["failure_conditions"][0]["severity"] = 1
    assert template["failure_conditions"][0]["severity"] == 90
