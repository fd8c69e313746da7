"""The re-review core: canonical JSON (§3) against RFC 8785, label normalization (§2.4),
letter blocks (§2.3), the loader, and the shipped document schemas."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel import KernelError
from kernel.re_review import (
    ReReviewError,
    canonical_json,
    canonical_sha256,
    load_re_review,
    normalize_reviewer_labels,
    parse_letter_blocks,
)
from kernel.re_review.canonical import MAX_SAFE_INTEGER
from kernel.re_review.schemas import SCHEMA_NAMES, document_schema, document_schema_errors

# --- canonical JSON ------------------------------------------------------------------------


def test_the_design_vector_and_upstream_escapes() -> None:
    assert canonical_json({"b": 1, "a": "中"}) == '{"a":"中","b":1}'.encode()
    text = 'q"b\\\b\t\n\f\r\x00\x1f\x7f\u2028\u2029é'
    assert canonical_json([text]) == (
        '["q\\"b\\\\\\b\\t\\n\\f\\r\\u0000\\u001f\x7f\u2028\u2029é"]'.encode()
    )
    empty = "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
    assert canonical_sha256({}) == empty


_KEYS = st.text(st.characters(codec="utf-8"), max_size=6)
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)
    | st.text(st.characters(codec="utf-8"), max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(_VALUES)
def test_canonical_json_is_rfc8785_on_the_value_domain(value: Any) -> None:
    assert canonical_json(value) == rfc8785.dumps(value)


def test_keys_past_the_bmp_sort_as_utf16_code_units() -> None:
    value = {"\ue000": 1, "\U0001f600": 2, "a": 3}
    assert canonical_json(value) == rfc8785.dumps(value)
    assert list(json.loads(canonical_json(value))) == ["a", "\U0001f600", "\ue000"]


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (1.0, "float 1.0"),
        ({"a": [0, -0.0]}, '$["a"][1]: float'),
        (2**53, "beyond"),
        (-(2**53), "beyond"),
        ({"x": "\ud800"}, "lone surrogate U+D800"),
        ({"\udfff": 1}, "lone surrogate U+DFFF"),
        ({1: "a"}, "key 1 is not a string"),
        ({"s": {1, 2}}, "a set is not a JSON value"),
        (defaultdict(list), "a defaultdict is not a JSON value"),
        (b"bytes", "a bytes is not a JSON value"),
    ],
)
def test_the_guard_refuses_what_is_outside_the_domain(value: object, said: str) -> None:
    with pytest.raises(ReReviewError, match="canonical JSON") as caught:
        canonical_json(value)
    assert said in caught.value.message
    assert isinstance(caught.value, KernelError)


def test_a_5000_digit_integer_is_refused_with_a_message() -> None:
    with pytest.raises(ReReviewError, match="an integer of 16610 bits"):
        canonical_json({"n": 10**5000})


def test_deep_nesting_is_refused_not_a_crash() -> None:
    deep: list[Any] = []
    for _ in range(10_000):
        deep = [deep]
    with pytest.raises(ReReviewError, match="nested too deeply"):
        canonical_sha256(deep)


def test_the_largest_safe_integers_are_kept() -> None:
    assert canonical_json([MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER]) == rfc8785.dumps(
        [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER]
    )


# --- label normalization (§2.4) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "labels", "failure"),
    [
        ("Peer Reviewer 3 (Cross-disciplinary/Practical)", ("R3",), False),
        ("Methodology Board (R1)", (), True),
        ("R1/R2;R3", ("R1", "R2", "R3"), False),
        ("", (), False),
        ("   ", (), False),
        ("EIC and DA", ("EIC", "DA"), False),
        ("R1 AND R2", (), True),  # split before case folding: " AND " does not split
        ("Editor-in-Chief & Reviewer 2", ("EIC", "R2"), False),
        ("Devil\u2019s Advocate \u2014 on sampling, R1", ("DA",), False),
        ("devil's advocate, r2, R2", ("DA", "R2"), False),
        ("Reviewer 4", (), True),
        ("R1 (stats (power) team)", ("R1",), False),
        ("R1 (unclosed, R2", ("R2",), False),
        ("Peer  Reviewer 1", (), True),
        ("\uff321", (), True),  # a fullwidth R is not an ASCII r
    ],
)
def test_normalize_reviewer_labels(raw: str, labels: tuple[str, ...], failure: bool) -> None:
    found = normalize_reviewer_labels(raw)
    assert (found.labels, found.parse_failure) == (labels, failure)


def test_normalization_is_linear_on_hostile_input() -> None:
    found = normalize_reviewer_labels("(" * 50_000 + "R1" + ")" * 50_000 + ", R2")
    assert found.labels == ("R2",)
    with pytest.raises(KernelError):
        normalize_reviewer_labels(None)  # type: ignore[arg-type]


# --- letter blocks (§2.3) ------------------------------------------------------------------

LETTER = """# Editorial decision: Major Revision

