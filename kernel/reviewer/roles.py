"""What the 13.2 document lints need from a contract: each dimension's roles (13.2 §E, §F).

:class:`RoleScope` is the narrow view the reviewer layer reads: dimension ids, names and
priorities, each dimension's eligible roles and owner role, the mode's role set, the
conditions (id, action, position) and the contract text (for the manuscript-leak
exemption of 13.2 §E9). :func:`scope_of` builds it from a loaded 13.2 contract;
:func:`scope_from_document` from the contract document itself (its fields are read, not
validated: the contract layer validates).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Final

import attrs

from kernel.errors import ContractError, InputError

__all__ = [
    "ROLE_SETS",
    "RoleScope",
    "ScopedDimension",
    "require_role",
    "role_binding_tag",
    "scope_from_document",
    "scope_of",
]

#: The role set of each reviewer mode that has one, in the order seats are listed.
ROLE_SETS: Final[Mapping[str, tuple[str, ...]]] = {
    "reviewer_full": ("eic", "methodology", "domain", "perspective", "da"),
    "reviewer_methodology_focus": ("eic", "methodology"),
}


@attrs.frozen
class ScopedDimension:
    id: str
    name: str
    priority: str
    eligible_roles: frozenset[str]
    owner_role: str


@attrs.frozen
class RoleScope:
    mode: str
    roles: tuple[str, ...]
    dimensions: tuple[ScopedDimension, ...]
    #: Condition ids and actions, in contract order.
    conditions: tuple[tuple[str, str], ...]
    #: Paragraphs the Phase 1 paraphrase needs (``"all"`` = every contract dimension).
    paraphrase_minimum: int
    #: ``json.dumps(contract, ensure_ascii=False, sort_keys=True)`` (13.2 §E9.4).
    contract_text: str

    @property
    def dimension_ids(self) -> tuple[str, ...]:
        return tuple(d.id for d in self.dimensions)

    def dimension(self, dim_id: str) -> ScopedDimension | None:
        return next((d for d in self.dimensions if d.id == dim_id), None)

    def eligible(self, role: str) -> tuple[ScopedDimension, ...]:
        """The dimensions ``role`` may score, in contract order."""
        return tuple(d for d in self.dimensions if role in d.eligible_roles)


def role_binding_tag(role: str, mode: str) -> str:
    return f"[ROLE-BINDING: --role {role} is invalid for {mode}]"


def require_role(scope: RoleScope, role: object) -> str:
    """``role`` when it is a role of the mode's set; else an :class:`InputError` carrying the
    ``ROLE-BINDING`` tag (a wrong dispatch role is a usage error, as upstream exits 2)."""
    if not isinstance(role, str) or role not in scope.roles:
        shown = role if isinstance(role, str) else type(role).__name__
        tag = role_binding_tag(str(shown), scope.mode)
        raise InputError(
            f"{tag} the roles of {scope.mode} are {', '.join(scope.roles)}",
            code="E-INPUT",
            tag=tag,
        )
    return role


def scope_of(contract: Any) -> RoleScope:
    """The role scope of a loaded 13.2 contract (a mapping goes through
    :func:`scope_from_document`)."""
    if isinstance(contract, Mapping):
        return scope_from_document(contract)
    return _scope_of_contract(contract)


@functools.lru_cache(maxsize=16)
def _scope_of_contract(contract: Any) -> RoleScope:
    dims = tuple(contract.dimensions)
    if not dims or not all(getattr(d, "eligible_roles", ()) for d in dims):
        raise ContractError(
            f"{contract.contract_id}: not a 13.2 reviewer contract (its dimensions carry no "
            "eligible_roles), so its documents have no roles"
        )
    roles = getattr(contract, "roles", None) or ROLE_SETS.get(contract.mode)
    if roles is None:
        raise ContractError(f"reviewer mode {contract.mode!r} has no role set")
    return RoleScope(
        mode=contract.mode,
        roles=tuple(roles),
        dimensions=tuple(
            ScopedDimension(d.id, d.name, d.priority, frozenset(d.eligible_roles), d.owner_role)
            for d in dims
        ),
        conditions=tuple((c.condition_id, c.action) for c in contract.conditions),
        paraphrase_minimum=contract.paraphrase_minimum,
        contract_text=json.dumps(contract.to_dict(), ensure_ascii=False, sort_keys=True),
    )


def scope_from_document(data: Mapping[str, Any]) -> RoleScope:
    """The role scope read from a 13.2 reviewer contract document."""
    try:
        mode = data["mode"]
        roles = ROLE_SETS[mode]
        dims = tuple(
            ScopedDimension(
                d["id"], d["name"], d["priority"], frozenset(d["eligible_roles"]), d["owner_role"]
            )
            for d in data["acceptance_dimensions"]
        )
        conditions = tuple((c["condition_id"], c["action"]) for c in data["failure_conditions"])
        minimum = data.get("measurement_procedure", {}).get("paraphrase_minimum_dimensions", 0)
    except (KeyError, TypeError) as exc:
        raise ContractError(
            f"not a 13.2 reviewer contract: {type(exc).__name__} {exc} reading its roles"
        ) from None
    return RoleScope(
        mode=mode,
        roles=roles,
        dimensions=dims,
        conditions=conditions,
        paraphrase_minimum=len(dims) if minimum == "all" else int(minimum),
        contract_text=json.dumps(dict(data), ensure_ascii=False, sort_keys=True),
    )
