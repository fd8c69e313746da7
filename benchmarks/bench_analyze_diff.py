"""The analyzer's diff, and its limits on large inputs.

    python benchmarks/bench_analyze_diff.py [--quick]

Rows (median wall time of whole calls on already loaded contracts):

- ``analyze_diff`` of reviewer/full against ``examples/full_f2_any.json`` (F2 majority -> any),
  and of the 10-dimension, panel-7, 5-condition contract against two amendments;
- ``analyze`` of reviewer/full with panel_size 100 and 200 (issue 12: 9 s and > 30 s before);
- inputs the analyzer must refuse at once: panel_size 10**100, 13 dimensions named by id
  (24 s before), panel_size 1,500 (a majority condition of 751 values).

Target for every row: under 5 s (finished or refused).
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.contracts import MIXES
from benchmarks.contracts import ten_dimensions as ten_dimension_contract
from benchmarks.timing import Row, target_main, target_rows
from kernel.analysis import analyze, analyze_diff
from kernel.contract.model import load_contract
from kernel.contract.templates import shipped_template

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 5.0
SECTION = "analyze_diff"


def _full(**changes: Any) -> dict[str, Any]:
    data = copy.deepcopy(dict(shipped_template("reviewer/full")))
    data.update(changes)
    return data


def thirteen_named() -> dict[str, Any]:
    dims = [
        {"id": f"D{i}", "name": f"dim_{i}", "description": "d", "priority": "normal"}
        for i in range(1, 14)
    ]
    conditions = [
        {
            "condition_id": f"F{i}",
            "severity": 50,
            "expression": f"D{i} scores 'block' AND D{i % 13 + 1} scores 'warn'",
            "cross_reviewer_quantifier": "any",
            "action": "editorial_decision=reject",
        }
        for i in range(1, 14)
    ]
    conditions.append(
        {
            "condition_id": "F0",
            "severity": 10,
            "expression": "every normal-priority dimension scores 'pass'",
            "cross_reviewer_quantifier": "all",
            "action": "editorial_decision=accept",
        }
    )
    return _full(acceptance_dimensions=dims, failure_conditions=conditions)


def _amended(data: dict[str, Any], **per_condition: dict[str, Any]) -> dict[str, Any]:
    new = copy.deepcopy(data)
    for cond in new["failure_conditions"]:
        cond.update(per_condition.get(cond["condition_id"], {}))
    return new


def cases() -> list[tuple[str, Callable[[], object]]]:
    full = load_contract("reviewer/full")
    f2_any = load_contract(str(ROOT / "examples" / "full_f2_any.json"))
    ten = ten_dimension_contract(MIXES["mixed"])
    ten_any = load_contract(_amended(ten, F2={"cross_reviewer_quantifier": "any"}))
    ten_swap = load_contract(
        _amended(ten, F1={"severity": 75}, F4={"expression": "D8 scores 'block'"})
    )
    ten_c = load_contract(ten)
    named_ten = ten_dimension_contract(MIXES["all"], named=True)
    named_ten_new = load_contract(_amended(named_ten, F3={"cross_reviewer_quantifier": "any"}))
    named_ten_c = load_contract(named_ten)
    p100, p200 = load_contract(_full(panel_size=100)), load_contract(_full(panel_size=200))
    huge = _full(panel_size=10**100)  # refused by the schema (beyond 2**53) as it is read
    named = thirteen_named()
    wide = load_contract(_full(panel_size=1500))
    return [
        ("diff reviewer/full -> F2 majority->any", lambda: analyze_diff(full, f2_any)),
        ("diff 10 dims, panel 7: F2 majority->any", lambda: analyze_diff(ten_c, ten_any)),
        (
            "diff 10 dims, panel 7: severity swap + new F4 expression",
            lambda: analyze_diff(ten_c, ten_swap),
        ),
        (
            "diff 10 dims named, panel 7: F3 all->any (3**10 joint columns)",
            lambda: analyze_diff(named_ten_c, named_ten_new),
        ),
        ("analyze reviewer/full, panel 100", lambda: analyze(p100)),
        ("analyze reviewer/full, panel 200", lambda: analyze(p200)),
        ("analyze reviewer/full, panel 1500 (refused early)", lambda: analyze(wide)),
        ("analyze reviewer/full, panel 10**100 (refused)", lambda: analyze(huge)),
        ("analyze 13 named dimensions (refused)", lambda: analyze(named)),
        ("diff 13 named dimensions (refused)", lambda: analyze_diff(named, named)),
    ]


def run(quick: bool) -> list[Row]:
    return target_rows(SECTION, cases(), quick, TARGET_S)


def main(argv: Sequence[str] | None = None) -> int:
    return target_main(run, __doc__, argv)


if __name__ == "__main__":
    sys.exit(main())
