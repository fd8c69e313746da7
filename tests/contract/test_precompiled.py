"""The precompiled data for shipped templates equals a fresh compile, is used only on an exact
match, and keeps the slow imports (lark, jsonschema) off a command line's start-up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.strategies import expressions

from kernel import load_contract, parse_expression, shipped_template
from kernel.contract import precompiled
from kernel.contract.dialects import detect, dialect_named, validate
from kernel.contract.model import Contract
from kernel.contract.templates import TEMPLATE_NAMES
from kernel.contract.validator import _is_valid_template
from kernel.expression import lalr
from kernel.expression.parser import _precompiled, atom_from_data, atom_to_data
from kernel.io import package_data
from kernel.text import injection_match
from kernel.text.injection import (
    _RULES,
    PHRASES,
    _phrase_parts,
    _phrases_data,
    _stored_or_built,
    phrase_table,
)


def test_the_shipped_file_equals_a_fresh_compile() -> None:
    fresh = precompiled.render(precompiled.precompiled_data())
    assert package_data("kernel", "data/precompiled.json").decode("utf-8") == fresh, (
        "run: python -m kernel.contract.precompiled --write"
    )
    assert precompiled.check() == []


def test_the_phrase_file_equals_a_fresh_build_and_scans_alike(tmp_path: Path) -> None:
    assert package_data("kernel", PHRASES).decode("utf-8") == precompiled.phrases_text(), (
        "run: python -m kernel.contract.precompiled --write"
    )
    stale = tmp_path / "phrases.json"
    table = phrase_table()
    table["role"]["finders"].popitem()
    stale.write_text(precompiled.render(table), "utf-8")
    assert precompiled.check(phrases=stale) == [f"{stale} differs from a fresh build"]
    for rule in _RULES:
        if rule.patterns is not None:
            stored, built = (
                _stored_or_built(rule.name, rule.patterns),
                _phrase_parts(rule.patterns()),
            )
            assert _phrases_data(stored) == _phrases_data(built), rule.name


def test_a_missing_or_broken_phrase_file_means_a_fresh_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rule = next(r for r in _RULES if r.patterns is not None)
    assert rule.patterns is not None
    built = _phrases_data(_phrase_parts(rule.patterns()))
    broken: tuple[dict[str, Any], ...] = (
        {},
        {rule.name: {"parts": 3}},
        {rule.name: {"parts": [], "finders": {"a": 1}}},
        {rule.name: {"parts": [], "finders": {"a": ["x", [7], None]}}},
        {rule.name: {"parts": [{"whole": "x", "by_first": []}], "finders": {}}},
    )
    for table in broken:
        monkeypatch.setattr(injection_match, "_stored_table", lambda t=table: t)
        assert _phrases_data(_stored_or_built(rule.name, rule.patterns)) == built


def test_check_reports_a_stale_file(tmp_path: Path) -> None:
    stale = tmp_path / "precompiled.json"
    data = precompiled.precompiled_data()
    data["expressions"].popitem()
    stale.write_text(precompiled.render(data), "utf-8")
    assert precompiled.check(stale) == [f"{stale} differs from a fresh compile"]
    assert precompiled.check(tmp_path / "missing.json") != []


def test_write_then_check_round_trips(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "precompiled.json"
    phrases = tmp_path / "data" / "injection_phrases.json"
    precompiled.write(target, phrases)
    assert precompiled.check(target, phrases) == []
    assert (tmp_path / lalr.PARSER_CACHE).read_bytes()[:2] == b"\x80\x04"  # a pickle


def test_main_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert precompiled.main(["--check"]) == 0
    assert precompiled.main([]) == 2
    assert "usage" in capsys.readouterr().err


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_every_precompiled_expression_is_what_the_parser_makes(name: str) -> None:
    dialect = detect(shipped_template(name))
    for condition in shipped_template(name)["failure_conditions"]:
        text = condition["expression"]
        assert text in _precompiled(dialect)
        assert parse_expression(text, dialect=dialect) == lalr.parse(text, dialect)
    # A 13.2-only text is never answered from the table for Schema 13.
    assert "any mandatory dimension has a fatal block" not in _precompiled("13")


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_a_template_loads_the_same_with_and_without_the_file(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = load_contract(name)
    monkeypatch.setattr("kernel.expression.parser._precompiled", lambda dialect="13": {})
    monkeypatch.setattr(
        "kernel.contract.validator._valid_templates", lambda dialect="13": frozenset()
    )
    slow = load_contract(name)
    assert isinstance(slow, Contract)
    assert slow == fast and slow.to_json() == fast.to_json()
    assert [c.expression for c in slow.conditions] == [c.expression for c in fast.conditions]
    assert [c.predicate.scopes for c in slow.conditions] == [
        c.predicate.scopes for c in fast.conditions
    ]


@given(expressions())
def test_atoms_round_trip_as_data(expression: Any) -> None:
    for atom in expression.atoms:
        data = atom_to_data(atom)
        assert json.loads(json.dumps(data)) == data
        assert atom_from_data(data) == atom


def _changed(name: str, path: tuple[Any, ...], value: object) -> dict[str, Any]:
    data = shipped_template(name)
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("panel_size",), True),  # 1 == True, but Schema 13 wants an integer (R10)
        (("panel_size",), 5.0),
        (("failure_conditions", 0, "severity"), 90.0),
        (("acceptance_dimensions", 0, "id"), "D1\n"),
        (("mode",), "reviewer_other"),
    ],
)
def test_only_an_exact_template_skips_the_schema(
    name: str, path: tuple[Any, ...], value: object
) -> None:
    dialect = detect(shipped_template(name))
    assert _is_valid_template(shipped_template(name), dialect)
    assert not _is_valid_template(shipped_template(name), "13.2" if dialect == "13" else "13")
    data = _changed(name, path, value)
    assert not _is_valid_template(data, dialect)
    check = dialect_named(dialect).schema_check
    assert check(data) == validate(data, schema=_schema(dialect))


def _schema(dialect: str) -> dict[str, Any]:
    from kernel.contract.templates import schema_document

    return schema_document(dialect_named(dialect).schema_file)


def test_lookalike_containers_are_not_templates() -> None:
    data = shipped_template("reviewer/full")
    data["acceptance_dimensions"] = tuple(data["acceptance_dimensions"])
    assert not _is_valid_template(data)  # a tuple serialises like the list it replaces
    assert not _is_valid_template(dict(shipped_template("reviewer/full"), extra=1))
    assert not _is_valid_template([shipped_template("reviewer/full")])


@given(st.sampled_from(TEMPLATE_NAMES), st.sampled_from(["expression", "action"]))
def test_an_edited_condition_is_parsed_and_validated_afresh(name: str, field: str) -> None:
    data = shipped_template(name)
    data["failure_conditions"][0][field] += " "
    assert not _is_valid_template(data)


STARTUP = """
import sys
import kernel
kernel.load_contract({name!r})
slow = sorted(m for m in sys.modules if m.split(".")[0] in ("lark", "jsonschema", "markdown_it"))
print(slow)
"""


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_loading_a_shipped_template_imports_neither_lark_nor_jsonschema(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", STARTUP.format(name=name)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"


def test_main_write_writes_and_exits_0(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[tuple[()]] = []
    monkeypatch.setattr(precompiled, "write", lambda: calls.append(()))
    assert precompiled.main(["--write"]) == 0
    assert calls == [()]
    assert capsys.readouterr().out == f"wrote {precompiled.FILE}\n"


@pytest.mark.parametrize("data", [b"not json", b"[]", b'{"other": 1}', b'{"expressions": []}'])
def test_an_unusable_expression_table_means_parsing_everything(
    data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kernel.expression import parser

    monkeypatch.setattr(parser, "package_data", lambda *_: data)
    parser._precompiled.cache_clear()
    try:
        assert parser._precompiled() == {}
        text = shipped_template("reviewer/full")["failure_conditions"][0]["expression"]
        assert parse_expression(text) == lalr.parse(text)
    finally:
        parser._precompiled.cache_clear()
