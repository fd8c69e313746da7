"""The decoration property (R20): over generated 13.2 rounds, one decoration of one field
line of one seat's Phase 2 report — a quote, a list item, a lazy continuation, a fence in a
container, indentation, a comment on the line, an unclosed comment before it, a heading
before it. Either the kernel fails the report, or it reads what upstream's column-0 line
reader reads (13.2 §E0); and the round is never decided more leniently than the
undecorated round unless the report fails. The same holds for a seat's Phase 1 plan
field lines, which the trigger binding reads.

Runs under the bounded ``default`` profile in CI; ``HYPOTHESIS_PROFILE=heavy`` explores
thousands of rounds."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import example, given
from hypothesis import strategies as st
from support import paths
from support.line_reader132 import read_plan, read_report

from kernel import load_contract
from kernel.contract.model import Contract
from kernel.reviewer.lint.phase1_v2 import analyse_phase1_v2
from kernel.reviewer.lint.phase2_v2 import analyse_phase2_v2
from kernel.reviewer.roles import RoleScope, scope_of
from kernel.reviewer.round_v2 import decide_reports_v2
from kernel.testing import RoundV2, contracts, rounds_v2
from kernel.text.markdown import parse_document

EXAMPLE = load_contract(str(paths.ROOT / "examples" / "full-13.2" / "contract.json"))
FIELDS = ("score:", "block_class:", "trigger:", "abstain_reason:", "contract_role:")
PLAN_FIELDS = (
    "dimension_id:",
    "what_to_look_for:",
    "what_triggers_block:",
    "what_triggers_warn:",
    "what_triggers_fatal:",
)
RANK = {
    "editorial_decision=accept": 0,
    "editorial_decision=minor_revision": 1,
    "editorial_decision=major_revision": 2,
    "editorial_decision=reject": 3,
}
COMMENT_OPENERS = ("<!--", "- <!--", "* <!--", "> <!--", "2. <!--", "1) <!--", "<!-- a --> <!--")
HEADINGS = ("## Notes", "   ## Notes", "### Notes", "  ### Notes", "#### Notes", "Notes\n---")

#: Each decoration: (lines before, the line, lines after) from the field line and a choice.
Decoration = Callable[[str, int], tuple[list[str], str, list[str]]]
DECORATIONS: dict[str, Decoration] = {
    "quote": lambda line, k: ([], ">" + " " * (k % 3) + line, []),
    "list item": lambda line, k: ([], ["- ", "* ", "1. ", "+ "][k % 4] + line, []),
    "lazy continuation": lambda line, k: (
        [["> a note", "- a note", "1. a note", "a paragraph"][k % 4]],
        line,
        [],
    ),
    "fence in a container": lambda line, k: (
        [["- note", "> note", "1. note"][k % 3], ["  ```", "   ~~~", "  ````"][k // 3 % 3]],
        line,
        [["```", "~~~", "````"][k // 3 % 3]],
    ),
    "indentation": lambda line, k: ([], [" ", "  ", "   ", "    ", "\t"][k % 5] + line, []),
    "comment on the line": lambda line, k: (
        [],
        [f"{line} <!-- x -->", f"<!-- x --> {line}", f"<!-- {line} -->", f"<!--{line}"][k % 4],
        [],
    ),
    "unclosed comment before it": lambda line, k: (
        [COMMENT_OPENERS[k % len(COMMENT_OPENERS)], *([""] if k // 7 % 2 else [])],
        line,
        [],
    ),
    "heading before it": lambda line, k: ([HEADINGS[k % len(HEADINGS)], ""], line, []),
}


#: Another value for a field, for a decorated second line beside the first.
OTHER = {
    "score": ("block", "warn", "pass", "not_assessed"),
    "block_class": ("fatal", "repairable"),
    "trigger": ('"a trigger the seat never committed to in its plan"',),
    "abstain_reason": ("another reason",),
    "contract_role": ("eic", "da", "methodology"),
    "dimension_id": ("D1", "D2", "D99"),
    **{
        f[:-1]: ("a commitment the seat did not make in its first plan at all",)
        for f in PLAN_FIELDS[1:]
    },
}


def decorate(text: str, index: int, name: str, k: int, added: int | None = None) -> str:
    """``text`` with its line ``index`` decorated; with ``added``, the line stays and a
    second line of the same field (value ``OTHER[key][added]``) is decorated after it."""
    lines = text.split("\n")
    line = lines[index]
    if added is None:
        before, line, after = DECORATIONS[name](line, k)
        return "\n".join([*lines[:index], *before, line, *after, *lines[index + 1 :]])
    key = line.partition(":")[0]
    other = OTHER[key][added % len(OTHER[key])]
    before, extra, after = DECORATIONS[name](f"{key}: {other}", k)
    return "\n".join([*lines[: index + 1], *before, extra, *after, *lines[index + 1 :]])


def field_lines(text: str, fields: tuple[str, ...] = FIELDS) -> list[int]:
    return [i for i, line in enumerate(text.split("\n")) if line.startswith(fields)]


@st.composite
def decorated_rounds(draw: st.DrawFn) -> tuple[Contract, RoundV2, str, str]:
    contract = draw(st.one_of(st.just(EXAMPLE), contracts(dialect="13.2").map(load_contract)))
    round_ = draw(rounds_v2(contract))
    role = draw(st.sampled_from(contract.roles))
    text = round_.phase2[role]
    index = draw(st.sampled_from(field_lines(text)))
    name = draw(st.sampled_from(sorted(DECORATIONS)))
    added = draw(st.none() | st.integers(0, 3))
    mutated = decorate(text, index, name, draw(st.integers(0, 41)), added)
    return contract, round_, role, mutated


def check(contract: Contract, round_: RoundV2, role: str, mutated: str) -> None:
    scope_dims = [(d.id, d.name) for d in contract.dimensions]
    report = analyse_phase2_v2(mutated, _scope(contract), round_.phase1[role], role=role)
    failed = any(f.severity == "error" for f in report.findings)
    if not failed:
        read = read_report(mutated, scope_dims)
        assert read is not None, "the kernel passes a report the line reader cannot parse"
        assert report.role == read[0]
        assert report.scores is not None and dict(report.scores) == read[1]
    entries = [(f"{r}.md", round_.phase2[r], round_.phase1[r]) for r in contract.roles]
    before = decide_reports_v2(contract, entries)
    assert before.decision is not None
    after = decide_reports_v2(
        contract,
        [(n, mutated if n == f"{role}.md" else p2, p1) for n, p2, p1 in entries],
    )
    if failed:
        assert after.decision is None
    elif after.decision is not None:
        assert RANK[after.decision.action] >= RANK[before.decision.action]


def _scope(contract: Contract) -> RoleScope:
    return scope_of(contract)


@given(decorated_rounds())
def test_a_decorated_field_line_fails_or_reads_as_the_line_reader_reads_it(
    case: tuple[Contract, RoundV2, str, str],
) -> None:
    check(*case)


@given(
    rounds_v2(EXAMPLE),
    st.sampled_from(sorted(DECORATIONS)),
    st.integers(0, 41),
    st.none() | st.integers(0, 3),
    st.data(),
)
@example(None, "", 0, None, None)
def test_every_decoration_of_every_field_line_of_the_da_seat(
    round_: RoundV2 | None, name: str, k: int, added: int | None, data: st.DataObject | None
) -> None:
    if round_ is None or data is None:  # the issue's case: D6's block in a lazy quote
        return _the_lazy_quote()
    text = round_.phase2["da"]
    index = data.draw(st.sampled_from(field_lines(text)))
    check(EXAMPLE, round_, "da", decorate(text, index, name, k, added))


def _plain_round() -> RoundV2:
    """The example contract's round where every seat passes every dimension it scores."""
    from kernel.reviewer.render_v2 import render_phase1_v2, render_phase2_v2

    scope = _scope(EXAMPLE)
    values = {r: {d.id: "pass" for d in scope.eligible(r)} for r in scope.roles}
    phase1 = {r: render_phase1_v2(scope, r) for r in scope.roles}
    phase2 = {r: render_phase2_v2(scope, r, values[r]) for r in scope.roles}
    matrix = {
        d.id: {r: values[r][d.id] for r in scope.roles if r in d.eligible_roles}
        for d in scope.dimensions
    }
    return RoundV2(scope, phase1, phase2, matrix, 0)


