"""The vocabulary's text: the grammar file and the closest recognised form of a text that is
not in the vocabulary (for error messages). Both the parser and the LALR tables use it."""

from __future__ import annotations

import re

from kernel.io import package_data

__all__ = ["GRAMMAR_FILE", "closest_form", "grammar_text"]

#: The grammar file: ``grammar/`` at the top of the repository, installed as package data
#: ``kernel/expression/grammar/`` (see ``pyproject.toml``).
GRAMMAR_FILE = "expression.lark"

def grammar_text() -> str:
    """The grammar that defines the vocabulary (shipped inside the package)."""
    try:
        return package_data("kernel.expression.grammar", GRAMMAR_FILE).decode("utf-8")
    except (ModuleNotFoundError, OSError):  # a source tree that was never built
        from pathlib import Path

        return (Path(__file__).resolve().parents[2] / "grammar" / GRAMMAR_FILE).read_text("utf-8")


_FORMS = (
    "any <P> dimension scores '<S>'",
    "any dimension with priority=<p> scores '<S>'",
    "two or more <P> dimensions score '<S>' or worse",
    "two or more dimensions with priority=<p> score '<S>' or worse",
    "every <P> dimension scores '<S>'",
    "every dimension with priority=<p> scores '<S>'",
    "<Dn> scores '<S>'",
)
#: The nine forms of dialect 13.2 (its grammar spells them exactly).
_FORMS_13_2 = (
    "any <P> dimension scores '<S>'",
    "any dimension with priority=<p> scores '<S>'",
    "two or more <P> dimensions score '<S>' or worse",
    "two or more dimensions with priority=<p> score '<S>' or worse",
    "every <p> dimension scores '<S>'",
    "<Dn> scores '<S>'",
    "any <p> dimension has a fatal block",
    "<Dn> has a fatal block",
    "any dimension scores '<S>' or worse",
    "<Dn> scores '<S>' or worse",
    "every dimension scores '<S>'",
)
_DIALECT_FORMS = {"13": _FORMS, "13.2": _FORMS_13_2}
#: Starts only at a run's first blank: tried inside a run, each start read the whole run.
_AND_SPLIT = re.compile(r"(?<![ \t])[ \t]+(?:AND|and)[ \t]+")
_QUOTED = re.compile(r"'([^']*)'")
_PRIO = re.compile(r"\b(mandatory|high|normal)(?:-priority)?\b", re.IGNORECASE)
_DIM = re.compile(r"\b[Dd]\d+\b")


def closest_form(text: str, column: int = 1, dialect: str = "13") -> str:
    """The recognised form of ``dialect`` nearest the part of ``text`` around ``column``,
    filled in where the text says which priority, score or dimension it meant (used for
    error messages)."""
    forms = _DIALECT_FORMS[dialect]
    start = 0
    for separator in [*_AND_SPLIT.finditer(text), None]:
        end = len(text) if separator is None else separator.start()
        if column - 1 <= end or separator is None:  # a column inside " AND " goes right
            break
        start = separator.end()
    segment = text[start:end].strip()
    shape = _DIM.sub("<Dn>", _PRIO.sub("<P>", _QUOTED.sub("'<S>'", segment)))
    shape = shape.replace("priority=<P>", "priority=<p>")
    first = shape.split(" ", 1)[0]

    import difflib  # only error messages need it

    def likeness(form: str) -> float:
        bonus = 0.25 if form.split(" ", 1)[0] == first else 0.0
        return difflib.SequenceMatcher(None, shape, form).ratio() + bonus

    best = max(forms, key=likeness)
    quoted = [q.lower() for q in _QUOTED.findall(segment)]
    score = next((q for q in quoted if q in ("block", "warn", "pass")), None)
    prio_match = _PRIO.search(segment)
    prio = prio_match.group(1).lower() if prio_match else None
    dim_match = _DIM.search(segment)
    filled = best
    if score:
        filled = filled.replace("<S>", score)
    if prio:
        filled = filled.replace("<p>", prio)
        filled = filled.replace("<P>", prio if prio == "mandatory" else f"{prio}-priority")
    if dim_match and re.fullmatch(r"D[1-9][0-9]?", dim_match.group(0)):
        filled = filled.replace("<Dn>", dim_match.group(0))
    for placeholder, meaning in (("<P>", "<priority>"), ("<p>", "<priority>"), ("<S>", "<score>")):
        filled = filled.replace(placeholder, meaning)
    return filled
