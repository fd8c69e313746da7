"""``validate(..., schema=…)``: a schema the caller gives is checked before it is used. A
malformed one is a ``ContractError`` saying what is wrong and where, never jsonschema's own
exception."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.fuzz import mutated

from kernel import shipped_template
from kernel.contract.dialects import validate
from kernel.contract.templates import schema
from kernel.errors import ContractError

FULL = shipped_template("reviewer/full")


@pytest.mark.parametrize(
    ("bad", "says"),
    [
        ({"type": 5}, "not a valid JSON Schema at $.type"),
        ({"type": "nope"}, "not a valid JSON Schema at $.type"),
        ({"properties": {"mode": {"pattern": "("}}}, "at $.properties.mode.pattern"),
        ({"required": 5}, "at $.required: 5 is not of type 'array'"),
        ({"$ref": "#/nope"}, "cannot be applied (_WrappedReferencingError: PointerToNowhere"),
        ({"$ref": "https://example.invalid/s"}, "cannot be applied"),
        ([], "must be a JSON Schema (an object or a boolean), got []"),
        ("schema13", "got 'schema13'"),
    ],
)
def test_malformed_schema_is_a_contract_error(bad: Any, says: str) -> None:
    with pytest.raises(ContractError) as caught:
        validate(FULL, schema=bad)
    assert caught.value.message.startswith("schema: ")
    assert says in caught.value.message
    assert len(caught.value.message) < 300


def test_malformed_schema_is_refused_before_the_contract_is_read() -> None:
    """An unreadable contract does not hide a malformed schema."""
    with pytest.raises(ContractError, match="schema: not a valid JSON Schema"):
        validate({"contract_id": "\ud800"}, schema={"type": 5})


def test_boolean_schemas_are_schemas() -> None:
    assert validate(FULL, schema=True) == []
    assert validate(FULL, schema=False) != []


@given(st.just(schema()).flatmap(mutated))
def test_mutated_schema13_validates_or_is_refused(bad: Any) -> None:
    try:
        errors = validate(FULL, schema=bad)
    except ContractError as exc:
        assert exc.message.startswith("schema: ")
    else:
        assert all(isinstance(e, str) and e.startswith("$") for e in errors)


def test_with_a_caller_schema_unencodable_text_and_huge_integers_come_first_alone() -> None:
    """As with Schema 13 itself: what cannot be encoded is reported, sorted, before any
    schema rule is looked at (a huge integer would choke the schema validator)."""
    contract = shipped_template("reviewer/full")
    contract["acceptance_dimensions"][1]["description"] = "Terms \udc80"
    contract["panel_size"] = 10**30
    found = validate(contract, schema=schema())
    assert found == sorted(found) and len(found) == 2
    assert any("not encodable as UTF-8" in m for m in found)
    assert any(m.startswith("$.panel_size") for m in found)
    assert validate(contract, schema=True) == found  # even a schema that accepts anything
