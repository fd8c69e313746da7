"""Strict input reading shared by every module: size limits, UTF-8, strict JSON (R10, R13)."""

from __future__ import annotations

import importlib
import json
import os
from typing import Any

from kernel.errors import InputError

__all__ = [
    "MAX_INPUT_BYTES",
    "InputError",
    "check_size",
    "load_json_file",
    "loads_strict",
    "package_data",
    "read_text",
    "strict_decoder",
]

#: Default limit for every document the kernel reads (contracts, reviewer markdown,
#: audit trails, model responses): 1 MiB of UTF-8. Override per call with ``max_bytes``.
MAX_INPUT_BYTES = 1 << 20


def package_data(package: str, relative: str) -> bytes:
    """The bytes of ``relative`` (``/``-separated) inside an installed ``package``.

    What :func:`pkgutil.get_data` does, through the package's own loader (so a zipped
    install works too), without importing ``pkgutil`` or ``importlib.resources``: each costs
    a command line a few milliseconds of start-up.
    """
    spec = importlib.import_module(package).__spec__
    parts = relative.split("/")
    get_data = getattr(spec and spec.loader, "get_data", None)
    if spec is not None and spec.origin is not None and get_data is not None:
        data: bytes = get_data(os.path.join(os.path.dirname(spec.origin), *parts))
        return data
    for location in (spec and spec.submodule_search_locations) or ():  # a namespace package
        path = os.path.join(location, *parts)
        if os.path.isfile(path):
            with open(path, "rb") as fh:
                return fh.read()
    raise FileNotFoundError(f"package {package!r} has no data file {relative!r}")


def check_size(text: str, *, source: str = "<input>", max_bytes: int = MAX_INPUT_BYTES) -> None:
    """Refuse ``text`` when its UTF-8 form is over ``max_bytes``."""
    # A str never encodes to fewer bytes than it has code points, nor more than 4 each.
    if len(text) * 4 <= max_bytes:
        return
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise InputError(f"{source}: input is {size} bytes, over the {max_bytes}-byte limit")


def read_text(path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """Read a UTF-8 file, refusing missing files, directories, oversize and bad encodings."""
    p = os.fspath(path)  # not pathlib: it costs a command line's start-up a few milliseconds
    try:
        with open(p, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{p}: is a directory, not a file") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise InputError(f"{p}: file is over the {max_bytes}-byte limit")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"{p}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


_DECODER = json.JSONDecoder(object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)


def loads_strict(text: str, *, source: str = "<string>", max_bytes: int = MAX_INPUT_BYTES) -> Any:
    """``json.loads`` that rejects duplicate keys, NaN/Infinity, trailing data and oversize.

    A leading BOM is ignored (RFC 8259 §8.1 allows it).
    """
    check_size(text, source=source, max_bytes=max_bytes)
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        value, end = _DECODER.raw_decode(text, _skip_ws(text, 0))
        end = _skip_ws(text, end)
        if end != len(text):
            raise json.JSONDecodeError("extra data after the JSON value", text, end)
    except json.JSONDecodeError as exc:
        raise InputError(f"{source}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}") from None
    except ValueError as exc:  # from the hooks above
        raise InputError(f"{source}: not strict JSON: {exc}") from None
    except RecursionError:
        raise InputError(f"{source}: JSON nested too deeply") from None
    return value


def strict_decoder() -> json.JSONDecoder:
    """The one strict decoder (duplicate keys and NaN/Infinity rejected)."""
    return _DECODER


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\n\r":
        pos += 1
    return pos


def load_json_file(path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES) -> Any:
    return loads_strict(read_text(path, max_bytes=max_bytes), source=str(path), max_bytes=max_bytes)


def loads_jsonl(text: str, *, source: str = "<input>") -> list[tuple[int, Any]]:
    """Decode JSON Lines strictly: ``(line number, value)`` per non-blank line; a leading BOM
    is dropped; every error names ``file:line:col``."""
    check_size(text, source=source)
    if text.startswith("\ufeff"):
        text = text[1:]
    out = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if raw.strip(" \t\r") == "":
            continue
        where = f"{source}:{number}"
        try:
            value = loads_strict(raw, source=where)
        except InputError as exc:
            # A single line always reports JSON line 1: make it file:line:col.
            raise InputError(exc.message.replace(f"{where}:1:", f"{where}:", 1)) from None
        out.append((number, value))
    return out
