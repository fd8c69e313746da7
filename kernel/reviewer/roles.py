"""What the 13.2 document lints need from a contract: each dimension's roles (13.2 §E, §F).

:class:`RoleScope` is the narrow view the reviewer layer reads: dimension ids, names and
priorities, each dimension's eligible roles and owner role, the mode's role set, the
conditions (id and action) and the contract text (for the manuscript-leak exemption of 13.2
§E9). :func:`scope_of` builds it, once per contract, from a loaded 13.2 contract.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping
from typing import Final

import attrs

from kernel.contract.dialects import dialect_named
from kernel.contract.model import Contract, load_contract
from kernel.errors import ContractError, InputError

__all__ = [
    "ROLE_SETS",
    "RoleScope",
    "ScopedDimension",
    "require_role",
    "role_binding_tag",
    "scope_of",
]

#: The role set of each reviewer mode that has one, in the order seats are listed (the
#: 13.2 dialect's own table, 13.2 §B3).
ROLE_SETS: Final[Mapping[str, tuple[str, ...]]] = dialect_named("13.2").role_sets


#: A scoring subsection's title: ``Dn: name``.
_TITLE: Final = re.compile(r"(?P<dim>D\d+): (?P<name>.+)")


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

    def titled(self, title: str) -> tuple[ScopedDimension, str] | None:
        """The dimension a ``### Dn: name`` subsection names, with the name as written
        (``None`` when the title has another shape or names no dimension)."""
        m = _TITLE.fullmatch(title)
        dim = self.dimension(m.group("dim")) if m else None
        return None if m is None or dim is None else (dim, m.group("name"))

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


def scope_of(contract: object) -> RoleScope:
    """The role scope of a 13.2 reviewer contract: a loaded :class:`Contract`, or anything
    :func:`~kernel.contract.model.load_contract` takes (loaded and validated first)."""
    loaded = contract if isinstance(contract, Contract) else load_contract(contract)
    return _scope_of_contract(loaded)


@functools.lru_cache(maxsize=16)
def _scope_of_contract(contract: Contract) -> RoleScope:
    dims = contract.dimensions
    if contract.dialect != "13.2" or not dims or not all(d.eligible_roles for d in dims):
        raise ContractError(
            f"{contract.contract_id}: not a 13.2 reviewer contract (its dimensions carry no "
            "eligible_roles), so its documents have no roles"
        )
    roles = contract.roles or ROLE_SETS.get(contract.mode)
    if not roles:
        raise ContractError(f"reviewer mode {contract.mode!r} has no role set")
    return RoleScope(
        mode=contract.mode,
        roles=tuple(roles),
        dimensions=tuple(
            ScopedDimension(
                d.id, d.name, d.priority, frozenset(d.eligible_roles), d.owner_role or ""
            )
            for d in dims
        ),
        conditions=tuple((c.condition_id, c.action) for c in contract.conditions),
        paraphrase_minimum=contract.paraphrase_minimum,
        contract_text=json.dumps(contract.to_dict(), ensure_ascii=False, sort_keys=True),
    )
