"""What every subcommand shares: argument parsing, reading inputs, output formats, exit codes.

A subcommand module has ``main(argv) -> int``: it builds a :class:`Parser`, reads its inputs
through a :class:`Reader` (``-`` is standard input; ``--max-bytes`` applies to every file),
and returns ``emit(args, Result(...))``. :func:`run` is the last line of defence: no
traceback reaches a user.

Exit codes (api.md): 0 success, 1 the input was judged and failed, 2 usage or unreadable input.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal, NoReturn, TextIO

import attrs

from kernel._version import __version__
from kernel.cli.config import DIALECTS, Settings, settle
from kernel.diagnostics import REGISTRY, Diagnostic, docs_url, from_error, sort_key
from kernel.errors import InputError, KernelError
from kernel.io import MAX_INPUT_BYTES, MAX_LIMIT, decode_utf8, loads_strict, read_bytes

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "FORMATS",
    "GROUP_EXIT",
    "PROG",
    "Diagnostic",
    "Parser",
    "Reader",
    "Result",
    "dump_json",
    "emit",
    "exit_for",
    "github_lines",
    "gitlab_report",
    "junit_xml",
    "reported",
    "run",
    "sarif_log",
    "statistics",
    "write_report",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

PROG = "sprint-kernel"
FORMATS = ("text", "json", "sarif", "github", "junit", "gitlab")
#: The exit codes of a command group (each subcommand's --help gives its own).
GROUP_EXIT = """\
  0  success
  1  the input was judged and failed
  2  usage error or unreadable input
  (see COMMAND --help for what each means there)"""
#: Input codes that are usage errors everywhere (exit 2), even for ``check``.
NOT_A_FILE = "E-NOT-FILE"

Stream = Literal["out", "err"]
_DEFAULT_SETTINGS = Settings()


def _max_bytes(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 10) or not (
        1 <= int(text) <= MAX_LIMIT
    ):
        raise argparse.ArgumentTypeError(
            f"must be a whole number of bytes from 1 to {MAX_LIMIT}, got {text[:40]!r}"
        )
    return int(text)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it (``COLUMNS`` first, then
    standard output's terminal, else 80), without importing ``shutil``: its archive support
    costs a command line about 4 ms, and argparse imports it only for this."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


def _configuration_options(parser: argparse.ArgumentParser, dialect: bool) -> None:
    """The options of a command that reads the project configuration (docs/cli.md)."""
    add = parser.add_argument
    add(
        "--config",
        metavar="FILE",
        help="read this configuration file (pyproject.toml or "
        "sprint-kernel.toml) instead of searching upward from the working directory",
    )
    add("--isolated", action="store_true", help="ignore every configuration file")
    add(
        "--select",
        action="append",
        metavar="CODES",
        help="report only these warning and info codes or prefixes (comma-separated; "
        "errors are always reported)",
    )
    add(
        "--ignore",
        action="append",
        metavar="CODES",
        help="do not report these warning and info codes or prefixes (comma-separated)",
    )
    add(
        "--strict",
        action="store_const",
        const=True,
        default=None,
        help="exit 1 when a warning is reported",
    )
    add(
        "-q",
        "--quiet",
        action="store_true",
        help="print the findings only, and nothing at all when there are none",
    )
    add("--statistics", action="store_true", help="print one line per code with its count")
    add("-o", "--output-file", metavar="FILE", help="write the report to FILE")
    add("--stdin-filename", metavar="NAME", help="the name of the - document in every report")
    add(
        "--show-settings",
        action="store_true",
        help="print the settings for the first file and where each came from, and exit",
    )
    add(
        "--show-files",
        action="store_true",
        help="print the files a run would read (after exclude and .gitignore), and exit",
    )
    if dialect:
        add(
            "--dialect",
            choices=DIALECTS,
            default=None,
            help="contract dialect (default: from config, else auto)",
        )


def _shown(
    args: argparse.Namespace,
    inputs: Sequence[str],
    walks: Sequence[str],
    keep: Callable[[str], bool] | None,
) -> str:
    """What ``--show-files`` (the files a run reads, after ``exclude`` and ``.gitignore``) or
    ``--show-settings`` (the settings for the first of them, and where each came from)
    prints."""
    from kernel.cli.config import shown_settings
    from kernel.cli.files import expand

    paths = [p for p in inputs if p != "-" and os.path.exists(p)]
    files = expand(paths, walks or ("",), args.settings) if paths else []
    if keep is not None:
        named = set(expand([p for p in paths if not os.path.isdir(p)], ("",), args.settings))
        files = [f for f in files if f in named or keep(f)]
    if args.show_files:
        if args.format == "json":
            return json.dumps(files, indent=2, ensure_ascii=False) + "\n"
        return "".join(f"{f}\n" for f in files)
    shown = shown_settings(args, files[0] if files else None)
    if args.format == "json":
        return json.dumps(shown, indent=2, ensure_ascii=False) + "\n"
    lines = [
        f"Settings for: {shown['file'] or '(no file)'}",
        f"Configuration: {shown['configuration'] or '(none)'}",
    ]
    for key, entry in shown["settings"].items():
        value = json.dumps(entry["value"], ensure_ascii=False)
        lines.append(f"  {key} = {value}  # {entry['from']}")
    return "\n".join(lines) + "\n"


class _Formatter(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24) -> None:
        super().__init__(prog, indent_increment, max_help_position, width=_columns() - 2)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` with ``--version``, ``--format``, ``--max-bytes``, its exit
    codes in ``--help``, and exit code 2 on usage errors. Subcommand parsers (from
    :meth:`commands`) get the same.

    A command that reports findings (``formats`` and ``max_bytes``, unless ``configured``
    says otherwise) also reads the project configuration and takes the options that go with
    it (:func:`_configuration_options`); ``dialect`` adds ``--dialect``. After parsing,
    ``args.settings`` holds the resolved :class:`~kernel.cli.config.Settings` that
    :func:`emit` applies, and ``args.contract``, ``args.dialect`` and ``args.max_bytes`` are
    filled from the configuration where the command line left them out."""

    def __init__(
        self,
        prog: str | None = None,
        description: str | None = None,
        *,
        exit_codes: str = "",
        formats: Sequence[str] | None = FORMATS,
        max_bytes: bool = True,
        configured: bool | None = None,
        dialect: bool = False,
        walks: Sequence[str] = (),
        keep: Callable[[str], bool] | None = None,
        **kwargs: Any,
    ) -> None:
        epilog = "exit codes:\n" + exit_codes.rstrip() if exit_codes else None
        super().__init__(
            prog=prog,
            description=description,
            epilog=epilog,
            formatter_class=_Formatter,
            **kwargs,
        )
        self.add_argument("--version", action="version", version=f"{PROG} {__version__}")
        if formats:
            self.add_argument(
                "--format", choices=tuple(formats), default=formats[0], help="output format"
            )
        if max_bytes:
            self.add_argument(
                "--max-bytes",
                type=_max_bytes,
                default=None,
                metavar="N",
                help=f"size limit for every file read (default {MAX_INPUT_BYTES} = 1 MiB)",
            )
        self._configured = bool(formats) and max_bytes if configured is None else configured
        self._needs_contract = False
        #: The file name endings a directory argument is searched for (``--show-files``).
        self._walks = tuple(walks)
        #: Which files found in a directory the command reads (``None``: every one).
        self._keep = keep
        if self._configured:
            _configuration_options(self, dialect)

    def commands(self) -> Callable[..., Parser]:
        """``add(name, help=…, description=…, exit_codes=…, formats=…)`` → a subcommand
        parser of this class."""
        sub = self.add_subparsers(dest="command", required=True, metavar="COMMAND")

        def add(name: str, **kwargs: Any) -> Parser:
            parser: Parser = sub.add_parser(name, **kwargs)
            return parser

        return add

    def add_contract_option(self, help: str, *, positional: bool = False) -> None:
        """``--contract C`` (or a ``contract`` argument): required, unless the configuration
        names a contract."""
        help = f"{help} (default: contract from the configuration)"
        if positional:
            self.add_argument("contract", nargs="?", default=None, help=help)
        else:
            self.add_argument("--contract", default=None, help=help)
        self._needs_contract = True

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: None = None
    ) -> argparse.Namespace:
        return self._settle(super().parse_args(args))

    def parse_intermixed_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: None = None
    ) -> argparse.Namespace:
        return self._settle(super().parse_intermixed_args(args))

    def _settle(self, args: argparse.Namespace) -> argparse.Namespace:
        """Resolve the configuration and the command line into ``args.settings`` (once)."""
        if "isolated" not in args:  # a command that takes no configuration
            if getattr(args, "max_bytes", 0) is None:
                args.max_bytes = MAX_INPUT_BYTES
            return args
        inputs = self._inputs(args)
        try:
            settle(args, inputs)
            if args.show_settings or args.show_files:
                sys.stdout.write(_shown(args, inputs, self._walks, self._keep))
                self.exit(EXIT_OK)
        except KernelError as exc:  # the usage is no help with a configuration file
            self.exit(EXIT_USAGE, f"{self.prog}: error: {exc.message}\n")
        if args.statistics and args.format not in ("text", "json"):
            self.error(f"--statistics prints text or json, not {args.format}")
        if self._needs_contract and args.contract is None:
            self.error(
                "the following arguments are required: "
                f"{'--contract' if '--contract' in self._option_string_actions else 'contract'} "
                "(or set contract in the configuration)"
            )
        return args

    def _inputs(self, args: argparse.Namespace) -> list[str]:
        """The paths given as positional arguments (a subcommand's too)."""
        found: list[str] = []
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(args, action.dest, None) or "")
                if isinstance(chosen, Parser):
                    found += chosen._inputs(args)
            elif not action.option_strings and action.dest != argparse.SUPPRESS:
                value = getattr(args, action.dest, None)
                values = value if isinstance(value, list) else [value]
                found += [v for v in values if isinstance(v, str)]
        return found

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


