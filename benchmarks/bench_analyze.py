"""analyze on reviewer/full and on larger generated contracts.

Two kinds of rows. Against the brute force it replaces: there is no peer that answers the
same question, so the comparison row is ``decide`` on every possible matrix, *estimated*
(never run) at the median time of one ``decide`` call on the same contract. Against its
targets: reviewer/full under 0.5 s, the 10-dimension, panel-7, 5-condition contracts
(3**70 matrices each) under 5 s; each such row is the median wall time of a whole ``analyze``
(or ``probabilities``) call on an already loaded contract.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks.contracts import MIXES, grown, ten_dimensions
from benchmarks.timing import Row, compare, row, set_ratios

SECTION = "analyze"
BRUTE = "brute force: decide x every matrix (estimate)"


def _matrices(contract: Any, count: int) -> list[dict[str, list[str]]]:
    rng = random.Random(7)
    scores = ("pass", "warn", "block")
    return [
        {d.id: rng.choices(scores, k=contract.panel_size) for d in contract.dimensions}
        for _ in range(count)
    ]


def _against_brute_force(quick: bool) -> list[Row]:
    import kernel
    from kernel.analysis import analyze

    cases: list[tuple[str, Any]] = [("reviewer/full", "reviewer/full")]
    cases.append(("generated: 7 dims, 5 reviewers, 7 conditions", grown(7, 5, 3)))
    if not quick:
        cases.append(("generated: 8 dims, 7 reviewers, 8 conditions", grown(8, 7, 4)))
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


def _median_s(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _against_targets(quick: bool) -> list[Row]:
    from kernel.analysis import analyze, parse_prior, probabilities
    from kernel.contract.model import load_contract

    repeat = 3 if quick else 9
    cases = [
        ("analyze reviewer/full (5 dims, panel 5)", load_contract("reviewer/full"), 0.5, False),
        (
            "analyze 13.2/reviewer/full (6 dims, 10 eligible seats)",
            load_contract("13.2/reviewer/full"),
            1.0,
            False,
        ),
    ]
    for name, mix in MIXES.items():
        contract = load_contract(ten_dimensions(mix))
        cases.append((f"analyze 10 dims, panel 7, 5 conditions ({name})", contract, 5.0, False))
    named = load_contract(ten_dimensions(MIXES["all"], named=True))
    cases.append(
        ("analyze 10 dims, panel 7, 5 conditions (all, every dimension named)", named, 5.0, False)
    )
    mixed = load_contract(ten_dimensions(MIXES["mixed"]))
    cases.append(("probabilities 10 dims, panel 7, 5 conditions (mixed)", mixed, 5.0, True))
    prior = parse_prior("pass=0.7,warn=0.2,block=0.1")
    rows = []
    for name, contract, target, weighted in cases:
        if weighted:
            seconds = _median_s(lambda c=contract: probabilities(c, prior), repeat)  # type: ignore[misc]
        else:
            seconds = _median_s(lambda c=contract: analyze(c), repeat)  # type: ignore[misc]
        a = analyze(contract)
        met = "met" if seconds < target else "NOT met"
        space = f"3^{a.dimensions * a.panel_size}" if a.dialect == "13" else f"{a.space} matrices"
        note = f"target < {target:g} s: {met}; space {space}"
        rows.append(row(SECTION, name, "kernel", seconds * 1e9, note=note, kernel=True))
    return rows


def _bounded_13_2(quick: bool) -> list[Row]:
    """The 13.2 contracts that were slow to analyze (issue 30): each finishes under 5 s or is
    refused with an estimate of its work."""
    from benchmarks.contracts import v2_conjunction, v2_one_mebibyte, v2_plain, v2_staggered
    from kernel.analysis import analyze
    from kernel.contract.model import load_contract
    from kernel.errors import AnalysisTooLarge

    repeat = 1 if quick else 3
    cases = [
        ("analyze 13.2: 16 one-seat dims, F1 = D1 block AND ... AND D16 block", v2_conjunction(16)),
        ("analyze 13.2: 99 one-seat dims, F1 = D1 block AND ... AND D99 block", v2_conjunction(99)),
        ("analyze 13.2: 99 dims, 13.2/reviewer/full's conditions", v2_plain(99)),
        ("analyze 13.2: 40 one-seat dims, Fk = Dk block AND D(k+20) block", v2_staggered(20)),
        ("analyze 13.2: 1 MiB contract of distinct atoms", v2_one_mebibyte()),
        ("analyze 13.2: 1 MiB contract of wide atoms repeated", v2_one_mebibyte(wide=True)),
    ]
    rows = []
    for name, data in cases:
        contract = load_contract(data)
        outcome: list[str] = []

        def once(c: Any = contract, said: list[str] = outcome) -> None:
            try:
                analyze(c)
                said[:] = ["finished"]
            except AnalysisTooLarge as refused:
                said[:] = [f"refused: {str(refused)[:90]}"]

        seconds = _median_s(once, repeat)
        met = "met" if seconds < 5.0 else "NOT met"
        note = f"target < 5 s: {met}; {outcome[0]}"
        rows.append(row(SECTION, name, "kernel", seconds * 1e9, note=note, kernel=True))
    return rows


def run(quick: bool) -> list[Row]:
    return _against_brute_force(quick) + _against_targets(quick) + _bounded_13_2(quick)
