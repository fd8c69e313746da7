"""``sprint-kernel init [--template NAME] [--contract-file PATH] [DIR]``: start a project.

Writes a shipped template as the project's contract (``contracts/sprint.json`` unless
``--contract-file`` says otherwise) and names it in the project's configuration: a
``[tool.sprint-kernel]`` table added to ``DIR/pyproject.toml`` when there is one, else a new
``DIR/sprint-kernel.toml``. It overwrites nothing: an existing contract file, a
``sprint-kernel.toml``, or a ``pyproject.toml`` that has the table already is refused before
anything is written.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence

from kernel.cli.atomic import same_file, write_text
from kernel.cli.config import OWN_FILE, PYPROJECT, TABLE
from kernel.cli.scaffold import EXIT_OK, EXIT_USAGE, Parser, dump_json
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
        os.makedirs(args.directory, exist_ok=True)
        os.makedirs(os.path.dirname(contract) or ".", exist_ok=True)
        write_text(contract, text, exclusive=True)
        try:  # the whole configuration file, replaced in one step
            write_text(config, before + table, exclusive=config.endswith(OWN_FILE))
        except BaseException:
            os.unlink(contract)  # no contract without its configuration
            raise
    except _Refused as exc:
        print(f"{parser.prog}: error: {exc}; init overwrites nothing", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        print(f"{parser.prog}: error: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return EXIT_USAGE
    data = shipped_template(args.template)
    if args.format == "json":
        written = {"contract_file": contract, "config_file": config, "contract": relative}
        dump_json({"template": args.template, "dialect": detect(data), **written})
        return EXIT_OK
    print(f"wrote {contract}: {args.template} (dialect {detect(data)}, {data['mode']})")
    where = f"[tool.{TABLE}] to {config}" if config.endswith(PYPROJECT) else config
    print(f"wrote {where}: contract = {json.dumps(relative)}")
    return EXIT_OK
