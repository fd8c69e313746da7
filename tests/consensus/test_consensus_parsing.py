"""parse_response: the recovery corpus, exact recovery from prose, and fail-closed on any text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.common.utils import unescapeAll

from kernel.consensus import parse_response
from kernel.consensus.parsing import FIRST_OBJECT_BUDGET, MARKDOWN_LINE_LIMIT, METHODS
from kernel.consensus.responses import (
    KINDS,
    CritiqueResponse,
    ParticipantResponse,
    Response,
    SynthesisResponse,
    UpdateResponse,
)
from kernel.errors import KernelError

GOOD = '{"approve": true, "critical": false, "objections": ["too long"], "edits": ["cut"]}'
GOOD_VALUE = {
    "approve": True,
    "critical": False,
    "objections": ["too long"],
    "missing": [],
    "edits": ["cut"],
    "confidence": None,
}
OTHER = '{"approve": false, "critical": true}'
OFF_SCHEMA = '{"approve": "yes", "critical": false}'

# (id, text, lenient method or None, strict ok, lenient outcomes of each attempt)
CORPUS: list[tuple[str, str, str | None, bool, tuple[str, ...]]] = [
    ("bare", GOOD, "strict", True, ("ok",)),
    ("whitespace-and-bom", "\ufeff \n" + GOOD + "\n\n", "strict", True, ("ok",)),
    (
        "prose-around",
        f"Here is my critique:\n{GOOD}\nHope this helps.",
        "first_object",
        False,
        ("malformed", "absent", "ok"),
    ),
    (
        "several-fences",
        f"```python\n{OTHER}\n```\n\n```json\n{GOOD}\n```\n\n```json\n{OTHER}\n```\n",
        "fenced",
        False,
        ("malformed", "ok"),
    ),
    (
        "other-language-fence",
        f"```javascript\n{GOOD}\n```\n",
        "first_object",
        False,
        ("malformed", "absent", "ok"),
    ),
    (
        "json5-is-not-json",
        f"```json5\n{GOOD}\n```\n",
        "first_object",
        False,
        ("malformed", "absent", "ok"),
    ),
    (
        "upper-case-info-with-words",
        f"```JSON title=x\n{GOOD}\n```",
        "fenced",
        False,
        ("malformed", "ok"),
    ),
    ("entity-in-info", f"```j&#115;on\n{GOOD}\n```", "fenced", False, ("malformed", "ok")),
    # A backslash escapes only punctuation, so the first word stays "\json".
    (
        "backslash-in-info",
        f"```\\json\n{GOOD}\n```",
        "first_object",
        False,
        ("malformed", "absent", "ok"),
    ),
    ("tilde-fence", f"~~~json\n{GOOD}\n~~~", "fenced", False, ("malformed", "ok")),
    (
        "unclosed-fence-runs-to-end",
        f"Answer:\n```json\n{GOOD}\n",
        "fenced",
        False,
        ("malformed", "ok"),
    ),
    (
        "indented-code-is-not-a-fence",
        "Text\n\n    ```json\n    " + GOOD + "\n    ```\n",
        "first_object",
        False,
        ("malformed", "absent", "ok"),
    ),
    (
        "only-first-json-fence-tried",
        f"```json\n{OFF_SCHEMA}\n```\n```json\n{GOOD}\n```",
        None,
        False,
        ("malformed", "schema", "schema"),
    ),
    (
        "fence-before-earlier-object",
        f'Use {{"approve": 1}} style.\n```json\n{GOOD}\n```',
        "fenced",
        False,
        ("malformed", "ok"),
    ),
    (
        "nested-braces-in-strings",
        'Note {x} then {"approve": true, "critical": false, '
        '"objections": ["too long"], "edits": ["cut"], "note": "use {braces}, \\"quotes\\" }"}',
        "first_object",
        False,
        ("malformed", "absent", "ok"),
    ),
    ("decodes-but-off-schema", OFF_SCHEMA, None, False, ("schema", "absent", "schema")),
    (
        "duplicate-keys",
        '{"approve": true, "approve": false, "critical": false}',
        None,
        False,
        ("malformed", "absent", "absent"),
    ),
    (
        "duplicate-keys-then-valid-object",
        'First {"approve": true, "approve": false, "critical": false} then ' + GOOD,
        "first_object",
        False,
        ("malformed", "absent", "ok"),
    ),
    (
        "nan",
        '{"approve": true, "critical": false, "confidence": NaN}',
        None,
        False,
        ("malformed", "absent", "absent"),
    ),
    (
        "infinity-in-fence",
        '```json\n{"approve": true, "critical": false, "confidence": Infinity}\n```',
        None,
        False,
        ("malformed", "malformed", "absent"),
    ),
    (
        "trailing-comma",
        '{"approve": true, "critical": false,}',
        None,
        False,
        ("malformed", "absent", "absent"),
    ),
    ("trailing-prose", GOOD + " -- done", "first_object", False, ("malformed", "absent", "ok")),
    ("two-objects", GOOD + "\n" + GOOD, "first_object", False, ("malformed", "absent", "ok")),
    ("array-around", f"[{GOOD}]", "first_object", False, ("not_object", "absent", "ok")),
    (
        "first-object-off-schema-later-valid",
        f"{OFF_SCHEMA}\n{GOOD}",
        None,
        False,
        ("malformed", "absent", "schema"),
    ),
    ("empty", "", None, False, ("malformed", "absent", "absent")),
    ("prose-only", "I approve.", None, False, ("malformed", "absent", "absent")),
    (
        "confidence-bool",
        '{"approve": true, "critical": false, "confidence": true}',
        None,
        False,
        ("schema", "absent", "schema"),
    ),
    (
        "confidence-out-of-range",
        '{"approve": true, "critical": false, "confidence": 1.5}',
        None,
        False,
        ("schema", "absent", "schema"),
    ),
    (
        "list-of-non-strings",
        '{"approve": true, "critical": false, "edits": ["a", 2]}',
        None,
        False,
        ("schema", "absent", "schema"),
    ),
    (
        "lone-surrogate",
        '{"approve": true, "critical": false, "edits": ["\\ud800"]}',
        None,
        False,
        ("schema", "absent", "schema"),
    ),
    ("missing-required", '{"approve": true}', None, False, ("schema", "absent", "schema")),
    # A '{' inside an earlier candidate is never a candidate (companions B), whatever made
    # the strict decoder reject the candidate around it.
    (
        "duplicate-key-around-nested-approval",
        '{"approve": false, "critical": true, "approve": false, '
        '"m": {"approve": true, "critical": false}}',
        None,
        False,
        ("malformed", "absent", "absent"),
    ),
    (
        "nan-before-nested-approval",
        '{"approve": false, "critical": true, "c": NaN, "m": {"approve": true, "critical": false}}',
        None,
        False,
        ("malformed", "absent", "absent"),
    ),
    (
        "huge-int-before-nested-approval",
        '{"approve": false, "critical": true, "n": ' + "9" * 5000 + ", "
        '"m": {"approve": true, "critical": false}}',
        None,
        False,
        ("malformed", "absent", "absent"),
    ),
    (
        "syntax-error-after-nested-approval",
        'Result: {"approve": false, "critical": true, "m": {"approve": true, "critical": false} '
        "oops",
        None,
        False,
        ("malformed", "absent", "absent"),
    ),
    (
        "object-after-a-rejected-one-is-a-candidate",
        '{"approve": true, "approve": false, "critical": true} and ' + GOOD,
        "first_object",
        False,
        ("malformed", "absent", "ok"),
    ),
]


@pytest.mark.parametrize(
    ("text", "method", "strict_ok", "outcomes"),
    [pytest.param(*case[1:], id=case[0]) for case in CORPUS],
)
def test_recovery_corpus(
    text: str, method: str | None, strict_ok: bool, outcomes: tuple[str, ...]
) -> None:
    lenient = parse_response(text, "critique")
    assert lenient.method == method
    assert lenient.ok is (method is not None)
    assert tuple(a.outcome for a in lenient.attempts) == outcomes
    assert tuple(a.method for a in lenient.attempts) == METHODS[: len(outcomes)]
    assert len(lenient.errors) == sum(o != "ok" for o in outcomes)
    if lenient.ok:
        assert lenient.value == GOOD_VALUE
    else:
        assert lenient.value is None
        assert lenient.response is None
    strict = parse_response(text, "critique", strict_json=True)
    assert strict.ok is strict_ok
    assert len(strict.attempts) == 1
    assert strict.attempts[0].method == "strict"
    assert strict.attempts[0].outcome == outcomes[0]
    assert strict.method == ("strict" if strict_ok else None)


def test_errors_name_the_stage_and_the_problem() -> None:
    result = parse_response('{"approve": true, "approve": false, "critical": false}', "critique")
    assert result.errors[0] == "strict: not strict JSON: duplicate key 'approve'"
    assert result.errors[1].startswith("fenced: no fenced code block")
    assert "duplicate key 'approve'" in result.errors[2]
    schema = parse_response(OFF_SCHEMA, "critique", strict_json=True)
    assert schema.errors == (
        "strict: not a valid critique response: $.approve: 'yes' is not of type 'boolean'",
    )


def test_lines_point_into_the_text() -> None:
    text = "Intro\n\nmore\n```json\n\n" + GOOD + "\n```\n"
    result = parse_response(text, "critique")
    assert result.method == "fenced"
    assert result.attempts[1].line == 6
    bad = parse_response('one\ntwo {"approve": 3, "critical": false}', "critique")
    assert bad.attempts[2].line == 2
    assert bad.attempts[2].outcome == "schema"


def test_unknown_fields_are_ignored_and_noted() -> None:
    result = parse_response('{"answer": "42", "why": "x", "confidence": null}', "participant")
    assert result.value == {"answer": "42", "confidence": None}
    assert result.notes == ("strict: unknown field 'why' ignored",)


def test_value_is_fresh_each_time() -> None:
    result = parse_response(GOOD, "critique")
    first = result.value
    assert first is not None
    first["edits"].append("mutated")
    assert result.value == GOOD_VALUE


def test_every_kind_parses_its_own_fields() -> None:
    synthesis = parse_response(
        '{"candidate_answer": "A", "rationale": "R", "common_points": ["c"], "missing": ["m"]}',
        "synthesis",
    )
    assert synthesis.response == SynthesisResponse("A", "R", common_points=("c",), missing=("m",))
    update = parse_response('{"candidate_answer": "A", "rationale": "R"}', "update")
    assert update.response == UpdateResponse("A", "R")
    assert not parse_response('{"candidate_answer": "A"}', "update").ok
    assert not parse_response('{"answer": "A"}', "critique").ok


def test_first_object_budget_bounds_the_scan() -> None:
    text = '{"a" ' * (FIRST_OBJECT_BUDGET + 5) + GOOD
    result = parse_response(text, "critique")
    assert not result.ok
    assert "gave up after" in result.errors[-1]
    within = '{"a" ' * (FIRST_OBJECT_BUDGET - 1) + GOOD
    assert parse_response(within, "critique").method == "first_object"


def test_markdown_line_limit_refuses_the_fenced_stage_at_once() -> None:
    fence = f"```json\n{GOOD}\n```\n"
    within = "a\n" * (MARKDOWN_LINE_LIMIT - 4) + fence
    assert parse_response(within, "critique").method == "fenced"
    over = "a\n" * (MARKDOWN_LINE_LIMIT - 3) + fence
    result = parse_response(over, "critique")
    assert result.method == "first_object"
    assert result.attempts[1].outcome == "absent"
    assert f"over the limit of {MARKDOWN_LINE_LIMIT}" in result.attempts[1].message
    crlf = "a\r\n" * (MARKDOWN_LINE_LIMIT - 4) + fence  # a CR LF pair ends one line
    assert parse_response(crlf, "critique").method == "fenced"


MIB = 1 << 20
_FENCED_GOOD = "json\n" + GOOD + "\n"


@pytest.mark.parametrize(
    ("text", "method"),
    [
        ("`" * MIB, None),
        ("~" * MIB, None),
        (("```j" * MIB)[:MIB], None),
        (("`~" * MIB)[:MIB], None),
        ("`" * (MIB - len(_FENCED_GOOD)) + _FENCED_GOOD, "fenced"),
        ("~" * (MIB - len(_FENCED_GOOD) - 1) + " " + _FENCED_GOOD, "fenced"),
    ],
    ids=["backticks", "tildes", "fence openers", "alternating", "backtick fence", "tilde fence"],
)
def test_a_mebibyte_run_of_fence_characters_is_read_once(text: str, method: str | None) -> None:
    # Each start inside a run used to re-read the rest of the run (50 KB took 25 s); the
    # benchmarks time it, this only has to finish.
    assert len(text.encode()) == MIB
    result = parse_response(text, "critique")
    assert result.method == method
    if method is None:
        assert [a.outcome for a in result.attempts] == ["malformed", "absent", "absent"]
    else:
        assert result.value == GOOD_VALUE


@pytest.mark.parametrize(
    ("text", "kind", "strict_json"),
    [
        (b"{}", "critique", False),
        (None, "critique", False),
        ("{}", "verdict", False),
        ("{}", "Critique", False),
        ("{}", "critique", 1),
        ("x" * ((1 << 20) + 1), "critique", False),
    ],
)
def test_bad_arguments_raise_kernel_error(text: Any, kind: Any, strict_json: Any) -> None:
    with pytest.raises(KernelError):
        parse_response(text, kind, strict_json=strict_json)


# --- properties -----------------------------------------------------------------------------

_CHARS = st.characters(blacklist_categories=["Cs"])
_TEXT = st.text(_CHARS, max_size=30)
_LIST = st.lists(_TEXT, max_size=4).map(tuple)
_CONFIDENCE = st.one_of(
    st.none(),
    st.floats(0, 1, allow_nan=False),
    st.sampled_from([0, 1]),
)

RESPONSES: st.SearchStrategy[Response] = st.one_of(
    st.builds(ParticipantResponse, _TEXT, _CONFIDENCE),
    st.builds(CritiqueResponse, st.booleans(), st.booleans(), _LIST, _LIST, _LIST, _CONFIDENCE),
    st.builds(SynthesisResponse, _TEXT, _TEXT, _LIST, _LIST, _LIST, _LIST),
    st.builds(UpdateResponse, _TEXT, _TEXT),
)
_KIND_OF = {
    ParticipantResponse: "participant",
    CritiqueResponse: "critique",
    SynthesisResponse: "synthesis",
    UpdateResponse: "update",
}
PROSE = st.text(st.characters(blacklist_characters="{}`", blacklist_categories=["Cs"]))


def serialized(
    response: Response, *, drop_defaults: bool, ascii_only: bool, indent: int | None
) -> str:
    """``response`` as JSON, optionally leaving out the fields at their defaults."""
    document = response.to_dict()
    if drop_defaults:
        document = {k: v for k, v in document.items() if v not in (None, [])}
    return json.dumps(document, ensure_ascii=ascii_only, indent=indent)


@given(
    RESPONSES,
    PROSE,
    PROSE,
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, 2]),
)
@example(
    CritiqueResponse(True, False, objections=("a {b} `c`",)), "Sure:\n```", "\n```", True, False, 2
)
@example(ParticipantResponse("x"), "~~~json\n", "", False, False, None)
@example(UpdateResponse("x", "y"), "```json\n", "\n", False, False, None)
def test_valid_response_wrapped_in_prose_is_recovered_exactly(
    response: Response,
    before: str,
    after: str,
    drop_defaults: bool,
    ascii_only: bool,
    indent: int | None,
) -> None:
    text = serialized(response, drop_defaults=drop_defaults, ascii_only=ascii_only, indent=indent)
    result = parse_response(before + text + after, _KIND_OF[type(response)])
    assert result.ok, result.errors
    assert result.response == response
    assert result.value == response.to_dict()
    assert result.method in METHODS
    if not before.strip(" \t\n\r") and not after.strip(" \t\n\r"):
        assert result.method == "strict"


FRAGMENTS = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        '"',
        ":",
        ",",
        "```json\n",
        "```\n",
        "~~~",
        "NaN",
        "\\u",
        "\ud800",
        '"approve"',
        "true",
        "false",
        "null",
        "1e999",
        "-",
        "\n",
        " ",
        "    ",
        "> ",
        "- ",
        '{"approve": true, "critical": false}',
        '"a"',
        "\x00",
        "\ufeff",
    ]
)
ANY_TEXT = st.one_of(st.text(), st.lists(st.one_of(FRAGMENTS, st.text(max_size=3))).map("".join))


@given(ANY_TEXT, st.sampled_from(KINDS), st.booleans())
@example("[" * 5000, "critique", False)
@example('{"a":' * 3000, "update", False)
@example("```json\n" + '{"objections": [' * 2000 + "\n```", "critique", False)
def test_never_raises_and_results_are_consistent(text: str, kind: str, strict_json: bool) -> None:
    try:
        result = parse_response(text, kind, strict_json=strict_json)
    except KernelError:
        return
    assert result.ok is (result.method is not None)
    if strict_json:
        assert len(result.attempts) == 1
    elif not result.ok:
        assert len(result.attempts) == 3
    if result.ok:
        assert result.attempts[-1].outcome == "ok"
        assert all(a.outcome != "ok" for a in result.attempts[:-1])
        json.dumps(result.to_dict(), ensure_ascii=False).encode("utf-8")
    else:
        assert len(result.errors) == len(result.attempts)


def reference_json_fence(text: str) -> str | None:
    """The first json fence's content, from a full CommonMark parse (no shortcuts)."""
    for token in MarkdownIt("commonmark").parse(text):
        words = unescapeAll(token.info).split()
        if token.type == "fence" and words and words[0].lower() == "json":
            return token.content
    return None


