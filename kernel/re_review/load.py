"""Reading a re-review bundle (design §6, ``load_re_review``): it reads, it never judges.

A read failure (missing file, not a regular file, too big, not UTF-8, not strict JSON) is
stored on its :class:`Document` and reported by ``check_re_review`` at that document's layer.
Only misuse raises: a bad ``max_bytes``, an argument of the wrong type, a folder file whose
real path (through a symlink) leaves the folder.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.errors import InputError
from kernel.io import MAX_INPUT_BYTES, check_limit, decode_utf8, loads_strict, read_bytes
from kernel.re_review.model import ReReviewError
from kernel.strict import shown

__all__ = [
    "DEFAULT_NAMES",
    "PHASE_DOCUMENTS",
    "Document",
    "ReReviewBundle",
    "load_re_review",
    "path_ref_problem",
]

#: The four JSON documents and their file names in a bundle folder.
PHASE_DOCUMENTS: Final = ("manifest", "precommitment", "verdict_record", "traceability")
DEFAULT_NAMES: Final = {name: f"{name}.json" for name in PHASE_DOCUMENTS}
_KEYS: Final = (*PHASE_DOCUMENTS, "roadmap", "letter", "apply_reports")


@attrs.frozen
class Document:
    """One input of the bundle.

    ``name`` is its role (``manifest``, ``roadmap``, ``apply_reports[0]``, …), ``file`` the
    label findings name (a path, or ``None`` for a mapping). ``supplied`` is false when no
    source names it (a ``passport:`` ref, or no manifest to find it by). ``data`` holds the
    bytes as read (what the manifest hashes), ``text`` the decoded text, ``value`` the parsed
    JSON (the text itself for the letter), ``error`` the read failure, if any.
    """

    name: str
    file: str | None = None
    supplied: bool = True
    data: bytes | None = None
    text: str | None = None
    value: Any = None
    error: InputError | None = None

    @property
    def ok(self) -> bool:
        """Supplied and read without error."""
        return self.supplied and self.error is None


@attrs.frozen
class ReReviewBundle:
    """The inputs of one re-review check, as read. ``apply_reports`` is ``None`` when neither
    a keyword nor the manifest names any."""

    manifest: Document
    precommitment: Document
    verdict_record: Document
    traceability: Document
    roadmap: Document
    letter: Document
    apply_reports: tuple[Document, ...] | None
    folder: str | None = None
    max_bytes: int = MAX_INPUT_BYTES

    def documents(self) -> tuple[Document, ...]:
        """Every document, the four phase documents first."""
        return (
            self.manifest,
            self.precommitment,
            self.verdict_record,
            self.traceability,
            self.roadmap,
            self.letter,
            *(self.apply_reports or ()),
        )


def path_ref_problem(path: str) -> str | None:
    """Why the ``path:`` ref body ``path`` is refused (RR-004), or ``None``."""
    if not path:
        return "is empty"
    if path[0] in "/\\":
        return "is absolute"
    if len(path) >= 2 and path[1] == ":" and path[0].isascii() and path[0].isalpha():
        return "starts with a drive letter"
    if ".." in path.replace("\\", "/").split("/"):
        return "has a '..' segment"
    return None


def _json_value(value: object, where: str) -> Any:
    """A plain copy of a caller's mapping: dicts, lists, strings, ints, bools and None only
    (the schemas judge the rest of its shape)."""
    stack: list[tuple[object, list[Any] | dict[str, Any], Any]] = []
    root: list[Any] = [None]
    stack.append((value, root, 0))
    while stack:
        node, parent, slot = stack.pop()
        if node is None or isinstance(node, bool | str) or type(node) is int:
            out: Any = node
        elif type(node) is float:
            out = node  # refused by the schema ("not an integer"), with its path
        elif type(node) is dict or (isinstance(node, Mapping) and not isinstance(node, dict)):
            out = {}
            for key, item in node.items():
                if not isinstance(key, str):
                    raise ReReviewError(f"{where}: key {shown(key)} is not a string")
                out[key] = None
                stack.append((item, out, key))
        elif type(node) is list or type(node) is tuple:
            out = [None] * len(node)
            stack.extend((item, out, i) for i, item in enumerate(node))
        else:
            raise ReReviewError(f"{where}: a {type(node).__name__} is not a JSON value")
        parent[slot] = out
    return root[0]


def _inside(folder: str, path: str) -> str:
    """``path`` (under ``folder``) when its real path stays in the folder's."""
    base = os.path.realpath(folder)
    real = os.path.realpath(path)
    if os.path.commonpath([base, real]) != base:
        raise ReReviewError(f"{path}: resolves outside the folder {folder} (through a symlink)")
    return path


