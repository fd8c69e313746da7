"""The project configuration and the code selection: read once, resolved into a frozen value.

The configuration is ``[tool.sprint-kernel]`` in the nearest ``pyproject.toml`` that has
that table, or a ``sprint-kernel.toml`` with the same keys at top level, searched upward from
the working directory (in one directory, ``sprint-kernel.toml`` comes first). ``--config
FILE`` names one; ``--isolated`` ignores them all. Paths and globs in it are relative to its
directory. Command-line flags override it.

Selection filters warnings and info only: errors are the protocol, and naming one in
``ignore`` or ``per-file-ignores`` is a configuration error. A selector is a code or a prefix
of whole ``-``-separated parts (``SC`` covers SC-11, ``SC-1`` does not); the most specific
selector that matches a code decides, and ``ignore`` wins a tie.
"""

from __future__ import annotations

import argparse
import functools
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import attrs

from kernel.diagnostics import REGISTRY, Diagnostic
from kernel.errors import ConfigError
from kernel.io import MAX_INPUT_BYTES, MAX_LIMIT

if TYPE_CHECKING:  # imported only when a per-file-ignores glob is matched
    import pathspec

__all__ = [
    "DIALECTS",
    "KEYS",
    "Config",
    "Settings",
    "find_config",
    "load_config",
    "parse_selectors",
    "read_config",
    "settle",
]

#: The keys a configuration may hold.
KEYS: Final = (
    "contract",
    "dialect",
    "select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "strict",
    "max-bytes",
)
DIALECTS: Final = ("auto", "13", "13.2")
PYPROJECT = "pyproject.toml"
OWN_FILE = "sprint-kernel.toml"
TABLE = "sprint-kernel"
#: A cheap test that a pyproject.toml may hold the table, before it is parsed: a
#: ``tool.sprint-kernel`` header or dotted key, or ``sprint-kernel = {…}`` under ``[tool]``.
_MAY_HOLD_TABLE = re.compile(
    rb'tool\s*\.\s*"?sprint-kernel|^[^\S\n]*"?sprint-kernel"?\s*=\s*\{', re.MULTILINE
)


@attrs.frozen
class Config:
    """One configuration file's settings (every field ``None`` or empty when not set)."""

    source: str | None = None
    #: The directory that its paths and globs are relative to.
    root: str = "."
    contract: str | None = None
    dialect: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    strict: bool | None = None
    max_bytes: int | None = None


def _matches(selector: str, code: str) -> bool:
    return code == selector or code.startswith(selector + "-")


def parse_selectors(values: Iterable[str], where: str, *, ignoring: bool) -> tuple[str, ...]:
    """Check each selector names registered codes; for ``ignoring``, that it names warnings or
    info, not only errors."""
    out = []
    for raw in values:
        selector = raw.strip()
        covered = [c for c in REGISTRY.values() if _matches(selector, c.id)]
        if not covered:
            raise ConfigError(f"{where}: {selector!r} is no code and no prefix of one")
        if ignoring and all(c.severity == "error" for c in covered):
            what = "is an error" if covered[0].id == selector else "covers only errors"
            raise ConfigError(
                f"{where}: {selector} {what}; errors are the protocol and cannot be ignored"
            )
        out.append(selector)
    return tuple(out)


def _specificity(selector: str) -> int:
    return selector.count("-") + 1


@attrs.frozen
class Settings:
    """What the scaffold applies to a command's findings and output, resolved once from the
    configuration and the command line."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    #: The configuration's contract (``check`` with no argument checks it).
    contract: str | None = None
    #: Globs of files and directories never read (relative to ``root``).
    exclude: tuple[str, ...] = ()
    root: str = "."
    strict: bool = False
    quiet: bool = False
    statistics: bool = False
    output_file: str | None = None
    stdin_filename: str | None = None

    def _ignored(self, code: str, selectors: Sequence[str]) -> bool:
        best_select = max(
            (_specificity(s) for s in self.select or () if _matches(s, code)), default=-1
        )
        best_ignore = max((_specificity(s) for s in selectors if _matches(s, code)), default=-1)
        if self.select is not None and best_select < 0:
            return True
        return best_ignore >= 0 and best_ignore >= best_select

    def _file_ignores(self, file: str | None) -> tuple[str, ...]:
        if not self.per_file_ignores or file is None:
            return ()
        path = _relative(file, self.root)
        found: list[str] = []
        for glob, codes in self.per_file_ignores:
            if _glob(glob).match_file(path):
                found += codes
        return tuple(found)

    def reported(self, diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
        """The diagnostics this selection reports: every error, and the warnings and info
        that ``select``, ``ignore`` and ``per-file-ignores`` keep."""
        kept = []
        for d in diagnostics:
            if d.severity != "error" and self._ignored(
                d.code, (*self.ignore, *self._file_ignores(d.file))
            ):
                continue
            kept.append(d)
        return kept


@functools.cache
def _glob(pattern: str) -> pathspec.GitIgnoreSpec:
    """One ``per-file-ignores`` glob, matched as git matches a ``.gitignore`` line."""
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines([pattern])


def _relative(file: str, root: str) -> str:
    """``file`` relative to ``root`` when it lies below it, else as given; with ``/``."""
    path = os.path.relpath(os.path.abspath(file), os.path.abspath(root))
    if path == os.pardir or path.startswith(os.pardir + os.sep):
        path = file
    return path.replace(os.sep, "/")


def _has_table(path: str) -> bool:
    """Whether a ``pyproject.toml`` holds a ``[tool.sprint-kernel]`` table (parsed only when it
    may, so that a project without one pays nothing for the search)."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError:
        return False
    if not _MAY_HOLD_TABLE.search(data):
        return False
    tool = _parse(path, data).get("tool")
    return isinstance(tool, dict) and TABLE in tool


