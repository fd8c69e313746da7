"""Delta mode (companions.md §C2): review only what changed, keep findings on the rest.

Given the changed paths (as a diff lists them) and the previous run's findings, the review
targets are the changed paths; findings on unchanged paths are kept, findings on changed
paths are dropped so that the changed code is reviewed afresh. Paths are compared in one
normal form: POSIX separators, no ``.`` or empty segments, ``..`` resolved lexically. An
absolute path, or one whose ``..`` climbs out of the repository, is refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from kernel.errors import KernelError
from kernel.panel.inputs import (
    PanelInputError,
    Problem,
    check_schema,
    findings_list,
    has_strings,
    json_list,
    pointer,
    validator,
)
from kernel.strict import shown

__all__ = [
    "FINDINGS_SCHEMA",
    "DeltaResult",
    "delta",
    "delta_document",
    "normalise_path",
    "parse_changed_paths",
]

#: A JSON array of findings; each needs ``id`` and ``path`` (other members are kept as given).
FINDINGS_SCHEMA: dict[str, Any] = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["id", "path"],
        "properties": {
            "id": {"type": "string", "minLength": 1},
            "path": {"type": "string", "minLength": 1},
        },
    },
}

_DRIVE = re.compile(r"[A-Za-z]:")


def normalise_path(path: str) -> str:
    """``path`` in the form delta mode compares: ``/`` separators (a ``\\`` counts as one),
    no empty or ``.`` segments, ``a/../b`` resolved to ``b``.

    Raises ``KernelError`` for a non-string, an empty path or one naming the repository
    root, a NUL character, an absolute path (``/x``, ``C:x``, ``\\\\host\\x``) and a path
    whose ``..`` escapes the repository.
    """
    if not isinstance(path, str):
        raise KernelError(f"a path must be a string, got {type(path).__name__}")
    if "\0" in path:
        raise KernelError(f"path {shown(path)} contains a NUL character")
    posix = path.replace("\\", "/")
    if posix.startswith("/") or _DRIVE.match(posix):
        raise KernelError(
            f"path {shown(path)} is absolute; give it relative to the repository root"
        )
    parts: list[str] = []
    for segment in posix.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if not parts:
                raise KernelError(f"path {shown(path)} escapes the repository with '..'")
            parts.pop()
        else:
            parts.append(segment)
    if not parts:
        raise KernelError(f"path {shown(path)} names no file (empty or the repository root)")
    return "/".join(parts)


@attrs.frozen
class DeltaResult:
    """``targets``: the normalised changed paths, first-seen order, no repeats;
    ``kept`` / ``dropped``: the findings on unchanged / changed paths, in their order
    (read-only copies of the mappings as given)."""

    targets: tuple[str, ...]
    kept: tuple[Mapping[str, Any], ...]
    dropped: tuple[Mapping[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "targets": list(self.targets),
            "kept": [dict(f) for f in self.kept],
            "dropped": [dict(f) for f in self.dropped],
        }


def _normalised(path: object, where: str, line: int | None = None) -> str | Problem:
    if not isinstance(path, str):
        return Problem(f"a path must be a string, got {type(path).__name__}", where, line)
    try:
        return normalise_path(path)
    except KernelError as exc:
        return Problem(exc.message, where, line)


def _delta(changed: list[Any], findings: Any, prefix: str) -> DeltaResult:
    if not has_strings(findings, ("id", "path")):
        check_schema(validator(FINDINGS_SCHEMA), findings, prefix=prefix)
    problems: list[Problem] = []
    targets: dict[str, None] = {}
    for i, raw in enumerate(changed):
        p = _normalised(raw, pointer("changed_paths", i))
        if isinstance(p, Problem):
            problems.append(p)
        else:
            targets[p] = None
    seen: set[str] = set()
    paths: list[str] = []
    for i, f in enumerate(findings):
        if f["id"] in seen:
            problems.append(
                Problem(f"duplicate finding id {shown(f['id'])}", prefix + pointer(i, "id"))
            )
        seen.add(f["id"])
        p = _normalised(f["path"], prefix + pointer(i, "path"))
        if isinstance(p, Problem):
            problems.append(p)
        else:
            paths.append(p)
    if problems:
        raise PanelInputError(problems)
    kept: list[Mapping[str, Any]] = []
    dropped: list[Mapping[str, Any]] = []
    for f, p in zip(findings, paths, strict=True):
        (dropped if p in targets else kept).append(MappingProxyType(dict(f)))
    return DeltaResult(tuple(targets), tuple(kept), tuple(dropped))


def delta(changed_paths: Iterable[str], findings: Iterable[Mapping[str, Any]]) -> DeltaResult:
    """Split the previous run's ``findings`` (mappings with ``id`` and ``path``) by
    ``changed_paths``. Raises ``PanelInputError`` (a ``KernelError``) naming each bad
    path (``/changed_paths/3``, ``/2/path``) or malformed finding."""
    return _delta(json_list(changed_paths, "changed_paths"), json_list(findings, "findings"), "")


def _unquote_git(line: str, number: int) -> str | Problem:
    """A path as ``git diff --name-only`` prints it: verbatim, or C-quoted between double
    quotes (``core.quotePath``) when it holds special or non-ASCII characters."""
    if not (len(line) >= 2 and line.startswith('"') and line.endswith('"')):
        return line
    body = line[1:-1]
    out = bytearray()
    simple = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        nxt = body[i + 1 : i + 2]
        if nxt in simple:
            out.append(simple[nxt])
            i += 2
        elif re.fullmatch(r"[0-3][0-7]{2}", body[i + 1 : i + 4]):
            out.append(int(body[i + 1 : i + 4], 8))
            i += 4
        else:
            return Problem(f"bad escape in quoted path {shown(line)}", line=number)
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        return Problem(f"quoted path {shown(line)} is not UTF-8", line=number)


def parse_changed_paths(text: str) -> tuple[str, ...]:
    """The paths of a changed-paths list: one per line (``\\n`` or ``\\r\\n``), blank lines
    ignored, each as ``git diff --name-only`` prints it (verbatim or C-quoted). A line with
    leading or trailing whitespace is refused rather than guessed at. Problems name the
    line; the paths are returned as written (``delta`` normalises them)."""
    if not isinstance(text, str):
        raise KernelError(f"the changed-paths list must be text, got {type(text).__name__}")
    problems: list[Problem] = []
    paths: list[str] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        line = raw.removesuffix("\r")
        if not line.strip():
            continue
        if line != line.strip():
            problems.append(
                Problem(f"path {shown(line)} has leading or trailing whitespace", line=number)
            )
            continue
        path = _unquote_git(line, number)
        if isinstance(path, Problem):
            problems.append(path)
            continue
        p = _normalised(path, "", number)
        if isinstance(p, Problem):
            problems.append(p)
        else:
            paths.append(path)
    if problems:
        raise PanelInputError(problems)
    return tuple(paths)


def delta_document(changed_text: str, document: Any) -> DeltaResult:
    """``delta`` over a changed-paths list (see ``parse_changed_paths``) and a decoded
    findings document: an array of findings, or an object with a ``findings`` array."""
    changed = parse_changed_paths(changed_text)
    findings, prefix = findings_list(document)
    return _delta(list(changed), findings, prefix)
