"""The migrated document: a Schema 13 contract rewritten as a 13.2 contract, and every choice
made on the way (docs/migrating.md states the rules).

- The mode stays, unless it has no 13.2 role set (``reviewer_re_review``,
  ``reviewer_calibration``, ``reviewer_guided``): then the caller names one. The panel size
  becomes the mode's.
- Each dimension's roles come from the shipped 13.2 template of the mode, by the dimension's
  ``name``; a name the template lacks gets every role of the mode, with the EIC as owner.
  The caller's ``roles`` win (the first role listed owns the dimension). A role still left
  with no dimension becomes eligible on every dimension (13.2 refuses an idle role; under
  Schema 13 that seat scored every dimension).
- The scoring plan gains ``what_triggers_fatal``.
- ``reject_or_major_revision`` becomes ``major_revision`` (13 has no fatal block, so a 13
  block becomes a repairable one, which the 13.2 template answers with a major revision),
  unless the caller's ``actions`` say otherwise.
- Each expression keeps its words when 13.2 reads them as the same atoms; otherwise it is
  respelled in 13.2's form of the same atoms. One that 13.2 still refuses (a priority no
  dimension has) needs the caller's ``expressions``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.contract.dialects import DIALECTS
from kernel.contract.model import Contract, load_contract
from kernel.contract.templates import shipped_template
from kernel.errors import ContractError, ExpressionUnrecognised, MigrationError
from kernel.expression.ast import (
    AnyAtom,
    AnyScores,
    DimensionScores,
    EveryScores,
    Expression,
    TwoOrMore,
)
from kernel.expression.parser import parse_expression
from kernel.strict import shown

__all__ = [
    "ACTION_DEFAULTS",
    "Choice",
    "Plan",
    "plan_migration",
    "respelled",
]

#: Every reviewer action of 13.2.
ACTIONS_13_2: Final = ("accept", "minor_revision", "major_revision", "reject")
_PREFIX: Final = "editorial_decision="
#: A 13 action 13.2 lacks → the 13.2 action it becomes unless the caller says otherwise.
ACTION_DEFAULTS: Final = {"reject_or_major_revision": "major_revision"}
_FATAL_FIELD: Final = "what_triggers_fatal"
_OWNER_DEFAULT: Final = "eic"
_VERSION: Final = re.compile(r"/v([1-9][0-9]{0,5})\Z")


@attrs.frozen
class Choice:
    """One thing the migration decided: ``field`` (a JSON path, or ``panel`` for the seat
    mapping), ``kind`` (``defaulted``, ``renamed``, ``added``, ``option``: set by the
    caller), the value before and after, and why."""

    field: str
    kind: str
    old: Any
    new: Any
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def __str__(self) -> str:
        old = "(none)" if self.old is None else _short(self.old)
        return f"{self.field}: {old} -> {_short(self.new)} ({self.kind}: {self.reason})"


def _short(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


@attrs.frozen
class Plan:
    """The migrated document, its choices, and what the decision comparison needs."""

    document: dict[str, Any]
    choices: tuple[Choice, ...]
    #: Old reviewer ``j`` (Schema 13's column order) → the role of its seat, or ``None``
    #: when the mode has fewer roles than the old panel had reviewers.
    seats: tuple[str | None, ...]
    #: Dimension ids whose 13 block becomes a fatal one (``--fatal``).
    fatal: frozenset[str]


def plan_migration(
    old: Contract,
    *,
    roles: Mapping[str, Sequence[str] | str] | None = None,
    mode: str | None = None,
    actions: Mapping[str, str] | None = None,
    fatal: Iterable[str] | None = None,
    expressions: Mapping[str, str] | None = None,
    document: Mapping[str, Any] | None = None,
) -> Plan:
    """The 13.2 document for ``old`` (a loaded Schema 13 contract) and its choices; a
    :class:`MigrationError` names the condition, field or option that needs a choice.
    ``document`` is ``old``'s document as written (its key order is kept)."""
    if old.dialect != "13":
        raise MigrationError(
            f"{old.contract_id} is already a Schema {old.dialect} contract; only Schema 13 "
            "contracts are migrated",
            field="contract",
        )
    doc = copy.deepcopy(dict(document)) if document is not None else old.to_dict()
    choices: list[Choice] = []
    new_mode = _mode(old.mode, mode, choices)
    role_set = DIALECTS["13.2"].role_sets[new_mode]
    doc["mode"] = new_mode
    _contract_id(doc, choices)
    panel = DIALECTS["13.2"].panel_sizes[new_mode]
    if doc.get("panel_size") != panel:
        choices.append(
            Choice(
                "$.panel_size",
                "defaulted",
                doc.get("panel_size"),
                panel,
                f"the panel size of {new_mode}",
            )
        )
    doc["panel_size"] = panel
    _roles(doc, new_mode, role_set, _checked_roles(roles, old, role_set), choices)
    _scoring_plan(doc, choices)
    _actions(doc, _checked_actions(actions, old), choices)
    _expressions(doc, old, _checked_expressions(expressions, old), choices)
    fatal_ids = _checked_fatal(fatal, old)
    seats = tuple(role_set[j] if j < len(role_set) else None for j in range(old.panel_size))
    choices.append(
        Choice(
            "panel",
            "defaulted",
            [f"reviewer {j + 1}" for j in range(old.panel_size)],
            [r or "(no seat)" for r in seats],
            f"reviewer i of the old panel sits as the i-th role of {new_mode}",
        )
    )
    for d in old.dimensions:
        if d.priority == "mandatory":
            kind = "option" if d.id in fatal_ids else "defaulted"
            value = "block:fatal" if d.id in fatal_ids else "block:repairable"
            choices.append(
                Choice(
                    f"{d.id}.block",
                    kind,
                    "block",
                    value,
                    "--fatal names it"
                    if d.id in fatal_ids
                    else "a Schema 13 block on a mandatory dimension is repairable",
                )
            )
    return Plan(doc, tuple(choices), seats, fatal_ids)


