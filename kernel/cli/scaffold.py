"""What every command line shares: argument parsing, output formats, exit codes, diagnostics.

Exit codes (api.md): 0 success, 1 the input was judged and failed, 2 usage or unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO

import attrs

from kernel.errors import KernelError
from kernel.io import InputError

__all__ = [
    "EXIT_FAILED",
    "EXIT_OK",
    "EXIT_USAGE",
    "Diagnostic",
    "Parser",
    "dump_json",
    "run",
]

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


@attrs.frozen
class Diagnostic:
    """One line of text output: ``file:line: CODE message`` (line omitted when unknown)."""

    file: str
    code: str
    message: str
    line: int | None = None
    severity: str = "error"

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        return f"{where}: {self.code} {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` with ``--format`` and exit code 2 on usage errors."""

    def __init__(self, prog: str, description: str, *, with_format: bool = True) -> None:
        super().__init__(prog=prog, description=description)
        if with_format:
            self.add_argument(
                "--format", choices=("text", "json"), default="text", help="output format"
            )

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def dump_json(value: Any, out: TextIO | None = None) -> None:
    print(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False), file=out or sys.stdout)


def run(main: Callable[[Sequence[str] | None], int], argv: Sequence[str] | None = None) -> int:
    """Run a CLI ``main``; unreadable input → 2, any other ``KernelError`` → 1, with a message.

    ``main`` handles the outcomes it can judge itself; this is the last line of defence so that
    no traceback reaches a user.
    """
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
