"""Strict input reading shared by every module: size limits, UTF-8, strict JSON (R10, R13)."""

from __future__ import annotations

import importlib
import json
import os
import re
import stat
from bisect import bisect_right
from typing import Any, cast

from kernel.errors import InputError, KernelError
from kernel.strict import is_int, shown

__all__ = [
    "MAX_INPUT_BYTES",
    "MAX_LIMIT",
    "InputError",
    "check_limit",
    "check_size",
    "decode_utf8",
    "label",
    "load_json_file",
    "loads_strict",
    "package_data",
    "read_bytes",
    "read_text",
    "require_utf8",
    "strict_decoder",
]

#: Default limit for every document the kernel reads (contracts, reviewer markdown,
#: audit trails, model responses): 1 MiB of UTF-8. Override per call with ``max_bytes``.
MAX_INPUT_BYTES = 1 << 20


#: The largest ``max_bytes`` accepted (1 GiB): a limit, not an invitation to read that much.
MAX_LIMIT = 1 << 30


def check_limit(max_bytes: object) -> int:
    """``max_bytes`` when it is an integer in 1 … :data:`MAX_LIMIT`, else a ``KernelError``."""
    if not is_int(max_bytes) or not 1 <= max_bytes <= MAX_LIMIT:
        raise KernelError(
            f"max_bytes must be an integer from 1 to {MAX_LIMIT}, got {shown(max_bytes, 40)}"
        )
    return max_bytes


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
    check_limit(max_bytes)
    if not isinstance(text, str):
        raise KernelError(f"{source}: expected text (a str), got {type(text).__name__}")
    # A str never encodes to fewer bytes than it has code points, nor more than 4 each.
    if len(text) * 4 <= max_bytes:
        return
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise InputError(
            f"{source}: input is {size} bytes, over the {max_bytes}-byte limit", code="E-SIZE"
        )