Dear authors,

The reviewers agree the question matters. Before we can accept, the items below must be met.

### Required Item Details  \r
**R1: Power analysis**
Reviewer 1 asked how the sample size was chosen.
- **Acceptance criteria**: A power analysis with a stated effect size appears in Methods.<sp><sp>
- **Acceptance criteria**: (a second line is not read)

**R2: Robustness**<sp><sp><sp>
- **Acceptance criteria**:

**R3 Robustness** (no colon: prose, not a block)

## Closing

**R4: after the section**
- **Acceptance criteria**: ignored
""".replace("<sp>", " ")


def test_parse_letter_blocks_reads_the_required_section_only() -> None:
    blocks = parse_letter_blocks(LETTER)
    assert [(b.ref, b.criterion) for b in blocks] == [
        ("R1", "A power analysis with a stated effect size appears in Methods.  "),
        ("R2", ""),
    ]
    assert [b.line for b in blocks] == [8, 13]
    assert blocks[0].criterion_line == 10
    assert parse_letter_blocks("no section\n**R1: x**\n") == ()
    with pytest.raises(KernelError):
        parse_letter_blocks(b"bytes")  # type: ignore[arg-type]


# --- the loader ----------------------------------------------------------------------------


def test_the_loader_reads_bytes_paths_and_mappings_and_stores_failures(tmp_path: Path) -> None:
    path = tmp_path / "precommitment.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": 1}')  # a leading BOM is accepted
    bundle = load_re_review(
        {"manifest": {"round_id": "r2"}},
        precommitment=path,
        verdict_record=b'{"a": 1, "a": 2}',
        traceability=str(tmp_path / "missing.json"),
        roadmap=b"x" * 20,
        max_bytes=16,
    )
    assert bundle.manifest.value == {"round_id": "r2"} and bundle.manifest.file is None
    assert bundle.precommitment.value == {"a": 1}
    assert bundle.verdict_record.error is not None
    assert bundle.verdict_record.error.code == "E-JSON"
    assert bundle.traceability.error is not None
    assert bundle.traceability.error.code == "E-READ"
    assert bundle.roadmap.error is not None and bundle.roadmap.error.code == "E-SIZE"
    assert not bundle.letter.supplied and bundle.apply_reports is None


def test_the_loader_refuses_misuse() -> None:
    with pytest.raises(ReReviewError, match="unknown key"):
        load_re_review({"manifests": {}})
    with pytest.raises(ReReviewError, match="must be a folder"):
        load_re_review(42)
    with pytest.raises(ReReviewError, match="list of paths or bytes"):
        load_re_review(apply_reports=b"{}")
    with pytest.raises(ReReviewError, match="must be a path, bytes or a mapping"):
        load_re_review(manifest=3.5)
    with pytest.raises(ReReviewError, match="key 1 is not a string"):
        load_re_review(manifest={1: "x"})


# --- the shipped schemas -------------------------------------------------------------------


@pytest.mark.parametrize("name", SCHEMA_NAMES)
def test_each_schema_is_2020_12_and_closed(name: str) -> None:
    from jsonschema import Draft202012Validator

    schema = document_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False
    assert document_schema_errors(name, {"unexpected": 1}) != []


def test_the_quick_check_and_jsonschema_agree_on_a_broken_record() -> None:
    record = {
        "item_id": "REV-1",
        "verdict": "CANNOT_VERIFY",
        "evidence_anchor": ["text: §2"],
        "change_summary": "unchanged",
        "verified_by": "R1",
        "applied_criterion": "precommitted",
    }
    document = {
        "round_id": "r2",
        "precommitment_hash": "0" * 64,
        "items": [record],
        "new_issues": [],
        "dissents": [],
        "escalation_exceptions": [],
    }
    errors = document_schema_errors("verdict_record", document)
    assert errors and all(e.json_path.startswith("$.items[0]") for e in errors)
    del record["evidence_anchor"]
    record["cannot_verify_reason"] = "the appendix was not supplied"
    assert document_schema_errors("verdict_record", document) == []


def test_every_example_document_matches_its_shipped_schema() -> None:
    root = Path(__file__).resolve().parents[2] / "examples" / "re-review"
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    assert len(folders) >= 6
    for folder in folders:
        for name in SCHEMA_NAMES:
            document = json.loads((folder / f"{name}.json").read_text("utf-8"))
            assert document_schema_errors(name, document) == [], (folder.name, name)
