"""The project configuration and the code selection: read once, resolved into a frozen value.

The configuration is ``[tool.sprint-kernel]`` in the nearest ``pyproject.toml`` that has
that table, or a ``sprint-kernel.toml`` with the same keys at top level, searched upward, as
ruff searches (in one directory, ``sprint-kernel.toml`` comes first): the run's from the
first input's directory (else the working directory), and each file's selection and
``exclude`` from that file's own directory (:meth:`Settings.for_file`). ``--config FILE``
names one for every file; ``--isolated`` ignores them all. Paths and globs in it are
relative to its directory. Command-line flags override it.

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
from kernel.suggest import did_you_mean

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
    "selectors",
    "settle",
    "shown_settings",
]

#: The keys a configuration may hold.
KEYS: Final = (
    "contract",
    "dialect",
    "ars",
    "select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "strict",
    "max-bytes",
    "docs-url",
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
    #: The ARS reading of 13.2 reviewer documents (``main`` or ``fork``).
    ars: str | None = None
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    exclude: tuple[str, ...] = ()
    strict: bool | None = None
    max_bytes: int | None = None
    docs_url: str | None = None


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
            hint = did_you_mean(selector, REGISTRY)
            raise ConfigError(f"{where}: {selector!r} is no code and no prefix of one{hint}")
        if ignoring and all(c.severity == "error" for c in covered):
            what = "is an error" if covered[0].id == selector else "covers only errors"
            raise ConfigError(
                f"{where}: {selector} {what}; errors are the protocol and cannot be ignored"
            )
        out.append(selector)
    return tuple(out)


def selectors(*, ignoring: bool) -> tuple[str, ...]:
    """Every selector :func:`parse_selectors` takes: each code and each prefix of whole parts
    (for ``ignoring``, those covering a warning or info code), sorted."""
    found: dict[str, bool] = {}
    for code in REGISTRY.values():
        parts = code.id.split("-")
        for n in range(1, len(parts) + 1):
            prefix = "-".join(parts[:n])
            found[prefix] = found.get(prefix, False) or code.severity != "error"
    return tuple(sorted(s for s, soft in found.items() if soft or not ignoring))


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
    #: Leave out an excluded file even when it is named on the command line.
    force_exclude: bool = False
    statistics: bool = False
    output_file: str | None = None
    stdin_filename: str | None = None
    #: Where the docs (``codes.md``) are published; links are left out without it.
    docs_url: str | None = None
    #: The configuration file the run's settings came from (``None``: none).
    source: str | None = None
    #: Where each shown value came from: key → ``default``, a file, or a flag.
    origins: tuple[tuple[str, str], ...] = ()
    #: Whether each file is reported under the configuration nearest it (no ``--config``,
    #: no ``--isolated``); the command line's ``--select``/``--ignore`` apply to every file.
    discover: bool = False
    flag_select: tuple[str, ...] | None = None
    flag_ignore: tuple[str, ...] = ()
    #: The configuration these settings were read from (a file's own, after :meth:`for_file`).
    config: Config = Config()
    #: The project keys the command line set (``contract``, ``dialect``, ``strict``,
    #: ``max-bytes``, …) and their values: they win over every file's configuration.
    flags: tuple[tuple[str, Any], ...] = ()

    def setting(self, key: str, default: Any = None) -> Any:
        """A project key's value for these settings' files: the command line's, else the
        configuration's, else ``default``."""
        given = dict(self.flags)
        if key in given:
            return given[key]
        value = getattr(self.config, key.replace("-", "_"), None)
        return default if value is None else value

    def project(self, file: str | None) -> str | None:
        """The configuration file whose project ``file`` belongs to (``None``: none): a run
        over files of several projects is several runs, one per project."""
        return self.for_file(file).source

    def for_file(self, file: str | None) -> Settings:
        """The settings that apply to ``file``: those of the configuration nearest it (found
        from its directory upward, as ruff does), with the command line's selection on top;
        these settings when it has none, or when it is ``-``."""
        if not self.discover or file is None or file == "-":
            return self
        found = _nearest(os.path.dirname(os.path.abspath(file)))
        if found is None or os.path.abspath(found) == _abspath(self.source):
            return self
        return self._under(_read_found(found))

    def _under(self, config: Config) -> Settings:
        select = config.select if self.flag_select is None else self.flag_select
        return attrs.evolve(
            self,
            select=select,
            ignore=config.ignore + self.flag_ignore,
            per_file_ignores=config.per_file_ignores,
            exclude=config.exclude,
            root=config.root,
            source=config.source,
            contract=config.contract,
            docs_url=config.docs_url,
            config=config,
            strict=bool(dict(self.flags).get("strict", config.strict)),
        )

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
            if d.severity != "error":
                own = self.for_file(d.file)
                if own._ignored(d.code, (*own.ignore, *own._file_ignores(d.file))):
                    continue
            kept.append(d)
        return kept


