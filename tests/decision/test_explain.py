"""``Decision.explain``: the text ``sprint-kernel decide`` prints, for both dialects, from
the library alone."""

from __future__ import annotations

import json

import attrs
import pytest
from support import paths

from kernel import KernelError, decide, decide_documents, load_contract
from kernel.cli.decide import main
from kernel.cli.scaffold import run

EXAMPLES = {
    "13": (paths.ROOT / "examples" / "full", "reviewer/full"),
    "13.2": (
        paths.ROOT / "examples" / "full-13.2",
        str(paths.ROOT / "examples" / "full-13.2" / "contract.json"),
    ),
}


def _round(dialect: str) -> tuple[object, object]:
    folder, source = EXAMPLES[dialect]
    contract = load_contract(source)
    seats = [
        (
            p.name.split(".")[0],
            p.read_text(),
            p.with_name(p.name.replace("phase2", "phase1")).read_text(),
        )
        for p in sorted(folder.glob("*.phase2.md"))
    ]
    return contract, decide_documents(contract, seats)


@pytest.mark.parametrize("dialect", ["13", "13.2"])
@pytest.mark.parametrize("explain", [False, True])
def test_explain_is_what_the_command_line_prints(
    dialect: str, explain: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    contract, outcome = _round(dialect)
    assert outcome.decision is not None  # type: ignore[attr-defined]
    matrix = outcome.matrix if explain else None  # type: ignore[attr-defined]
    text = outcome.decision.explain(contract, matrix)  # type: ignore[attr-defined]
    folder, source = EXAMPLES[dialect]
    assert run(main, [str(folder), "--contract", source, *(["--explain"] if explain else [])]) == 0
    printed = capsys.readouterr().out
    assert text in printed
    assert text.startswith("decision: editorial_decision=major_revision (F2, severity")
    assert ("change(s) change the action" in text or "sensitivity of" in text) == explain


@pytest.mark.parametrize("dialect", ["13", "13.2"])
def test_explain_json_matches_the_library(dialect: str, capsys: pytest.CaptureFixture[str]) -> None:
    from kernel.decision.explain import explanation

    contract, outcome = _round(dialect)
    found = explanation(contract, outcome.decision, outcome.matrix)  # type: ignore[attr-defined]
    folder, source = EXAMPLES[dialect]
    assert run(main, [str(folder), "--contract", source, "--explain", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["explain"] == found.changes


def test_explain_takes_a_template_name_and_refuses_what_does_not_fit() -> None:
    matrix = {d: ["pass"] * 5 for d in ("D1", "D2", "D3", "D4", "D5")}
    decision = decide("reviewer/full", matrix)
    assert decision.explain("reviewer/full").startswith(
        "decision: editorial_decision=accept (F0, severity 10)"
    )
    with pytest.raises(KernelError, match="not the decision to explain"):
        decision.explain("reviewer/full", {**matrix, "D1": ["block"] * 5})
    with pytest.raises(KernelError, match="was not taken under"):
        decision.explain("reviewer/methodology_focus")
    with pytest.raises(KernelError, match="must be a Decision"):
        from kernel.decision.explain import explanation

        explanation("reviewer/full", "accept")


def test_a_decision_knows_its_contract_and_explains_against_no_other() -> None:
    """A 13.2 decision explained with reviewer/full printed reviewer/full's F3 severity and
    action as if they were the 13.2 contract's; now the decision explains itself, and any
    other contract is refused."""
    contract, outcome = _round("13.2")
    decision = outcome.decision  # type: ignore[attr-defined]
    text = decision.explain()
    assert text == decision.explain(contract)  # the old call form, with its own contract
    assert text.startswith(f"decision: {decision.action}")
    with pytest.raises(KernelError, match="was not taken under reviewer/reviewer_full/v1"):
        decision.explain("reviewer/full")
    same_ids = dict(load_contract(contract).to_dict(), contract_id="another/one/v1")
    with pytest.raises(KernelError, match="was not taken under another/one/v1"):
        decision.explain(same_ids)
    assert decision.explain(matrix=outcome.matrix).startswith(text)  # type: ignore[attr-defined]


def test_a_hand_built_decision_is_explained_only_with_its_contract() -> None:
    decision = decide("reviewer/full", {d: ["pass"] * 5 for d in ("D1", "D2", "D3", "D4", "D5")})
    assert decision.explain().startswith("decision: editorial_decision=accept (F0, severity 10)")
    bare = attrs.evolve(decision, contract=None)
    assert bare == decision
    with pytest.raises(KernelError, match="does not know its contract"):
        bare.explain()
    assert bare.explain("reviewer/full") == decision.explain()


def test_a_decision_kept_by_its_contracts_engine_does_not_keep_the_contract() -> None:
    import gc
    import weakref

    contract = load_contract(load_contract("reviewer/full").to_dict())
    matrix = {d: ["pass"] * 5 for d in contract.dimension_ids}
    decisions = [decide(contract, matrix) for _ in range(3)]  # the third from the store
    assert all(d.explain() == decisions[0].explain() for d in decisions)
    gone = weakref.ref(contract)
    kept = decisions[2]
    del contract, decisions
    gc.collect()
    assert gone() is None
    with pytest.raises(KernelError, match="is gone"):
        kept.explain()
    assert kept.explain("reviewer/full").startswith("decision: editorial_decision=accept")
