"""Single-defect mutations: a valid rendered document with exactly one defect fails with that
check's code, and no other check reports an error."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from support.lint_strategies import contracts, plans, score_maps

from kernel.contract.model import Contract, load_contract
from kernel.errors import ContractError, KernelError
from kernel.reviewer.lint import LintReport, lint_phase1, lint_phase2
from kernel.reviewer.lint.phase1 import TAG
from kernel.reviewer.render import expected_decision, expected_fired, render_phase1, render_phase2

Plan = dict[str, dict[str, str]]


def _p1_parts(text: str) -> tuple[str, list[str], str]:
    """(paraphrase section, scoring-plan subsections with the '## Scoring Plan' intro first,
    tag line)."""
    para, rest = text.split("## Scoring Plan\n\n", 1)
    assert rest.endswith(TAG + "\n")
    body = rest[: -len(TAG) - 1]
    subs = ["## Scoring Plan\n\n"] + ["### " + s for s in body.split("### ")[1:]]
    return para, subs, TAG + "\n"


def _assert_only(report: LintReport, check: str, code: str) -> None:
    checks = {f.check for f in report.errors}
    codes = {f.code for f in report.errors}
    assert checks == {check}, report.findings
    assert code in codes, report.findings
    for f in report.errors:
        assert f.message
        assert f.line is None or f.line >= 1


# Phase 1 mutations: (contract, plan, text, data) -> mutated text.
P1Mutation = Callable[[Contract, Plan, str, st.DataObject], str]


def _m_missing_paraphrase(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    _, subs, tag = _p1_parts(text)
    return "".join(subs) + tag


def _m_duplicate_paraphrase(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    return para + para + "".join(subs) + tag


def _m_order(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    return "".join(subs) + para + tag


def _m_level1(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    return para + "# Review\n\n" + "".join(subs) + tag


def _m_unknown_section(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    return para + "## Notes\n\nLorem.\n\n" + "".join(subs) + tag


def _m_preamble(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    return "Here is my output.\n\n" + text


def _m_no_tag(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, _ = _p1_parts(text)
    return para + "".join(subs)


def _m_tag_not_last(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    return text + "\nLorem.\n"


def _m_tag_in_fence(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    return para + "".join(subs) + "```\n" + tag + "```\n"


def _m_coverage(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    _, subs, tag = _p1_parts(text)
    if c.paraphrase_minimum >= 2:
        everything = " and ".join(d.id for d in c.dimensions)
        para = f"## Contract Paraphrase\n\nThe contract covers {everything}.\n\n"
    else:
        para = "## Contract Paraphrase\n\nLorem.\n\n"
    return para + "".join(subs) + tag


def _m_missing_sub(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    i = data.draw(st.integers(1, len(subs) - 1))
    return para + "".join(subs[:i] + subs[i + 1 :]) + tag


def _m_duplicate_sub(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    i = data.draw(st.integers(1, len(subs) - 1))
    return para + "".join([*subs[: i + 1], subs[i], *subs[i + 1 :]]) + tag


def _m_extra_sub(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    return para + "".join(subs) + "### Notes\n\nLorem.\n\n" + tag


def _m_wrong_name(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    d = data.draw(st.sampled_from(c.dimensions))
    return text.replace(f"### {d.id}: {d.name}\n", f"### {d.id}: {d.name}x\n")


def _m_missing_field(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    d = data.draw(st.sampled_from(c.dimensions))
    key = data.draw(st.sampled_from(c.scoring_plan_required))
    return (
        text.replace(f"- {key}: {p[d.id][key]}\n", "", 1)
        if _unique_line(text, d.id, key, p)
        else _skip()
    )


def _m_empty_field(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    d = data.draw(st.sampled_from(c.dimensions))
    key = data.draw(st.sampled_from(c.scoring_plan_required))
    if not _unique_line(text, d.id, key, p):
        return _skip()
    return text.replace(f"- {key}: {p[d.id][key]}\n", f"- {key}:\n", 1)


def _m_duplicate_field(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    d = data.draw(st.sampled_from(c.dimensions))
    key = data.draw(st.sampled_from(c.scoring_plan_required))
    line = f"- {key}: {p[d.id][key]}\n"
    if not _unique_line(text, d.id, key, p):
        return _skip()
    return text.replace(line, line + line, 1)


def _m_wrong_dimension_id(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    d = data.draw(st.sampled_from(c.dimensions))
    return text.replace(f"- dimension_id: {d.id}\n", "- dimension_id: D100\n")


def _m_phase2_section(c: Contract, p: Plan, text: str, data: st.DataObject) -> str:
    para, subs, tag = _p1_parts(text)
    name = data.draw(
        st.sampled_from(
            ("Dimension Scores", "Failure Condition Checks", "Review Body", "Editorial Decision")
        )
    )
    return para + f"## {name}\n\nLorem.\n\n" + "".join(subs) + tag


def _unique_line(text: str, dim_id: str, key: str, plan: Plan) -> bool:
    return text.count(f"- {key}: {plan[dim_id][key]}\n") == 1


def _skip() -> str:
    assume(False)
    raise AssertionError


P1_MUTATIONS: list[tuple[str, str, P1Mutation]] = [
    ("sections", "P1-001", _m_missing_paraphrase),
    ("sections", "P1-002", _m_duplicate_paraphrase),
    ("sections", "P1-003", _m_order),
    ("sections", "P1-004", _m_level1),
    ("sections", "P1-004", _m_unknown_section),
    ("sections", "P1-005", _m_preamble),
    ("sections", "P1-006", _m_no_tag),
    ("sections", "P1-006", _m_tag_not_last),
    ("sections", "P1-006", _m_tag_in_fence),
    ("paraphrase", "P1-007", _m_coverage),
    ("scoring_plan", "P1-008", _m_missing_sub),
    ("scoring_plan", "P1-009", _m_duplicate_sub),
    ("scoring_plan", "P1-010", _m_extra_sub),
    ("scoring_plan", "P1-010", _m_wrong_name),
    ("plan_fields", "P1-011", _m_missing_field),
    ("plan_fields", "P1-011", _m_empty_field),
    ("plan_fields", "P1-014", _m_duplicate_field),
    ("plan_fields", "P1-012", _m_wrong_dimension_id),
    ("no_phase2_sections", "P1-013", _m_phase2_section),
]


@pytest.mark.parametrize(
    ("check", "code", "mutate"), P1_MUTATIONS, ids=[m[2].__name__ for m in P1_MUTATIONS]
)
@settings(max_examples=12)
@given(data=st.data())
def test_phase1_single_defect(
    check: str, code: str, mutate: P1Mutation, data: st.DataObject
) -> None:
    contract = data.draw(contracts())
    plan = data.draw(plans(contract))
    valid = render_phase1(contract, plan)
    assert lint_phase1(valid, contract).ok
    mutated = mutate(contract, plan, valid, data)
    assert mutated != valid
    _assert_only(lint_phase1(mutated, contract), check, code)


# Phase 2 mutations build their own documents from (contract, plan, scores, data).
P2Mutation = Callable[[Contract, Plan, dict[str, str], st.DataObject], tuple[str, str]]


def _p2(c: Contract, p: Plan, s: dict[str, str], **kw: object) -> str:
    try:
        return render_phase2(c, s, plan=p, **kw)  # type: ignore[arg-type]
    except KernelError:
        return _skip()


def _split2(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    current = ""
    for line in text.splitlines(keepends=True):  # test-side only: rendered text has LF only
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = ""
        out[current] = out.get(current, "") + line
    return out


def _join(parts: dict[str, str], order: list[str]) -> str:
    return "".join(parts[k] for k in order)


def _n_missing_section(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    parts = _split2(_p2(c, p, s))
    name = data.draw(
        st.sampled_from(
            ("Dimension Scores", "Failure Condition Checks", "Review Body", "Editorial Decision")
        )
    )
    return _join(parts, [k for k in parts if k != name]), "P2-001"


def _n_duplicate_section(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    parts = _split2(_p2(c, p, s))
    name = data.draw(st.sampled_from(list(parts)))
    order = list(parts)
    order.insert(order.index(name), name)
    return _join(parts, order), "P2-002"


def _n_dissent_late(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    d = data.draw(st.sampled_from(c.dimension_ids))
    parts = _split2(_p2(c, p, s, dissent={d: "plan was wrong"}))
    order = list(parts)
    order.remove("Scoring Plan Dissent")
    order.insert(order.index("Dimension Scores") + 1, "Scoring Plan Dissent")
    return _join(parts, order), "P2-003"


def _n_level1(c: Contract, p: Plan, s: dict[str, str], data: st.DataObject) -> tuple[str, str]:
    return "# My review\n\n" + _p2(c, p, s), "P2-004"


def _n_preamble(c: Contract, p: Plan, s: dict[str, str], data: st.DataObject) -> tuple[str, str]:
    return "Here is my review.\n\n" + _p2(c, p, s), "P2-005"


def _n_heading_in_decision(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    return _p2(c, p, s) + "\n### Why\n\nLorem.\n", "P2-004"


def _n_missing_score_sub(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    d = data.draw(st.sampled_from(c.dimensions))
    text = _p2(c, p, s)
    return text.replace(f"### {d.id}: {d.name}\n\nscore: {s[d.id]}\n\n", ""), "P2-010"


def _n_duplicate_score_sub(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    d = data.draw(st.sampled_from(c.dimensions))
    block = f"### {d.id}: {d.name}\n\nscore: {s[d.id]}\n\n"
    return _p2(c, p, s).replace(block, block + block), "P2-011"


def _n_extra_score_sub(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    return _p2(c, p, s).replace(
        "## Failure Condition Checks",
        "### D100: extra\n\nscore: pass\n\n## Failure Condition Checks",
    ), "P2-012"


def _n_score_count(c: Contract, p: Plan, s: dict[str, str], data: st.DataObject) -> tuple[str, str]:
    d = data.draw(st.sampled_from(c.dimensions))
    line = f"### {d.id}: {d.name}\n\nscore: {s[d.id]}\n"
    twice = data.draw(st.booleans())
    new = line + f"score: {s[d.id]}\n" if twice else f"### {d.id}: {d.name}\n\nLorem.\n"
    return _p2(c, p, s).replace(line, new), "P2-013"


def _n_score_value(c: Contract, p: Plan, s: dict[str, str], data: st.DataObject) -> tuple[str, str]:
    d = data.draw(st.sampled_from(c.dimensions))
    bad = data.draw(st.sampled_from(("Block", "fail", "pass.", "`pass`", "p\u0430ss")))
    line = f"### {d.id}: {d.name}\n\nscore: {s[d.id]}\n"
    return _p2(c, p, s).replace(line, f"### {d.id}: {d.name}\n\nscore: {bad}\n"), "P2-014"


def _cond_block(c: Contract, cid: str, flag: bool) -> str:
    cond = next(x for x in c.conditions if x.condition_id == cid)
    return f"### {cid}: {cond.expression}\n\nfired: {'true' if flag else 'false'}\n\n"


def _n_missing_cond(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    cid = data.draw(st.sampled_from([x.condition_id for x in c.conditions]))
    fired = expected_fired(c, s)
    return _p2(c, p, s).replace(_cond_block(c, cid, fired[cid]), ""), "P2-020"


def _n_duplicate_cond(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    cid = data.draw(st.sampled_from([x.condition_id for x in c.conditions]))
    block = _cond_block(c, cid, expected_fired(c, s)[cid])
    return _p2(c, p, s).replace(block, block + block), "P2-021"


def _n_extra_cond(c: Contract, p: Plan, s: dict[str, str], data: st.DataObject) -> tuple[str, str]:
    return _p2(c, p, s).replace(
        "## Review Body", "### F100\n\nfired: false\n\n## Review Body"
    ), "P2-022"


def _n_fired_count(c: Contract, p: Plan, s: dict[str, str], data: st.DataObject) -> tuple[str, str]:
    cid = data.draw(st.sampled_from([x.condition_id for x in c.conditions]))
    block = _cond_block(c, cid, expected_fired(c, s)[cid])
    return _p2(c, p, s).replace(block, block.split("\n")[0] + "\n\nLorem.\n\n"), "P2-023"


def _n_fired_value(c: Contract, p: Plan, s: dict[str, str], data: st.DataObject) -> tuple[str, str]:
    cid = data.draw(st.sampled_from([x.condition_id for x in c.conditions]))
    flag = expected_fired(c, s)[cid]
    block = _cond_block(c, cid, flag)
    bad = data.draw(st.sampled_from(("True", "yes", "1", "false." if not flag else "true.")))
    return _p2(c, p, s).replace(
        block, block.replace(f"fired: {str(flag).lower()}", f"fired: {bad}")
    ), "P2-024"


def _n_fired_wrong(c: Contract, p: Plan, s: dict[str, str], data: st.DataObject) -> tuple[str, str]:
    cid = data.draw(st.sampled_from([x.condition_id for x in c.conditions]))
    fired = expected_fired(c, s)
    fired[cid] = not fired[cid]
    try:
        decision = expected_decision(c, fired)
    except KernelError:
        return _skip(), ""
    return _p2(c, p, s, fired=fired, decision=decision), "P2-025"


def _n_dissent_empty(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    return "## Scoring Plan Dissent\n\nLorem.\n\n" + _p2(c, p, s), "P2-030"


def _n_multi_dissent(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    if len(c.dimensions) < 2:
        return _skip(), ""
    ids = data.draw(st.lists(st.sampled_from(c.dimension_ids), min_size=2, unique=True))
    return _p2(c, p, s, dissent=dict.fromkeys(ids, "plan was wrong")), "P2-031"


def _n_dissent_unknown(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    return "## Scoring Plan Dissent\n\n- dimension_id: D100\n\n" + _p2(c, p, s), "P2-032"


def _n_inconsistent(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    if all(v == "pass" for v in s.values()):
        return _skip(), ""
    return _p2(c, p, s, body="Lorem ipsum."), "P2-040"


def _n_decision_missing(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    text = _p2(c, p, s)
    head, _ = text.split("## Editorial Decision\n\n")
    tail = data.draw(st.sampled_from(("Lorem.\n", "editorial_decision = accept\n", "")))
    return head + "## Editorial Decision\n\n" + tail, "P2-050"


def _n_decision_twice(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    text = _p2(c, p, s)
    line = text.rstrip("\n").rsplit("\n", 1)[1]
    extra = data.draw(st.sampled_from((line, f"```\n{line}\n```", f"Not {line}")))
    return text + "\n" + extra + "\n", "P2-050"


def _n_decision_unknown(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    return _p2(c, p, s, decision="editorial_decision=bogus"), "P2-051"


def _n_decision_wrong(
    c: Contract, p: Plan, s: dict[str, str], data: st.DataObject
) -> tuple[str, str]:
    try:
        right = expected_decision(c, expected_fired(c, s))
    except KernelError:
        return _skip(), ""
    others = sorted({x.action for x in c.conditions} - {right})
    if not others:
        return _skip(), ""
    return _p2(c, p, s, decision=data.draw(st.sampled_from(others))), "P2-052"


P2_MUTATIONS: list[tuple[str, P2Mutation]] = [
    ("sections", _n_missing_section),
    ("sections", _n_duplicate_section),
    ("sections", _n_dissent_late),
    ("sections", _n_level1),
    ("sections", _n_preamble),
    ("sections", _n_heading_in_decision),
    ("dimension_scores", _n_missing_score_sub),
    ("dimension_scores", _n_duplicate_score_sub),
    ("dimension_scores", _n_extra_score_sub),
    ("dimension_scores", _n_score_count),
    ("dimension_scores", _n_score_value),
    ("failure_condition_checks", _n_missing_cond),
    ("failure_condition_checks", _n_duplicate_cond),
    ("failure_condition_checks", _n_extra_cond),
    ("failure_condition_checks", _n_fired_count),
    ("failure_condition_checks", _n_fired_value),
    ("failure_condition_checks", _n_fired_wrong),
    ("dissent", _n_dissent_empty),
    ("dissent", _n_multi_dissent),
    ("dissent", _n_dissent_unknown),
    ("consistency", _n_inconsistent),
    ("editorial_decision", _n_decision_missing),
    ("editorial_decision", _n_decision_twice),
    ("editorial_decision", _n_decision_unknown),
    ("editorial_decision", _n_decision_wrong),
]


@pytest.mark.parametrize(
    ("check", "mutate"), P2_MUTATIONS, ids=[m[1].__name__ for m in P2_MUTATIONS]
)
@settings(max_examples=12)
@given(data=st.data())
def test_phase2_single_defect(check: str, mutate: P2Mutation, data: st.DataObject) -> None:
    contract = data.draw(contracts())
    plan = data.draw(plans(contract))
    scores = data.draw(score_maps(contract))
    phase1 = render_phase1(contract, plan)
    valid = _p2(contract, plan, scores)
    assert lint_phase2(valid, contract, phase1).ok
    mutated, code = mutate(contract, plan, scores, data)
    assert mutated != valid
    report = lint_phase2(mutated, contract, phase1)
    _assert_only(report, check, code)
    assert report.multi_dissent == (code == "P2-031")


def test_consistency_trigger_without_tokens() -> None:
    contract = load_contract("reviewer/full")
    plan = {
        d.id: {
            "dimension_id": d.id,
            "what_to_look_for": "sample size",
            "what_triggers_block": "the and of it" if d.id == "D1" else "sample size",
            "what_triggers_warn": "sample size",
        }
        for d in contract.dimensions
    }
    phase1 = render_phase1(contract, plan)
    assert lint_phase1(phase1, contract).ok
    scores = dict.fromkeys(contract.dimension_ids, "pass") | {"D1": "block"}
    report = lint_phase2(
        render_phase2(contract, scores, body="The sample size is fine."), contract, phase1
    )
    _assert_only(report, "consistency", "P2-041")


def test_consistency_broken_plan() -> None:
    contract = load_contract("reviewer/full")
    phase1 = render_phase1(contract).replace("- what_triggers_block: serious methodology", "- x: y")
    assert not lint_phase1(phase1, contract).ok
    scores = dict.fromkeys(contract.dimension_ids, "pass") | {"D1": "block"}
    report = lint_phase2(render_phase2(contract, scores), contract, phase1)
    _assert_only(report, "consistency", "P2-042")
    # the same scores without the broken dimension scored block need no trigger
    ok = lint_phase2(
        render_phase2(contract, dict.fromkeys(contract.dimension_ids, "pass")), contract, phase1
    )
    assert ok.ok


def test_consistency_spec_example() -> None:
    contract = load_contract("reviewer/full")
    plan = {
        d.id: {
            "dimension_id": d.id,
            "what_to_look_for": "x",
            "what_triggers_block": "no sample size reported",
            "what_triggers_warn": "unclear figures",
        }
        for d in contract.dimensions
    }
    phase1 = render_phase1(contract, plan)
    scores = dict.fromkeys(contract.dimension_ids, "pass") | {"D1": "block"}
    good = render_phase2(contract, scores, body="The sample size is never stated.")
    assert lint_phase2(good, contract, phase1).ok
    for body in ("The samples are never stated.", "Sizes vary.", "Oversize claims."):
        bad = render_phase2(contract, scores, body=body)
        _assert_only(lint_phase2(bad, contract, phase1), "consistency", "P2-040")


def test_no_phase1_says_consistency_not_run() -> None:
    contract = load_contract("reviewer/full")
    scores = dict.fromkeys(contract.dimension_ids, "block")
    report = lint_phase2(render_phase2(contract, scores, body="Lorem."), contract)
    assert report.ok
    assert not report.consistency_checked
    assert [f.code for f in report.findings] == ["P2-043"]
    assert report.findings[0].severity == "warning"


def test_required_fields_are_the_fixed_four() -> None:
    # R14: a contract cannot drop dimension_id (or any field) from the scoring plan, so the
    # Phase 1 lint always checks it; such a contract is a schema error at load time.
    data = load_contract("reviewer/full").to_dict()
    data["measurement_procedure"]["scoring_plan_schema"]["required"] = ["what_triggers_block"]
    with pytest.raises(ContractError, match="too short"):
        load_contract(data)
