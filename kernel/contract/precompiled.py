"""Precompiled data for the shipped templates, so that a command line starts fast.

``kernel/data/precompiled.json`` holds what loading a shipped template would otherwise compute
with the two slowest imports: each template's canonical text, checked against Schema 13
(``validate`` then answers for it without jsonschema), and the parsed form of each of its
expressions (``parse_expression`` then answers without lark). Both are used only on an exact
match, so a template edited after installation is validated and parsed as usual. The test
suite checks that the file equals a fresh compile, and CI runs ``--check``.

    python -m kernel.contract.precompiled --write   # after editing a template or the grammar
    python -m kernel.contract.precompiled --check   # exit 1 when the file is stale

``--write`` also rewrites the parser's precomputed LALR tables
(``kernel/data/expression.lalr.pickle``) and the injection scan's phrase regexes
(``kernel/data/injection_phrases.json``, built from the phrase lists of
``kernel/data/injection_phrases.toml``); ``--check`` checks that the tables were built from the
current grammar and that the phrase regexes equal a fresh build.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kernel.contract.dialects import DIALECT_NAMES, DIALECTS, detect, validate
from kernel.contract.templates import TEMPLATE_NAMES, schema_document, shipped_template
from kernel.contract.validator import canonical_json
from kernel.errors import ContractError
from kernel.expression.parser import PRECOMPILED, atom_to_data
from kernel.text.injection import PHRASES, phrase_table

__all__ = ["FILE", "PHRASES_FILE", "check", "phrases_text", "precompiled_data", "render", "write"]

#: Where the file lives: inside the ``kernel`` package.
FILE = Path(__file__).resolve().parents[1] / PRECOMPILED

#: The injection scan's phrase regexes, next to it.
PHRASES_FILE = Path(__file__).resolve().parents[1] / PHRASES

USAGE = "usage: python -m kernel.contract.precompiled --write | --check"


def precompiled_data() -> dict[str, Any]:
    """A fresh compile: every template validated with jsonschema and every expression parsed
    with lark, neither through the precompiled file."""
    from kernel.expression import lalr

    valid: dict[str, dict[str, str]] = {name: {} for name in DIALECT_NAMES}
    expressions: dict[str, dict[str, list[list[str]]]] = {name: {} for name in DIALECT_NAMES}
    for name in TEMPLATE_NAMES:
        data = shipped_template(name)
        dialect = DIALECTS[detect(data)]
        errors = validate(data, schema=schema_document(dialect.schema_file))
        if errors:
            raise ContractError(f"template {name} does not match {dialect.title}: {errors[0]}")
        valid[dialect.name][name] = canonical_json(data)
        for condition in data["failure_conditions"]:
            text = condition["expression"]
            atoms = lalr.parse(text, dialect.vocabulary).atoms
            expressions[dialect.name][text] = [atom_to_data(atom) for atom in atoms]
    return {
        "generated_by": "python -m kernel.contract.precompiled --write",
        "expressions": expressions["13"],
        "expressions_13_2": expressions["13.2"],
        "valid_templates": valid["13"],
        "valid_templates_13_2": valid["13.2"],
    }


def render(data: dict[str, Any]) -> str:
    """The file's text: one line per key of each table."""

    def dumps(value: object) -> str:
        return json.dumps(value, ensure_ascii=False, sort_keys=True)

    parts = []
    for key in sorted(data):
        value = data[key]
        if isinstance(value, dict):
            rows = [f"  {dumps(k)}: {dumps(value[k])}" for k in sorted(value)]
            parts.append(f" {dumps(key)}: {{\n" + ",\n".join(rows) + "\n }")
        else:
            parts.append(f" {dumps(key)}: {dumps(value)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def phrases_text() -> str:
    """The phrase file's text: one line per rule."""
    return render(phrase_table())


def _differs(path: Path, fresh: str) -> bool:
    try:
        return path.read_text("utf-8") != fresh
    except (OSError, ValueError):
        return True


def check(path: Path = FILE, phrases: Path = PHRASES_FILE) -> list[str]:
    """What is stale: the precompiled file at ``path``, the LALR tables, the phrase file at
    ``phrases``. Empty when current."""
    from kernel.expression import lalr

    stale = []
    if _differs(path, render(precompiled_data())):
        stale.append(f"{path} differs from a fresh compile")
    if _differs(phrases, phrases_text()):
        stale.append(f"{phrases} differs from a fresh build")
    if not lalr.cache_matches_grammar():
        stale.append(f"{lalr.PARSER_CACHE} was built from another grammar")
    return stale


def write(path: Path = FILE, phrases: Path = PHRASES_FILE) -> None:
    from kernel.expression import lalr

    path.write_text(render(precompiled_data()), "utf-8")
    (path.parent.parent / lalr.PARSER_CACHE).write_bytes(lalr.parser_cache_bytes())
    phrases.write_text(phrases_text(), "utf-8")


def main(argv: Sequence[str]) -> int:
    if list(argv) == ["--write"]:
        write()
        print(f"wrote {FILE}")
        return 0
    if list(argv) == ["--check"]:
        stale = check()
        for line in stale:
            print(f"stale: {line}; run: python -m kernel.contract.precompiled --write")
        if not stale:
            print(f"{FILE.name}: current")
        return 1 if stale else 0
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
