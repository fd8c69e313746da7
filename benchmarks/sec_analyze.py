"""analyze on reviewer/full and on larger generated contracts.

There is no peer that answers the same question; the comparison row is the brute force the
analysis replaces, *estimated* (never run): ``decide`` on every possible matrix, at the
median time of one ``decide`` call on the same contract.
"""

from __future__ import annotations

import importlib
import random
from typing import Any

from timing import NOT_AVAILABLE, Row, compare, row, set_ratios

SECTION = "analyze"
BRUTE = "brute force: decide x every matrix (estimate)"

#: Extra conditions for generated contracts: (severity, expression, quantifier, action).
_EXTRA = (
    (80, "D6 scores 'block' AND D5 scores 'block'", "majority", "editorial_decision=reject"),
    (
        50,
        "two or more normal-priority dimensions score 'warn' or worse",
        "majority",
        "editorial_decision=minor_revision",
    ),
    (
        40,
        "any normal-priority dimension scores 'block'",
        "any",
        "editorial_decision=minor_revision",
    ),
    (
        30,
        "two or more high-priority dimensions score 'warn' or worse",
        "any",
        "editorial_decision=minor_revision",
    ),
)
_PRIORITIES = ("mandatory", "mandatory", "mandatory", "high", "high", "normal", "normal", "normal")


def generated(dimensions: int, panel_size: int, extra: int) -> dict[str, Any]:
    """reviewer/full grown to ``dimensions`` dimensions (≥ 6), ``panel_size`` reviewers and
    ``4 + extra`` conditions."""
    import kernel

    c = kernel.shipped_template("reviewer/full")
    c["contract_id"] = "bench/generated/v1"
    c["panel_size"] = panel_size
    c["acceptance_dimensions"] = [
        {
            "id": f"D{i + 1}",
            "name": f"dimension_{i + 1}",
            "description": f"Generated dimension {i + 1}.",
            "priority": _PRIORITIES[i % len(_PRIORITIES)],
        }
        for i in range(dimensions)
    ]
    for i, (severity, expression, quantifier, action) in enumerate(_EXTRA[:extra]):
        c["failure_conditions"].append(
            {
                "condition_id": f"F{i + 4}",
                "severity": severity,
                "expression": expression,
                "cross_reviewer_quantifier": quantifier,
                "action": action,
            }
        )
    return c


def _matrices(contract: Any, count: int) -> list[dict[str, list[str]]]:
    rng = random.Random(7)
    scores = ("pass", "warn", "block")
    return [
        {d.id: rng.choices(scores, k=contract.panel_size) for d in contract.dimensions}
        for _ in range(count)
    ]


def run(quick: bool) -> list[Row]:
    try:
        analyze = importlib.import_module("kernel.analysis").analyze
    except (ImportError, AttributeError) as e:
        return [row(SECTION, "-", "analyze", status=NOT_AVAILABLE, note=str(e))]
    import kernel

    cases: list[tuple[str, Any]] = [("reviewer/full", "reviewer/full")]
    cases.append(("generated: 7 dims, 5 reviewers, 7 conditions", generated(7, 5, 3)))
    if not quick:
        cases.append(("generated: 8 dims, 7 reviewers, 8 conditions", generated(8, 7, 4)))
    rows: list[Row] = []
    for label, source in cases:
        contract = kernel.load_contract(source)
        space = 3 ** (len(contract.dimensions) * contract.panel_size)
        ms = _matrices(contract, 50)

        def one(c: Any) -> object:
            return analyze(c)

        def decide(m: Any, contract: Any = contract) -> object:
            return kernel.decide(contract, m)

        medians = compare(
            [("analyze", one, [contract]), ("decide", decide, ms)],
            batches=1 if quick else 3,
            target_ns=0,
        )
        result: Any = analyze(contract)
        outcomes = ", ".join(f"{o.key}={o.matrices:.3g}" for o in result.outcomes)
        case = f"{label} (3^{len(contract.dimensions) * contract.panel_size} matrices)"
        case_rows = [
            row(SECTION, case, "analyze", medians["analyze"], note=outcomes, kernel=True),
            row(
                SECTION,
                case,
                BRUTE,
                medians["decide"] * space,
                note=f"{space:.3g} x {medians['decide']:.0f} ns",
            ),
        ]
        set_ratios(case_rows, medians["analyze"])
        rows += case_rows
    return rows
