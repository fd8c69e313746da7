"""No escapes (api.md, Errors): every public entry point, given arbitrary input, returns or
raises a ``KernelError`` — never a ``TypeError``, ``ValueError``, ``RecursionError`` …

The entry points are read from the ``__all__`` of ``kernel`` and of every module api.md names,
at test time: :func:`test_every_public_callable_has_a_driver` fails when a new public function
has no driver here. Classes are values (attrs records, enums, exceptions), not entry points;
their public class methods are. A parameter typed as one of the kernel's own results (a
``RoundState``, a ``Run``, an ``Analysis`` …) gets a real one, made from hostile input the
kernel accepted; every other parameter gets domain values, their mutations, arbitrary JSON
and careless Python objects. ``kernel.testing`` builds Hypothesis strategies, so there a bad
strategy argument may also raise Hypothesis's own ``InvalidArgument``.
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from support.arena_support import (
    TS,
    VALID_CONFIG,
    VALID_NOTEBOOK,
    VALID_TASK,
    configs,
    notebooks,
    reviewer_outputs,
    tasks,
    two_round_events,
)
from support.fuzz import JSON, Inventing, anything, dump, mutated, texts
from support.paths import EXAMPLES

import kernel
from kernel import testing
from kernel.analysis.budget import MAX_STEPS, Budget
from kernel.contract.templates import schema as schema13
from kernel.errors import KernelError

#: The modules whose ``__all__`` api.md makes public (``kernel.check`` and ``kernel.decide``
#: are command lines only: tests/cli/test_cli_no_escapes.py drives them).
MODULES = (
    "kernel",
    "kernel.contract",
    "kernel.arena",
    "kernel.consensus",
    "kernel.panel",
    "kernel.analysis",
    "kernel.migration",
    "kernel.round",
    "kernel.testing",
    "kernel.lint",
    "kernel.review",
)


def public_callables() -> dict[str, Callable[..., Any]]:
    """``module.name`` → every public function (and public class method), each object once."""
    found: dict[str, Callable[..., Any]] = {}
    seen: set[int] = set()
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value):
                items = [
                    (f"{name}.{k}", getattr(value, k))
                    for k, v in vars(value).items()
                    if not k.startswith("_") and isinstance(v, classmethod | staticmethod)
                ]
            elif callable(value) and not _is_type_alias(value):
                items = [(name, value)]
            else:
                items = []
            for qualified, obj in items:
                key = id(getattr(obj, "__func__", obj))
                if key not in seen:
                    seen.add(key)
                    found[f"{module_name}.{qualified}"] = obj
    return found


def _is_type_alias(value: object) -> bool:
    return type(value).__module__ == "typing"


# ---------------------------------------------------------------- shared values

FULL = kernel.shipped_template("reviewer/full")
SCHEMA13 = schema13()
TEMPLATES = list(kernel.contract.templates.TEMPLATE_NAMES)
COMPILED = [kernel.load_contract(t) for t in TEMPLATES]
#: Contracts that have matrices (the 13.2 writer and evaluator have no seats).
DECIDABLE = [c for c in COMPILED if c.dialect == "13" or c.roles]
#: Schema 13 contracts: what reads reviewers' columns (rounds, sensitivity, priors) takes.
COMPILED13 = [c for c in COMPILED if c.dialect == "13"]
SMALL_CONTRACTS = testing.contracts(
    max_dimensions=3, max_conditions=3, panel_sizes=st.integers(1, 3), with_accept=None
) | testing.contracts(max_dimensions=3, max_conditions=3, dialect="13.2")
P1 = (EXAMPLES / "full" / "eic.phase1.md").read_text(encoding="utf-8")
P2 = (EXAMPLES / "full" / "eic.phase2.md").read_text(encoding="utf-8")
SYNTHESIS = (EXAMPLES / "full" / "synthesis.md").read_text(encoding="utf-8")
ROUND = json.loads((EXAMPLES / "consensus" / "round.json").read_text(encoding="utf-8"))
FINDINGS = json.loads((EXAMPLES / "panel" / "findings.json").read_text(encoding="utf-8"))
VOTES = json.loads((EXAMPLES / "panel" / "votes.json").read_text(encoding="utf-8"))
SESSION = (EXAMPLES / "panel" / "session.jsonl").read_text(encoding="utf-8")
TRAIL_TEXT = (EXAMPLES / "arena" / "run.jsonl").read_text(encoding="utf-8")
TRAIL = [json.loads(line) for line in TRAIL_TEXT.splitlines()]
REVIEW = (EXAMPLES / "arena" / "review.md").read_text(encoding="utf-8")

HOSTILE = anything()
TEXT = texts(P1, P2, SYNTHESIS, REVIEW)
#: A text, or something a careless caller passes instead.
TEXTISH = TEXT | HOSTILE
INTS = st.one_of(
    st.integers(),
    st.sampled_from([0, -1, 2**63]),
    st.integers(4300, 5000).map(lambda k: 10**k),  # past the int-to-str conversion limit
    st.integers(4300, 5000).map(lambda k: -(10**k)),
)
#: A label naming where a text came from: a path is what a careless caller passes, and
#: anything else (a huge integer, bytes) must be refused, not formatted into a message.
LABEL = TEXT | st.builds(Path, st.text(max_size=5)) | INTS | HOSTILE
#: ``max_bytes``: the default, a small limit, or anything at all.
MAX_BYTES = st.sampled_from([1 << 20, 1, 100, 1 << 30, (1 << 30) + 1]) | INTS | HOSTILE


#: A ``schema`` for ``validate``: none, well-formed, Schema 13 mutated, or junk.
SCHEMAS: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.sampled_from([{"type": "object", "required": ["panel_size"]}, True, False]),
    st.just(SCHEMA13).flatmap(mutated),
    st.sampled_from([{"type": 5}, {"$ref": "#/nope"}, {"$ref": "#"}, {"pattern": "("}]),
    st.dictionaries(st.sampled_from(["type", "$ref", "items", "required", "pattern"]), JSON),
    HOSTILE,
)


class CallersOwn(Exception):
    """Raised by a caller's own callback: it propagates, as documented (not an escape)."""


