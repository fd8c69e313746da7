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
from kernel.diagnostics import REGISTRY, Diagnostic, from_error, sort_key
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
    "run",
    "sarif_log",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2

PROG = "sprint-kernel"
FORMATS = ("text", "json", "sarif", "github")
#: The exit codes of a command group (each subcommand's --help gives its own).
GROUP_EXIT = """\
  0  success
  1  the input was judged and failed
  2  usage error or unreadable input
  (see COMMAND --help for what each means there)"""
#: Input codes that are usage errors everywhere (exit 2), even for ``check``.
NOT_A_FILE = "E-NOT-FILE"

Stream = Literal["out", "err"]


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


class _Formatter(argparse.RawDescriptionHelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24) -> None:
        super().__init__(prog, indent_increment, max_help_position, width=_columns() - 2)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` with ``--version``, ``--format``, ``--max-bytes``, its exit
    codes in ``--help``, and exit code 2 on usage errors. Subcommand parsers (from
    :meth:`commands`) get the same."""

    def __init__(
        self,
        prog: str | None = None,
        description: str | None = None,
        *,
        exit_codes: str = "",
        formats: Sequence[str] | None = FORMATS,
        max_bytes: bool = True,
        dialect: bool = False,
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
                default=MAX_INPUT_BYTES,
                metavar="N",
                help=f"size limit for every file read (default {MAX_INPUT_BYTES} = 1 MiB)",
            )
        if dialect:
            self.add_argument(
                "--dialect",
                choices=("auto", "13", "13.2"),
                default="auto",
                help="read every contract as Schema 13 or 13.2 (default: detected from its "
                "content)",
            )

    def commands(self) -> Callable[..., Parser]:
        """``add(name, help=…, description=…, exit_codes=…, formats=…)`` → a subcommand
        parser of this class."""
        sub = self.add_subparsers(dest="command", required=True, metavar="COMMAND")

        def add(name: str, **kwargs: Any) -> Parser:
            parser: Parser = sub.add_parser(name, **kwargs)
            return parser

        return add

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


def emit(fmt: str, result: Result, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Print ``result`` in ``fmt``; return its exit code."""
    out = out or sys.stdout
    err = err or sys.stderr
    diagnostics = sorted(result.diagnostics, key=sort_key)
    ok = result.exit == EXIT_OK if result.ok is None else result.ok
    if fmt == "json":
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
        dump_json(sarif_log(diagnostics), out)
    elif fmt == "github":
        for line in github_lines(diagnostics):
            print(line, file=out)
    else:
        lines: list[tuple[Stream, str]] = []
        if result.text_diagnostics:
            lines += [(result.diagnostics_to, str(d)) for d in diagnostics]
        lines += result.text
        for stream, line in lines:
            target = out if stream == "out" else err
            other = err if stream == "out" else out
            other.flush()  # keep the two streams in order when they share a terminal or file
            print(line, file=target)
    return result.exit


_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _uri(file: str) -> str:
    from urllib.parse import quote

    return quote(file.replace("\\", "/"), safe="/:@!$&'()*+,;=-._~")


def sarif_log(diagnostics: Iterable[Diagnostic]) -> dict[str, Any]:
    """A SARIF 2.1.0 log: one run of ``sprint-kernel``, a rule per code used."""
    diagnostics = list(diagnostics)
    used = sorted({d.code for d in diagnostics})
    index = {code: i for i, code in enumerate(used)}
    rules = [
        {
            "id": code,
            "shortDescription": {"text": REGISTRY[code].summary},
            "properties": {"rule": REGISTRY[code].rule},
            "defaultConfiguration": {"level": _SARIF_LEVEL[REGISTRY[code].severity]},
        }
        for code in used
    ]
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


def failure(fmt: str, error: KernelError, file: str | None, **body: Any) -> int:
    """Report an error that stopped the command (as one diagnostic) and return its exit."""
    result = Result(exit_for(error), [from_error(error, file)], body, diagnostics_to="err")
    return emit(fmt, result)


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