def _mode(old_mode: str, mode: str | None, choices: list[Choice]) -> str:
    role_sets = DIALECTS["13.2"].role_sets
    if mode is not None:
        if type(mode) is not str or mode not in role_sets:
            raise MigrationError(
                f"mode: {shown(mode)} has no 13.2 role set; expected one of {', '.join(role_sets)}",
                field="mode",
            )
        if mode != old_mode:
            choices.append(Choice("$.mode", "option", old_mode, mode, "--mode names it"))
        return mode
    if old_mode not in role_sets:
        raise MigrationError(
            f"$.mode: {old_mode} has no 13.2 role set (13.2 knows {', '.join(role_sets)}); "
            "name the mode to migrate to (--mode)",
            field="$.mode",
        )
    return old_mode


def _contract_id(doc: dict[str, Any], choices: list[Choice]) -> None:
    old_id = doc["contract_id"]
    match = _VERSION.search(old_id)
    if match is None:
        return
    new_id = old_id[: match.start()] + f"/v{int(match.group(1)) + 1}"
    doc["contract_id"] = new_id
    choices.append(
        Choice("$.contract_id", "renamed", old_id, new_id, "a new dialect is a new version")
    )


#: At most this many entries are read from one option (more is a mistake, not a contract).
MAX_ENTRIES: Final = 1000


def _entries(value: object, where: str) -> list[tuple[str, object]]:
    """The pairs of a caller's mapping with exact ``str`` keys, read once; whatever the
    mapping raises while being read is a :class:`MigrationError` naming ``where``."""
    if not isinstance(value, Mapping):
        raise MigrationError(f"{where}: expected a mapping, got {shown(value)}", field=where)
    pairs: list[tuple[str, object]] = []
    try:
        for key in value:
            if type(key) is not str:
                raise MigrationError(f"{where}: key {shown(key)} is not a string", field=where)
            if len(pairs) >= MAX_ENTRIES:
                raise MigrationError(f"{where}: over {MAX_ENTRIES} entries", field=where)
            pairs.append((key, value[key]))
    except MigrationError:
        raise
    except Exception as exc:  # the caller's mapping
        raise MigrationError(
            f"{where}: reading it raised {type(exc).__name__}", field=where
        ) from None
    return pairs


def _strings(value: object, where: str, *, empty: bool = False) -> list[str]:
    """A list, tuple or set of exact ``str`` (or one ``"a,b"`` text), as a list."""
    if type(value) is str:
        items: list[object] = [v.strip() for v in value.split(",")]
    elif isinstance(value, list | tuple | set | frozenset) and len(value) <= MAX_ENTRIES:
        items = list(value)
    else:
        raise MigrationError(f"{where}: expected names, got {shown(value)}", field=where)
    if (not items and not empty) or not all(type(v) is str and v for v in items):
        raise MigrationError(f"{where}: expected names, got {shown(value)}", field=where)
    return items  # type: ignore[return-value]


def _roles_list(value: object, where: str) -> list[str]:
    out = _strings(value, where)
    if len(set(out)) != len(out):
        raise MigrationError(f"{where}: a role is listed twice: {shown(value)}", field=where)
    return out


