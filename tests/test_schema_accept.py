"""The quick acceptance check agrees with jsonschema, and spares valid documents the import."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from support.fuzz import JSON, OBJECTS, mutated
from support.paths import EXAMPLES

from kernel.arena.audit import _validator as arena_validator
from kernel.consensus.responses import SCHEMAS
from kernel.consensus.round import ROUND_SCHEMA
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template
from kernel.panel.audit import session_schema
from kernel.panel.votes import VOTES_SCHEMA
from kernel.schema import StrictValidator, _format_checker, ecma_pattern
from kernel.schema.accept import _verdict, accepts, is_rfc3339


def _jsonschema_valid(schema: Any, instance: Any) -> bool | None:
    """jsonschema's own answer (the strict rules included); None when it cannot answer."""
    try:
        return not list(StrictValidator(schema, quick=False).iter_errors(instance))
    except (ValueError, RecursionError):
        return None


def _lines(name: str) -> list[Any]:
    text = (EXAMPLES / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _dialect_schema(name: str) -> Any:
    from kernel.contract.dialects import DIALECTS, detect
    from kernel.contract.templates import schema_document

    return schema_document(DIALECTS[detect(shipped_template(name))].schema_file)


def _seeds() -> list[tuple[str, Any, Any]]:
    """(label, one of the kernel's own schemas, a valid document for it)."""
    seeds: list[tuple[str, Any, Any]] = [
        (f"template {n}", _dialect_schema(n), shipped_template(n)) for n in TEMPLATE_NAMES
    ]
    round_doc = json.loads((EXAMPLES / "consensus" / "round.json").read_text("utf-8"))
    seeds.append(("consensus round", ROUND_SCHEMA, round_doc))
    seeds += [("critique", SCHEMAS["critique"], c) for c in round_doc["critiques"]]
    seeds.append(
        ("votes", VOTES_SCHEMA, json.loads((EXAMPLES / "panel" / "votes.json").read_text()))
    )
    seeds += [("panel session", session_schema(), e) for e in _lines("panel/session.jsonl")]
    for record in _lines("arena/run.jsonl"):
        seeds.append((f"arena {record['event']}", arena_validator(record["event"]).schema, record))
    return seeds


SEEDS = _seeds()


@pytest.mark.parametrize(("label", "schema_", "document"), SEEDS, ids=[s[0] for s in SEEDS])
def test_valid_shipped_documents_are_accepted_without_jsonschema(
    label: str, schema_: Any, document: Any
) -> None:
    assert _jsonschema_valid(schema_, document) is True, label
    assert accepts(schema_, document), label


@given(st.data())
def test_mutated_documents_are_never_accepted_when_jsonschema_rejects(data: st.DataObject) -> None:
    label, schema_, document = data.draw(st.sampled_from(SEEDS))
    changed = data.draw(mutated(document, JSON | OBJECTS))
    if accepts(schema_, changed):
        assert _jsonschema_valid(schema_, changed) is True, label


# --- the keyword table against jsonschema on small schemas -----------------------------------

_SCALAR_SCHEMAS = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["object", "array", "string", "integer", "number", "boolean"])}
    ),
    st.fixed_dictionaries(
        {
            "type": st.lists(
                st.sampled_from(["string", "null", "integer"]), min_size=1, max_size=2, unique=True
            )
        }
    ),
    st.fixed_dictionaries({"enum": st.lists(JSON, min_size=1, max_size=3)}),
    st.fixed_dictionaries({"const": JSON}),
    st.fixed_dictionaries({"minLength": st.integers(0, 3)}),
    st.fixed_dictionaries({"maxLength": st.integers(0, 3)}),
    st.fixed_dictionaries({"minimum": st.integers(-2, 2) | st.floats(-2, 2)}),
    st.fixed_dictionaries({"maximum": st.integers(-2, 2) | st.floats(-2, 2)}),
    st.fixed_dictionaries({"minItems": st.integers(0, 2)}),
    st.fixed_dictionaries({"maxItems": st.integers(0, 2)}),
    st.fixed_dictionaries({"uniqueItems": st.booleans()}),
    st.fixed_dictionaries({"pattern": st.sampled_from(["^a", "b$", r"^\d+$", r"\s", "^.$"])}),
    st.fixed_dictionaries({"format": st.sampled_from(["date-time", "email"])}),
    st.fixed_dictionaries({"required": st.lists(st.sampled_from("abc"), max_size=2, unique=True)}),
    st.booleans(),
)


