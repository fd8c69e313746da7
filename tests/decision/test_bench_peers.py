"""The benchmark's own correctness: its matrices, its pure-Python peers, its row plumbing.

No timing here; the runner (benchmarks/run.py) measures.
"""

from __future__ import annotations

import sys
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import paths

sys.path.insert(0, str(paths.ROOT / "benchmarks"))

import peers
import run as bench_run
import sec_decide
import timing

import kernel

CONTRACT = kernel.load_contract("reviewer/full")
IDS = [c.condition_id for c in CONTRACT.conditions]


def kernel_result(matrix: peers.Matrix) -> peers.Result:
    d = kernel.decide(CONTRACT, matrix)
    return d.action, d.condition_id, tuple(d.counts[i] for i in IDS)


MATRICES = sec_decide.matrices(100, lambda m: kernel.decide(CONTRACT, m))
scores = st.sampled_from(["pass", "warn", "block"])
matrices = st.fixed_dictionaries(
    {d: st.lists(scores, min_size=5, max_size=5) for d in peers.DIMENSIONS}
)


def test_benchmark_matrices_are_balanced_over_every_outcome() -> None:
    outcomes = Counter(kernel.decide(CONTRACT, m).condition_id or "fallback" for m in MATRICES)
    assert outcomes == dict.fromkeys(sec_decide.OUTCOMES, 20)


def test_benchmark_matrices_are_deterministic() -> None:
    assert sec_decide.matrices(100, lambda m: kernel.decide(CONTRACT, m)) == MATRICES


@pytest.mark.parametrize("name", ["hand-written", "naive"])
def test_pure_python_peers_agree_on_benchmark_matrices(name: str) -> None:
    fn = (
        peers.hand_written
        if name == "hand-written"
        else peers.naive(kernel.shipped_template("reviewer/full"))
    )
    want = [kernel_result(m) for m in MATRICES]
    assert sec_decide._agree(name, fn, MATRICES, want) is None


@given(matrices)
def test_hand_written_and_naive_agree_with_kernel(matrix: dict[str, list[str]]) -> None:
    want = kernel_result(matrix)
    assert peers.hand_written(matrix)[:2] == want[:2]
    assert peers.naive(kernel.shipped_template("reviewer/full"))(matrix) == want


def test_agreement_check_reports_a_disagreeing_peer() -> None:
    def wrong(m: peers.Matrix) -> peers.Result:
        action, cid, counts = peers.hand_written(m)
        return (peers.ACCEPT, None, counts) if cid == "F3" else (action, cid, counts)

    want = [kernel_result(m) for m in MATRICES]
    problem = sec_decide._agree("wrong", wrong, MATRICES, want)
    assert problem is not None and "wrong says" in problem


def test_resolve_applies_thresholds_and_precedence() -> None:
    assert peers.resolve((0, 3, 1, 0))[:2] == (peers.MAJOR, "F2")
    assert peers.resolve((0, 2, 0, 4))[:2] == (peers.ACCEPT, None)
    assert peers.resolve((0, 0, 0, 5))[:2] == (peers.ACCEPT, "F0")
    assert peers.resolve((1, 5, 1, 0))[:2] == (peers.REJECT_OR_MAJOR, "F1")


def test_foreign_rows_are_normalised() -> None:
    r = bench_run._normalise("scan", "bench_scan", {"name": "scan 10 KB", "median_ms": 2.5, "x": 1})
    assert r["case"] == "scan 10 KB" and r["median_ns"] == 2.5e6
    assert r["status"] == timing.OK and "x=1" in r["note"]
    bad = bench_run._normalise("scan", "bench_scan", 42)
    assert bad["status"] == timing.ERROR


def test_missing_section_module_is_not_available() -> None:
    (r,) = bench_run.run_section("no_such_section", quick=True)
    assert r["status"] == timing.NOT_AVAILABLE


def test_targets_read_worst_ratio() -> None:
    rows = [
        timing.row("decide", "c", "hand-written Python", 1.0),
        timing.row("decide", "c2", "hand-written Python", 1.0),
    ]
    rows[0]["ratio"], rows[1]["ratio"] = 1.2, 1.7
    (t,) = bench_run.targets(rows)
    assert t["worst_ratio"] == 1.7 and t["met"] is False