def _checked_roles(
    roles: Mapping[str, Sequence[str] | str] | None, old: Contract, role_set: Sequence[str]
) -> dict[str, list[str]]:
    if roles is None:
        return {}
    out = {}
    for dim, value in _entries(roles, "roles"):
        where = f"roles[{shown(dim)}]"
        if dim not in old.dimension_ids:
            raise MigrationError(
                f"{where}: no such dimension (dimensions: {', '.join(old.dimension_ids)})",
                field=where,
            )
        listed = _roles_list(value, where)
        outside = [r for r in listed if r not in role_set]
        if outside:
            raise MigrationError(
                f"{where}: {', '.join(outside)} is not a role of the mode "
                f"(roles: {', '.join(role_set)})",
                field=where,
            )
        out[dim] = listed
    return out


def _template_roles(mode: str) -> dict[str, tuple[list[str], str]]:
    name = "13.2/reviewer/" + mode.removeprefix("reviewer_")
    template = shipped_template(name)
    return {
        d["name"]: (list(d["eligible_roles"]), d["owner_role"])
        for d in template["acceptance_dimensions"]
    }


def _roles(
    doc: dict[str, Any],
    mode: str,
    role_set: Sequence[str],
    given: Mapping[str, list[str]],
    choices: list[Choice],
) -> None:
    template = _template_roles(mode)
    dims = doc["acceptance_dimensions"]
    for d in dims:
        where = f"$.acceptance_dimensions[{d['id']}]"
        if d["id"] in given:
            eligible, owner = given[d["id"]], given[d["id"]][0]
            why, kind = "--roles names them; the first owns the dimension", "option"
        elif d["name"] in template:
            eligible, owner = template[d["name"]]
            why = f"the 13.2 template of {mode} has a dimension named {d['name']}"
            kind = "defaulted"
        else:
            eligible, owner = list(role_set), _OWNER_DEFAULT
            why = (
                f"no dimension named {d['name']} in the 13.2 template of {mode}: every "
                "role, the EIC owns it"
            )
            kind = "defaulted"
        d["eligible_roles"], d["owner_role"] = list(eligible), owner
        choices.append(Choice(f"{where}.eligible_roles", kind, None, list(eligible), why))
        choices.append(Choice(f"{where}.owner_role", kind, None, owner, why))
    used = {r for d in dims for r in d["eligible_roles"]}
    for role in [r for r in role_set if r not in used]:
        for d in dims:
            d["eligible_roles"].append(role)
        choices.append(
            Choice(
                "$.acceptance_dimensions[*].eligible_roles",
                "defaulted",
                None,
                role,
                f"role {role} was eligible on no dimension (13.2 refuses an idle role): it "
                "becomes eligible on every dimension, as its seat scored every dimension "
                "under Schema 13",
            )
        )


def _scoring_plan(doc: dict[str, Any], choices: list[Choice]) -> None:
    plan = doc["measurement_procedure"]["scoring_plan_schema"]
    before = list(plan["required"])
    plan["required"] = [*before, _FATAL_FIELD]
    choices.append(
        Choice(
            "$.measurement_procedure.scoring_plan_schema.required",
            "added",
            before,
            plan["required"],
            "13.2 plans all five fields (what_triggers_fatal is new)",
        )
    )


def _action_word(value: object, where: str) -> str:
    word = value.removeprefix(_PREFIX) if type(value) is str else None
    if word not in ACTIONS_13_2:
        raise MigrationError(
            f"{where}: {shown(value)} is not a 13.2 action; expected one of "
            f"{', '.join(ACTIONS_13_2)}",
            field=where,
        )
    return word


def _checked_actions(actions: Mapping[str, str] | None, old: Contract) -> dict[str, str]:
    if actions is None:
        return {}
    ids = {c.condition_id for c in old.conditions}
    out = {}
    for key, value in _entries(actions, "actions"):
        where = f"actions[{shown(key)}]"
        name = key.removeprefix(_PREFIX)
        if name not in ids and name not in ACTION_DEFAULTS:
            raise MigrationError(
                f"{where}: neither a condition id of the contract nor an action 13.2 lacks "
                f"({', '.join(ACTION_DEFAULTS)})",
                field=where,
            )
        out[name] = _action_word(value, where)
    return out