class Reader:
    """Reads a command's inputs: every file under the same ``max_bytes``; ``-`` is standard
    input, which can be read once."""

    def __init__(
        self, max_bytes: int = MAX_INPUT_BYTES, stdin: Any = None, dialect: str = "auto"
    ) -> None:
        self.max_bytes = max_bytes
        self._stdin = stdin
        self._stdin_read = False
        #: The dialect every contract is read as: ``"13"``, ``"13.2"`` or ``None`` (detected).
        self.dialect = None if dialect == "auto" else dialect

    def bytes(self, path: str) -> bytes:
        if path != "-":
            return read_bytes(path, max_bytes=self.max_bytes)
        if self._stdin_read:
            raise InputError("-: standard input can be read only once", code=NOT_A_FILE)
        self._stdin_read = True
        stream = self._stdin if self._stdin is not None else sys.stdin.buffer
        try:
            data: bytes = stream.read(self.max_bytes + 1)
        except OSError as exc:  # a directory, a closed or detached stream
            raise InputError(f"-: standard input cannot be read ({exc})", code="E-READ") from None
        if len(data) > self.max_bytes:
            raise InputError(f"-: input is over the {self.max_bytes}-byte limit", code="E-SIZE")
        return data

    def text(self, path: str) -> str:
        return decode_utf8(self.bytes(path), path)

    def json(self, path: str) -> Any:
        return loads_strict(self.text(path), source=path, max_bytes=self.max_bytes)

    def contract(self, source: str) -> Any:
        """A :class:`~kernel.contract.model.Contract` from a path, ``-`` or a template name."""
        from kernel.contract.model import load_contract
        from kernel.errors import ContractInputError

        if source != "-":
            return load_contract(source, max_bytes=self.max_bytes, dialect=self.dialect)
        try:
            data = self.json(source)
        except InputError as exc:
            raise ContractInputError(
                exc.message, code=exc.code, line=exc.line, column=exc.column
            ) from None
        return load_contract(data, dialect=self.dialect)


