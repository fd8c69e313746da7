"""The injection scan's phrase file (``kernel/data/injection_phrases.toml``): its shape, the
language of a rule's ``then``, and every rule's example."""

from __future__ import annotations

import copy
import re
import tomllib
from typing import Any

import pytest

from kernel.io import package_data
from kernel.text import injection_phrases as phrases
from kernel.text.injection import INSTRUCTION_OVERRIDE, ROLE_REASSIGNMENT, scan_injection
from kernel.text.injection_phrases import (
    _COLON,
    _SEP,
    PHRASE_LISTS,
    PHRASE_RULES,
    PhraseFileError,
    _any,
    _opt,
    _parse_then,
    _render,
    _trie,
    _units,
    phrase_file_problems,
    phrase_lists,
    rule_patterns,
)
from kernel.text.skeleton import skeletonize

CATEGORY = {"override": INSTRUCTION_OVERRIDE, "override-imperative": INSTRUCTION_OVERRIDE}


def _shipped() -> dict[str, Any]:
    return tomllib.loads(package_data("kernel", PHRASE_LISTS).decode("utf-8"))


def test_the_shipped_file_is_well_formed() -> None:
    assert phrase_file_problems(_shipped()) == []
    assert phrase_lists() == _shipped()


def _cases() -> list[tuple[str, int, str]]:
    data = _shipped()
    return [(rule, i, t["catches"]) for rule in PHRASE_RULES for i, t in enumerate(data[rule])]


@pytest.mark.parametrize(("rule", "index", "text"), _cases())
def test_every_rule_catches_its_example(rule: str, index: int, text: str) -> None:
    """The rule's own regex finds its example, and so does the scan."""
    data = _shipped()
    pairs = rule_patterns(data[rule][index], data["lists"])
    heads = sorted({_units(head) for head, _ in pairs})
    (rest,) = {rest for _, rest in pairs}
    regex = re.compile(f"(?:{_trie(heads)}){rest}(?![^\\W_])")
    assert regex.search(skeletonize(text).text), (rule, index, text)
    categories = {f.category for f in scan_injection(text)}
    assert CATEGORY.get(rule, ROLE_REASSIGNMENT) in categories, (rule, text)


def test_then_reads_lists_options_groups_and_ends() -> None:
    lists = {"a": ["all"], "$b": ["the previous", "prior"], "c": ["rules"], "d": ["x"]}
    a, b, c, d = (_any(*lists[k]) for k in ("a", "$b", "c", "d"))
    assert _render(_parse_then("a*3 $b c"), lists) == _opt(a, 3) + b + _SEP + c
    assert _render(_parse_then("a? c <colon>"), lists) == _opt(a) + c + _COLON
    assert _render(_parse_then("c (a | $b d)"), lists) == (
        c + _SEP + "(?:" + a + "|" + b + _SEP + d + ")"
    )
    glued = _render(_parse_then("c (_ d | <end>)"), lists)
    assert glued == c + "(?:" + _SEP + d + "|" + phrases._CLAUSE_END + ")"


@pytest.mark.parametrize(
    ("then", "problem"),
    [
        ("", "nothing to match"),
        ("a (b", "without its ')'"),
        ("a (b |)", "an empty alternative"),
        ("a b?", "the last term is optional"),
        ("a % b", "unexpected '%'"),
        ("a ) b", "unexpected ')'"),
    ],
)
def test_a_malformed_then_is_refused(then: str, problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        _parse_then(then)


def _broken(edit: str) -> dict[str, Any]:
    data = copy.deepcopy(_shipped())
    rule = data["role"][0]
    if edit == "extra table":
        data["extra"] = {}
    elif edit == "upper case":
        rule["what"].append("Admin")
    elif edit == "twice":
        rule["what"].append(rule["what"][0])
    elif edit == "regex":
        rule["what"].append("a.*b")
    elif edit == "unknown list":
        rule["then"] = "what who"
    elif edit == "unused list":
        rule["who"] = ["you"]
    elif edit == "unknown shared":
        rule["first"] = ["$verbs"]
    elif edit == "unused shared":
        data["lists"]["spare"] = ["spare"]
    elif edit == "no example":
        del rule["catches"]
    elif edit == "bad then":
        rule["then"] = "what ("
    elif edit == "then not text":
        rule["then"] = ["what"]
    elif edit == "phrase lead-in":
        data["clause-start"]["lead-ins"].append("right now")
    elif edit == "empty rule":
        data["role"] = []
    return data


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        ("extra table", "the tables are"),
        ("upper case", "'Admin' is not a lower-case phrase"),
        ("twice", "a phrase is listed twice"),
        ("regex", "'a.*b' is not a lower-case phrase"),
        ("unknown list", "no list named 'who'"),
        ("unused list", "role[0].who: not used in then"),
        ("unknown shared", "no shared list named 'verbs'"),
        ("unused shared", "lists.spare: not used by any rule"),
        ("no example", "a rule needs first, then and catches"),
        ("bad then", "role[0].then: a group without its ')'"),
        ("then not text", "role[0].then: not a text"),
        ("phrase lead-in", "'right now' is not a lower-case word"),
        ("empty rule", "role: not an array of tables"),
    ],
)
def test_a_malformed_file_is_reported(edit: str, problem: str) -> None:
    problems = phrase_file_problems(_broken(edit))
    assert any(problem in p for p in problems), problems


def test_a_malformed_shipped_file_fails_loudly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(phrases, "package_data", lambda *_: b'[lists]\nx = ["X"]\n')
    phrase_lists.cache_clear()
    try:
        with pytest.raises(PhraseFileError, match=r"injection_phrases\.toml"):
            phrase_lists()
    finally:
        phrase_lists.cache_clear()


def test_the_clause_start_check_is_built_from_the_lists_without_the_stored_regex(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stored = phrases._clause_before()
    assert stored.pattern == phrases.clause_before_source()
    text = skeletonize("The parser ignores previous tokens. So please just ignore the rest.").text
    tables: tuple[dict[str, Any], ...] = (
        {},
        {"clause-start": {"before": "("}},
        {"clause-start": []},
    )
    for table in tables:
        monkeypatch.setattr(phrases, "_stored_table", lambda t=table: t)
        phrases._clause_before.cache_clear()
        try:
            assert phrases._clause_before().pattern == stored.pattern
            starts = [phrases._starts_clause(text, i) for i in (11, 51)]
        finally:
            phrases._clause_before.cache_clear()
        assert starts == [False, True]
