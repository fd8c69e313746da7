"""migrate() with a prior stays bounded and exact (issue 38): large priors are refused at once
as analyze refuses them, a hand-built Prior is checked, the work charges the size of its
integers, and "renamed" is decided by which condition decided each matrix."""

from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction
from typing import Any

import pytest
from support.bench import register_benchmarks

from kernel import decide
from kernel.analysis.budget import Budget
from kernel.analysis.probability import (
    MAX_DENOMINATOR_BITS,
    Prior,
    parse_prior,
    probabilities,
)
from kernel.cli.main import main as sprint_kernel
from kernel.contract.templates import shipped_template
from kernel.errors import (
    AnalysisTooLarge,
    ContractError,
    KernelError,
    MatrixError,
    PriorError,
)
from kernel.expression.ast import SCORES
from kernel.migration import Migration, migrate
from kernel.migration.count import seat_value

register_benchmarks()  # the benchmarks' package, loaded by location

from benchmarks.bench_migrate import wide_contract  # noqa: E402

#: 43 characters: denominators of 10**9 (about 30 bits per dimension and reviewer).
LONG_PRIOR = "pass=0.123456789,warn=0.1,block=0.776543211"
#: A prime denominator of 54 bits: at 140 reviewers x 2 read dimensions the exact
#: probabilities have over 4,300 digits (Python refuses to print them).
PRIME_PRIOR = "pass=1/9007199254740881,block=9007199254740880/9007199254740881"


@pytest.mark.parametrize("panel", [50, 80])
@pytest.mark.parametrize("prior", [LONG_PRIOR, "pass=0.7,warn=0.2,block=0.1"])
def test_a_prior_on_a_wide_contract_is_refused_at_once_as_analyze_refuses_it(
    panel: int, prior: str
) -> None:
    data = wide_contract(panel)
    assert 8000 < len(json.dumps(data)) < 9000
    budget = Budget()
    with pytest.raises(PriorError, match=f"at most {MAX_DENOMINATOR_BITS}") as migrated:
        migrate(data, prior=parse_prior(prior), budget=budget)
    assert budget.used == 0  # refused before any counting
    with pytest.raises(PriorError) as analyzed:
        probabilities(data, parse_prior(prior))
    assert migrated.value.message == analyzed.value.message
    assert isinstance(migrated.value, AnalysisTooLarge)  # E-TOO-LARGE on the command line


@pytest.mark.parametrize("command", ["migrate", "analyze"])
def test_the_command_line_refuses_it_as_too_large_with_the_estimate(
    command: str, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(wide_contract(50)), "utf-8")
    code = sprint_kernel([command, str(path), "--prior", LONG_PRIOR, "--format", "json"])
    body = json.loads(capsys.readouterr().out)
    assert code == 1
    (found,) = body["diagnostics"]
    assert found["code"] == "E-TOO-LARGE"
    assert "148500 bits" in found["message"]


def test_a_prior_whose_fractions_would_not_print_is_refused_not_a_value_error() -> None:
    data = copy.deepcopy(dict(shipped_template("reviewer/methodology_focus")))
    data["panel_size"] = 140
    data["failure_conditions"][1]["expression"] = "D2 scores 'block'"
    with pytest.raises(PriorError, match="denominator of about 14840 bits"):
        migrate(data, prior=parse_prior(PRIME_PRIOR))


def test_the_accepted_prior_next_to_the_limit_prints_in_text_and_json() -> None:
    data = copy.deepcopy(dict(shipped_template("reviewer/methodology_focus")))
    data["panel_size"] = 120  # 120 x 2 x 54 bits = 12,960: just under the limit
    data["failure_conditions"][1]["expression"] = "D2 scores 'block'"
    m = migrate(data, prior=parse_prior(PRIME_PRIOR))
    assert sum(t.probability or 0 for t in m.transitions) == 1
    json.dumps(m.to_dict())
    from kernel.migration import format_migration

    assert "under the prior" in format_migration(m, "wide")


@pytest.mark.parametrize(
    ("default", "reason"),
    [
        ((0.7, 0.2, 0.1), "non-negative Fractions"),
        ((Fraction(1, 2), Fraction(1, 2), Fraction(1, 2)), "adding up to 1"),
        ((Fraction(3, 2), Fraction(-1, 2), Fraction(0)), "non-negative"),
        ((Fraction(1),), "non-negative Fractions"),
    ],
)
def test_a_hand_built_prior_is_checked_as_probabilities_checks_it(
    default: Any, reason: str
) -> None:
    prior = Prior(default=default)
    with pytest.raises(KernelError, match=reason):
        migrate("reviewer/methodology_focus", prior=prior)
    with pytest.raises(KernelError, match=reason):
        probabilities("reviewer/methodology_focus", prior)


