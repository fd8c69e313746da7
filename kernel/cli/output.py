"""How every command's text looks: colour, the summary line, and text every output format
can hold (docs/cli.md, "Output conventions").

Colour is hand-written ANSI (SGR) codes: four styles do not justify a dependency on a
terminal library, and each import costs a command line's cold start.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterable, Mapping
from typing import Any, Final, TextIO

import attrs

from kernel.diagnostics import Diagnostic

__all__ = [
    "COLOR_CHOICES",
    "Counts",
    "counts",
    "display",
    "printable",
    "styled",
    "summary_line",
    "use_color",
    "xml_text",
]

COLOR_CHOICES: Final = ("auto", "always", "never")

_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"
_CYAN = "\x1b[36m"
_SEVERITY_STYLE: Final = {
    "error": "\x1b[1;31m",  # bold red
    "warning": "\x1b[1;33m",  # bold yellow
    "info": "\x1b[1;36m",  # bold cyan
}


def use_color(choice: str, stream: TextIO, environ: Mapping[str, str] | None = None) -> bool:
    """Whether text for ``stream`` is coloured. ``always``/``never`` decide; ``auto`` reads,
    in order: ``NO_COLOR`` (set and not empty: no colour), ``FORCE_COLOR`` (set and not
    empty: colour), ``TERM=dumb`` (no colour), then whether ``stream`` is a terminal."""
    if choice != "auto":
        return choice == "always"
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except (ValueError, OSError):  # a closed or detached stream
        return False


def styled(d: Diagnostic, color: bool) -> str:
    """``file:line:col: CODE message``, with the file bold, the separators cyan and the code
    in its severity's colour when ``color``."""
    if d.severity == "info":  # an info line reads as what it is in a CI log
        d = attrs.evolve(d, message=f"info: {d.message}")
    if not color:
        return str(d)
    where = [str(p) for p in (d.file, d.line, d.column if d.line else None) if p]
    sep = f"{_CYAN}:{_RESET}"
    prefix = ""
    if where:
        prefix = f"{_BOLD}{where[0]}{_RESET}" + "".join(sep + p for p in where[1:]) + sep + " "
    return f"{prefix}{_SEVERITY_STYLE[d.severity]}{d.code}{_RESET} {d.message}"


class Counts:
    """How many errors and warnings a run reports, and in how many files."""

    __slots__ = ("errors", "files", "info", "warnings")

    def __init__(self, errors: int, warnings: int, info: int, files: int) -> None:
        self.errors, self.warnings, self.info, self.files = errors, warnings, info, files


def counts(diagnostics: Iterable[Diagnostic]) -> Counts:
    """The counts of a run's reported diagnostics; ``files`` are those with an error or a
    warning."""
    errors = warnings = info = 0
    files: set[str] = set()
    for d in diagnostics:
        if d.severity == "info":
            info += 1
            continue
        if d.severity == "error":
            errors += 1
        else:
            warnings += 1
        files.add(d.file or "-")
    return Counts(errors, warnings, info, len(files))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def summary_line(c: Counts, failed: bool, color: bool = False) -> str:
    """``Found N errors and M warnings in K files.`` when any are reported, else ``All checks
    passed.``; a run that failed with neither (a consensus run that stops) says so."""
    if c.errors or c.warnings:
        text = (
            f"Found {_plural(c.errors, 'error')} and {_plural(c.warnings, 'warning')} "
            f"in {_plural(c.files, 'file')}."
        )
    elif failed:
        text = "No errors or warnings, but the run failed (see above)."
    else:
        text = "All checks passed."
        return f"\x1b[1;32m{text}{_RESET}" if color else text
    return f"{_BOLD}{text}{_RESET}" if color else text


def display(text: str) -> str:
    """``text`` as valid Unicode: a lone surrogate (a byte of a file name or argument that is
    not UTF-8, as Python decodes it) becomes ``\\xNN`` (``\\uNNNN`` for one that stands for
    no byte)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _pattern("[\ud800-\udfff]").sub(_escaped, text)
    return text


@functools.cache
def _pattern(source: str) -> re.Pattern[str]:
    # compiled when first needed: a class of surrogates costs a command line 1 ms to compile
    return re.compile(source)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def printable(value: Any) -> Any:
    """A JSON value with every string (and key) made :func:`display`-safe."""
    if isinstance(value, str):
        return display(value)
    if isinstance(value, dict):
        return {printable(k): printable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [printable(v) for v in value]
    return value


#: What XML 1.0 cannot hold at all, not even as a character reference.
_NOT_XML = "[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 forbids written visibly, ``\\x01``: a report
    stays well formed whatever its input held."""
    return _pattern(_NOT_XML).sub(lambda m: f"\\x{ord(m.group()):02x}", display(text))
