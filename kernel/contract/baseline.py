"""Baseline immutability (R11): the digest of the baseline fields, and runtime injection."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import json
from collections.abc import Mapping
from typing import Any

from kernel.contract.encoding import unencodable
from kernel.contract.validator import BASELINE_FIELDS
from kernel.errors import ContractError

__all__ = ["baseline_digest", "inject"]


def baseline_digest(contract: object) -> str:
    """Hex SHA-256 of the canonical JSON (sorted keys, no insignificant white space, UTF-8) of
    exactly the baseline fields the contract has. Runtime fields never change it."""
    from kernel.contract.model import Contract

    data = contract.to_dict() if isinstance(contract, Contract) else contract
    if not isinstance(data, Mapping):
        raise ContractError(f"a contract must be a JSON object, got {type(data).__name__}")
    subset = {k: data[k] for k in BASELINE_FIELDS if k in data}
    bad = unencodable(subset)
    if bad:
        raise ContractError(f"baseline fields are not UTF-8 text: {bad[0]}", errors=bad)
    try:
        text = json.dumps(
            subset, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
        )
    except (TypeError, ValueError) as exc:
        raise ContractError(f"baseline fields are not plain JSON: {exc}") from None
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def inject(
    template: object,
    *,
    generated_at: str | dt.datetime,
    amendments: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A validated deep copy of ``template`` with the runtime fields set.

    ``generated_at`` is an RFC 3339 string or a timezone-aware datetime; ``amendments``
    (a mapping) becomes ``agent_amendments``. Baseline fields are never touched, so
    ``baseline_digest(result) == baseline_digest(template)``. Anything that does not make a
    valid contract (text that is not UTF-8 included) is a :class:`ContractError`.
    """
    from kernel.contract.model import Contract, load_contract

    if amendments is not None and not isinstance(amendments, Mapping):
        raise ContractError(
            f"amendments must be a mapping (agent_amendments is a JSON object), got "
            f"{type(amendments).__name__}"
        )

    if isinstance(template, Contract):
        source: Any = template.to_dict()
    elif isinstance(template, Mapping):
        source = template
    else:
        raise ContractError(f"a template must be a mapping, got {type(template).__name__}")
    if isinstance(generated_at, dt.datetime):
        if generated_at.tzinfo is None:
            raise ContractError("generated_at must be timezone-aware (RFC 3339 needs an offset)")
        generated_at = generated_at.isoformat()
    result = copy.deepcopy(dict(source))
    result["generated_at"] = generated_at
    if amendments is not None:
        if not isinstance(amendments, Mapping):
            raise ContractError(
                f"amendments must be a mapping, got {type(amendments).__name__}"
            )
        result["agent_amendments"] = copy.deepcopy(dict(amendments))
    load_contract(result)
    if baseline_digest(result) != baseline_digest(source):  # pragma: no cover - by construction
        raise ContractError("injection changed a baseline field")
    return result
