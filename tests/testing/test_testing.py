"""kernel.testing: the strategies the kernel offers its users produce what they promise."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import paths

from kernel import decide, lint_phase2, load_contract, render_phase1
from kernel.contract.dialects import validate
from kernel.contract.model import Contract
from kernel.contract.quantifiers import ACCEPT
from kernel.errors import KernelError
from kernel.testing import contracts, expressions, matrices, phase2_documents, spelled

any_contract = st.one_of(
    st.sampled_from(("reviewer/full", "reviewer/methodology_focus")),
    contracts(max_dimensions=4, max_conditions=4),
)


@settings(max_examples=60)
@given(contracts(), st.sampled_from((True, False, None)), st.data())
def test_every_generated_contract_loads(
    document: dict[str, Any], with_accept: bool | None, data: st.DataObject
) -> None:
    assert validate(document) == []
    contract = load_contract(document)
    assert contract.fallback is not None
    other = data.draw(contracts(with_accept=with_accept))
    loaded = load_contract(other)
    accepting = [c.condition_id for c in loaded.conditions if c.action == ACCEPT]
    assert "F0" in accepting  # R18
    if with_accept is False:
        assert accepting == ["F0"]


@settings(max_examples=60)
@given(st.data(), any_contract)
def test_every_generated_matrix_decides(data: st.DataObject, source: Any) -> None:
    contract = load_contract(source)
    matrix = data.draw(matrices(source))
    assert sorted(matrix) == sorted(contract.dimension_ids)
    assert all(len(row) == contract.panel_size for row in matrix.values())
    decision = decide(contract, matrix)
    assert decision.action in {c.action for c in contract.conditions}


@settings(max_examples=40)
@given(st.data(), any_contract)
def test_every_generated_phase2_document_lints_clean(data: st.DataObject, source: Any) -> None:
    contract: Contract = load_contract(source)
    text = data.draw(phase2_documents(contract))
    with_phase1 = lint_phase2(text, contract, render_phase1(contract))
    assert with_phase1.ok and with_phase1.findings == ()
    assert with_phase1.consistency_checked
    alone = lint_phase2(text, contract)
    assert alone.ok and [f.code for f in alone.findings] == ["P2-043"]
    assert alone.scores is not None and set(alone.scores) == set(contract.dimension_ids)


@settings(max_examples=20)
@given(st.data())
def test_phase2_documents_follow_a_given_plan(data: st.DataObject) -> None:
    contract = load_contract("reviewer/methodology_focus")
    plan = {
        d: {
            "dimension_id": d,
            "what_to_look_for": "evidence",
            "what_triggers_block": f"missing {d} ablation",
            "what_triggers_warn": f"weak {d} baseline",
        }
        for d in contract.dimension_ids
    }
    text = data.draw(phase2_documents(contract, plan=plan))
    assert lint_phase2(text, contract, render_phase1(contract, plan)).ok


@given(expressions().flatmap(lambda e: st.tuples(st.just(e), spelled(e))))
def test_spellings_parse_back(pair: Any) -> None:
    from kernel.expression.parser import parse_expression

    expression, text = pair
    assert parse_expression(text) == expression


def test_without_hypothesis_the_import_error_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['hypothesis'] = None\n"
        "try:\n"
        "    import kernel.testing\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
        "else:\n"
        "    print('imported')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=paths.ROOT,
    )
    out = result.stdout.strip()
    assert out.startswith("ImportError kernel.testing needs Hypothesis")
    assert "sprint-contract-kernel[test]" in out


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"max_dimensions": 0}, "max_dimensions must be an integer from 1 to 99, got 0"),
        ({"max_conditions": True}, "max_conditions must be an integer from 1 to 99, got True"),
        ({"panel_sizes": 3}, "panel_sizes must be a strategy, got int"),
        ({"with_accept": "yes"}, "with_accept must be None, True or False, got 'yes'"),
    ],
)
def test_contract_arguments_are_refused_when_the_strategy_is_made(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(KernelError, match=re.escape(message)):
        contracts(**kwargs)  # type: ignore[arg-type]


def test_spelled_refuses_a_non_expression_when_the_strategy_is_made() -> None:
    with pytest.raises(KernelError, match="expression must be an Expression, got str"):
        spelled("D1 scores 'block'")  # type: ignore[arg-type]


def test_generated_condition_ids_reach_f0_and_f99() -> None:
    from hypothesis import find

    from kernel.testing import contracts as generated

    for wanted in ("F0", "F99"):
        found = find(
            generated(),
            lambda c, w=wanted: any(x["condition_id"] == w for x in c["failure_conditions"]),  # type: ignore[misc]
        )
        assert any(x["condition_id"] == wanted for x in found["failure_conditions"])