def test_a_prior_naming_a_dimension_the_contract_lacks_is_refused() -> None:
    prior = Prior(dimensions={"D9": (Fraction(1), Fraction(0), Fraction(0))})
    with pytest.raises(PriorError, match="no dimension D9"):
        migrate("reviewer/methodology_focus", prior=prior)


def test_the_work_charges_the_size_of_the_integers() -> None:
    """The same comparison costs more steps under a prior with long denominators than under
    one with short ones: each addition of larger integers is charged (int_steps)."""
    data = wide_contract(12, dimensions=5)
    short, long = Budget(), Budget()
    migrate(data, prior=parse_prior("pass=1/2,warn=1/4,block=1/4"), budget=short)
    p = 9007199254740881
    prime = f"pass=1/{p},warn=1/{p},block={p - 2}/{p}"
    migrate(data, prior=parse_prior(prime), budget=long)
    assert long.used > short.used


# --- "renamed": the same condition decides under both contracts ----------------------------


def _brute_moved(m: Migration) -> tuple[int, int]:
    """(decided differently, only renamed) over every old matrix: a changed action is only
    renamed when the condition that decides it is the same (by id) under both contracts."""
    ids, n = m.old.dimension_ids, m.old.panel_size
    moved = renamed = 0
    for cells in itertools.product(SCORES, repeat=len(ids) * n):
        old = {d: list(cells[i * n : (i + 1) * n]) for i, d in enumerate(ids)}
        try:
            before = decide(m.old, old)
        except ContractError:
            before = None
        new: dict[str, dict[str, str]] = {}
        for d in m.contract.dimensions:
            row = {}
            for role in d.eligible_roles:
                if role in m.seats:
                    rank = SCORES.index(old[d.id][m.seats.index(role)])
                    row[role] = seat_value(m.contract, d.position, rank, frozenset(m.fatal))
                else:
                    row[role] = "not_assessed"
            new[d.id] = row
        try:
            after = decide(m.contract, new)
        except MatrixError:
            after = None
        a = before.action if before else None
        b = after.action if after else None
        if a == b:
            continue
        if before and after and before.condition_id and before.condition_id == after.condition_id:
            renamed += 1
        else:
            moved += 1
    return moved, renamed


def _variant(**f2: str) -> dict[str, Any]:
    data = copy.deepcopy(dict(shipped_template("reviewer/methodology_focus")))
    data["failure_conditions"][1].update(f2)
    return data


@pytest.mark.parametrize(
    ("f2", "moved"),
    [
        ({}, 27),
        # F2 (severity 70) shares F1's old action: a matrix F1 decided under Schema 13 and F2
        # under 13.2 was counted as renamed (18); it is decided differently.
        ({"action": "editorial_decision=reject_or_major_revision"}, 27),
        (
            {
                "action": "editorial_decision=reject_or_major_revision",
                "expression": "D2 scores 'block'",
                "cross_reviewer_quantifier": "all",
            },
            18,
        ),
    ],
)
def test_per_condition_actions_count_renamed_by_the_deciding_condition(
    f2: dict[str, str], moved: int
) -> None:
    m = migrate(_variant(**f2), actions={"F1": "reject"})
    assert m.space == 81
    assert (m.moved, m.renamed) == _brute_moved(m)
    assert m.moved == moved
    assert m.to_dict()["moved"] == moved


def test_a_methodology_focus_variant_is_decided_differently_in_22_of_81() -> None:
    """The issue's case: with F1 mapped to reject, a matrix F1 decided under Schema 13 and F3
    (whose old action is also reject_or_major_revision, now major_revision) under 13.2 was
    counted as renamed: 17 of 81 decided differently; brute force says 22."""
    data = copy.deepcopy(dict(shipped_template("reviewer/methodology_focus")))
    data["failure_conditions"] = [
        {
            "condition_id": f"F{i}",
            "severity": severity,
            "expression": expression,
            "cross_reviewer_quantifier": quantifier,
            "action": f"editorial_decision={action}",
        }
        for i, severity, expression, quantifier, action in [
            (1, 90, "D1 scores 'warn'", "majority", "reject_or_major_revision"),
            (2, 80, "D1 scores 'block'", "any", "major_revision"),
            (3, 70, "D2 scores 'pass'", "any", "reject_or_major_revision"),
            (0, 10, "D1 scores 'pass'", "all", "accept"),
        ]
    ]
    m = migrate(data, actions={"F1": "reject"})
    assert (m.moved, m.space) == (22, 81)
    assert (m.moved, m.renamed) == _brute_moved(m)


def test_the_probability_of_deciding_differently_follows_the_deciding_condition() -> None:
    m = migrate(
        _variant(action="editorial_decision=reject_or_major_revision"),
        actions={"F1": "reject"},
        prior=parse_prior("pass=1/3,warn=1/3,block=1/3"),
    )
    moved, renamed = _brute_moved(m)
    assert m.moved_probability == Fraction(moved, 81)
    assert m.changed_probability == Fraction(moved + renamed, 81)
