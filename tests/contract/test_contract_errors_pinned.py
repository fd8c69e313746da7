"""Exact error texts and positions of contract reading: a JSON syntax error keeps its line
and column, a version string is shown cut at 60 characters, JSON paths are written the way
a reader would type them, and the precompiled file's text and its ``--check`` output."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernel import load_contract
from kernel.contract import precompiled
from kernel.contract.encoding import unencodable
from kernel.contract.validator import MAX_VERSION_DIGITS, canonical_json, parse_version
from kernel.errors import ContractInputError, KernelError


def test_a_json_syntax_error_keeps_its_position(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('{\n  "a": 1,\n  x\n}', "utf-8")
    with pytest.raises(ContractInputError) as info:
        load_contract(path)
    err = info.value
    assert (err.code, err.line, err.column) == ("E-JSON", 3, 3)
    assert err.message == f"{path}:3:3: not JSON: Expecting property name enclosed in double quotes"


def test_versions() -> None:
    assert parse_version("v1.02.3", "ars") == (1, 2, 3)
    longest = "9" * MAX_VERSION_DIGITS
    assert parse_version(f"v{longest}.0.0", "ars") == (int(longest), 0, 0)
    assert parse_version(f"v0{longest}.0.0", "ars") == (int(longest), 0, 0)  # leading zeros
    with pytest.raises(KernelError, match=f"^ars has a number over {MAX_VERSION_DIGITS} digits$"):
        parse_version(f"v1.{longest}9.0", "ars")
    with pytest.raises(KernelError) as info:
        parse_version("x" * 70, "ars")
    assert str(info.value) == f"ars must look like vX.Y.Z, got '{'x' * 56}..."
    with pytest.raises(KernelError) as info:
        parse_version("x" * 58, "ars")  # its repr is 60 characters: shown whole
    assert str(info.value) == f"ars must look like vX.Y.Z, got '{'x' * 58}'"
    with pytest.raises(KernelError) as info:
        parse_version(1.5, "baseline")
    assert str(info.value) == "baseline must look like vX.Y.Z, got 1.5"


def test_unencodable_paths_and_messages() -> None:
    value = {"a b": "\ud800", "ok": 2**60, 3: "x", "é": ["\udc00"], "id_1": {"x-y": 2**53}}
    assert unencodable(value) == [
        "$['a b']: not encodable as UTF-8: unpaired surrogate U+D800 at character 0 (line 1)",
        "$.ok: a 61-bit integer is beyond ±(2**53 - 1), the integers every JSON reader holds "
        "exactly",
        "$['é'][0]: not encodable as UTF-8: unpaired surrogate U+DC00 at character 0 (line 1)",
        "$.id_1['x-y']: a 54-bit integer is beyond ±(2**53 - 1), the integers every JSON "
        "reader holds exactly",
    ]
    assert unencodable({"k": 2**53 - 1, "n": -(2**53 - 1), "b": True}) == []


def test_render_writes_utf8_one_line_per_key() -> None:
    text = precompiled.render({"k": {"é": "ü", "a": [1]}, "g": "x"})
    assert text == '{\n "g": "x",\n "k": {\n  "a": [1],\n  "é": "ü"\n }\n}\n'


def test_check_output_and_exit_codes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert precompiled.main(["--check"]) == 0
    assert capsys.readouterr().out == "precompiled.json: current\n"
    monkeypatch.setattr(precompiled, "check", lambda: ["a differs", "b was built"])
    assert precompiled.main(["--check"]) == 1
    run = "run: python -m kernel.contract.precompiled --write"
    assert capsys.readouterr().out == f"stale: a differs; {run}\nstale: b was built; {run}\n"
    assert precompiled.main(["--write", "--check"]) == 2
    assert capsys.readouterr().err == precompiled.USAGE + "\n"


def test_canonical_json_keeps_non_ascii_as_is() -> None:
    assert canonical_json({"b": "Qualität", "a": [1, {"d": None, "c": 2}]}) == (
        '{"a":[1,{"c":2,"d":null}],"b":"Qualität"}'
    )
    data = load_contract("reviewer/full").to_dict()
    data["acceptance_dimensions"][0]["description"] = "Qualität der Methode."
    assert '"description":"Qualität der Methode."' in load_contract(data).to_json()


def test_the_version_digit_limit_is_100() -> None:
    # Pinned by its number, not only through the constant.
    assert MAX_VERSION_DIGITS == 100
    assert parse_version(f"v{'7' * 100}.0.1", "ars") == (int("7" * 100), 0, 1)
    assert parse_version(f"v1.{'0' * 150}{'7' * 100}.0", "ars") == (1, int("7" * 100), 0)
    with pytest.raises(KernelError) as info:
        parse_version(f"v1.2.{'7' * 101}", "ars")
    assert str(info.value) == "ars has a number over 100 digits"