def find_config(start: str | None = None) -> str | None:
    """The nearest configuration file, from ``start`` (the working directory) upward."""
    directory = os.path.abspath(start or os.curdir)
    while True:
        own = os.path.join(directory, OWN_FILE)
        if os.path.isfile(own):
            return own
        pyproject = os.path.join(directory, PYPROJECT)
        if os.path.isfile(pyproject) and _has_table(pyproject):
            return pyproject
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _parse(path: str, data: bytes) -> dict[str, Any]:
    import tomllib

    if len(data) > MAX_INPUT_BYTES:
        raise ConfigError(f"{path}: over the {MAX_INPUT_BYTES}-byte limit")
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from None


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{where}: must be a list of non-empty strings")
    return tuple(value)


def read_config(path: str, *, named: bool = False) -> Config:
    """The settings of one configuration file. ``named``: given with ``--config``, so a
    ``pyproject.toml`` without the table is an error rather than skipped."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror})") from None
    document = _parse(path, data)
    if os.path.basename(path) == PYPROJECT:
        tool = document.get("tool")
        table = tool.get(TABLE) if isinstance(tool, dict) else None
        if table is None and named:
            raise ConfigError(f"{path}: has no [tool.{TABLE}] table")
        prefix = f"{path}: [tool.{TABLE}]"
        document = table if isinstance(table, dict) else {}
    else:
        prefix = path
    return _config(document, path, prefix)


def _config(table: Mapping[str, Any], path: str, prefix: str) -> Config:
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise ConfigError(f"{prefix} {unknown[0]}: unknown key (known: {', '.join(KEYS)})")
    root = os.path.dirname(path) or "."
    fields: dict[str, Any] = {"source": path, "root": root}
    for key, value in table.items():
        where = f"{prefix} {key}"
        if key == "contract":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: must be a contract path or template name")
            fields["contract"] = _contract_path(value, root)
        elif key == "dialect":
            if value not in DIALECTS:
                raise ConfigError(f"{where}: must be one of {', '.join(DIALECTS)}")
            fields["dialect"] = value
        elif key in ("select", "ignore"):
            fields[key] = parse_selectors(_strings(value, where), where, ignoring=key == "ignore")
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: must be a table of glob = [codes]")
            fields["per_file_ignores"] = tuple(
                (
                    glob,
                    parse_selectors(
                        _strings(codes, f"{where} {glob!r}"), f"{where} {glob!r}", ignoring=True
                    ),
                )
                for glob, codes in value.items()
            )
        elif key == "exclude":
            fields["exclude"] = _strings(value, where)
        elif key == "strict":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}: must be true or false")
            fields["strict"] = value
        else:  # max-bytes
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not (1 <= value <= MAX_LIMIT)
            ):
                raise ConfigError(f"{where}: must be a whole number from 1 to {MAX_LIMIT}")
            fields["max_bytes"] = value
    return Config(**fields)


def _contract_path(value: str, root: str) -> str:
    """A template name as it is; a path relative to the configuration's directory."""
    from kernel.contract.templates import TEMPLATE_NAMES

    if value in TEMPLATE_NAMES or value == "-" or os.path.isabs(value):
        return value
    return os.path.relpath(os.path.join(root, value))


def load_config(named: str | None, *, isolated: bool) -> Config:
    """The configuration a command runs under: ``--config FILE``, else the nearest one, else
    none (``--isolated``: none at all)."""
    if isolated:
        return Config()
    if named is not None:
        return read_config(named, named=True)
    found = find_config()
    return Config() if found is None else read_config(os.path.relpath(found))


def _split(values: Sequence[str] | None) -> list[str]:
    return [part for value in values or () for part in value.split(",") if part.strip()]


def settle(args: argparse.Namespace) -> None:
    """Resolve the configuration and the command line into ``args.settings``, and fill
    ``contract``, ``dialect`` and ``max_bytes`` from the configuration where the command line
    left them out (flags win)."""
    config = load_config(args.config, isolated=args.isolated)
    select = config.select
    if args.select is not None:
        select = parse_selectors(_split(args.select), "--select", ignoring=False)
    ignore = config.ignore
    if args.ignore is not None:
        ignore += parse_selectors(_split(args.ignore), "--ignore", ignoring=True)
    args.settings = Settings(
        select=select,
        ignore=ignore,
        per_file_ignores=config.per_file_ignores,
        contract=config.contract,
        exclude=config.exclude,
        root=config.root,
        strict=bool(config.strict if args.strict is None else args.strict),
        quiet=args.quiet,
        statistics=args.statistics,
        output_file=args.output_file,
        stdin_filename=args.stdin_filename,
    )
    if getattr(args, "contract", "") is None:
        args.contract = config.contract
    if getattr(args, "dialect", "") is None:
        args.dialect = config.dialect or "auto"
    if getattr(args, "max_bytes", "") is None:
        args.max_bytes = config.max_bytes or MAX_INPUT_BYTES