FENCE_TEXT = st.lists(
    st.sampled_from(
        [
            "```",
            "~~~",
            "````",
            "json",
            "JSON",
            "Json",
            "j&#115;on",
            "&#106;son",
            "\\json",
            "js",
            "on",
            " ",
            "\t",
            "\n",
            "> ",
            "- ",
            "    ",
            "x",
            "&",
            GOOD,
            "{",
            "}",
        ]
    ),
    max_size=25,
).map("".join)


@given(FENCE_TEXT)
@example("```j&#115;on\n" + GOOD)
@example("~~~~ JSON\n" + GOOD + "\n~~~~")
def test_fenced_stage_agrees_with_a_full_markdown_parse(text: str) -> None:
    expected = reference_json_fence(text)
    attempt = parse_response(text, "critique").attempts
    fenced = [a for a in attempt if a.method == "fenced"]
    if attempt[0].outcome == "ok":
        return  # strict succeeded; the fenced stage never ran
    assert (fenced[0].outcome == "absent") is (expected is None)
    if expected is not None and expected.strip() == GOOD:
        assert fenced[0].outcome == "ok"


REJECTED_MEMBERS = st.sampled_from(
    ['"approve": false', '"c": NaN', '"c": -Infinity', '"n": ' + "7" * 4400, '"x": 1']
)


@given(
    st.builds(CritiqueResponse, st.just(True), st.just(False), _LIST, _LIST, _LIST, _CONFIDENCE),
    REJECTED_MEMBERS,
    st.sampled_from(["}", "} trailing", ", oops}", " oops", ""]),
    PROSE,
    PROSE,
    st.booleans(),
)
@example(
    CritiqueResponse(True, False), '"approve": false', "}", "", "", True
)  # the reproducer
def test_an_object_nested_in_a_rejected_candidate_never_stands_in(
    inner: CritiqueResponse, member: str, close: str, before: str, after: str, dup: bool
) -> None:
    body = serialized(inner, drop_defaults=True, ascii_only=False, indent=None)
    head = '{"approve": false, "critical": true, "approve": false' if dup else '{"critical": true'
    outer = f'{head}, {member}, "m": {body}{close}'
    result = parse_response(before + outer + after, "critique")
    # The outer object is rejected, off-schema (no "approve") or critical: the approval
    # nested in it never comes back.
    response = result.response
    assert response is None or (isinstance(response, CritiqueResponse) and response.critical)
    assert result.response != inner