def glob_error(pattern: str) -> str | None:
    """Why a ``.gitignore``-style pattern cannot be used, or ``None`` when it can."""
    try:
        _glob(pattern)
    except re.error as exc:  # a reversed range: [z-a]
        return exc.msg
    except ValueError as exc:
        return str(exc)
    return None


def _globs(values: Iterable[str], where: str) -> None:
    for pattern in values:
        problem = glob_error(pattern)
        if problem is not None:
            raise ConfigError(f"{where}: {pattern!r} is not a usable glob ({problem})")


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


def _abspath(path: str | None) -> str | None:
    return None if path is None else os.path.abspath(path)


@functools.cache
def _nearest(directory: str) -> str | None:
    return find_config(directory)


@functools.cache
def _read_found(path: str) -> Config:
    return read_config(os.path.relpath(path))


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


def _codes(value: Any, where: str) -> tuple[str, ...]:
    codes = _strings(value, where)
    for code in codes:
        if code != code.strip():
            raise ConfigError(f"{where}: {code!r} has spaces around it")
    return codes


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
        hint = did_you_mean(unknown[0], KEYS)
        raise ConfigError(f"{prefix} {unknown[0]}: unknown key{hint} (known: {', '.join(KEYS)})")
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
        elif key == "ars":
            fields["ars"] = _ars(value, where)
        elif key in ("select", "ignore"):
            fields[key] = parse_selectors(_codes(value, where), where, ignoring=key == "ignore")
        elif key == "per-file-ignores":
            if not isinstance(value, dict):
                raise ConfigError(f"{where}: must be a table of glob = [codes]")
            _globs(value, where)
            fields["per_file_ignores"] = tuple(
                (
                    glob,
                    parse_selectors(
                        _codes(codes, f"{where} {glob!r}"), f"{where} {glob!r}", ignoring=True
                    ),
                )
                for glob, codes in value.items()
            )
        elif key == "exclude":
            fields["exclude"] = _strings(value, where)
            _globs(fields["exclude"], where)
        elif key == "strict":
            if not isinstance(value, bool):
                raise ConfigError(f"{where}: must be true or false")
            fields["strict"] = value
        elif key == "docs-url":
            if not isinstance(value, str) or not re.fullmatch(r"https?://[^\s/]+(/\S*)?", value):
                raise ConfigError(f"{where}: must be an http(s) URL (where codes.md is published)")
            fields["docs_url"] = value
        else:  # max-bytes
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or not (1 <= value <= MAX_LIMIT)
            ):
                raise ConfigError(f"{where}: must be a whole number from 1 to {MAX_LIMIT}")
            fields["max_bytes"] = value
    return Config(**fields)


def _ars(value: Any, where: str) -> str:
    from kernel.reviewer.lint.ars import ARS

    if not isinstance(value, str) or value not in ARS:
        hint = did_you_mean(value, ARS) if isinstance(value, str) else ""
        raise ConfigError(f"{where}: must be one of {', '.join(ARS)}{hint}")
    return value


def _contract_path(value: str, root: str) -> str:
    """A template name as it is; a path relative to the configuration's directory."""
    from kernel.contract.templates import TEMPLATE_NAMES

    if value in TEMPLATE_NAMES or value == "-" or os.path.isabs(value):
        return value
    return os.path.relpath(os.path.join(root, value))


def _start(inputs: Sequence[str]) -> str | None:
    """Where the search for the run's configuration starts: the first input's directory (a
    directory input itself), else the working directory."""
    for path in inputs:
        if path == "-":
            continue
        return path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    return None


def load_config(named: str | None, *, isolated: bool, inputs: Sequence[str] = ()) -> Config:
    """The configuration a command runs under: ``--config FILE``, else the one nearest the
    first input (else nearest the working directory), else none (``--isolated``: none)."""
    if isolated:
        return Config()
    if named is not None:
        return read_config(named, named=True)
    start = _start(inputs)
    found = find_config(start) if start is not None else None
    if found is None:
        found = find_config()
    return Config() if found is None else _read_found(os.path.abspath(found))


def _split(values: Sequence[str] | None) -> list[str]:
    return [part for value in values or () for part in value.split(",") if part.strip()]