def _the_lazy_quote() -> None:
    round_ = _plain_round()
    lines = round_.phase2["da"].split("\n")
    index = lines.index("score: pass", lines.index("### D6: critical_weaknesses"))
    # "> a note" then "score: block" at column 0, after D6's "score: pass"
    check(EXAMPLE, round_, "da", decorate(round_.phase2["da"], index, "lazy continuation", 0, 0))


@st.composite
def decorated_plans(draw: st.DrawFn) -> tuple[Contract, RoundV2, str, str]:
    contract = draw(st.one_of(st.just(EXAMPLE), contracts(dialect="13.2").map(load_contract)))
    round_ = draw(rounds_v2(contract))
    role = draw(st.sampled_from(contract.roles))
    text = round_.phase1[role]
    index = draw(st.sampled_from(field_lines(text, PLAN_FIELDS)))
    name = draw(st.sampled_from(sorted(DECORATIONS)))
    added = draw(st.none() | st.integers(0, 3))
    return contract, round_, role, decorate(text, index, name, draw(st.integers(0, 41)), added)


def _lazy_plan_line() -> tuple[Contract, RoundV2, str, str]:
    """A second what_triggers_fatal line lazily continuing a quote after D3's last one."""
    round_ = _plain_round()
    lines = round_.phase1["eic"].split("\n")
    index = next(i for i, t in enumerate(lines) if t.startswith("what_triggers_fatal:"))
    return EXAMPLE, round_, "eic", decorate(round_.phase1["eic"], index, "lazy continuation", 0, 0)


@given(decorated_plans())
@example(_lazy_plan_line())
def test_a_decorated_plan_line_fails_or_reads_as_the_line_reader_reads_it(
    case: tuple[Contract, RoundV2, str, str],
) -> None:
    """The same for a Phase 1 plan field: the trigger binding is credited only on a plan
    every reading agrees on."""
    contract, round_, role, mutated = case
    scope = _scope(contract)
    analysed = analyse_phase1_v2(parse_document(mutated), scope, role, "document")
    failed = any(f.severity == "error" for f in analysed.findings)
    if not failed:
        eligible = [(d.id, d.name, d.priority == "mandatory") for d in scope.eligible(role)]
        read = read_plan(mutated, eligible)
        assert read is not None, "the kernel passes a plan the line reader cannot parse"
        assert {d: dict(p) for d, p in analysed.plans.items()} == read
    entries = [(f"{r}.md", round_.phase2[r], round_.phase1[r]) for r in contract.roles]
    before = decide_reports_v2(contract, entries)
    assert before.decision is not None
    after = decide_reports_v2(
        contract, [(n, p2, mutated if n == f"{role}.md" else p1) for n, p2, p1 in entries]
    )
    if failed:
        assert after.decision is None
    elif after.decision is not None:
        assert RANK[after.decision.action] >= RANK[before.decision.action]