def require_utf8(text: str, where: str) -> str:
    """``text`` itself when it can be encoded as UTF-8, else :class:`InputError` naming
    ``where``: text holding an unpaired surrogate (``"\\ud800"``) is bad input everywhere."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        line = text.count("\n", 0, exc.start) + 1
        raise InputError(
            f"{where}: not encodable as UTF-8: unpaired surrogate "
            f"U+{ord(text[exc.start]):04X} at character {exc.start} (line {line})"
        ) from None
    return text


def _not_regular(mode: int) -> str | None:
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe), not a regular file"
    return "is not a regular file"


def read_bytes(path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of a regular file, refusing anything else at once (a directory, a FIFO, a
    device: never a hang) and files over ``max_bytes``."""
    check_limit(max_bytes)
    try:
        p = os.fspath(path)
    except TypeError:
        p = None
    if not isinstance(p, str):
        raise InputError(f"{shown(path)}: not a usable file name")
    try:
        problem = _not_regular(os.stat(p).st_mode)
        if problem is not None:
            raise InputError(f"{p}: {problem}", code="E-NOT-FILE")
        # O_NONBLOCK: should a FIFO replace the file after the check, opening does not block.
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read: {exc.strerror or exc}") from None
    except ValueError:  # a NUL, or a lone surrogate the file system cannot encode
        raise InputError(f"{shown(str(path))}: not a usable file name") from None
    with os.fdopen(fd, "rb") as fh:
        problem = _not_regular(os.fstat(fh.fileno()).st_mode)
        if problem is not None:
            raise InputError(f"{p}: {problem}", code="E-NOT-FILE")
        try:
            data = fh.read(max_bytes + 1)
        except OSError as exc:
            raise InputError(f"{p}: cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise InputError(f"{p}: file is over the {max_bytes}-byte limit", code="E-SIZE")
    return data


def decode_utf8(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text; anything else is an ``E-UTF8`` error naming line and column."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        line = data[: exc.start].count(b"\n") + 1
        column = len(data[start : exc.start].decode("utf-8", "replace")) + 1
        raise InputError(
            f"{source}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})",
            code="E-UTF8",
            line=line,
            column=column,
        ) from None


def read_text(path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES) -> str:
    """Read a UTF-8 file, refusing missing files, non-regular files, oversize and bad
    encodings."""
    return decode_utf8(read_bytes(path, max_bytes=max_bytes), os.fspath(path))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {shown(key)}")
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
        raise InputError(
            f"{source}:{exc.lineno}:{exc.colno}: not JSON: {exc.msg}",
            code="E-JSON",
            line=exc.lineno,
            column=exc.colno,
        ) from None
    except ValueError as exc:  # from the hooks above
        raise InputError(f"{source}: not strict JSON: {exc}", code="E-JSON") from None
    except RecursionError:
        raise InputError(f"{source}: JSON nested too deeply", code="E-JSON") from None
    return value


def json_positions(text: str) -> dict[str, tuple[int, int]]:
    """Where each value of the JSON document ``text`` starts, as 1-based (line, column),
    keyed by its JSONPath in jsonschema's form (``$``, ``$.key[0]``, ``$['odd key']``).

    For documents :func:`loads_strict` accepts; ``{}`` for any other. The standard library's
    own decoder reads the text, with its object and array readers told to note where each
    member value starts: the starts come in document order, as the paths of a pre-order walk
    of the value do.
    """
    from json import decoder as json_decoder
    from json import scanner

    body = text[1:] if text.startswith("\ufeff") else text
    starts: list[int] = []

    def noting(scan_once: Any) -> Any:
        def scan(string: str, idx: int) -> Any:
            starts.append(idx)
            return scan_once(string, idx)

        return scan

    # The pure-Python reader and its hooks are not in the type stubs.
    pure: Any = json_decoder
    reader: Any = json.JSONDecoder()
    reader.parse_object = lambda s_end, strict, scan_once, *rest: pure.JSONObject(
        s_end, strict, noting(scan_once), *rest
    )
    reader.parse_array = lambda s_end, scan_once: pure.JSONArray(s_end, noting(scan_once))
    scan = cast(Any, scanner).py_make_scanner(reader)
    try:
        root = _skip_ws(body, 0)
        value, _ = scan(body, root)
    except (ValueError, RecursionError, IndexError, StopIteration):
        return {}
    paths: list[str] = []

    def walk(node: Any, path: str) -> None:
        paths.append(path)
        if isinstance(node, dict):
            for key, item in node.items():
                walk(item, _member(path, key))
        elif isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{path}[{i}]")

    walk(value, "$")
    offset = len(text) - len(body)
    lines = [0, *(m.end() for m in re.finditer("\n", text))]
    out = {}
    for path, start in zip(paths, [root, *starts], strict=True):
        at = start + offset
        line = bisect_right(lines, at)
        out[path] = (line, at - lines[line - 1] + 1)
    return out


_PLAIN_KEY = re.compile("[a-zA-Z][a-zA-Z0-9_]*")


def _quoted(key: str) -> str:
    return "['" + key.replace("\\", "\\\\").replace("'", "\\'") + "']"


def _member(path: str, key: str) -> str:
    return path + (f".{key}" if _PLAIN_KEY.fullmatch(key) else _quoted(key))


def json_path(*parts: str | int) -> str:
    """The JSONPath of a value, in jsonschema's form and :func:`json_positions`' keys:
    ``json_path("failure_conditions", 2, "expression")`` is ``$.failure_conditions[2].expression``
    and an odd key is quoted (``$['odd key']``)."""
    path = "$"
    for part in parts:
        path = f"{path}[{part}]" if isinstance(part, int) else _member(path, part)
    return path


def strict_decoder() -> json.JSONDecoder:
    """The one strict decoder (duplicate keys and NaN/Infinity rejected)."""
    return _DECODER


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\n\r":
        pos += 1
    return pos


def load_json_file(path: str | os.PathLike[str], *, max_bytes: int = MAX_INPUT_BYTES) -> Any:
    return loads_strict(read_text(path, max_bytes=max_bytes), source=str(path), max_bytes=max_bytes)


def loads_jsonl(
    text: str, *, source: str = "<input>", max_bytes: int = MAX_INPUT_BYTES
) -> list[tuple[int, Any]]:
    """Decode JSON Lines strictly: ``(line number, value)`` per non-blank line; a leading BOM
    is dropped; every error names ``file:line:col``."""
    check_size(text, source=source, max_bytes=max_bytes)
    if text.startswith("\ufeff"):
        text = text[1:]
    out = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if raw.strip(" \t\r") == "":
            continue
        where = f"{source}:{number}"
        try:
            value = loads_strict(raw, source=where, max_bytes=max_bytes)
        except InputError as exc:
            # A single line always reports JSON line 1: make it file:line:col.
            raise InputError(
                exc.message.replace(f"{where}:1:", f"{where}:", 1),
                code=exc.code,
                line=number,
                column=exc.column,
            ) from None
        out.append((number, value))
    return out


def label(value: object, name: str) -> str:
    """A label the caller gave (``source=``, ``what=``: where a value came from) as text: a
    string, or a path as its text. Anything else is refused."""
    if isinstance(value, str):
        return value
    if isinstance(value, os.PathLike):
        path = os.fspath(value)
        if isinstance(path, str):
            return path
    raise KernelError(f"{name} must be a string naming the input, got {shown(value)}")