def _read(name: str, source: object, *, max_bytes: int, parse: str) -> Document:
    """A document from a path (str or PathLike), bytes or (``parse == "mapping"``) a
    mapping. ``parse``: ``json``/``mapping`` parse JSON, ``text`` only decodes."""
    if isinstance(source, Mapping):
        if parse != "mapping":
            raise ReReviewError(f"{name}: must be a path or bytes (it is hashed), got a mapping")
        return Document(name, None, value=_json_value(source, name))
    if isinstance(source, bytes | bytearray):
        file, data, error = f"<{name}>", bytes(source), None
        if len(data) > max_bytes:
            error = InputError(
                f"{file}: input is {len(data)} bytes, over the {max_bytes}-byte limit",
                code="E-SIZE",
            )
    elif isinstance(source, str | os.PathLike):
        file = os.fspath(source)
        if not isinstance(file, str):
            raise ReReviewError(f"{name}: not a usable file name: {shown(source)}")
        data, error = None, None
        try:
            data = read_bytes(file, max_bytes=max_bytes)
        except InputError as exc:
            error = exc
    else:
        kinds = "a path, bytes or a mapping" if parse == "mapping" else "a path or bytes"
        raise ReReviewError(f"{name}: must be {kinds}, got {shown(source)}")
    if error is not None or data is None:
        return Document(name, file, error=error)
    try:
        text = decode_utf8(data, file)
    except InputError as exc:
        return Document(name, file, data=data, error=exc)
    if parse == "text":
        return Document(name, file, data=data, text=text, value=text)
    try:
        value = loads_strict(text, source=file, max_bytes=max_bytes)
    except InputError as exc:
        return Document(name, file, data=data, text=text, error=exc)
    return Document(name, file, data=data, text=text, value=value)


def _ref_path(manifest: Document, key: str, index: int | None) -> str | None:
    """The ``path:`` body the manifest gives ``key`` (item ``index`` of an array entry), when
    it is well formed; else ``None`` (a ``passport:`` ref, or the manifest cannot say)."""
    artifacts = manifest.value.get("artifacts") if isinstance(manifest.value, dict) else None
    entry = artifacts.get(key) if isinstance(artifacts, dict) else None
    if not isinstance(entry, dict) or entry.get("present") is not True:
        return None
    if index is not None:
        items = entry.get("items")
        if not isinstance(items, list) or index >= len(items) or not isinstance(items[index], dict):
            return None
        entry = items[index]
    ref = entry.get("path_or_passport_ref")
    if not isinstance(ref, str) or not ref.startswith("path:"):
        return None
    body = ref[len("path:") :]
    return body if path_ref_problem(body) is None else None


def _report_count(manifest: Document) -> int | None:
    artifacts = manifest.value.get("artifacts") if isinstance(manifest.value, dict) else None
    entry = artifacts.get("apply_reports") if isinstance(artifacts, dict) else None
    if isinstance(entry, dict) and entry.get("present") is True:
        items = entry.get("items")
        return len(items) if isinstance(items, list) else None
    return None


