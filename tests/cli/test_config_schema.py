"""The shipped JSON Schema of the configuration table (kernel/data/config.schema.json) says
what the configuration reader (kernel/cli/config.py) accepts: the same keys, the same code
lists, and the same verdict on valid and invalid tables."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import paths

from kernel.cli.config import DIALECTS, KEYS, _config, selectors
from kernel.errors import ConfigError
from kernel.io import MAX_LIMIT
from kernel.schema import strict_validator

SCHEMA = json.loads((paths.ROOT / "kernel" / "data" / "config.schema.json").read_text("utf-8"))
VALIDATOR = strict_validator(SCHEMA)


def schema_accepts(table: dict[str, Any]) -> bool:
    return not list(VALIDATOR.iter_errors(table))


def reader_accepts(table: dict[str, Any]) -> bool:
    try:
        _config(table, "sprint-kernel.toml", "sprint-kernel.toml")
    except ConfigError:
        return False
    return True


def test_the_schema_names_every_key_the_reader_takes_and_no_other() -> None:
    assert set(SCHEMA["properties"]) == set(KEYS)
    assert SCHEMA["additionalProperties"] is False
    assert SCHEMA["properties"]["dialect"]["enum"] == list(DIALECTS)
    assert SCHEMA["properties"]["max-bytes"]["maximum"] == MAX_LIMIT


def test_the_code_lists_are_the_registry_s() -> None:
    stale = "stale: run python scripts/config_schema.py"
    assert SCHEMA["$defs"]["select"]["items"]["enum"] == list(selectors(ignoring=False)), stale
    assert SCHEMA["$defs"]["ignore"]["items"]["enum"] == list(selectors(ignoring=True)), stale


def test_the_schema_is_shipped_with_the_package() -> None:
    from kernel.io import package_data

    assert json.loads(package_data("kernel", "data/config.schema.json")) == SCHEMA


VALID = [
    {},
    {"contract": "reviewer/full", "dialect": "13.2", "strict": True, "max-bytes": 4096},
    {"select": ["SC", "P2-040"], "ignore": ["SC-11", "P1"]},
    {"per-file-ignores": {"reviews/**": ["P2"], "a\\\\": ["SC-2"]}},
    {"exclude": ["drafts/", "*.tmp.json", "!keep.json"]},
]
INVALID = [
    {"excludes": ["x"]},
    {"contract": ""},
    {"contract": 3},
    {"dialect": "14"},
    {"select": ["P2-04"]},
    {"select": "SC"},
    {"select": [""]},
    {"select": [" SC"]},
    {"ignore": ["E-READ"]},  # an error cannot be ignored
    {"ignore": ["E"]},  # covers only errors
    {"per-file-ignores": {"x": ["E-JSON"]}},
    {"per-file-ignores": {"x": "SC-2"}},
    {"per-file-ignores": {"!": ["SC-2"]}},
    {"exclude": ["!"]},
    {"exclude": ["! "]},
    {"exclude": ["a\\"]},
    {"exclude": [""]},
    {"exclude": "x"},
    {"strict": "yes"},
    {"strict": 1},
    {"max-bytes": 0},
    {"max-bytes": MAX_LIMIT + 1},
    {"max-bytes": 5.0},
    {"max-bytes": True},
]


@pytest.mark.parametrize("table", VALID)
def test_valid_samples(table: dict[str, Any]) -> None:
    assert schema_accepts(table) and reader_accepts(table)


@pytest.mark.parametrize("table", INVALID)
def test_invalid_samples(table: dict[str, Any]) -> None:
    assert not schema_accepts(table) and not reader_accepts(table)


def test_the_one_documented_difference_a_reversed_range() -> None:
    """JSON Schema cannot say that a range is reversed: the reader alone refuses it."""
    assert schema_accepts({"exclude": ["[z-a]"]}) and not reader_accepts({"exclude": ["[z-a]"]})


_CODE = st.sampled_from([*selectors(ignoring=False)[:40], "P2-04", "SC-111", "E", " SC", ""])
_GLOB = st.sampled_from(["reviews/**", "*.json", "!x", "!", "a\\", "a\\\\", "drafts/", ""])
_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-2, max_value=MAX_LIMIT + 2),
    st.sampled_from([*DIALECTS, "14", "", "reviewer/full"]),
    st.lists(_CODE, max_size=3),
    st.lists(_GLOB, max_size=3),
    st.dictionaries(_GLOB, st.lists(_CODE, max_size=2), max_size=2),
)


@given(st.dictionaries(st.sampled_from([*KEYS, "excludes", "rule"]), _VALUE, max_size=4))
def test_schema_and_reader_agree_on_generated_tables(table: dict[str, Any]) -> None:
    table = {k: v for k, v in table.items() if v is not None}  # TOML has no null
    assert schema_accepts(table) == reader_accepts(table), table