def settle(args: argparse.Namespace, inputs: Sequence[str] = ()) -> None:
    """Resolve the configuration and the command line into ``args.settings``, and fill
    ``contract``, ``dialect``, ``ars`` and ``max_bytes`` from the configuration where the
    command line left them out (flags win). ``inputs``: the paths the command was given (the run's
    configuration is the one nearest the first)."""
    _nearest.cache_clear()  # each run sees the files as they are now
    _read_found.cache_clear()
    config = load_config(args.config, isolated=args.isolated, inputs=inputs)
    source = config.source or "default"
    origins: dict[str, str] = {}

    def origin(key: str, flag: str | None, value: object, default: object = None) -> None:
        if flag is not None:
            origins[key] = f"command line ({flag})"
        else:
            origins[key] = source if value != default else "default"

    flags: dict[str, Any] = {}
    keys = ("contract", "dialect", "ars", "max-bytes")
    for key, flag in ((k, k.replace("-", "_")) for k in keys):
        if getattr(args, flag, None) is not None:
            flags[key] = getattr(args, flag)
    if args.strict is not None:
        flags["strict"] = args.strict
    flag_select = flag_ignore = None
    select = config.select
    if args.select is not None:
        select = flag_select = parse_selectors(_split(args.select), "--select", ignoring=False)
    ignore = config.ignore
    if args.ignore is not None:
        flag_ignore = parse_selectors(_split(args.ignore), "--ignore", ignoring=True)
        ignore += flag_ignore
    origin("select", "--select" if flag_select is not None else None, select)
    origin("ignore", "--ignore" if flag_ignore is not None else None, config.ignore, ())
    origin("per-file-ignores", None, config.per_file_ignores, ())
    origin("exclude", None, config.exclude, ())
    origin("strict", "--strict" if args.strict is not None else None, config.strict)
    origin("docs-url", None, config.docs_url)
    args.settings = Settings(
        select=select,
        ignore=ignore,
        per_file_ignores=config.per_file_ignores,
        contract=config.contract,
        exclude=config.exclude,
        root=config.root,
        strict=bool(config.strict if args.strict is None else args.strict),
        quiet=args.quiet,
        force_exclude=getattr(args, "force_exclude", False),
        statistics=args.statistics,
        output_file=args.output_file,
        stdin_filename=args.stdin_filename,
        source=config.source,
        docs_url=config.docs_url,
        discover=not args.isolated and args.config is None,
        flag_select=flag_select,
        flag_ignore=flag_ignore or (),
        config=config,
        flags=tuple(flags.items()),
    )
    if getattr(args, "contract", "") is None:
        args.contract = config.contract
        origin("contract", None, config.contract)
    elif "contract" in args:
        origin("contract", "--contract" if args.contract is not None else None, None)
    if getattr(args, "dialect", "") is None:
        args.dialect = config.dialect or "auto"
        origin("dialect", None, config.dialect)
    elif "dialect" in args:
        origin("dialect", "--dialect", None)
    if getattr(args, "ars", "") is None:
        from kernel.reviewer.lint.ars import DEFAULT_ARS

        args.ars = config.ars or DEFAULT_ARS
        origin("ars", None, config.ars)
    elif "ars" in args:
        origin("ars", "--ars", None)
    if getattr(args, "max_bytes", "") is None:
        args.max_bytes = config.max_bytes or MAX_INPUT_BYTES
        origin("max-bytes", None, config.max_bytes)
    elif "max_bytes" in args:
        origin("max-bytes", "--max-bytes", None)
    args.settings = attrs.evolve(args.settings, origins=tuple(origins.items()))


def _shown_path(value: Any) -> Any:
    """A path as ``--show-settings`` prints every path: absolute (template names and ``-``
    as they are)."""
    from kernel.contract.templates import TEMPLATE_NAMES

    if not isinstance(value, str) or value in TEMPLATE_NAMES or value == "-":
        return value
    return os.path.abspath(value)


def shown_settings(args: argparse.Namespace, file: str | None) -> dict[str, Any]:
    """``--show-settings``: the settings that apply to ``file`` (the run's when ``None``),
    each value with where it came from. Every path is absolute."""
    from kernel.reviewer.lint.ars import DEFAULT_ARS

    settings: Settings = args.settings
    own = settings.for_file(file)
    origins = dict(settings.origins)
    given = dict(settings.flags)
    if own is not settings:  # a file under another configuration than the run's
        for key in origins:
            if not origins[key].startswith("command line"):
                origins[key] = own.source or "default"
        for key in ("contract", "dialect", "ars", "strict", "max-bytes", "docs-url"):
            if key in origins and key not in given and own.setting(key) is None:
                origins[key] = "default"
    values: dict[str, Any] = {
        "contract": _shown_path(own.setting("contract")),
        "dialect": own.setting("dialect", "auto"),
        "ars": own.setting("ars", DEFAULT_ARS),
        "select": None if own.select is None else list(own.select),
        "ignore": list(own.ignore),
        "per-file-ignores": {glob: list(codes) for glob, codes in own.per_file_ignores},
        "exclude": list(own.exclude),
        "strict": bool(own.setting("strict", False)),
        "max-bytes": own.setting("max-bytes", MAX_INPUT_BYTES),
        "docs-url": own.setting("docs-url"),
    }
    files = {f: os.path.abspath(f) for f in (settings.source, own.source) if f is not None}
    return {
        "file": _shown_path(file),
        "configuration": files.get(own.source or ""),
        "root": os.path.abspath(own.root),
        "settings": {
            key: {"value": value, "from": files.get(origins.get(key, ""), origins.get(key))}
            for key, value in values.items()
            if key in origins
        },
    }