def _progress_raises(phase: str, fraction: float) -> None:
    raise CallersOwn(phase)


def _progress_quiet(phase: str, fraction: float) -> None:
    assert isinstance(phase, str) and 0 <= fraction <= 1


#: ``progress`` for the analyzer: none, a real callback, one that raises, wrong callables, junk.
PROGRESS: st.SearchStrategy[Any] = st.one_of(
    # (a callable whose signature cannot be read, such as ``dict``, is called as given: what
    # it raises is the caller's, like _progress_raises)
    st.sampled_from([None, _progress_quiet, _progress_raises, len, lambda: None]),
    HOSTILE,
)
#: ``budget`` for the analyzer: none, a real budget of any limit and spend, junk.
BUDGETS: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.builds(
        Budget,
        limit=st.sampled_from([0, 1, 1000, MAX_STEPS, MAX_STEPS + 1]) | INTS | HOSTILE,
        used=st.just(0) | INTS | HOSTILE,
    ),
    INTS,
    HOSTILE,
)


def _valid_matrix(contract: kernel.Contract) -> st.SearchStrategy[dict[str, list[str]]]:
    return testing.matrices(contract)


#: Anything ``load_contract`` might be given: names, valid and mutated contracts, junk.
CONTRACTS: st.SearchStrategy[Any] = st.one_of(
    st.sampled_from([*TEMPLATES, "reviewer/none", "", "/", "reviewer/full\x00"]),
    st.sampled_from(COMPILED),
    SMALL_CONTRACTS,
    mutated(FULL, JSON | st.sampled_from(["\ud800", float("nan")])),
    mutated(kernel.shipped_template("13.2/reviewer/full"), JSON | st.sampled_from(["\ud800"])),
    SMALL_CONTRACTS.flatmap(mutated),
    HOSTILE,
)


@st.composite
def contract_and_matrix(draw: st.DrawFn) -> tuple[Any, Any]:
    """A contract source and a matrix: a valid one, mutated, made-up values, or junk."""
    contract = draw(st.sampled_from(DECIDABLE) | SMALL_CONTRACTS.map(kernel.load_contract))
    matrix: Any = draw(_valid_matrix(contract))
    choice = draw(st.integers(0, 4))
    if choice == 1:
        matrix = draw(mutated(matrix))
    elif choice == 2:
        matrix = draw(
            st.builds(Inventing, st.just(list(matrix)[:-1]), st.sampled_from(["pass", ["pass"]]))
        )
    elif choice == 3:
        matrix = draw(HOSTILE)
    source = draw(
        st.sampled_from([contract, contract.to_dict() if hasattr(contract, "to_dict") else FULL])
        | CONTRACTS
    )
    return source, matrix


@st.composite
def reviewers(draw: st.DrawFn) -> Any:
    """A reviewers argument: (role, phase2, phase1) triples, of the right or a wrong shape."""
    triple = st.tuples(TEXTISH, TEXTISH, TEXTISH | st.none())
    good = st.tuples(st.sampled_from(["eic", "da", "x"]), st.just(P2) | TEXT, st.just(P1) | TEXT)
    item = good | triple | st.tuples(TEXT, TEXT) | st.tuples(TEXT, TEXT, TEXT, TEXT) | HOSTILE
    items = draw(st.lists(item, max_size=5))
    shape = draw(st.sampled_from(["list", "tuple", "iter", "junk"]))
    if shape == "junk":
        return draw(HOSTILE | TEXT)
    return iter(items) if shape == "iter" else tuple(items) if shape == "tuple" else items


# ---------------------------------------------------------------- drivers

Call = tuple[tuple[Any, ...], dict[str, Any]]


def call(*args: Any, **kwargs: Any) -> Call:
    return args, kwargs


