"""The JSON Schemas the package ships for every command's JSON output
(``kernel/data/output/*.schema.json``), and a check that an output fits its command's schema.

``tests/conftest.py`` runs :func:`check_output` on every JSON output a test produces in process
(the scaffold's renderer is wrapped for the whole session), and the command-line helpers that
spawn ``sprint-kernel`` run :func:`check_argv_output` on what it printed, so a command whose
JSON drifts from its shipped schema fails whichever test ran it.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from support import paths

SCHEMAS = paths.ROOT / "kernel" / "data" / "output"
BASE = "urn:sprint-kernel:output:"


def schema_names() -> list[str]:
    return sorted(p.name.removesuffix(".schema.json") for p in SCHEMAS.glob("*.schema.json"))


@cache
def _registry() -> Registry[Any]:
    resources = []
    for path in sorted(SCHEMAS.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    registry: Registry[Any] = Registry().with_resources(resources)
    return registry


@cache
def validator(name: str) -> Draft202012Validator:
    schema = _registry().contents(BASE + name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


def schema_name(command: str | None, statistics: bool = False) -> str | None:
    """``sprint-kernel panel scan`` → ``panel-scan``; ``None`` for a bare format."""
    if statistics:
        return "statistics"
    if command is None:
        return None
    return "-".join(command.split()[1:])


def problems(name: str, value: Any) -> list[str]:
    """Where ``value`` breaks schema ``name``."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
        for e in validator(name).iter_errors(value)
    ]


def check_output(name: str | None, text: str) -> None:
    """Fail (``AssertionError``) when the JSON ``text`` does not fit schema ``name``."""
    if name is None:
        return
    assert name in schema_names(), f"no shipped JSON Schema for {name!r} (kernel/data/output)"
    found = problems(name, json.loads(text))
    assert found == [], f"the JSON output breaks {name}.schema.json: {found[:5]}"


#: Commands whose first argument names a subcommand.
GROUPS = ("arena", "consensus", "panel")


def check_argv_output(argv: Sequence[str], stdout: str | bytes) -> None:
    """For a command line run in a subprocess (``argv`` after ``sprint-kernel``): when it
    asked for JSON and got some, check it against its command's schema; a ``decide --matrix
    FILE.jsonl`` batch, whatever its format, line by line against ``decide-line``."""
    if isinstance(stdout, bytes):
        stdout = stdout.decode("utf-8", "surrogateescape")
    args = [w for a in argv for w in (a.split("=", 1) if a.startswith("--format=") else [a])]
    if not stdout.strip():
        return
    if args[:1] == ["decide"] and any(
        a.lower().endswith(".jsonl") and args[i - 1] == "--matrix" for i, a in enumerate(args) if i
    ):
        for line in stdout.splitlines():
            check_output("decide-line", line)
        return
    if "json" not in args or args[args.index("json") - 1] != "--format":
        return
    grouped = args[:1] and (args[0] in GROUPS or args[:2] == ["templates", "show"])
    words = args[:2] if grouped else args[:1]
    check_output(schema_name(" ".join(["sprint-kernel", *words]), "--statistics" in args), stdout)


def cli_argv(command: Sequence[str] | str) -> list[str] | None:
    """The arguments after ``sprint-kernel`` of a command that runs the command line
    (``sprint-kernel …``, ``python -m kernel …``, ``python -m kernel.arena …``, or a shell
    line whose last stage is one, its standard output not redirected), else ``None``."""
    if isinstance(command, str):
        lexer = shlex.shlex(command, posix=True, punctuation_chars="|&;<>")
        lexer.whitespace_split = True
        tokens = list(lexer)
        if any(t in (";", "&", "&&", "||") for t in tokens):
            return None
        while "|" in tokens:
            tokens = tokens[tokens.index("|") + 1 :]
        for i, t in enumerate(tokens):  # 2>/dev/null leaves standard output alone
            if t == ">" and i and tokens[i - 1] == "2":
                tokens[i - 1 : i + 2] = ["", "", ""]
        tokens = [t for t in tokens if t]
        if any(set(t) <= set("<>") for t in tokens):
            return None
        return cli_argv(tokens)
    words = [str(w) for w in command]
    if words[:2] == ["bash", "-c"] and len(words) == 3:
        return cli_argv(words[2])
    for i, word in enumerate(words):
        if word == "sprint-kernel" or word.endswith(("/sprint-kernel", "\\sprint-kernel")):
            return words[i + 1 :]
        if word == "-m" and i + 1 < len(words):
            module = words[i + 1]
            if module == "kernel":
                return words[i + 2 :]
            if module.startswith("kernel.") and module.count(".") == 1:
                return [module.removeprefix("kernel."), *words[i + 2 :]]
            return None
    return None


def check_process_output(command: Any, stdout: str | bytes | None) -> None:
    """What a subprocess printed, when it ran the command line and asked for JSON: checked
    against its command's shipped schema (``tests/conftest.py`` applies this to every
    ``subprocess.run`` of the suite)."""
    if stdout is None or not isinstance(command, str | list | tuple):
        return
    argv = cli_argv(command)
    if argv is not None:
        check_argv_output(argv, stdout)