def exit_for(error: KernelError) -> int:
    """2 for input that cannot be read, 1 for anything judged and failed."""
    return EXIT_USAGE if isinstance(error, InputError) else EXIT_FAILED


@attrs.frozen
class Result:
    """What a command found. ``text`` lines are (stream, line) printed after the diagnostics
    in text format (``text_diagnostics=False``: only the lines); ``body`` holds the command's
    own JSON keys."""

    exit: int
    diagnostics: Sequence[Diagnostic] = ()
    body: Mapping[str, Any] = attrs.field(factory=dict)
    text: Sequence[tuple[Stream, str]] = ()
    diagnostics_to: Stream = "out"
    text_diagnostics: bool = True
    ok: bool | None = None


def _how(where: str | argparse.Namespace) -> tuple[str, Settings]:
    """The format and settings of a command: from its parsed arguments, or a bare format."""
    if isinstance(where, str):
        return where, _DEFAULT_SETTINGS
    return where.format, getattr(where, "settings", _DEFAULT_SETTINGS)


def reported(
    where: str | argparse.Namespace, diagnostics: Iterable[Diagnostic]
) -> list[Diagnostic]:
    """The diagnostics a command's selection reports (for a command's own counts)."""
    return _how(where)[1].reported(diagnostics)


#: Codes for a file that is not there to read: no line of it can be pointed at.
_NO_DOCUMENT = frozenset({"E-READ", NOT_A_FILE})


