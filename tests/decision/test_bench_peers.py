"""The benchmark's own correctness: its matrices, its pure-Python peers, its discovery and rows.

No timing here; the runner (``python -m benchmarks.run``) measures.
"""

from __future__ import annotations

import functools
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import paths
from support.bench import bench_decide, contracts, peers, run, timing

import kernel

CONTRACT = kernel.load_contract("reviewer/full")
IDS = [c.condition_id for c in CONTRACT.conditions]
TEN_RAW = contracts.ten_dimensions()
TEN = kernel.load_contract(TEN_RAW)
TEN_OUTCOMES = [*(c.condition_id for c in TEN.conditions), "fallback"]


def kernel_result(matrix: peers.Matrix, contract: Any = CONTRACT) -> peers.Result:
    d = kernel.decide(contract, matrix)
    return d.action, d.condition_id, tuple(d.counts[c.condition_id] for c in contract.conditions)


MATRICES = bench_decide.matrices(100, functools.partial(kernel.decide, CONTRACT))
TEN_MATRICES = bench_decide.matrices(
    60, functools.partial(kernel.decide, TEN), TEN_OUTCOMES, peers.TEN_DIMENSIONS, peers.TEN_PANEL
)
scores = st.sampled_from(["pass", "warn", "block"])


def matrices(dimensions: tuple[str, ...], panel: int) -> st.SearchStrategy[dict[str, list[str]]]:
    return st.fixed_dictionaries(
        {d: st.lists(scores, min_size=panel, max_size=panel) for d in dimensions}
    )


def test_benchmark_matrices_are_balanced_over_every_outcome() -> None:
    outcomes = Counter(kernel.decide(CONTRACT, m).condition_id or "fallback" for m in MATRICES)
    assert outcomes == {k: 20 for k in ("F1", "F2", "F3", "F0", "fallback")}
    outcomes = Counter(kernel.decide(TEN, m).condition_id or "fallback" for m in TEN_MATRICES)
    assert outcomes == dict.fromkeys(TEN_OUTCOMES, 10)


def test_benchmark_matrices_are_deterministic() -> None:
    assert bench_decide.matrices(100, lambda m: kernel.decide(CONTRACT, m)) == MATRICES


@pytest.mark.parametrize("name", ["hand-written", "naive", "hand-written ten", "naive ten"])
def test_pure_python_peers_agree_on_benchmark_matrices(name: str) -> None:
    ten = name.endswith("ten")
    fn: peers.Decider
    if name.startswith("hand"):
        fn = peers.hand_written_ten if ten else peers.hand_written
    else:
        fn = peers.naive(TEN_RAW if ten else kernel.shipped_template("reviewer/full"))
    ms = TEN_MATRICES if ten else MATRICES
    want = [kernel_result(m, TEN if ten else CONTRACT) for m in ms]
    assert bench_decide._agree(name, fn, ms, want) is None


@given(matrices(peers.DIMENSIONS, peers.PANEL))
def test_hand_written_and_naive_agree_with_kernel(matrix: dict[str, list[str]]) -> None:
    want = kernel_result(matrix)
    assert peers.hand_written(matrix)[:2] == want[:2]
    assert peers.naive(kernel.shipped_template("reviewer/full"))(matrix) == want


@given(matrices(peers.TEN_DIMENSIONS, peers.TEN_PANEL))
def test_the_ten_dimension_peers_agree_with_kernel(matrix: dict[str, list[str]]) -> None:
    want = kernel_result(matrix, TEN)
    assert peers.hand_written_ten(matrix)[:2] == want[:2]
    assert peers.naive(TEN_RAW)(matrix) == want


def test_agreement_check_reports_a_disagreeing_peer() -> None:
    def wrong(m: peers.Matrix) -> peers.Result:
        action, cid, counts = peers.hand_written(m)
        return (peers.ACCEPT, None, counts) if cid == "F3" else (action, cid, counts)

    want = [kernel_result(m) for m in MATRICES]
    problem = bench_decide._agree("wrong", wrong, MATRICES, want)
    assert problem is not None and "wrong says" in problem


