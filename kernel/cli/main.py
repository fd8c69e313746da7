"""``sprint-kernel COMMAND …``: one console script for every command line.

``python -m kernel.<name>`` runs :func:`command` with the same name, so both spellings behave
identically. Only the chosen command's module is imported (cold start stays low).
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

from kernel._version import __version__
from kernel.strict import shown

__all__ = ["COMMANDS", "command", "main"]

#: name → (module, one-line help). Adding a command is one line here plus its module.
COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("kernel.cli.check", "validate sprint contracts (Schema 13, structure, warnings)"),
    "lint": ("kernel.cli.lint", "lint reviewers' Phase 1 / Phase 2 markdown"),
    "decide": ("kernel.cli.decide", "decide a round from a matrix or the reviewers' documents"),
    "analyze": ("kernel.cli.analyze", "what a contract can decide, over every matrix"),
    "migrate": ("kernel.cli.migrate", "a Schema 13 contract as 13.2, and which decisions change"),
    "arena": ("kernel.cli.arena", "Arena protocol: verdicts and audit-trail conformance"),
    "consensus": ("kernel.cli.consensus", "consensus protocol: responses and rounds"),
    "panel": ("kernel.cli.panel", "review panel: votes and injection scans"),
    "re-review": ("kernel.cli.re_review", "ARS round 2: check a re-review bundle and its decision"),
    "codes": ("kernel.cli.codes", "the diagnostic codes, and docs/codes.md"),
    "rule": ("kernel.cli.rule", "a code's page: what it checks, why, examples, how to fix it"),
    "templates": ("kernel.cli.templates", "the shipped contract templates: list, show"),
    "init": ("kernel.cli.init", "start a project: a contract from a template, and the config"),
}

_USAGE = "usage: sprint-kernel [--version] [--help] COMMAND ...\n"


def _help() -> str:
    width = max(map(len, COMMANDS))
    rows = "\n".join(f"  {name:<{width}}  {text}" for name, (_, text) in COMMANDS.items())
    return (
        f"{_USAGE}\nSprint Contract Kernel {__version__}: rules for multi-agent peer review.\n\n"
        f"commands:\n{rows}\n\n"
        "Run 'sprint-kernel COMMAND --help' for a command's options and exit codes.\n"
        "exit codes: 0 success, 1 the input was judged and failed, 2 usage or unreadable input\n"
    )


def command(name: str, argv: Sequence[str] | None = None) -> int:
    """Run one command (its ``main`` under the scaffold's ``run``) and return the exit code."""
    from kernel.cli.scaffold import run

    module = importlib.import_module(COMMANDS[name][0])
    return run(module.main, list(sys.argv[1:] if argv is None else argv))


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        (sys.stdout if args else sys.stderr).write(_help())
        return 0 if args else 2
    if args[0] == "--version":
        print(f"sprint-kernel {__version__}")
        return 0
    if args[0] not in COMMANDS:
        sys.stderr.write(
            f"{_USAGE}sprint-kernel: error: unknown command {shown(args[0])} "
            f"(choose from {', '.join(COMMANDS)})\n"
        )
        return 2
    return command(args[0], args[1:])


if __name__ == "__main__":
    sys.exit(main())
