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
import io
import json
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NoReturn, TextIO

import attrs

from kernel._version import __version__
from kernel.cli.atomic import write_text
from kernel.cli.config import DIALECTS, Settings, settle
from kernel.cli.output import (
    COLOR_CHOICES,
    counts,
    display,
    printable,
    styled,
    summary_line,
    use_color,
    xml_text,
)
from kernel.diagnostics import REGISTRY, Diagnostic, docs_url, from_error, sort_key
from kernel.errors import ContractError, InputError, KernelError
from kernel.io import MAX_INPUT_BYTES, MAX_LIMIT, decode_utf8, loads_strict, read_bytes

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "FORMATS",
    "GROUP_EXIT",
    "PROG",
    "ContractFindings",
    "Diagnostic",
    "Parser",
    "Reader",
    "Result",
    "add_ars_option",
    "dump_json",
    "emit",
    "error_diagnostics",
    "exit_for",
    "finding_dicts",
    "github_lines",
    "gitlab_report",
    "junit_xml",
    "located",
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


def _configuration_options(parser: argparse.ArgumentParser, dialect: bool, ars: bool) -> None:
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
    add(
        "--force-exclude",
        action="store_true",
        help="leave out a file the configuration's exclude covers even when it is named "
        "(as a pre-commit hook names every changed file)",
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
    if ars:
        add_ars_option(add)


def add_ars_option(add: Callable[..., Any]) -> None:
    """``--ars main|fork`` (``None`` when not given): the ARS reading of 13.2 reviewer
    documents; ``add`` is a parser's or an argument group's ``add_argument``."""
    from kernel.reviewer.lint.ars import ARS, DEFAULT_ARS

    add(
        "--ars",
        type=_ars,
        metavar="{" + ",".join(ARS) + "}",
        default=None,
        help="the ARS reading of 13.2 reviewer documents: upstream main or the fork "
        f"(default: from config, else {DEFAULT_ARS})",
    )


def _ars(value: str) -> str:
    """``--ars``: a reading's name; another word is a usage error naming the closest one."""
    from kernel.reviewer.lint.ars import reading

    try:
        return reading(value).name
    except KernelError as exc:
        raise argparse.ArgumentTypeError(exc.message.removeprefix("ars: ")) from None


def _output_options(parser: argparse.ArgumentParser) -> None:
    """The options of the output conventions every command that reports findings shares
    (docs/cli.md, "Output conventions")."""
    parser.add_argument(
        "--exit-zero",
        action="store_true",
        help="exit 0 even when findings fail the run (usage and read errors still exit 2)",
    )
    parser.add_argument(
        "--color",
        choices=COLOR_CHOICES,
        default="auto",
        help="colour the text output: auto (a terminal, unless NO_COLOR is set; FORCE_COLOR "
        "forces it), always or never",
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
    it (:func:`_configuration_options`); ``dialect`` adds ``--dialect`` and ``ars``
    ``--ars`` (a command that reads 13.2 reviewer documents). After parsing,
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
        ars: bool = False,
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
                "--format",
                "--output-format",
                choices=tuple(formats),
                default=formats[0],
                help="output format (--output-format: ruff's name for it)",
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
            _configuration_options(self, dialect, ars)
            _output_options(self)

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
        """Resolve the configuration and the command line into ``args.settings`` (once), and
        name the command that runs in ``args.prog`` (``sprint-kernel panel scan``)."""
        args.prog = " ".join([self.prog, *([args.command] if "command" in args else [])])
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
        """One ``error:`` line and where to read more, not the usage block first."""
        self.exit(
            EXIT_USAGE, f"{self.prog}: error: {message}\n(run '{self.prog} --help' for usage)\n"
        )


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
        """A :class:`~kernel.contract.model.Contract` from a path, ``-`` or a template name.

        An invalid contract raises a :class:`ContractFindings`: what ``check`` reports for
        it, at the same positions."""
        from kernel.contract.model import load_contract
        from kernel.errors import ContractError, ContractInputError

        text = None
        try:
            if source != "-":
                return load_contract(source, max_bytes=self.max_bytes, dialect=self.dialect)
            try:
                text = self.text(source)
                data = loads_strict(text, source=source, max_bytes=self.max_bytes)
            except InputError as exc:
                raise ContractInputError(
                    exc.message, code=exc.code, line=exc.line, column=exc.column
                ) from None
            return load_contract(data, dialect=self.dialect)
        except ContractInputError:
            raise
        except ContractError as exc:
            raise ContractFindings(exc, self._findings(source, text)) from None

    def _findings(self, source: str, text: str | None) -> list[Diagnostic]:
        """The errors ``check`` reports for the invalid contract ``source``."""
        from kernel.cli.placed import contract_findings
        from kernel.contract.templates import TEMPLATE_NAMES, shipped_template

        try:
            if source in TEMPLATE_NAMES:
                data: Any = shipped_template(source)
            else:
                if text is None:
                    text = self.text(source)
                data = loads_strict(text, source=source, max_bytes=self.max_bytes)
            found = contract_findings(data, source, text, None, self.dialect)[1]
        except KernelError:
            return []
        return [d for d in found if d.severity == "error"]


class ContractFindings(ContractError):
    """An invalid contract (``error``, its message and tag kept) with the diagnostics
    ``check`` reports for it, placed in its file."""

    def __init__(self, error: ContractError, diagnostics: Sequence[Diagnostic]) -> None:
        super().__init__(error.message, errors=error.errors, tag=error.tag)
        self.error = error
        self.diagnostics = list(diagnostics)


def exit_for(error: KernelError) -> int:
    """2 for input that cannot be read, 1 for anything judged and failed."""
    return EXIT_USAGE if isinstance(error, InputError) else EXIT_FAILED


def _lines(lines: Iterable[str | tuple[str, str]]) -> tuple[str, ...]:
    # The older ``(stream, line)`` form is still taken: every line goes to standard output.
    return tuple(line if isinstance(line, str) else line[1] for line in lines)


@attrs.frozen
class Result:
    """What a command found. ``text`` is the command's own report, printed in text format
    after the diagnostics (``text_diagnostics=False``: only the report, which shows them);
    ``body`` holds the command's own JSON keys. ``ok`` overrides "the exit code is 0" as the
    JSON ``ok`` and the summary line's verdict."""

    exit: int
    diagnostics: Sequence[Diagnostic] = ()
    body: Mapping[str, Any] = attrs.field(factory=dict)
    text: Sequence[str] = attrs.field(default=(), converter=_lines)
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


def located(d: Diagnostic, stdin_name: str | None = None) -> Diagnostic:
    """``d`` as every format reports it: at a line and a column (a finding about a whole
    document at 1:1, one about a line at its column 1), and the ``-`` document named."""
    if stdin_name is not None and d.file == "-":
        d = d.at(stdin_name)
    if d.file is not None and (d.line is None or d.column is None):
        d = attrs.evolve(d, line=d.line or 1, column=d.column or 1)
    return d


def _readable(d: Diagnostic) -> Diagnostic:
    """``d`` with its file name and message valid Unicode (a byte of a name that is not
    UTF-8 as ``\\xff``), for the formats that print text."""
    file = None if d.file is None else display(d.file)
    message = display(d.message)
    if file is not d.file or message is not d.message:
        d = attrs.evolve(d, file=file, message=message)
    return d


def finding_dicts(
    where: str | argparse.Namespace, diagnostics: Iterable[Diagnostic]
) -> list[dict[str, Any]]:
    """The JSON of ``diagnostics`` as the command's report gives them (one finding shape,
    the selection applied, sorted): for a command's own keys that list findings
    (``files[].findings``)."""
    settings = _how(where)[1]
    found = settings.reported(located(d, settings.stdin_filename) for d in diagnostics)
    return [_readable(d).to_dict() for d in sorted(found, key=sort_key)]


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
    return name + line[1:] if line.startswith("-:") else line


@attrs.frozen
class _Run:
    """What :func:`emit` writes: the diagnostics as reported, the verdict and the exit."""

    fmt: str
    settings: Settings
    result: Result
    diagnostics: list[Diagnostic]
    ok: bool
    #: The run failed (its exit code before ``--exit-zero`` is not 0).
    failed: bool
    color: str
    #: ``sprint-kernel check``, ``sprint-kernel panel scan``, … (``None``: a bare format).
    command: str | None = None


def emit(
    where: str | argparse.Namespace,
    result: Result,
    out: TextIO | None = None,
    err: TextIO | None = None,
) -> int:
    """Print ``result`` as the command's arguments (or a bare format) say; return its exit
    code. The output conventions (docs/cli.md) are applied here, for every command: every
    finding at a line and a column, the selection, ``--strict``, ``--exit-zero``,
    ``--quiet``, ``--statistics``, ``--color``, ``--output-file``, ``--stdin-filename`` and
    the summary line. Findings and the summary go to standard output (or the report file);
    with a page format (``html``) that could not be made, they go to ``err`` (standard
    error) and no file is written."""
    fmt, settings = _how(where)
    name = settings.stdin_filename
    diagnostics = sorted(
        settings.reported(located(d, name) for d in result.diagnostics), key=sort_key
    )
    code = result.exit
    ok = code == EXIT_OK if result.ok is None else result.ok
    if code == EXIT_OK and any(
        d.severity == "warning" and settings.for_file(d.file).strict for d in diagnostics
    ):
        code, ok = EXIT_FAILED, False
    failed = code != EXIT_OK
    if getattr(where, "exit_zero", False) and code == EXIT_FAILED:
        code = EXIT_OK
    result = attrs.evolve(
        result,
        body=printable(_renamed(dict(result.body), name) if name else dict(result.body)),
        text=[display(_renamed_line(line, name) if name else line) for line in result.text],
    )
    run = _Run(
        fmt,
        settings,
        result,
        diagnostics,
        ok,
        failed,
        getattr(where, "color", "never"),
        getattr(where, "prog", None),
    )
    report = io.StringIO()  # rendered whole first: a report that fails leaves nothing behind
    if fmt not in FORMATS:  # a page (html) that could not be made: the findings say why
        target = err or sys.stderr
        _write(attrs.evolve(run, fmt="text"), report, color=use_color(run.color, target))
        target.write(report.getvalue())
        return code
    if out is None and settings.output_file is not None:
        _write(run, report, color=run.color == "always")
        try:
            write_text(settings.output_file, report.getvalue())
        except OSError as exc:
            print(
                f"error: {display(settings.output_file)}: cannot be written ({exc.strerror})",
                file=sys.stderr,
            )
            return EXIT_USAGE
        return code
    target = out or sys.stdout
    _write(run, report, color=use_color(run.color, target))
    target.write(report.getvalue())
    return code


def write_report(where: argparse.Namespace, report: str, code: int) -> int:
    """Print a report that is not made of diagnostics (an HTML page) to standard output or
    ``--output-file``; return ``code``."""
    name = _how(where)[1].output_file
    if name is None:
        print(report)
        return code
    try:
        write_text(name, report + "\n")
    except OSError as exc:
        print(f"error: {name}: cannot be written ({exc.strerror})", file=sys.stderr)
        return EXIT_USAGE
    return code


def _write(run: _Run, out: TextIO, *, color: bool) -> None:
    fmt, diagnostics, docs = run.fmt, run.diagnostics, run.settings.docs_url
    # sarif, junit and gitlab each escape what they cannot hold their own way
    raw = fmt in ("sarif", "junit", "gitlab")
    shown = diagnostics if raw else [_readable(d) for d in diagnostics]
    if run.settings.statistics:
        rows = statistics(diagnostics, docs)
        if fmt == "json":
            dump_json(rows, out)
            return
        for row in rows:
            print(f"{row['count']:>5}  {row['code']}  {row['summary']}", file=out)
    elif fmt == "json":
        dump_json(
            {
                "version": __version__,
                "ok": run.ok,
                "diagnostics": [d.to_dict() for d in shown],
                **run.result.body,
            },
            out,
        )
        return
    elif fmt == "sarif":
        dump_json(sarif_log(diagnostics, docs), out)
        return
    elif fmt == "github":
        for line in github_lines(shown):
            print(line, file=out)
        return
    elif fmt == "junit":
        print(junit_xml(diagnostics, docs), file=out)
        return
    elif fmt == "gitlab":
        dump_json(gitlab_report(diagnostics), out)
        return
    else:
        if run.result.text_diagnostics or run.settings.quiet:
            for d in shown:
                print(styled(d, color), file=out)
        if run.settings.quiet:
            return
        for line in run.result.text:
            print(line, file=out)
    if not run.settings.quiet:
        print(summary_line(counts(diagnostics), run.failed, color), file=out)


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
    URL is known. Characters XML cannot hold are written visibly
    (:func:`~kernel.cli.output.xml_text`), so the report is well formed whatever the input."""
    docs = docs_url(docs)
    from xml.etree import ElementTree

    diagnostics = list(diagnostics)
    failing = [d for d in diagnostics if d.severity != "info"]
    root = ElementTree.Element(
        "testsuites", name=PROG, tests=str(len(diagnostics) or 1), failures=str(len(failing))
    )
    files: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        files.setdefault(xml_text(d.file or "-"), []).append(d)
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
                name=f"{d.code} at {d.line or 1}:{d.column or 1}",
                classname=file,
                file=file,
                line=str(d.line or 1),
            )
            if d.severity == "info":
                ElementTree.SubElement(case, "system-out").text = xml_text(str(d))
            else:
                failure = ElementTree.SubElement(
                    case, "failure", message=xml_text(d.message), type=f"{d.code} ({d.severity})"
                )
                link = REGISTRY[d.code].link(docs)
                failure.text = xml_text(str(d) if link is None else f"{d}\n{link}")
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
        path = display(d.file or "-")
        key = f"{d.code}\0{path}\0{display(d.message)}"
        repeat = seen[key] = seen.get(key, -1) + 1
        report.append(
            {
                "description": f"{d.code} {display(d.message)}",
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
    """A relative URI reference for ``file``: its bytes (a name that is not UTF-8 as the
    bytes it has) percent-encoded where a URI needs it."""
    from urllib.parse import quote

    name = file.replace("\\", "/")
    try:
        raw = name.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that stands for no byte
        raw = display(name).encode("utf-8")
    return quote(raw, safe="/:@!$&'()*+,;=-._~")


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
                "message": {"text": display(d.message)},
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


def error_diagnostics(error: KernelError, file: str | None) -> list[Diagnostic]:
    """What an error that stopped a command reports: an invalid contract's findings as
    ``check`` gives them, else the error as one diagnostic."""
    if isinstance(error, ContractFindings) and error.diagnostics:
        return list(error.diagnostics)
    return [from_error(error.error if isinstance(error, ContractFindings) else error, file)]


def failure(
    where: str | argparse.Namespace, error: KernelError, file: str | None, **body: Any
) -> int:
    """Report an error that stopped the command (as one diagnostic) and return its exit."""
    found = error_diagnostics(error, file)
    result = Result(exit_for(error), found, body)
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
        code = main(argv)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except OSError as exc:  # a reading error is an InputError: this is standard output's
        _silence_stdout()
        print(f"error: standard output cannot be written ({exc.strerror})", file=sys.stderr)
        return EXIT_USAGE
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KernelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130


def _silence_stdout() -> None:
    """Standard output failed: what is still buffered for it is dropped, so that Python's
    own flush at exit does not fail again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