def calls(
    *args: st.SearchStrategy[Any], **kwargs: st.SearchStrategy[Any]
) -> st.SearchStrategy[Call]:
    return st.builds(call, *args, **kwargs)


@st.composite
def _decide_call(draw: st.DrawFn) -> Call:
    return call(*draw(contract_and_matrix()))


@st.composite
def _decide_many_call(draw: st.DrawFn) -> Call:
    source, matrix = draw(contract_and_matrix())
    return call(source, draw(st.sampled_from([[matrix], (matrix,), iter([matrix]), matrix])))


@st.composite
def _check_synthesis_call(draw: st.DrawFn) -> Call:
    source, _ = draw(contract_and_matrix())
    decision = kernel.decide(COMPILED[0], draw(_valid_matrix(COMPILED[0])))
    return call(source, decision, draw(TEXTISH))


@st.composite
def _state(draw: st.DrawFn) -> Any:
    """A real round state, some way into the round."""
    from kernel import round as rnd

    contract = draw(st.sampled_from(COMPILED13))
    roles = [f"r{i}" for i in range(contract.panel_size)]
    state = rnd.start(contract, roles)
    for role in roles[: draw(st.integers(0, len(roles)))]:
        for phase, text in ((1, P1), (2, P2)):
            try:
                state, _ = rnd.submit(state, role, phase, text)
            except KernelError:
                break
    return state


@st.composite
def _analysis(draw: st.DrawFn) -> Any:
    return kernel.analyze(draw(st.sampled_from(DECIDABLE) | SMALL_CONTRACTS))


@st.composite
def _migration(draw: st.DrawFn) -> Any:
    return kernel.migrate(draw(st.sampled_from(["reviewer/methodology_focus", "reviewer/full"])))


@st.composite
def _diff(draw: st.DrawFn) -> Any:
    old = draw(SMALL_CONTRACTS)
    return kernel.analyze_diff(old, old)


@st.composite
def _sensitivity(draw: st.DrawFn) -> Any:
    contract = draw(st.sampled_from(COMPILED13))
    return kernel.sensitivity(contract, draw(_valid_matrix(contract)))


@st.composite
def _probabilities(draw: st.DrawFn) -> Any:
    from kernel.analysis import parse_prior, probabilities

    prior = parse_prior("pass=1/2,warn=1/4,block=1/4")
    return probabilities(draw(st.sampled_from(COMPILED13)), prior)


@st.composite
def _outcome(draw: st.DrawFn) -> Any:
    return kernel.decide_documents(COMPILED[0], draw(reviewers()))


