"""``migrate(contract)``: a Schema 13 contract as a 13.2 contract, and exactly which of its
decisions change (docs/migrating.md)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from kernel.analysis.budget import Budget, check_cells, checked_budget
from kernel.contract.model import Contract, load_contract
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template
from kernel.contract.validator import canonical_json
from kernel.decision.decision import decide
from kernel.errors import AnalysisTooLarge, ContractError, KernelError, MatrixError
from kernel.expression.ast import SCORES
from kernel.migration.count import count_pairs, seat_value
from kernel.migration.plan import load_migrated, plan_migration
from kernel.migration.result import Migration, MigrationExample, Transition, pair_order
from kernel.strict import shown

if TYPE_CHECKING:
    from kernel.analysis.probability import Prior

__all__ = ["example_for", "migrate"]


def migrate(
    contract: Contract | Mapping[str, Any] | str,
    *,
    roles: Mapping[str, Sequence[str] | str] | None = None,
    mode: str | None = None,
    actions: Mapping[str, str] | None = None,
    fatal: Iterable[str] | None = None,
    expressions: Mapping[str, str] | None = None,
    prior: Prior | None = None,
    budget: Budget | None = None,
) -> Migration:
    """Migrate a Schema 13 contract to 13.2 and count, over every old matrix, the pairs
    (old action, new action).

    ``roles``: dimension id → roles (a list, or ``"methodology,eic"``; the first owns the
    dimension). ``mode``: the 13.2 mode, for a 13 mode that has no role set. ``actions``:
    ``reject_or_major_revision`` (or a condition id) → ``reject`` or ``major_revision``.
    ``fatal``: mandatory dimension ids whose blocks become fatal. ``expressions``: condition
    id → its 13.2 expression, for a condition 13.2 cannot read as written. ``prior``: a
    :class:`~kernel.analysis.probability.Prior`; the result then also gives each pair's
    probability. A choice that cannot be made is a :class:`~kernel.errors.MigrationError`
    naming the condition, field or option; work past ``budget`` is refused with an estimate
    (:class:`~kernel.errors.AnalysisTooLarge`).
    """
    old = load_contract(contract)
    budget = checked_budget(budget, "migrate")
    check_cells(old.contract_id, len(old.dimensions), old.panel_size)
    dists = None
    if prior is not None:
        from kernel.analysis.probability import Prior, prior_distributions

        if not isinstance(prior, Prior):
            raise KernelError(f"migrate: prior must be a Prior or None, got {shown(prior)}")
        dists = prior_distributions(prior, old)
    plan = plan_migration(
        old,
        roles=roles,
        mode=mode,
        actions=actions,
        fatal=fatal,
        expressions=expressions,
        document=_as_written(contract, old),
    )
    new = load_migrated(plan)
    try:
        counted = count_pairs(old, new, plan.seats, plan.fatal, budget)
    except AnalysisTooLarge as exc:
        every = [d.id for d in new.dimensions if len(d.eligible_roles) == len(new.roles) > 2]
        if every:
            exc.message += (
                f"; {', '.join(every)} are eligible for every role, which keeps them open "
                "until the last reviewer: --roles (roles=) with their real roles makes the "
                "comparison smaller"
            )
            exc.args = (exc.message,)
        raise
    chances: dict[tuple[str | None, str | None], Fraction] = {}
    renamed_chances: dict[tuple[str | None, str | None], Fraction] = {}
    if prior is not None and dists is not None:
        weights, denominator = _prior_weights(old, dists)
        weighted = count_pairs(
            old, new, plan.seats, plan.fatal, budget, weights=weights, examples=False
        )
        chances = {k: Fraction(v, denominator) for k, v in weighted.weights.items()}
        renamed_chances = {k: Fraction(v, denominator) for k, v in weighted.renamed.items()}
    transitions = []
    for pair in sorted(counted.weights, key=pair_order):
        columns = counted.examples.get(pair)
        example = None
        if pair[0] != pair[1] and columns is not None:
            example = example_for(old, new, plan.seats, plan.fatal, columns)
        matrices, renamed = counted.weights[pair], counted.renamed.get(pair, 0)
        transitions.append(
            Transition(
                pair[0],
                pair[1],
                matrices,
                example,
                chances.get(pair, Fraction(0)) if prior is not None else None,
                renamed=pair[0] != pair[1] and renamed == matrices,
                renamed_matrices=renamed,
                renamed_probability=(
                    renamed_chances.get(pair, Fraction(0)) if prior is not None else None
                ),
            )
        )
    return Migration(
        old=old,
        contract=new,
        choices=plan.choices,
        seats=plan.seats,
        fatal=tuple(sorted(plan.fatal, key=old.dimension_ids.index)),
        space=3 ** (len(old.dimensions) * old.panel_size),
        transitions=tuple(transitions),
        text=json.dumps(plan.document, indent=2, ensure_ascii=False) + "\n",
        prior=None if prior is None else prior.to_dict(),
    )


def _as_written(source: object, old: Contract) -> Mapping[str, Any] | None:
    """The old document in its own key order, when the caller gave it (a mapping that is
    the loaded contract, or a template name)."""
    if isinstance(source, str) and source in TEMPLATE_NAMES:
        return shipped_template(source)
    if isinstance(source, Mapping) and canonical_json(source) == old.to_json():
        return source
    return None


def _prior_weights(
    old: Contract, dists: Sequence[tuple[Fraction, Fraction, Fraction]]
) -> tuple[list[tuple[int, int, int]], int]:
    """Per dimension, the prior's (pass, warn, block) as integers over a common
    denominator; and the denominator of a whole matrix."""
    weights = []
    denominator = 1
    for dist in dists:
        scale = math.lcm(*(p.denominator for p in dist))
        weights.append((int(dist[0] * scale), int(dist[1] * scale), int(dist[2] * scale)))
        denominator *= scale**old.panel_size
    return weights, denominator


def example_for(
    old: Contract,
    new: Contract,
    seats: Sequence[str | None],
    fatal: frozenset[str],
    columns: Sequence[Sequence[int]],
) -> MigrationExample:
    """The old matrix whose reviewer ``j`` has ``columns[j]`` (ranks), the 13.2 matrix it
    becomes, and both decisions."""
    old_matrix = {d.id: tuple(SCORES[col[d.position]] for col in columns) for d in old.dimensions}
    new_matrix: dict[str, dict[str, str]] = {}
    for d in new.dimensions:
        row = {}
        for role in new.roles:
            if role not in d.eligible_roles:
                continue
            j = seats.index(role) if role in seats else None
            row[role] = (
                "not_assessed"
                if j is None
                else seat_value(new, d.position, columns[j][d.position], fatal)
            )
        new_matrix[d.id] = row
    old_decision = new_decision = None
    old_refusal = new_refusal = None
    try:
        old_decision = decide(old, {k: list(v) for k, v in old_matrix.items()})
    except (ContractError, MatrixError) as exc:
        old_refusal = exc.message
    try:
        new_decision = decide(new, {k: dict(v) for k, v in new_matrix.items()})
    except (ContractError, MatrixError) as exc:
        new_refusal = exc.message
    dropped = tuple(
        f"{d.id} r{j + 1} ({role or 'no seat'}): {old_matrix[d.id][j]}"
        for d in new.dimensions
        for j, role in enumerate(seats)
        if old_matrix[d.id][j] != "pass" and (role is None or role not in d.eligible_roles)
    )
    return MigrationExample(
        old_matrix, new_matrix, old_decision, new_decision, old_refusal, new_refusal, dropped
    )