def _compound(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    props = st.dictionaries(st.sampled_from("abc"), children, max_size=2)
    return st.one_of(
        st.fixed_dictionaries({"properties": props}, optional={"additionalProperties": children}),
        st.fixed_dictionaries(
            {"items": children}, optional={"prefixItems": st.lists(children, max_size=2)}
        ),
        st.fixed_dictionaries({"prefixItems": st.lists(children, max_size=2)}),
        st.fixed_dictionaries({"propertyNames": children}),
        st.fixed_dictionaries({"allOf": st.lists(children, min_size=1, max_size=2)}),
        st.fixed_dictionaries({"oneOf": st.lists(children, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"if": children}, optional={"then": children, "else": children}),
        st.fixed_dictionaries({"$ref": st.just("#/$defs/d")}),
        st.fixed_dictionaries({"not": children}),
        st.tuples(children, children).map(
            lambda p: (
                {**p[0], **p[1]} if isinstance(p[0], dict) and isinstance(p[1], dict) else p[0]
            )
        ),
    )


SCHEMAS_ = st.recursive(_SCALAR_SCHEMAS, _compound, max_leaves=6)
VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-3, 3)
    | st.sampled_from(
        ["", "a", "b", "1", "a1b", "2026-04-23T10:00:00Z", "2026-02-30T10:00:00Z", " "]
    )
    | st.sampled_from([math.nan, math.inf, 10**400]),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.sampled_from("abcd"), c, max_size=3),
    max_leaves=8,
)


@given(SCHEMAS_, SCHEMAS_, VALUES | OBJECTS)
@example({"oneOf": [{"minimum": 0}, {"type": "number"}]}, True, math.nan)
@example({"enum": [1]}, True, True)
@example({"const": 1.0}, True, 1)
@example({"uniqueItems": True}, True, [1, True])
@example({"items": False, "prefixItems": [True]}, True, [1])
@example({"type": "object", "required": ["a"]}, True, {"a": None})
def test_every_definite_answer_is_jsonschemas(schema_: Any, defs: Any, value: Any) -> None:
    root = {**schema_, "$defs": {"d": defs}} if isinstance(schema_, dict) else schema_
    try:
        said = _verdict(root, value, root) if isinstance(root, dict) else root
    except RecursionError:  # a $ref to itself: accepts() says False, jsonschema cannot answer
        said = None
    if said is not None:
        assert _jsonschema_valid(root, value) in (said, None)
    assert accepts(root, value) == (said is True and isinstance(root, dict))


@given(st.text(max_size=30) | st.sampled_from(["2026-04-23t10:00:00z", "2026-04-23T10:00:60Z"]))
@example("2026-04-23T10:00:00+02:00")
def test_date_time_is_decided_as_jsonschemas_format_checker_decides(text: str) -> None:
    assert is_rfc3339(text) == _format_checker().conforms(text, "date-time")


def test_patterns_keep_the_ecma_rules_in_the_quick_check() -> None:
    assert not accepts({"pattern": r"^\d$"}, "\u0663")
    assert accepts({"pattern": r"^\d$"}, "3")
    assert ecma_pattern(r"^\d$") is ecma_pattern(r"^\d$")


def test_a_valid_document_is_answered_without_importing_jsonschema() -> None:
    code = (
        "import json, sys\n"
        "from kernel.panel.votes import votes_problems\n"
        f"doc = json.loads(open({str(EXAMPLES / 'panel' / 'votes.json')!r}).read())\n"
        "assert votes_problems(doc) == []\n"
        "assert 'jsonschema' not in sys.modules, 'jsonschema was imported'\n"
        "assert votes_problems({}) != []\n"
        "assert 'jsonschema' in sys.modules\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_contains_on_a_non_array_is_decided_without_the_validator() -> None:
    schema = {"contains": {"const": 1}}
    assert _verdict(schema, {"a": 1}, schema) is True
    assert _verdict(schema, [2, 1], schema) is True
