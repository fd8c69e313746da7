"""The JSON Schemas the package ships for every command's JSON output
(``kernel/data/output/*.schema.json``), and a check that an output fits its command's schema.

``tests/conftest.py`` runs :func:`check_output` on every JSON output a test produces in process
(the scaffold's renderer is wrapped for the whole session), and the command-line helpers that
spawn ``sprint-kernel`` run :func:`check_argv_output` on what it printed, so a command whose
JSON drifts from its shipped schema fails whichever test ran it.
"""

from __future__ import annotations

import json
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


def check_argv_output(argv: tuple[str, ...] | list[str], stdout: str) -> None:
    """For a command line run in a subprocess: when ``argv`` asked for JSON and got some,
    check it against its command's schema."""
    args = list(argv)
    if not stdout.strip() or "json" not in args or args[args.index("json") - 1] != "--format":
        return
    words = args[:2] if args and args[0] in GROUPS else args[:1]
    check_output(schema_name(" ".join(["sprint-kernel", *words]), "--statistics" in args), stdout)