def _located(d: Diagnostic, stdin_name: str | None) -> Diagnostic:
    """A document-level finding stands at line 1, column 1; the ``-`` document is named."""
    if stdin_name is not None and d.file == "-":
        d = d.at(stdin_name)
    if d.file is not None and d.line is None and d.code not in _NO_DOCUMENT:
        d = attrs.evolve(d, line=1, column=1)
    return d


def _renamed(value: Any, name: str) -> Any:
    """``value`` (a JSON body) with each ``"-"`` under a ``…file`` key renamed."""
    if isinstance(value, dict):
        return {
            k: name if v == "-" and k.endswith("file") else _renamed(v, name)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_renamed(v, name) for v in value]
    return value


def _renamed_line(line: str, name: str) -> str:
    if line.startswith("-:"):
        return name + line[1:]
    if line == "OK: -" or line.startswith("OK: - "):  # check's summary
        return f"OK: {name}{line[5:]}"
    return line


def emit(
    where: str | argparse.Namespace,
    result: Result,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Print ``result`` as the command's arguments (or a bare format) say; return its exit
    code. The selection, ``--strict``, ``--quiet``, ``--statistics``, ``--output-file`` and
    ``--stdin-filename`` are applied here, for every command."""
    fmt, settings = _how(where)
    name = settings.stdin_filename
    diagnostics = sorted(
        settings.reported(_located(d, name) for d in result.diagnostics), key=sort_key
    )
    code = result.exit
    ok = code == EXIT_OK if result.ok is None else result.ok
    if settings.strict and code == EXIT_OK and any(d.severity == "warning" for d in diagnostics):
        code, ok = EXIT_FAILED, False
    if name is not None:
        result = attrs.evolve(
            result,
            body=_renamed(dict(result.body), name),
            text=[(stream, _renamed_line(line, name)) for stream, line in result.text],
        )
    if out is None and settings.output_file is not None:
        try:
            with open(settings.output_file, "w", encoding="utf-8") as handle:
                _write(fmt, settings, result, diagnostics, ok, handle, handle)
        except OSError as exc:
            print(
                f"error: {settings.output_file}: cannot be written ({exc.strerror})",
                file=sys.stderr,
            )
            return EXIT_USAGE
        return code
    _write(fmt, settings, result, diagnostics, ok, out or sys.stdout, err or sys.stderr)
    return code


def write_report(where: argparse.Namespace, report: str, code: int) -> int:
    """Print a report that is not made of diagnostics (an HTML page) to standard output or
    ``--output-file``; return ``code``."""
    name = _how(where)[1].output_file
    if name is None:
        print(report)
        return code
    try:
        with open(name, "w", encoding="utf-8") as handle:
            print(report, file=handle)
    except OSError as exc:
        print(f"error: {name}: cannot be written ({exc.strerror})", file=sys.stderr)
        return EXIT_USAGE
    return code


def _write(
    fmt: str,
    settings: Settings,
    result: Result,
    diagnostics: list[Diagnostic],
    ok: bool,
    out: TextIO,
    err: TextIO,
) -> None:
    if settings.statistics:
        rows = statistics(diagnostics, settings.docs_url)
        if fmt == "json":
            dump_json(rows, out)
        for row in rows if fmt != "json" else ():
            print(f"{row['count']:>5}  {row['code']}  {row['summary']}", file=out)
    elif fmt == "json":
        dump_json(
            {
                "version": __version__,
                "ok": ok,
                "diagnostics": [d.to_dict() for d in diagnostics],
                **result.body,
            },
            out,
        )
    elif fmt == "sarif":
        dump_json(sarif_log(diagnostics, settings.docs_url), out)
    elif fmt == "github":
        for line in github_lines(diagnostics):
            print(line, file=out)
    elif fmt == "junit":
        print(junit_xml(diagnostics, settings.docs_url), file=out)
    elif fmt == "gitlab":
        dump_json(gitlab_report(diagnostics), out)
    else:
        lines: list[tuple[Stream, str]] = []
        if result.text_diagnostics or settings.quiet:
            lines += [(result.diagnostics_to, str(d)) for d in diagnostics]
        if not settings.quiet:
            lines += result.text
        for stream, line in lines:
            target = out if stream == "out" else err
            other = err if stream == "out" else out
            other.flush()  # keep the two streams in order when they share a terminal or file
            print(line, file=target)


def statistics(diagnostics: Iterable[Diagnostic], docs: str | None = None) -> list[dict[str, Any]]:
    """One row per code reported: ``count``, ``code``, ``severity``, ``summary``, ``url``
    (``None`` when no docs URL is known: :func:`~kernel.diagnostics.docs_url`)."""
    docs = docs_url(docs)
    counts: dict[str, int] = {}
    for d in diagnostics:
        counts[d.code] = counts.get(d.code, 0) + 1
    return [
        {
            "count": counts[code],
            "code": code,
            "severity": REGISTRY[code].severity,
            "summary": REGISTRY[code].summary,
            "url": REGISTRY[code].link(docs),
        }
        for code in sorted(counts)
    ]


def junit_xml(diagnostics: Iterable[Diagnostic], docs: str | None = None) -> str:
    """A JUnit XML report: a test suite per file, a test case per finding; errors and
    warnings are failures, info passes. A failure links to its code's page when the docs
    URL is known."""
    docs = docs_url(docs)
    from xml.etree import ElementTree

    diagnostics = list(diagnostics)
    failing = [d for d in diagnostics if d.severity != "info"]
    root = ElementTree.Element(
        "testsuites", name=PROG, tests=str(len(diagnostics) or 1), failures=str(len(failing))
    )
    files: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        files.setdefault(d.file or "-", []).append(d)
    if not files:
        suite = ElementTree.SubElement(root, "testsuite", name=PROG, tests="1", failures="0")
        ElementTree.SubElement(suite, "testcase", name="no findings", classname=PROG)
    for file, found in files.items():
        suite = ElementTree.SubElement(
            root,
            "testsuite",
            name=file,
            tests=str(len(found)),
            failures=str(sum(d.severity != "info" for d in found)),
        )
        for d in found:
            case = ElementTree.SubElement(
                suite,
                "testcase",
                name=f"{d.code} at {d.line or 1}" + (f":{d.column}" if d.column else ""),
                classname=file,
                file=file,
                line=str(d.line or 1),
            )
            if d.severity == "info":
                ElementTree.SubElement(case, "system-out").text = str(d)
            else:
                failure = ElementTree.SubElement(
                    case, "failure", message=d.message, type=f"{d.code} ({d.severity})"
                )
                link = REGISTRY[d.code].link(docs)
                failure.text = str(d) if link is None else f"{d}\n{link}"
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(
        root, encoding="unicode"
    )


_GITLAB_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def gitlab_report(diagnostics: Iterable[Diagnostic]) -> list[dict[str, Any]]:
    """A GitLab Code Quality report: ``description``, ``check_name``, ``fingerprint`` (stable
    across runs and line moves: code, path, message and which repeat it is), ``severity``,
    ``location.path`` and ``location.lines.begin``."""
    import hashlib

    seen: dict[str, int] = {}
    report = []
    for d in diagnostics:
        path = d.file or "-"
        key = f"{d.code}\0{path}\0{d.message}"
        repeat = seen[key] = seen.get(key, -1) + 1
        report.append(
            {
                "description": f"{d.code} {d.message}",
                "check_name": d.code,
                "fingerprint": hashlib.sha256(f"{key}\0{repeat}".encode()).hexdigest(),
                "severity": _GITLAB_SEVERITY[d.severity],
                "location": {"path": path, "lines": {"begin": d.line or 1}},
            }
        )
    return report


_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(file: str) -> str:
    from urllib.parse import quote

    return quote(file.replace("\\", "/"), safe="/:@!$&'()*+,;=-._~")


def sarif_log(diagnostics: Iterable[Diagnostic], docs: str | None = None) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run of ``sprint-kernel``, a rule per code used. ``helpUri``
    and ``informationUri`` are there only when the docs URL is known (both are optional)."""
    diagnostics = list(diagnostics)
    docs = docs_url(docs)
    used = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(used)}
    rules: list[dict[str, Any]] = [
        {
            "id": code,
            "shortDescription": {"text": REGISTRY[code].summary},
            "properties": {"rule": REGISTRY[code].rule},
            "defaultConfiguration": {"level": _SARIF_LEVEL[REGISTRY[code].severity]},
        }
        for code in used
    ]
    if docs:
        for code, rule in zip(used, rules, strict=True):
            rule["helpUri"] = REGISTRY[code].link(docs)
    results = []
    for d in diagnostics:
        location: dict[str, Any] = {"artifactLocation": {"uri": _uri(d.file or "-")}}
        if d.line is not None:
            region: dict[str, int] = {"startLine": d.line}
            if d.column is not None:
                region["startColumn"] = d.column
            if d.end_line is not None:
                region["endLine"] = d.end_line
            if d.end_column is not None:
                region["endColumn"] = d.end_column
            location["region"] = region
        results.append(
            {
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": _SARIF_LEVEL[d.severity],
                "message": {"text": d.message},
                "locations": [{"physicalLocation": location}],
            }
        )
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": PROG,
                        "version": __version__,
                        **({"informationUri": docs} if docs else {}),
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }


_GITHUB_COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_lines(diagnostics: Iterable[Diagnostic]) -> list[str]:
    """One GitHub Actions workflow command per diagnostic (``::error file=…::message``)."""
    lines = []
    for d in diagnostics:
        props = [f"file={_escape_property(d.file or '-')}"]
        if d.line is not None:
            props.append(f"line={d.line}")
            if d.column is not None:
                props.append(f"col={d.column}")
            if d.end_line is not None:
                props.append(f"endLine={d.end_line}")
            if d.end_column is not None:
                props.append(f"endColumn={d.end_column}")
        props.append(f"title={_escape_property(d.code)}")
        lines.append(
            f"::{_GITHUB_COMMAND[d.severity]} {','.join(props)}::{_escape_data(d.message)}"
        )
    return lines


def dump_json(value: Any, out: TextIO | None = None) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False), file=out or sys.stdout)


def failure(
    where: str | argparse.Namespace, error: KernelError, file: str | None, **body: Any
) -> int:
    """Report an error that stopped the command (as one diagnostic) and return its exit."""
    result = Result(exit_for(error), [from_error(error, file)], body, diagnostics_to="err")
    return emit(where, result)


def _escape_unencodable_output() -> None:
    """Text that standard output or error cannot encode (a lone surrogate: an argument or
    file name that is not UTF-8, echoed back) is written escaped, ``\\udcff``, instead of
    raising: the choice Python itself makes for standard error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError, TypeError):
                reconfigure(errors="backslashreplace")


def run(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None) -> int:
    """Run a CLI ``main``; unreadable input → 2, any other ``KernelError`` → 1, with a message.

    ``main`` handles the outcomes it can judge itself; this is the last line of defence so that
    no traceback reaches a user.
    """
    _escape_unencodable_output()
    try:
        return main(argv)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KernelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