def _safe(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Values of ``strategy`` whose making the kernel refused are left out (a refusal while
    *making* a real argument is the driver's business, not the entry point under test)."""

    @st.composite
    def made(draw: st.DrawFn) -> Any:
        try:
            return draw(strategy)
        except KernelError:
            return None

    return made().filter(lambda v: v is not None)


def _roles() -> st.SearchStrategy[Any]:
    return st.lists(st.text(max_size=4), max_size=6) | HOSTILE


TRAIL_RECORDS = st.sampled_from(TRAIL).flatmap(mutated) | st.sampled_from(TRAIL) | HOSTILE
CRITIQUE = st.fixed_dictionaries(
    {"approve": st.booleans(), "critical": st.booleans()},
    optional={"objections": st.lists(st.text(max_size=5)), "edits": JSON, "missing": JSON},
)
CRITIQUES = st.lists(CRITIQUE | CRITIQUE.flatmap(mutated) | HOSTILE, max_size=4) | HOSTILE
RATIOS = st.sampled_from([Fraction(2, 3), "2/3", "0.67", "1/0", 0.5, float("nan")]) | HOSTILE
VOTE_VALUES = st.sampled_from(["Agree", "Challenge", "Abstain"]) | HOSTILE
PAIRS = st.lists(st.tuples(TEXT, TEXT) | HOSTILE, max_size=4) | HOSTILE


def _event(draw_from: st.SearchStrategy[Any] = HOSTILE) -> st.SearchStrategy[Any]:
    from kernel.arena import machine as m

    ts = st.just(TS) | draw_from
    any_ = draw_from
    return st.one_of(
        st.builds(
            m.Start,
            config=st.just(VALID_CONFIG).flatmap(mutated) | configs() | any_,
            task=st.just(VALID_TASK) | tasks() | st.just(VALID_TASK).flatmap(mutated) | any_,
            notebook=st.none() | notebooks() | st.just(VALID_NOTEBOOK).flatmap(mutated) | any_,
            timestamp=ts,
        ),
        st.builds(
            m.HookCompleted,
            phase=st.sampled_from(["before", "during", "after"]) | any_,
            query=TEXT | any_,
            evidence_refs=st.tuples(TEXT) | any_,
            succeeded=st.booleans() | any_,
            timestamp=ts,
        ),
        st.builds(m.PlannerCompleted, output_ref=TEXT | any_, timestamp=ts),
        st.builds(
            m.ReviewerCompleted,
            output_ref=TEXT | any_,
            text=reviewer_outputs().map(lambda t: t[0]) | TEXTISH,
            issues=st.tuples(TEXT) | any_,
            timestamp=ts,
        ),
        st.builds(m.FinalizerCompleted, timestamp=ts),
        st.builds(m.Failed, reason=TEXTISH, timestamp=ts),
        any_,
    )


@st.composite
def _run(draw: st.DrawFn) -> Any:
    """A real run: started, then some of a valid two-round drive."""
    from kernel.arena import Run, step

    run = Run()
    events = two_round_events(enabled=draw(st.booleans()))
    for event in events[: draw(st.integers(0, len(events)))]:
        run, _ = step(run, event)
    return run


#: The shipped re-review rounds, one folder each.
RE_REVIEW = sorted(p for p in (EXAMPLES / "re-review").iterdir() if p.is_dir())
_RR_DOCUMENTS = ("manifest", "precommitment", "verdict_record", "traceability")


@st.composite
def _re_review_source(draw: st.DrawFn) -> Any:
    """A folder of a shipped round, or its documents as a mapping with one of them mutated
    (the hashed files as bytes, as read), or anything at all."""
    folder = draw(st.sampled_from(RE_REVIEW))
    if draw(st.booleans()):
        return str(folder)
    source: dict[str, Any] = {
        name: json.loads((folder / f"{name}.json").read_text("utf-8")) for name in _RR_DOCUMENTS
    }
    name = draw(st.sampled_from(_RR_DOCUMENTS))
    source[name] = draw(mutated(source[name]) | HOSTILE)
    roadmap = folder / "roadmap.json"
    if roadmap.exists():
        source["roadmap"] = roadmap.read_bytes()
    return source


def _re_review_bundles() -> st.SearchStrategy[Any]:
    from kernel.re_review import load_re_review

    return _safe(_re_review_source().map(load_re_review)) | HOSTILE


def _drivers() -> dict[str, st.SearchStrategy[Call]]:
    from kernel.consensus import RoundInput, round_from_mapping

    round_inputs = _safe(
        st.one_of(st.just(ROUND), st.just(ROUND).flatmap(mutated)).map(round_from_mapping)
    ).filter(lambda r: isinstance(r, RoundInput))
    amendments = st.none() | st.dictionaries(st.sampled_from(["generated_at", "x"]), JSON) | HOSTILE
    generated_at = st.sampled_from([TS, "2026-02-30T00:00:00Z", "now"]) | st.datetimes() | HOSTILE
    plan = st.none() | JSON | HOSTILE
    d: dict[str, st.SearchStrategy[Call]] = {
        # kernel
        "kernel.strict_majority": calls(INTS | HOSTILE),
        "kernel.parse_expression": calls(TEXTISH | testing.expressions().flatmap(testing.spelled)),
        "kernel.threshold": calls(
            st.sampled_from(["any", "majority", "all", "some"]) | TEXTISH, INTS | HOSTILE
        ),
        "kernel.load_contract": calls(CONTRACTS, max_bytes=MAX_BYTES),
        "kernel.shipped_template": calls(st.sampled_from(TEMPLATES) | TEXTISH),
        "kernel.baseline_digest": calls(CONTRACTS),
        "kernel.inject": calls(CONTRACTS, generated_at=generated_at, amendments=amendments),
        "kernel.decide": _decide_call(),
        "kernel.decide_many": _decide_many_call(),
        "kernel.analyze": calls(CONTRACTS, PROGRESS, budget=BUDGETS),
        "kernel.analyze_diff": calls(CONTRACTS, CONTRACTS, progress=PROGRESS, budget=BUDGETS),
        "kernel.sensitivity": _decide_call(),
        "kernel.migrate": calls(
            CONTRACTS,
            roles=st.none()
            | st.dictionaries(st.sampled_from(["D1", "D9"]) | TEXT, st.sampled_from(["eic"])
                              | st.lists(TEXT, max_size=2) | HOSTILE, max_size=2)
            | HOSTILE,
            mode=st.none() | st.sampled_from(["reviewer_full", "reviewer_guided"]) | TEXTISH,
            actions=st.none()
            | st.dictionaries(st.sampled_from(["F1", "reject_or_major_revision"]) | TEXT,
                              st.sampled_from(["reject"]) | TEXTISH, max_size=2)
            | HOSTILE,
            fatal=st.none() | st.lists(st.sampled_from(["D1", "D4"]) | TEXT, max_size=2) | HOSTILE,
            expressions=st.none()
            | st.dictionaries(st.sampled_from(["F1"]) | TEXT,
                              st.sampled_from(["D1 has a fatal block"]) | TEXTISH, max_size=1)
            | HOSTILE,
            prior=st.none() | _safe(st.sampled_from(["pass=1/2,warn=1/4,block=1/4"]).map(_prior))
            | HOSTILE,
            budget=BUDGETS,
        ),
        "kernel.lint_phase1": calls(TEXTISH, CONTRACTS, max_bytes=MAX_BYTES),
        "kernel.lint_phase2": calls(TEXTISH, CONTRACTS, TEXTISH | st.none(), max_bytes=MAX_BYTES),
        "kernel.phase1_input": calls(
            CONTRACTS,
            st.fixed_dictionaries({"title": TEXT, "field": TEXT, "word_count": INTS}).flatmap(
                lambda m: st.just(m) | mutated(m)
            )
            | HOSTILE,
        ),
        "kernel.phase2_input": calls(CONTRACTS, TEXTISH, TEXTISH),
        "kernel.render_phase1": calls(CONTRACTS, plan, st.none() | JSON | HOSTILE),
        "kernel.render_phase2": calls(
            CONTRACTS,
            JSON | HOSTILE,
            fired=st.none() | JSON,
            decision=st.none() | TEXTISH,
            dissent=st.none() | JSON,
            body=st.none() | TEXTISH,
            plan=plan,
        ),
        "kernel.decide_documents": calls(CONTRACTS, reviewers(), max_bytes=MAX_BYTES),
        "kernel.check_synthesis": _check_synthesis_call(),
        "kernel.load_re_review": calls(
            _re_review_source() | TEXTISH, max_bytes=MAX_BYTES, letter=st.none() | TEXTISH
        ),
        "kernel.check_re_review": calls(_re_review_bundles()),
        "kernel.decide_re_review": calls(_re_review_bundles()),
        # kernel.contract
        "kernel.contract.validate": calls(CONTRACTS, schema=SCHEMAS),
        "kernel.contract.check_structural_invariants": calls(CONTRACTS),
        "kernel.contract.warn_suspicious": calls(CONTRACTS, st.none() | TEXTISH),
        # kernel.arena
        "kernel.arena.check_conformance": calls(
            st.lists(TRAIL_RECORDS, max_size=6).map(lambda r: [*TRAIL[:2], *r, *TRAIL[2:]])
            | HOSTILE,
            source=LABEL,
        ),
        "kernel.arena.find_credentials": calls(TEXTISH),
        "kernel.arena.load_inputs": calls(*_arena_inputs()),
        "kernel.arena.parse_trail": calls(
            st.just(TRAIL_TEXT).flatmap(mutated_lines) | TEXTISH,
            source=LABEL,
            max_bytes=MAX_BYTES,
        ),
        "kernel.arena.parse_verdict": calls(
            reviewer_outputs().map(lambda t: t[0]) | TEXTISH, max_bytes=MAX_BYTES
        ),
        "kernel.arena.step": calls(_run(), _event()),
        "kernel.arena.validate_config": calls(*_arena_inputs()),
        "kernel.arena.validate_run_inputs": calls(*_arena_inputs()),
        # kernel.consensus
        "kernel.consensus.change_ratio": calls(TEXTISH, TEXTISH),
        "kernel.consensus.check_quorum": calls(INTS | HOSTILE, INTS | HOSTILE, RATIOS),
        "kernel.consensus.consensus_reached": calls(CRITIQUES, INTS | HOSTILE, RATIOS),
        "kernel.consensus.critique_prompt": calls(TEXTISH, TEXTISH),
        "kernel.consensus.disagreement": calls(CRITIQUES, TEXTISH),
        "kernel.consensus.evaluate_round": calls(round_inputs),
        "kernel.consensus.levenshtein": calls(
            st.lists(TEXT) | TEXTISH | HOSTILE, st.lists(TEXT) | TEXTISH | HOSTILE
        ),
        "kernel.consensus.measure_change": calls(
            TEXTISH,
            TEXTISH,
            threshold=st.none() | RATIOS,
            budget=st.sampled_from([15_000_000_000, 1, 0]) | INTS | HOSTILE,
        ),
        "kernel.consensus.parse_response": calls(
            TEXTISH | JSON.map(dump) | st.just(ROUND).flatmap(mutated).map(dump),
            st.sampled_from(["critique", "update", "participant", "synthesis"]) | TEXTISH,
            st.booleans() | HOSTILE,
            max_bytes=MAX_BYTES,
        ),
        "kernel.consensus.participant_prompt": calls(TEXTISH),
        "kernel.consensus.quorum": calls(INTS | HOSTILE, RATIOS),
        "kernel.consensus.required_approvals": calls(INTS | HOSTILE, RATIOS),
        "kernel.consensus.round_from_mapping": calls(st.just(ROUND).flatmap(mutated) | HOSTILE),
        "kernel.consensus.synthesis_prompt": calls(
            st.lists(st.fixed_dictionaries({"answer": TEXT}) | JSON, max_size=3) | HOSTILE,
            st.none() | CRITIQUES,
        ),
        "kernel.consensus.system_instruction": calls(
            st.sampled_from(["critique", "update", "participant", "synthesis"]) | TEXTISH
        ),
        "kernel.consensus.to_fraction": calls(RATIOS | INTS, LABEL),
        "kernel.consensus.tokens": calls(TEXTISH),
        "kernel.consensus.update_prompt": calls(TEXTISH, CRITIQUES),
        # kernel.panel
        "kernel.panel.agreement_level": calls(
            st.lists(st.sampled_from(["Consensus", "Majority", "Dismissed", "Escalated", "Single"])
                     | HOSTILE, max_size=4)
            | HOSTILE
        ),
        "kernel.panel.delta": calls(
            st.lists(TEXT, max_size=3) | HOSTILE,
            st.just(FINDINGS["findings"]).flatmap(mutated) | HOSTILE,
        ),
        "kernel.panel.escalate": calls(
            st.sampled_from(["Approve", "Revise", "Reject"]) | TEXTISH, PAIRS
        ),
        "kernel.panel.lifecycle": calls(PAIRS),
        "kernel.panel.resolve_finding": calls(
            st.dictionaries(st.sampled_from(["SEC", "PERF", "QUAL"]) | TEXT, VOTE_VALUES)
            | HOSTILE,
            originator=st.sampled_from(["SEC", "PERF"]) | TEXTISH,
            n_global=INTS | HOSTILE,
            withdrawn=st.booleans() | HOSTILE,
        ),
        "kernel.panel.resolve_verdict": calls(
            st.lists(st.sampled_from(["Approve", "Revise", "Reject"]) | HOSTILE) | HOSTILE
        ),
        "kernel.panel.route": calls(
            st.just(FINDINGS["findings"]).flatmap(mutated) | HOSTILE,
            st.sampled_from(["code", "strategy"]) | TEXTISH,
        ),
        "kernel.panel.scan_injection": calls(
            TEXTISH,
            delimiters=st.just(("phase1_output",)) | st.lists(TEXT, max_size=2) | HOSTILE,
            categories=st.none() | st.lists(TEXT, max_size=2) | HOSTILE,
        ),
        "kernel.panel.SessionRecord.from_jsonl": calls(
            st.just(SESSION).flatmap(mutated_lines) | TEXTISH, source=LABEL
        ),
        # kernel.analysis
        "kernel.analysis.format_analysis": calls(_analysis(), LABEL),
        # kernel.migration
        "kernel.migration.format_migration": calls(_migration() | HOSTILE, LABEL),
        "kernel.migration.html_migration": calls(_migration() | HOSTILE, LABEL),
        "kernel.analysis.format_diff": calls(_safe(_diff()), LABEL, LABEL),
        "kernel.analysis.format_probabilities": calls(_probabilities()),
        "kernel.analysis.format_sensitivity": calls(_sensitivity()),
        "kernel.analysis.parse_prior": calls(
            st.sampled_from(["pass=1/2,warn=1/4,block=1/4", "pass=1/0", "pass=1e400"])
            | TEXTISH
        ),
        "kernel.analysis.prior_from_json": calls(
            st.just({"pass": "1/2", "warn": "1/4", "block": "1/4"}).flatmap(mutated) | HOSTILE,
            LABEL,
        ),
        "kernel.analysis.probabilities": calls(
            CONTRACTS,
            _safe(st.sampled_from(["pass=1/2,warn=1/4,block=1/4"]).map(_prior)),
            PROGRESS,
            BUDGETS,
        ),
        # kernel.round
        "kernel.round.event_schema": calls(),
        "kernel.round.start": calls(CONTRACTS, _roles()),
        "kernel.round.submit": calls(
            _state(), st.sampled_from(["r0", "r1", "zz"]) | TEXTISH, INTS | HOSTILE, TEXTISH
        ),
        "kernel.round.finish": calls(_state()),
        "kernel.round.to_jsonl": calls(st.lists(JSON, max_size=3) | HOSTILE),
        "kernel.round.from_jsonl": calls(TEXTISH | st.lists(JSON, max_size=3).map(_jsonl)),
        # kernel.testing (each returns a strategy, drawn from below)
        "kernel.testing.atoms": calls(st.just(st.sampled_from(["D1", "D2"])) | HOSTILE),
        "kernel.testing.contracts": calls(
            max_dimensions=st.integers(-2, 6) | HOSTILE,
            max_conditions=st.integers(-2, 6) | HOSTILE,
            panel_sizes=st.just(st.integers(1, 3)) | HOSTILE,
            with_accept=st.none() | st.booleans() | HOSTILE,
        ),
        "kernel.testing.expressions": calls(
            st.just(st.sampled_from(["D1"])) | HOSTILE, st.integers(-1, 4) | HOSTILE
        ),
        "kernel.testing.matrices": calls(CONTRACTS),
        "kernel.testing.phase2_documents": calls(CONTRACTS, plan=plan),
        "kernel.testing.rounds_v2": calls(
            st.sampled_from(["13.2/reviewer/full", "13.2/reviewer/methodology_focus"])
            | CONTRACTS
            | HOSTILE
        ),
        "kernel.testing.spelled": calls(
            testing.expressions() | HOSTILE
        ),
        # kernel.review
        "kernel.review.finding_lines": calls(
            _safe(_outcome()), st.dictionaries(TEXT, st.tuples(TEXT, TEXT)) | HOSTILE
        ),
        "kernel.review.text_lines": calls(
            _safe(_outcome()), st.dictionaries(TEXT, st.tuples(TEXT, TEXT)) | HOSTILE
        ),
    }
    return d


def _round(**changes: Any) -> Any:
    """The example round with ``changes``, as a ``RoundInput``."""
    from kernel.consensus import round_from_mapping

    return round_from_mapping({**ROUND, **changes})


def _with_dimension_id(value: object) -> Any:
    """The full template with its first dimension's id replaced."""
    contract = kernel.shipped_template("reviewer/full")
    contract["acceptance_dimensions"][0]["id"] = value
    return contract


def _any(value: object) -> Any:
    """``value`` typed as anything: a wrong type on purpose."""
    return value


def _prior(text: str) -> Any:
    from kernel.analysis import parse_prior

    return parse_prior(text)


def _jsonl(values: list[Any]) -> str:
    return "".join(dump(v) + "\n" for v in values)


@st.composite
def mutated_lines(draw: st.DrawFn, text: str) -> str:
    """A JSON-lines text with one line's record mutated, dropped or repeated."""
    lines = text.splitlines()
    i = draw(st.integers(0, len(lines) - 1))
    how = draw(st.integers(0, 2))
    if how == 0:
        lines[i] = dump(draw(mutated(json.loads(lines[i]))))
    elif how == 1:
        del lines[i]
    else:
        lines.insert(i, lines[i])
    return "\n".join(lines) + "\n"


def _arena_inputs() -> tuple[st.SearchStrategy[Any], ...]:
    return (
        st.just(VALID_CONFIG) | configs() | st.just(VALID_CONFIG).flatmap(mutated) | HOSTILE,
        st.just(VALID_TASK) | tasks() | st.just(VALID_TASK).flatmap(mutated) | HOSTILE,
        st.none() | notebooks() | st.just(VALID_NOTEBOOK).flatmap(mutated) | HOSTILE,
    )


DRIVERS = _drivers()
EXAMPLES_PER_ENTRY = max(10, settings().max_examples // 5)


def test_every_public_callable_has_a_driver() -> None:
    public = public_callables()
    assert sorted(set(public) - set(DRIVERS)) == []
    assert sorted(set(DRIVERS) - set(public)) == []


def test_public_classes_are_values() -> None:
    """A class is skipped as an entry point only when its constructor parses nothing."""
    import enum

    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            value = getattr(module, name)
            if inspect.isclass(value):
                assert attrs.has(value) or issubclass(value, enum.Enum | BaseException), name


def _drain(result: Any, data: st.DataObject) -> None:
    """Use what came back the way a caller would: draw from a strategy, dump a report."""
    if isinstance(result, st.SearchStrategy):
        data.draw(result)
    elif hasattr(result, "to_dict"):
        result.to_dict()
    elif isinstance(result, Iterator):
        list(result)


def drive(name: str, args: tuple[Any, ...], kwargs: dict[str, Any], data: st.DataObject) -> None:
    entry = public_callables()[name]
    allowed: tuple[type[BaseException], ...] = (KernelError, CallersOwn)
    if name.startswith("kernel.testing."):
        allowed = (KernelError, InvalidArgument)
    with contextlib.suppress(*allowed):
        _drain(entry(*args, **kwargs), data)


@pytest.mark.parametrize("name", sorted(DRIVERS))
@settings(
    max_examples=EXAMPLES_PER_ENTRY,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_no_escapes(name: str, data: st.DataObject) -> None:
    args, kwargs = data.draw(DRIVERS[name], label="call")
    drive(name, args, kwargs, data)


H = 10**4300  # past Python's int-to-str conversion limit

#: Values of the "too large to write" class: integers past the int-to-str conversion limit,
#: as they are or inside containers, and long digit strings.
HUGE_VALUES = st.sampled_from(
    [H, -H, 10**5000, 2**64, [H], (H, H), {"k": H}, {H: 1}, "9" * 5000, float("inf")]
)


@pytest.mark.parametrize("name", sorted(DRIVERS))
@settings(
    max_examples=max(3, settings().max_examples // 20),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_a_huge_value_in_any_parameter(name: str, data: st.DataObject) -> None:
    """The class, not the instances: any one parameter (given or left to its default, labels
    such as ``source=`` included) gets a value too large to write into a message."""
    entry = public_callables()[name]
    params = list(inspect.signature(entry).parameters.values())
    if not params:
        return
    args, kwargs = data.draw(DRIVERS[name], label="call")
    bound = inspect.signature(entry).bind_partial(*args, **kwargs)
    param = data.draw(st.sampled_from(params), label="parameter")
    if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
        return
    bound.arguments[param.name] = data.draw(HUGE_VALUES, label="value")
    drive(name, bound.args, bound.kwargs, data)


#: The generated cases of the regressions test are a bonus: the explicit examples are its point.
@settings(
    max_examples=max(5, settings().max_examples // 12),
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.sampled_from(sorted(DRIVERS)).flatmap(lambda n: st.tuples(st.just(n), DRIVERS[n])),
    st.data(),
)
# huge integers quoted in messages (ValueError)
@example(("kernel.strict_majority", call(-H)), None)
@example(("kernel.shipped_template", call(H)), None)
@example(("kernel.consensus.quorum", call(-H)), None)
@example(("kernel.panel.agreement_level", call([H])), None)
@example(("kernel.panel.resolve_verdict", call([H])), None)
@example(("kernel.panel.route", call([{"id": H}], "code")), None)
@example(("kernel.decide_documents", call("reviewer/full", [], max_bytes=H)), None)
@example(("kernel.consensus.parse_response", call("{}", H)), None)
@example(("kernel.round.to_jsonl", call([{"event": H}])), None)
@example(("kernel.consensus.check_quorum", call(3, 2, H)), None)
@example(("kernel.consensus.quorum", call(3, Fraction(1, 10**60))), None)
@example(("kernel.consensus.quorum", call(3, -H)), None)
@example(("kernel.consensus.round_from_mapping", call({**ROUND, "round": H})), None)
@example(("kernel.consensus.evaluate_round", call(_round(participants=H))), None)
@example(("kernel.consensus.evaluate_round", call(_round(max_rounds=H))), None)
@example(("kernel.panel.resolve_finding", call({"SEC": "Agree"}, originator="S", n_global=H)), None)
@example(("kernel.phase1_input", call(FULL, {H: 1, "title": "t", "field": "f"})), None)
@example(("kernel.round.start", call(FULL, [H] * 5)), None)
@example(("kernel.round.start", call(FULL, [[1]] * 5)), None)
@example(("kernel.contract.check_structural_invariants", call(_with_dimension_id(H))), None)
# arguments that should be the kernel's own results (AttributeError, TypeError)
@example(("kernel.analysis.format_analysis", call(H, "x")), None)
@example(("kernel.analysis.format_diff", call(None, "x", "y")), None)
@example(("kernel.analysis.format_probabilities", call({})), None)
@example(("kernel.analysis.format_sensitivity", call("s")), None)
@example(("kernel.consensus.evaluate_round", call(ROUND)), None)
@example(("kernel.contract.check_structural_invariants", call(FULL, compiled=[H])), None)
@example(("kernel.decide_many", call(FULL, H)), None)
# labels that are not text (ValueError formatting a huge integer)
@example(("kernel.consensus.to_fraction", call(H, H)), None)
@example(("kernel.analysis.prior_from_json", call({}, H)), None)
@example(("kernel.arena.parse_trail", call("x", source=H)), None)
# wrong argument types (TypeError, AttributeError, KeyError)
@example(("kernel.arena.find_credentials", call(None)), None)
@example(("kernel.consensus.levenshtein", call([[1]], [[2]])), None)
@example(("kernel.consensus.measure_change", call("a", "b", threshold="1/2")), None)
@example(("kernel.consensus.system_instruction", call([])), None)
@example(("kernel.consensus.disagreement", call(None, "x")), None)
@example(("kernel.round.to_jsonl", call(None)), None)
@example(("kernel.testing.spelled", call(None)), None)
@example(("kernel.arena.parse_trail", call(None)), None)
# malformed caller schemas (jsonschema's SchemaError, UnknownType, referencing errors)
@example(("kernel.contract.validate", call(FULL, schema={"type": 5})), None)
@example(("kernel.contract.validate", call(FULL, schema={"type": "nope"})), None)
@example(("kernel.contract.validate", call(FULL, schema={"$ref": "#/nope"})), None)
@example(("kernel.contract.validate", call(FULL, schema=[])), None)
# hostile progress and budget arguments of the analyzer
@example(("kernel.analyze", call("reviewer/full", 5)), None)
@example(("kernel.analyze", call("reviewer/full", len)), None)
@example(("kernel.analyze", call("reviewer/full", budget=-1)), None)
@example(("kernel.analyze", call("reviewer/full", budget=Budget(limit=-H))), None)
@example(("kernel.analyze", call("reviewer/full", budget=Budget(limit=H))), None)
@example(("kernel.analyze", call("reviewer/full", budget=Budget(limit=_any("1")))), None)
@example(("kernel.analyze_diff", call(FULL, FULL, budget=Budget(used=-1))), None)
@example(("kernel.analysis.probabilities", call(FULL, _prior("pass=1"), lambda: None)), None)
# file names the file system cannot take (UnicodeEncodeError, ValueError)
@example(("kernel.load_contract", call("\ud800")), None)
@example(("kernel.load_contract", call("a\x00b")), None)
def test_no_escapes_regressions(case: tuple[str, Call], data: st.DataObject | None) -> None:
    name, (args, kwargs) = case
    entry = public_callables()[name]
    with contextlib.suppress(KernelError, InvalidArgument, CallersOwn):
        result = entry(*args, **kwargs)
        if data is not None:
            _drain(result, data)
