"""``sprint-kernel init [--template NAME] [--contract-file PATH] [--reviews [DIR]]
[--pre-commit] [--ars READING] [DIR]``: start a project.

Writes a shipped template as the project's contract (``contracts/sprint.json`` unless
``--contract-file`` says otherwise) and names it in the project's configuration: a
``[tool.sprint-kernel]`` table added to ``DIR/pyproject.toml`` when there is one, else a new
``DIR/sprint-kernel.toml``. ``--reviews`` also writes a starter round (each seat's Phase 1 and
Phase 2 and the synthesis, as the lints expect them: the round lints clean and decides), and
``--pre-commit`` a ``.pre-commit-config.yaml`` that runs the package's two hooks. It
overwrites nothing: a file it would write that exists, or a ``pyproject.toml`` that has the
table already, is refused before anything is written.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from kernel.cli.atomic import same_file, write_text
from kernel.cli.config import OWN_FILE, PYPROJECT, TABLE
from kernel.cli.scaffold import EXIT_OK, EXIT_USAGE, Parser, add_ars_option, dump_json
from kernel.contract.dialects import detect
from kernel.contract.templates import shipped_template, template_text
from kernel.errors import ContractError

__all__ = ["DEFAULT_CONTRACT_FILE", "DEFAULT_TEMPLATE", "main"]

#: The template ``init`` starts from: upstream's current dialect, the full five-seat panel.
DEFAULT_TEMPLATE = "13.2/reviewer/full"
#: Where the contract goes: the ``sprint-contract-check`` hook's default files take it.
DEFAULT_CONTRACT_FILE = "contracts/sprint.json"

EXIT_CODES = """\
  0  the contract and the configuration were written
  2  usage error: an unknown template (the closest ones are named), or a file init would
     overwrite (nothing is written then)"""


class _Refused(Exception):
    pass


def _config_target(directory: str) -> tuple[str, str]:
    """(the configuration file to write, its text before the table): a new
    ``sprint-kernel.toml``, or the project's ``pyproject.toml`` when it has no table."""
    import tomllib

    own = os.path.join(directory, OWN_FILE)
    if os.path.lexists(own):
        raise _Refused(f"{own} exists: the project has a configuration already")
    pyproject = os.path.join(directory, PYPROJECT)
    if not os.path.lexists(pyproject):
        return own, ""
    try:
        with open(pyproject, encoding="utf-8") as handle:
            text = handle.read()
        table = tomllib.loads(text).get("tool", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise _Refused(f"{pyproject}: cannot be read as TOML ({exc})") from None
    if isinstance(table, dict) and TABLE in table:
        raise _Refused(f"{pyproject} has a [tool.{TABLE}] table already")
    return pyproject, text


def _separate(contract: str, directory: str) -> None:
    """Refuse a contract file that is one of the project's configuration files."""
    for name in (OWN_FILE, PYPROJECT):
        if same_file(contract, os.path.join(directory, name)):
            raise _Refused(f"--contract-file {contract} is the project's configuration file {name}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(
        "sprint-kernel init",
        "Start a project: write a shipped template as its contract, and name that contract "
        "in its configuration, so that check, lint and decide need no --contract. Nothing "
        "is overwritten.",
        exit_codes=EXIT_CODES,
        formats=("text", "json"),
        max_bytes=False,
        allow_abbrev=False,  # a command that writes files takes its options spelled out
    )
    parser.add_argument(
        "directory",
        nargs="?",
        default=".",
        metavar="DIR",
        help="the project (default: .; made when it does not exist)",
    )
    parser.add_argument(
        "--template",
        default=DEFAULT_TEMPLATE,
        metavar="NAME",
        help=f"the template to start from (default {DEFAULT_TEMPLATE}; "
        "sprint-kernel templates lists them)",
    )
    parser.add_argument(
        "--contract-file",
        default=DEFAULT_CONTRACT_FILE,
        metavar="PATH",
        help=f"where the contract goes, from DIR (default {DEFAULT_CONTRACT_FILE})",
    )
    parser.add_argument(
        "--reviews",
        nargs="?",
        const="reviews",
        default=None,
        metavar="DIR",
        help="also write a starter round into DIR (default reviews, from the project): "
        "every seat's Phase 1 and Phase 2 and the synthesis, which lint clean and decide",
    )
    parser.add_argument(
        "--pre-commit",
        action="store_true",
        help=f"also write {PRE_COMMIT_CONFIG}: this package's check and lint hooks, run by "
        "the installed sprint-kernel",
    )
    add_ars_option(parser.add_argument)
    args = parser.parse_args(argv)
    try:
        text = template_text(args.template)
    except ContractError as exc:
        parser.error(exc.message)
    if os.path.lexists(args.directory) and not os.path.isdir(args.directory):
        parser.error(f"{args.directory}: not a directory")
    relative = args.contract_file.replace(os.sep, "/")
    contract = os.path.normpath(os.path.join(args.directory, args.contract_file))
    try:
        if os.path.lexists(contract):
            raise _Refused(f"{contract} exists")
        config, before = _config_target(args.directory)
        config = os.path.normpath(config)
        _separate(contract, args.directory)
        table = f"contract = {json.dumps(relative)}\n"
        if config.endswith(PYPROJECT):
            gap = "" if not before else "\n" if before.endswith("\n") else "\n\n"
            table = f"{gap}[tool.{TABLE}]\n{table}"
        if args.ars is not None:
            table += f"ars = {json.dumps(args.ars)}\n"
        extra = _extra_files(args)
        for path, _ in extra:
            if os.path.lexists(path):
                raise _Refused(f"{path} exists")
        os.makedirs(args.directory, exist_ok=True)
        written: list[str] = []
        try:
            for path, body in [(contract, text), *extra]:
                os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
                write_text(path, body, exclusive=True)
                written.append(path)
            # the whole configuration file, replaced in one step, last
            write_text(config, before + table, exclusive=config.endswith(OWN_FILE))
        except BaseException:
            for path in written:  # nothing of the project without its configuration
                os.unlink(path)
            raise
    except _Refused as exc:
        print(f"{parser.prog}: error: {exc}; init overwrites nothing", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"{parser.prog}: error: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    data = shipped_template(args.template)
    if args.format == "json":
        files = {"contract_file": contract, "config_file": config, "contract": relative}
        files["files"] = [path for path, _ in extra]
        dump_json({"template": args.template, "dialect": detect(data), **files})
        return EXIT_OK
    print(f"wrote {contract}: {args.template} (dialect {detect(data)}, {data['mode']})")
    where = f"[tool.{TABLE}] to {config}" if config.endswith(PYPROJECT) else config
    print(f"wrote {where}: " + ", ".join(table.strip().splitlines()[-2 if args.ars else -1 :]))
    for path, _ in extra:
        print(f"wrote {path}")
    return EXIT_OK


#: The pre-commit configuration ``init --pre-commit`` writes: this package's two hooks as
#: local hooks (the same ids, entries and files as its .pre-commit-hooks.yaml), so that it
#: runs the installed sprint-kernel and needs no repository URL or network.
PRE_COMMIT_CONFIG = ".pre-commit-config.yaml"
PRE_COMMIT_TEXT = """\
# The sprint contract kernel's hooks, run by the installed sprint-kernel (pip install it in
# the environment that runs pre-commit). Both read the project's configuration.
repos:
  - repo: local
    hooks:
      - id: sprint-contract-check
        name: sprint contract check
        entry: sprint-kernel check --force-exclude
        language: system
        types: [json]
        files: (^|/)(contracts?/.*|.*\\.contract)\\.json$
      - id: sprint-contract-lint
        name: sprint contract lint
        entry: sprint-kernel lint --force-exclude
        language: system
        files: \\.phase[12]\\.md$
        require_serial: true
"""


def _extra_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The files ``--reviews`` and ``--pre-commit`` add: (path, text)."""
    out: list[tuple[str, str]] = []
    if args.reviews is not None:
        from kernel.contract.model import load_contract
        from kernel.reviewer.starters import starter

        contract = load_contract(args.template)
        if not contract.panel_size:
            raise _Refused(f"--reviews: {args.template} ({contract.mode}) seats no reviewers")
        folder = os.path.join(args.directory, args.reviews)
        ars = args.ars or "main"
        if contract.dialect == "13.2":
            seats: list[tuple[str, str | None]] = [(r, r) for r in _roles(contract)]
        else:
            seats = [(f"reviewer{j}", None) for j in range(1, contract.panel_size + 1)]
        for name, role in seats:
            for document in ("phase1", "phase2"):
                body = starter(contract, document, role, ars=ars)
                if role is None and document == "phase2":  # Schema 13: each its own report
                    body = body.replace("## Review Body\n", f"## Review Body\n\n{name}.\n", 1)
                out.append((os.path.join(folder, f"{name}.{document}.md"), body))
        out.append((os.path.join(folder, "synthesis.md"), starter(contract, "synthesis", ars=ars)))
    if args.pre_commit:
        out.append((os.path.join(args.directory, PRE_COMMIT_CONFIG), PRE_COMMIT_TEXT))
    return [(os.path.normpath(path), text) for path, text in out]


def _roles(contract: Any) -> tuple[str, ...]:
    from kernel.reviewer.roles import scope_of

    return scope_of(contract).roles