def test_resolve_applies_thresholds_and_precedence() -> None:
    assert peers.resolve((0, 3, 1, 0))[:2] == (peers.MAJOR, "F2")
    assert peers.resolve((0, 2, 0, 4))[:2] == (peers.ACCEPT, None)
    assert peers.resolve((0, 0, 0, 5))[:2] == (peers.ACCEPT, "F0")
    assert peers.resolve((1, 5, 1, 0))[:2] == (peers.REJECT_OR_MAJOR, "F1")


def test_sections_are_found_by_module_name() -> None:
    found = run.sections()
    assert found[:4] == ["decide", "lint", "analyze", "cli"]
    modules = sorted(p.stem for p in (paths.ROOT / "benchmarks").glob("bench_*.py"))
    assert sorted(found) == sorted(m.removeprefix("bench_") for m in modules)
    assert {"scan", "arena", "consensus", "panel_routing"} <= set(found)


def test_every_section_module_has_the_same_entry_point() -> None:
    import importlib
    import inspect

    for section in run.sections():
        module = importlib.import_module(f"benchmarks.bench_{section}")
        signature = inspect.signature(module.run)
        assert list(signature.parameters) == ["quick"], section


def test_a_missing_or_broken_section_is_reported() -> None:
    (r,) = run.run_section("no_such_section", quick=True)
    assert r["status"] == timing.NOT_AVAILABLE


def test_targets_read_worst_ratio() -> None:
    rows = [
        timing.row("decide", "c", "hand-written Python", 1.0),
        timing.row("decide", "c2", "hand-written Python", 1.0),
    ]
    rows[0]["ratio"], rows[1]["ratio"] = 0.9, 1.2
    (t,) = run.targets(rows)
    assert t["worst_ratio"] == 1.2 and t["met"] is False and t["worst"].startswith("c2")
    rows[1]["ratio"] = 1.0
    (t,) = run.targets(rows)
    assert t["met"] is True


def test_comparison_puts_each_row_beside_the_recorded_one() -> None:
    now = timing.row("decide", "c", "hand-written Python", 2000.0)
    now["ratio"] = 0.8
    new = timing.row("decide", "new case", "kernel", 10.0, kernel=True)
    before = [
        {"section": "decide", "case": "c", "impl": "hand-written Python", "median": "1.00 µs"}
        | {"median_ns": 1000.0, "ratio": "1.17"}
    ]
    text = run.comparison([now, new], before)
    assert "| c | hand-written Python | 1.00 µs | 2.00 µs | 2.00 | 1.17 | 0.8 |" in text
    assert "| new case | **kernel** | - | 10 ns | - | - | - |" in text


def test_no_benchmark_edits_sys_path() -> None:
    edits = ("sys.path." + "insert", "sys.path." + "append")
    for path in [*(paths.ROOT / "benchmarks").glob("*.py"), *paths.ROOT.glob("tests/**/*.py")]:
        text = path.read_text("utf-8")
        assert not any(edit in text for edit in edits), path


OUTSIDE = "import kernel, os; print(os.path.dirname(os.path.realpath(kernel.__file__)))"


def test_the_tests_import_the_kernel_python_imports_outside_the_tree(tmp_path: Any) -> None:
    """Importing the benchmarks does not shadow the installed kernel with the source tree:
    in CI (a non-editable install) both are the installed package."""
    import os

    outside = subprocess.run(
        [sys.executable, "-c", OUTSIDE], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert os.path.dirname(os.path.realpath(kernel.__file__)) == outside


V2 = kernel.load_contract("13.2/reviewer/full")


def test_the_13_2_hand_written_function_agrees_on_the_benchmark_matrices() -> None:
    ms = bench_decide.matrices_13_2(70, functools.partial(kernel.decide, V2), V2)
    assert len(ms) == 70
    outcomes = Counter(kernel.decide(V2, m).condition_id or "fallback" for m in ms)
    assert set(outcomes) == {"F1", "F2", "F3", "F4", "F5", "F0", "fallback"}
    for m in ms:
        d = kernel.decide(V2, m)
        assert peers.hand_written_13_2(m) == (d.action, d.condition_id, None)
