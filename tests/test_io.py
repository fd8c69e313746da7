"""Strict JSON loading and size limits (R10, R13)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel import ContractError, KernelError, load_contract
from kernel.io import MAX_INPUT_BYTES, InputError, check_size, loads_strict, read_text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ('{"a": NaN}', "NaN is not valid JSON"),
        ('{"a": -Infinity}', "-Infinity is not valid JSON"),
        ('{"a": 1} {"b": 2}', "extra data"),
        ('{"a": 1,}', "not JSON"),
        ("", "not JSON"),
    ],
)
def test_strict_json_rejects(text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        loads_strict(text, source="x.json")
    assert message in info.value.message
    assert info.value.message.startswith("x.json")


def test_strict_json_accepts_bom_and_white_space() -> None:
    assert loads_strict('\ufeff {"a": [1, 2.5, true, null]}\n') == {"a": [1, 2.5, True, None]}


def test_deep_nesting_is_an_input_error() -> None:
    with pytest.raises(InputError):
        loads_strict("[" * 100_000 + "]" * 100_000)


@given(st.text(max_size=200))
def test_loads_strict_is_total(text: str) -> None:
    try:
        value = loads_strict(text)
    except KernelError as exc:
        assert exc.message
    else:
        assert json.loads(text.removeprefix("\ufeff")) == value


def test_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_INPUT_BYTES + 1))
    with pytest.raises(InputError, match="over the 1048576-byte limit"):
        read_text(big)
    with pytest.raises(ContractError, match="over the"):
        load_contract(big)
    assert read_text(big, max_bytes=MAX_INPUT_BYTES + 1).isspace()
    with pytest.raises(InputError):
        check_size("é" * (MAX_INPUT_BYTES // 2 + 1))
    check_size("a" * MAX_INPUT_BYTES)


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"line one\nline \xff two\n")
    with pytest.raises(InputError, match=r"bad.md:2: not UTF-8 \(byte 0xff"):
        read_text(bad)


def test_missing_and_directory(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        read_text(tmp_path / "nope")
    with pytest.raises(InputError, match="is a directory"):
        read_text(tmp_path)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet="ab _'\\é1", max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


def _walk(node: object, path: str = "$") -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = [(path, node)]
    if isinstance(node, dict):
        for key, item in node.items():
            plain = key[:1].isascii() and key[:1].isalpha() and key.isascii()
            plain = plain and all(c.isalnum() or c == "_" for c in key)
            step = (
                f".{key}" if plain else "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']"
            )
            out += _walk(item, path + step)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            out += _walk(item, f"{path}[{i}]")
    return out


@given(_JSON, st.sampled_from([None, 0, 2]), st.booleans(), st.booleans())
def test_json_positions_point_at_each_value(
    value: object, indent: int | None, ascii_only: bool, bom: bool
) -> None:
    from kernel.io import json_positions

    text = ("\ufeff" if bom else "") + json.dumps(value, indent=indent, ensure_ascii=ascii_only)
    positions = json_positions(text)
    lines = text.split("\n")
    decoder = json.JSONDecoder()
    expected = _walk(value)
    assert sorted(positions) == sorted(p for p, _ in expected)
    for path, node in expected:
        line, column = positions[path]
        offset = sum(len(x) + 1 for x in lines[: line - 1]) + column - 1
        assert decoder.raw_decode(text, offset)[0] == node, path


def test_json_positions_of_text_that_is_not_json_are_empty() -> None:
    from kernel.io import json_positions

    assert json_positions('{"a": [1,') == {}
    assert json_positions("zroadmap") == {}  # the scanner finds no value at all
    assert json_positions("") == {}


@pytest.mark.parametrize("name", [b"doc.md", 3, None, "a\x00b"])
def test_a_path_that_names_no_file_is_an_input_error(name: object) -> None:
    with pytest.raises(InputError, match="not a usable file name"):
        read_text(name)  # type: ignore[arg-type]


def test_a_missing_file_is_named_as_given(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=r"^\./missing\.md: no such file$"):
        read_text("./missing.md")


def test_a_bad_utf8_byte_is_placed_by_line_and_column() -> None:
    from kernel.io import decode_utf8

    with pytest.raises(InputError) as info:
        decode_utf8(b"ab\ncd\xffe", "f")
    assert (info.value.message, info.value.line, info.value.column) == (
        "f:2: not UTF-8 (byte 0xff at offset 5)",
        2,
        3,
    )


def test_an_unpaired_surrogate_is_refused() -> None:
    from kernel.io import require_utf8

    assert require_utf8("a\u00e9", "x") == "a\u00e9"
    with pytest.raises(InputError, match=r"^x: not encodable as UTF-8: unpaired surrogate U\+D800"):
        require_utf8("a\ud800", "x")


def test_shown_keeps_a_repr_of_exactly_the_limit_and_writes_big_integers() -> None:
    from kernel.strict import shown

    assert shown("x" * 58) == "'" + "x" * 58 + "'"
    assert shown("x" * 59) == "'" + "x" * 56 + "..."
    assert shown(2**13999).startswith("13149")  # 14,000 bits: still written out
    assert shown(2**14000) == "an integer of 14001 bits"


def test_package_data_reads_from_a_namespace_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kernel.io import package_data

    (tmp_path / "ns_pkg_for_io_test").mkdir()
    (tmp_path / "ns_pkg_for_io_test" / "data.txt").write_bytes(b"hello")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert package_data("ns_pkg_for_io_test", "data.txt") == b"hello"
    assert (
        package_data("kernel", "py.typed")
        == (Path(__file__).parents[1] / "kernel" / "py.typed").read_bytes()
    )


def test_json_lines_are_numbered_from_1_skipping_blank_lines() -> None:
    from kernel.io import loads_jsonl

    assert loads_jsonl('\ufeff{"a": 1}\n\n  \r\n[2]\n') == [(1, {"a": 1}), (4, [2])]
    with pytest.raises(InputError) as info:
        loads_jsonl('[1]\n{"a": }\n', source="m.jsonl")
    assert (info.value.message, info.value.line, info.value.column) == (
        "m.jsonl:2:7: not JSON: Expecting value",
        2,
        7,
    )


def test_the_strict_decoder_refuses_duplicate_keys() -> None:
    from kernel.io import strict_decoder

    assert strict_decoder().decode('{"x": 1}') == {"x": 1}
    with pytest.raises(ValueError, match="duplicate key 'a'"):
        strict_decoder().decode('{"a": 1, "a": 2}')


def test_what_is_not_a_regular_file_is_named(tmp_path: Path) -> None:
    from kernel.io import read_bytes

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    cases = [
        (str(fifo), "is a FIFO (named pipe), not a regular file"),
        ("/dev/null", "is not a regular file"),
        (str(tmp_path), "is a directory, not a file"),
    ]
    for path, problem in cases:
        with pytest.raises(InputError) as info:
            read_bytes(path)
        assert (info.value.message, info.value.code) == (f"{path}: {problem}", "E-NOT-FILE")
    inside_a_file = tmp_path / "f.txt"
    inside_a_file.write_text("x", "utf-8")
    with pytest.raises(InputError) as info:
        read_bytes(inside_a_file / "x")
    assert info.value.message == f"{inside_a_file / 'x'}: cannot read: Not a directory"


def test_the_surrogate_line_counts_from_the_text_start() -> None:
    from kernel.io import require_utf8

    with pytest.raises(InputError, match=r"at character 1 \(line 2\)$"):
        require_utf8("\n\ud800", "w")
    with pytest.raises(InputError, match=r"at character 5 \(line 3\)$"):
        require_utf8("a\nb\nc\ud800", "w")


def test_a_read_error_after_the_file_is_open_is_an_input_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "doc.md"
    path.write_text("text")
    opened = os.fdopen

    class Failing:
        def __init__(self, fd: int, mode: str) -> None:
            self.file = opened(fd, mode)

        def __enter__(self) -> Failing:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def fileno(self) -> int:
            return self.file.fileno()

        def read(self, size: int) -> bytes:
            raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fdopen", Failing)
    with pytest.raises(InputError, match=r"doc\.md: cannot read: Input/output error$"):
        read_text(path)