def load_re_review(
    source: object = None,
    *,
    manifest: object = None,
    precommitment: object = None,
    verdict_record: object = None,
    traceability: object = None,
    roadmap: object = None,
    letter: object = None,
    apply_reports: Sequence[object] | None = None,
    max_bytes: int = MAX_INPUT_BYTES,
) -> ReReviewBundle:
    """Read a re-review bundle (design §6).

    ``source`` is a folder (``manifest.json``, ``precommitment.json``,
    ``verdict_record.json``, ``traceability.json``; the roadmap, letter and apply reports at
    their manifest ``path:`` refs, inside the folder), a mapping with the keyword names as
    keys, or ``None``. Keywords override it. The four phase documents may be paths (``str``
    or path-like), bytes or mappings; the roadmap, letter and reports (hashed) paths or bytes.
    """
    check_limit(max_bytes)
    given: dict[str, object] = {}
    folder: str | None = None
    if isinstance(source, Mapping):
        unknown = sorted(str(k) for k in source if k not in _KEYS)
        if unknown:
            raise ReReviewError(
                f"source: unknown key(s) {', '.join(unknown)}; known: {', '.join(_KEYS)}"
            )
        given.update(source)
    elif isinstance(source, str | os.PathLike):
        folder = os.fspath(source)
        if not isinstance(folder, str) or not os.path.isdir(folder):
            raise ReReviewError(f"{shown(source)}: not a folder")
    elif source is not None:
        raise ReReviewError(f"source must be a folder, a mapping or None, got {shown(source)}")
    keywords = {
        "manifest": manifest,
        "precommitment": precommitment,
        "verdict_record": verdict_record,
        "traceability": traceability,
        "roadmap": roadmap,
        "letter": letter,
        "apply_reports": apply_reports,
    }
    given.update({k: v for k, v in keywords.items() if v is not None})
    docs: dict[str, Document] = {}
    for name in PHASE_DOCUMENTS:
        if name in given:
            docs[name] = _read(name, given[name], max_bytes=max_bytes, parse="mapping")
        elif folder is not None:
            path = _inside(folder, os.path.join(folder, DEFAULT_NAMES[name]))
            docs[name] = _read(name, path, max_bytes=max_bytes, parse="mapping")
        else:
            docs[name] = Document(
                name, None, supplied=False, error=InputError(f"{name}: not supplied")
            )
    man = docs["manifest"]

    def located(name: str, key: str, index: int | None, parse: str) -> Document:
        body = _ref_path(man, key, index) if folder is not None else None
        if folder is None or body is None:
            return Document(name, None, supplied=False)
        path = _inside(folder, os.path.join(folder, body))
        return _read(name, path, max_bytes=max_bytes, parse=parse)

    road = (
        _read("roadmap", given["roadmap"], max_bytes=max_bytes, parse="json")
        if "roadmap" in given
        else located("roadmap", "revision_roadmap", None, "json")
    )
    let = (
        _read("letter", given["letter"], max_bytes=max_bytes, parse="text")
        if "letter" in given
        else located("letter", "editorial_decision_letter", None, "text")
    )
    reports: tuple[Document, ...] | None
    if "apply_reports" in given:
        seq = given["apply_reports"]
        if isinstance(seq, str | bytes | bytearray | os.PathLike) or not isinstance(seq, Sequence):
            raise ReReviewError(f"apply_reports must be a list of paths or bytes, got {shown(seq)}")
        reports = tuple(
            _read(f"apply_reports[{i}]", item, max_bytes=max_bytes, parse="json")
            for i, item in enumerate(seq)
        )
    else:
        count = _report_count(man) if folder is not None else None
        reports = (
            None
            if count is None
            else tuple(
                located(f"apply_reports[{i}]", "apply_reports", i, "json") for i in range(count)
            )
        )
    return ReReviewBundle(
        manifest=man,
        precommitment=docs["precommitment"],
        verdict_record=docs["verdict_record"],
        traceability=docs["traceability"],
        roadmap=road,
        letter=let,
        apply_reports=reports,
        folder=folder,
        max_bytes=max_bytes,
    )