def _actions(doc: dict[str, Any], given: Mapping[str, str], choices: list[Choice]) -> None:
    for c in doc["failure_conditions"]:
        word = c["action"].removeprefix(_PREFIX)
        where = f"$.failure_conditions[{c['condition_id']}].action"
        if c["condition_id"] in given:
            new, kind, why = given[c["condition_id"]], "option", "--actions names it"
        elif word in given:
            new, kind, why = given[word], "option", f"--actions maps {word}"
        elif word in ACTION_DEFAULTS:
            new, kind = ACTION_DEFAULTS[word], "defaulted"
            why = (
                f"13.2 has no {word}; a Schema 13 block becomes a repairable block, which "
                "13.2's template answers with major_revision (reject is for fatal blocks)"
            )
        else:
            continue
        if new != word:
            choices.append(Choice(where, kind, c["action"], _PREFIX + new, why))
        c["action"] = _PREFIX + new


def _checked_expressions(expressions: Mapping[str, str] | None, old: Contract) -> dict[str, str]:
    if expressions is None:
        return {}
    ids = {c.condition_id for c in old.conditions}
    out = {}
    for key, value in _entries(expressions, "expressions"):
        where = f"expressions[{shown(key)}]"
        if key not in ids:
            raise MigrationError(f"{where}: no such condition", field=where)
        if type(value) is not str:
            raise MigrationError(f"{where}: expected text, got {shown(value)}", field=where)
        out[key] = value
    return out


def respelled(expression: Expression) -> str:
    """The expression in 13.2's spelling of the same atoms."""
    return " AND ".join(_atom_13_2(a) for a in expression.atoms)


def _atom_13_2(atom: AnyAtom) -> str:
    if isinstance(atom, AnyScores):
        return f"any {atom.priority} dimension scores '{atom.score}'"
    if isinstance(atom, TwoOrMore):
        return f"two or more {atom.priority} dimensions score '{atom.score}' or worse"
    if isinstance(atom, EveryScores):
        return f"every {atom.priority} dimension scores '{atom.score}'"
    if isinstance(atom, DimensionScores):
        return f"{atom.dimension} scores '{atom.score}'"
    return str(atom)  # a 13.2-only form is already 13.2's spelling


def _same_in_13_2(text: str, expression: Expression) -> bool:
    try:
        return parse_expression(text, dialect="13.2") == expression
    except ExpressionUnrecognised:
        return False


def _expressions(
    doc: dict[str, Any], old: Contract, given: Mapping[str, str], choices: list[Choice]
) -> None:
    dims = [(d.id, d.priority) for d in old.dimensions]
    compile_13_2 = DIALECTS["13.2"].compile
    by_id = {c.condition_id: c for c in old.conditions}
    for c in doc["failure_conditions"]:
        cid = c["condition_id"]
        where = f"$.failure_conditions[{cid}].expression"
        text = c["expression"]
        if cid in given:
            new = given[cid]
            try:
                parsed = parse_expression(new, dialect="13.2")
            except ExpressionUnrecognised as exc:
                raise MigrationError(
                    f"expressions[{cid!r}]: {shown(new)} is not a 13.2 expression: {exc.message}",
                    field=f"expressions[{cid!r}]",
                ) from None
            choices.append(Choice(where, "option", text, new, "--expression names it"))
        else:
            parsed = by_id[cid].expression
            if _same_in_13_2(text, parsed):
                new = text
            else:
                new = respelled(parsed)
                choices.append(
                    Choice(where, "renamed", text, new, "13.2 spells the same atoms this way")
                )
        try:
            compile_13_2(parsed, dims)
        except (ExpressionUnrecognised, ContractError) as exc:
            raise MigrationError(
                f"{where}: {cid} {shown(new)} has no 13.2 counterpart: {exc.message}; map it "
                f"with --expression {cid}=EXPR",
                field=where,
            ) from None
        c["expression"] = new


def _checked_fatal(fatal: Iterable[str] | None, old: Contract) -> frozenset[str]:
    if fatal is None:
        return frozenset()
    out = set()
    for dim in _strings(fatal, "fatal", empty=True):
        where = f"fatal[{shown(dim)}]"
        if dim not in old.dimension_ids:
            raise MigrationError(
                f"{where}: no such dimension (dimensions: {', '.join(old.dimension_ids)})",
                field=where,
            )
        if old.dimension(dim).priority != "mandatory":
            raise MigrationError(
                f"{where}: {dim} is {old.dimension(dim).priority}; 13.2 classes blocks on "
                "mandatory dimensions only",
                field=where,
            )
        out.add(dim)
    return frozenset(out)


def load_migrated(plan: Plan) -> Contract:
    """The migrated document loaded as 13.2 (a failure is the migration's, named)."""
    try:
        return load_contract(copy.deepcopy(plan.document), dialect="13.2")
    except ContractError as exc:
        raise MigrationError(
            f"the migrated contract does not load as 13.2: {exc.message}", field="contract"
        ) from None
