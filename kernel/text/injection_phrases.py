"""The injection scan's phrase rules and command patterns (the first of its three rooms; the
matcher is :mod:`kernel.text.injection_match`, the reader's view
:mod:`kernel.text.injection_markup`, the scan :mod:`kernel.text.injection`).

The phrase lists are data: ``kernel/data/injection_phrases.toml`` (its header, and
``docs/panel.md``, describe it). This module reads and checks that file and turns each rule
into ``(first words, regex of the rest)`` patterns: every literal goes through the same
skeleton as the text it is matched against (:mod:`kernel.text.skeleton`), word lists become
prefix trees, and repetition is bounded and possessive. The matcher cuts the patterns by
first word and stores the cut regexes in ``kernel/data/injection_phrases.json`` (refreshed by
``python -m kernel.contract.precompiled --write``), so a scan reads neither the TOML nor
builds a regex. The command patterns, and the start checks that say where a match may begin,
are code.
"""

from __future__ import annotations

import functools
import itertools
import json
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from kernel.io import package_data
from kernel.text.injection_markup import (
    COLON_MAY_FOLLOW,
)
from kernel.text.skeleton import char_skeleton

INSTRUCTION_OVERRIDE = "instruction_override"
ROLE_REASSIGNMENT = "role_reassignment"
FORGED_DELIMITER = "forged_delimiter"
FORGED_PROVENANCE = "forged_provenance"
DANGEROUS_COMMAND = "dangerous_command"
CATEGORIES: tuple[str, ...] = (
    INSTRUCTION_OVERRIDE,
    ROLE_REASSIGNMENT,
    FORGED_DELIMITER,
    FORGED_PROVENANCE,
    DANGEROUS_COMMAND,
)

# --- pattern building: literals go through the same skeleton as the text --------------------

_SEP = r"[\W_]++"  # one run of non-letters between words (possessive: never backtracks)
# A colon after a phrase, past blanks and emphasis ("**New instructions**:").
_COLON = rf"[\s{re.escape(COLON_MAY_FOLLOW)}]*+:"


class _Compiler:
    """A regex compiled on first call (importing the scan compiles nothing)."""

    __slots__ = ("_compiled", "_source")

    def __init__(self, source: str) -> None:
        self._source = source
        self._compiled: re.Pattern[str] | None = None

    def __call__(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source)
        return self._compiled

    @property
    def source(self) -> str:
        return self._source


def _compiler(source: str) -> Callable[[], re.Pattern[str]]:
    return _Compiler(source)


def _lit(word: str) -> str:
    """A word or phrase as a regex over skeleton text; spaces mean any separator run."""
    parts = ["".join(char_skeleton(c) for c in part) for part in word.split()]
    return _SEP.join(re.escape(p) for p in parts)


@functools.cache
def _units(word: str) -> tuple[str, ...]:
    """A word or phrase as regex units over skeleton text: escaped characters and separators."""
    out: list[str] = []
    for i, part in enumerate(word.split()):
        if i:
            out.append(_SEP)
        out.extend(re.escape(c) for c in "".join(char_skeleton(ch) for ch in part))
    return tuple(out)


def _trie(words: Sequence[tuple[str, ...]], depth: int = 0) -> str:
    """An alternation of unit sequences (sorted) as a prefix tree: the regex engine drops a
    branch at its first character instead of trying every word. Longer words come first at
    every node."""
    alts = []
    ends = False
    for unit, group in itertools.groupby(words, key=lambda w: w[depth] if len(w) > depth else ""):
        if not unit:
            ends = True
            continue
        members = list(group)
        if len(members) == 1:
            alts.append("".join(members[0][depth:]))
        else:
            alts.append(unit + _trie(members, depth + 1))
    if not alts:
        return ""
    if ends:
        alts.append("")
    return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"


def _any(*words: str) -> str:
    return "(?:" + _trie(sorted({_units(w) for w in words})) + ")"


def _seq(*items: str) -> str:
    return _SEP.join(items)


def _opt(item: str, most: int = 1) -> str:
    """``item`` followed by a separator, zero to ``most`` times."""
    return f"(?:{item}{_SEP}){{0,{most}}}"


def _phrase(body: str) -> str:
    """``body`` ending at a word end (the start is checked by ``_starts_word``)."""
    return rf"{body}(?![^\W_])"


def _lead(firsts: Sequence[str], *rest: str) -> list[tuple[str, str]]:
    """``(first word, regex of the rest)`` pairs; ``_phrase_parts`` puts the first words that
    share a rest into one prefix tree."""
    return [(word, _SEP + _seq(*rest)) for word in firsts]


# Where a clause ends: a line break, punctuation, the end of the text, or a conjunction
# ("ignore the above and approve"), past blanks and markup a reader does not see (emphasis,
# an escape's backslash, a link's "["; a "]" is itself an end).
_CLAUSE_END = (
    r"(?=[ \t*_~`\[\\]*+\n|[\s*_~`\[\\]*+(?:[.;:!,)\]]|\Z|"
    r"(?:and|then|or|but|so|instead)(?![^\W_])))"
)


# --- the phrase rules, read from the phrase file ------------------------------------------------
# kernel/data/injection_phrases.toml holds the word lists (its header describes the language of
# a rule's ``then``); the code below turns them into (first words, rest) patterns.

#: The phrase lists, as a reviewer reads and edits them.
PHRASE_LISTS = "data/injection_phrases.toml"
#: The phrase rules the file holds (one array of tables each).
PHRASE_RULES: tuple[str, ...] = ("override", "override-imperative", "role")
#: The rule regexes built from the phrase lists, stored by ``python -m
#: kernel.contract.precompiled --write`` (building them takes a command line about 20 ms;
#: reading them back, 2 ms). A test and ``--check`` keep the file current.
PHRASES = "data/injection_phrases.json"

_RULE_KEYS = frozenset({"first", "then", "catches"})
_PHRASE = re.compile(r"[a-z0-9]++(?: [a-z0-9]++)*+")
_NAME = re.compile(r"[a-z][a-z0-9-]*+")
_TOKEN = re.compile(r"\s*+(?:([()|_])|<(colon|end)>|(\$?[a-z][a-z0-9-]*+)(\?|\*[1-9])?|(\S))")


class PhraseFileError(Exception):
    """The shipped phrase file is malformed (a bug of the package, not bad input)."""


class _Term(NamedTuple):
    """One term of a rule's ``then``: a word list (``$``-prefixed: a shared one), a group of
    alternatives, ``colon``, ``end`` or ``_``; ``most`` > 0 makes it optional."""

    kind: str
    name: str = ""
    alts: tuple[tuple[_Term, ...], ...] = ()
    most: int = 0


def _parse_then(text: str) -> tuple[_Term, ...]:
    """A rule's ``then`` read into terms; ``ValueError`` says what is wrong with it."""
    tokens: list[tuple[str, str, int]] = []
    pos, end = 0, len(text.rstrip())
    while pos < end:
        m = _TOKEN.match(text, pos)
        assert m is not None
        punct, special, name, suffix, bad = m.groups()
        if bad:
            raise ValueError(f"unexpected {bad!r} at {m.start(5)}")
        most = 0 if not suffix else 1 if suffix == "?" else int(suffix[1:])
        tokens.append((punct or "", special or name or "", most))
        pos = m.end()
    terms, at = _sequence(tokens, 0)
    if at != len(tokens):
        raise ValueError(f"unexpected {tokens[at][0]!r}")
    if not terms:
        raise ValueError("nothing to match")
    return terms


def _sequence(tokens: list[tuple[str, str, int]], at: int) -> tuple[tuple[_Term, ...], int]:
    """The terms from ``at`` to the next ``|`` or ``)`` (or the end), and where they stop."""
    terms: list[_Term] = []
    while at < len(tokens) and tokens[at][0] not in ("|", ")"):
        punct, word, most = tokens[at]
        at += 1
        if punct == "(":
            alts = []
            while True:
                alt, at = _sequence(tokens, at)
                if at >= len(tokens):
                    raise ValueError("a group without its ')'")
                if not alt:
                    raise ValueError("an empty alternative")
                alts.append(alt)
                at += 1
                if tokens[at - 1][0] == ")":
                    break
            terms.append(_Term("group", alts=tuple(alts)))
        elif punct == "_":
            terms.append(_Term("_"))
        elif word in ("colon", "end"):
            terms.append(_Term(word))
        else:
            terms.append(_Term("list", word, most=most))
    if terms and terms[-1].most:
        raise ValueError("the last term is optional")
    return tuple(terms), at


def _glued(term: _Term) -> bool:
    """Whether ``term`` follows the term before it without a separator."""
    if term.kind == "group":
        return all(_glued(alt[0]) for alt in term.alts)
    return term.kind in ("colon", "end", "_")


def _render(terms: Sequence[_Term], lists: Mapping[str, Sequence[str]]) -> str:
    """The regex of a sequence of terms, ``lists`` naming the word lists."""
    out = []
    for i, term in enumerate(terms):
        before = terms[i - 1] if i else None
        if before is not None and not before.most and before.kind != "_" and not _glued(term):
            out.append(_SEP)
        if term.kind == "list":
            body = _any(*lists[term.name])
        elif term.kind == "group":
            body = "(?:" + "|".join(_render(alt, lists) for alt in term.alts) + ")"
        else:
            body = {"colon": _COLON, "end": _CLAUSE_END, "_": _SEP}[term.kind]
        out.append(_opt(body, term.most) if term.most else body)
    return "".join(out)


def _names(terms: Iterable[_Term]) -> Iterator[str]:
    for term in terms:
        if term.kind == "list":
            yield term.name
        for alt in term.alts:
            yield from _names(alt)


def phrase_file_problems(data: Mapping[str, Any]) -> list[str]:
    """What is wrong with the parsed phrase file: its shape, every phrase, every ``then`` and
    the names it uses. Empty when it is well formed."""
    problems: list[str] = []

    def phrases(where: str, value: object, words: bool = False) -> None:
        if not isinstance(value, list) or not value:
            problems.append(f"{where}: not a non-empty array of phrases")
            return
        for p in value:
            if not isinstance(p, str) or not _PHRASE.fullmatch(p) or (words and " " in p):
                kind = "word" if words else "phrase"
                problems.append(f"{where}: {p!r} is not a lower-case {kind}")
        if len(set(map(str, value))) != len(value):
            problems.append(f"{where}: a phrase is listed twice")

    expected = {"lists", "clause-start", *PHRASE_RULES}
    if set(data) != expected:
        problems.append(f"the tables are {sorted(data)}, not {sorted(expected)}")
    shared = data.get("lists")
    shared = shared if isinstance(shared, dict) else {}
    for name, value in shared.items():
        phrases(f"lists.{name}", value)
    starts = data.get("clause-start")
    starts = starts if isinstance(starts, dict) else {}
    if set(starts) != {"lead-ins", "addressees"}:
        problems.append("clause-start: not exactly lead-ins and addressees")
    for name, value in starts.items():
        phrases(f"clause-start.{name}", value, words=True)
    used: set[str] = set()
    for rule in PHRASE_RULES:
        tables = data.get(rule)
        if not isinstance(tables, list) or not tables:
            problems.append(f"{rule}: not an array of tables")
            continue
        for i, table in enumerate(tables):
            where = f"{rule}[{i}]"
            if not isinstance(table, dict) or not {"first", "then", "catches"} <= set(table):
                problems.append(f"{where}: a rule needs first, then and catches")
                continue
            if not isinstance(table["catches"], str) or not table["catches"].strip():
                problems.append(f"{where}.catches: not a text")
            first = table["first"]
            first = first if isinstance(first, list) else [None]
            refs = [p[1:] for p in first if isinstance(p, str) and p.startswith("$")]
            plain = [p for p in first if not (isinstance(p, str) and p.startswith("$"))]
            if plain or not first:
                phrases(f"{where}.first", plain)
            own = {k: v for k, v in table.items() if k not in _RULE_KEYS}
            for name, value in own.items():
                if not _NAME.fullmatch(name):
                    problems.append(f"{where}: {name!r} is not a list name")
                phrases(f"{where}.{name}", value)
            try:
                if not isinstance(table["then"], str):
                    raise ValueError("not a text")
                names = set(_names(_parse_then(table["then"])))
            except (ValueError, TypeError) as exc:
                problems.append(f"{where}.then: {exc}")
                continue
            for ref in [*refs, *(n[1:] for n in names if n.startswith("$"))]:
                used.add(ref)
                if ref not in shared:
                    problems.append(f"{where}: no shared list named {ref!r}")
            for name in sorted(n for n in names if not n.startswith("$")):
                if name not in own:
                    problems.append(f"{where}.then: no list named {name!r} in the rule")
            for name in sorted(own.keys() - names):
                problems.append(f"{where}.{name}: not used in then")
    for name in sorted(shared.keys() - used):
        problems.append(f"lists.{name}: not used by any rule")
    return problems


@functools.cache
def phrase_lists() -> dict[str, Any]:
    """The phrase file, read and checked once (on first need: importing the scan reads
    nothing). A malformed file raises ``PhraseFileError``."""
    import tomllib

    data = tomllib.loads(package_data("kernel", PHRASE_LISTS).decode("utf-8"))
    problems = phrase_file_problems(data)
    if problems:
        raise PhraseFileError(f"{PHRASE_LISTS}: " + "; ".join(problems))
    return data


def rule_patterns(
    table: Mapping[str, Any], shared: Mapping[str, Sequence[str]]
) -> list[tuple[str, str]]:
    """One rule table's ``(first word, regex of the rest)`` pairs (a checked table)."""
    lists = {**{f"${k}": v for k, v in shared.items()}, **table}
    firsts = [w for p in table["first"] for w in (shared[p[1:]] if p[0] == "$" else (p,))]
    return _lead(firsts, _render(_parse_then(table["then"]), lists))


@functools.cache
def phrase_patterns(rule: str) -> tuple[tuple[str, str], ...]:
    """A phrase rule's patterns, every table of the rule in file order."""
    data = phrase_lists()
    return tuple(pair for table in data[rule] for pair in rule_patterns(table, data["lists"]))


@functools.cache
def _stored_table() -> dict[str, Any]:
    try:
        table = json.loads(package_data("kernel", PHRASES))
    except (OSError, ValueError):
        return {}
    return table if isinstance(table, dict) else {}


_PROVENANCE = [
    r"\[\s*+" + _lit("provenance"),
    r"<!--\s*+" + _lit("provenance"),
    _lit("provenance") + r"[_-]" + _any("marker", "id", "tag"),
]
_PROVENANCE_LINE = _lit("provenance") + r"[ \t]*+[:=]"  # only at the start of a line

_CHAT_TOKENS = [
    r"<\|[a-z_]{1,40}\|>",  # <|im_start|>, <|system|>, <|endoftext|> ...
    r"<</?" + _lit("sys") + ">>",
]
_CHAT_INST = r"\[\s*+/?" + _lit("inst") + r"\s*+\]"  # [INST], [/INST]
_ISOLATION = _lit("review_target") + r"_[a-z0-9]\w*+"  # kernel.delimit isolation markers

_FLAGS = r"((?:[ \t]++-{1,2}[\w=-]{1,30}+){1,6})"
_ARGS = r"((?:[ \t]++[^\s;&|]{1,200}+){1,8})"
_SHELLS = _any(
    "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "perl", "ruby", "node",
    "iex", "invoke-expression",
)  # fmt: skip
_COMMANDS: tuple[tuple[str, str], ...] = (
    ("rm", _lit("rm") + _FLAGS),
    ("git-push", _lit("git") + r"[ \t]++" + _lit("push") + _ARGS),
    ("sql-drop", _phrase(_seq(_any("drop"), _any("table", "database", "schema")))),
    ("sql-truncate", _phrase(_seq(_any("truncate"), _any("table")))),
    ("mkfs", _lit("mkfs") + r"(?![\w-])"),
    ("dd", _lit("dd") + r"(?:[ \t]++[^\s;&|]{1,200}+){0,4}?[ \t]++" + _lit("if") + "="),
    # a pipe into a shell; the download before it on the line is checked by _start_of
    ("download-pipe", r"\|[ \t]*+(?:" + _lit("sudo") + r"[ \t]++(?:-\S{1,20}+[ \t]++){0,3})?"
     + _SHELLS + r"(?![\w-])"),
    ("download-subshell", _SHELLS + r"[ \t]++(?:-c[ \t]++[\"']?)?(?:<|\$)\(\s*+"
     + _any("curl", "wget")),
    ("chmod", _lit("chmod") + r"((?:[ \t]++[^\s;&|]{1,40}+){2,6})"),
    ("git-reset", _lit("git") + r"[ \t]++" + _lit("reset") + r"[ \t]++--" + _lit("hard")),
    ("git-clean", _lit("git") + r"[ \t]++" + _lit("clean") + r"[ \t]++-\w*f"),
    ("shred", _lit("shred") + r"[ \t]"),
    # writing to a raw disk (the skeleton reads mmcblk as mmcbik)
    ("raw-disk", r">[ \t]*+/dev/(?:sd[a-z]|nvme\d|hd[a-z]|disk\d|mmcbik\d)"),
    ("remove-item", _phrase(_lit("remove-item") + r"(?:[ \t]++[^\s;|]{1,100}+){0,6}?[ \t]++"
     + _lit("-recurse"))),
    ("format-drive", _phrase(_lit("format") + r"[ \t]++[a-z]:")),
    ("del-recursive", _phrase(_lit("del") + r"[ \t]++/[sfq]")),
)  # fmt: skip
#: What every match of a command rule contains (before the skeleton): one of the words (as
#: a whole word), or one of the pieces (anywhere); with both, one of each.
_COMMAND_GATES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "rm": (("rm",), ()), "git-push": (("push",), ()), "sql-drop": (("drop",), ()),
    "sql-truncate": (("truncate",), ()), "mkfs": (("mkfs",), ()), "dd": (("if",), ("=",)),
    "download-pipe": ((), ("|",)), "download-subshell": (("curl", "wget"), ("<(", "$(")),
    "chmod": (("chmod",), ()), "git-reset": (("reset",), ()), "git-clean": (("clean",), ()),
    "shred": (("shred",), ()), "raw-disk": (("dev",), ()), "remove-item": (("recurse",), ()),
    "format-drive": (("format",), ()), "del-recursive": (("del",), ()),
}  # fmt: skip
# A fork bomb, found from its body: NAME(){ NAME|NAME& };NAME (NAME checked before the "(").
_FORK_BODY = r"\(\s*+\)\s*+\{\s*+([\w:]{1,20}+)\s*+\|\s*+\1\s*+&\s*+\}\s*+;\s*+\1(?![\w:])"

_DOWNLOAD = _compiler(
    r"(?<![\w./-])" + _any("curl", "wget", "fetch", "iwr", "invoke-webrequest") + r"(?![\w-])"
)
_WORD_CHAR = re.compile(r"[^\W_]")
_CMD_CHAR = re.compile(r"[\w./-]")


def _starts_word(text: str, start: int) -> bool:
    return start == 0 or _WORD_CHAR.match(text, start - 1) is None


def _starts_command(text: str, start: int) -> bool:
    return start == 0 or _CMD_CHAR.match(text, start - 1) is None


def _starts_ident(text: str, start: int) -> bool:
    return start == 0 or not (text[start - 1].isalnum() or text[start - 1] == "_")


def _starts_line(text: str, start: int) -> bool:
    before = text[max(0, start - 200) : start]
    cut = before.rfind("\n")
    if cut < 0 and start > 200:
        return False
    return before[cut + 1 :].strip() == ""


def _anywhere(text: str, start: int) -> bool:
    return True


def _reversed_words(*words: str) -> str:
    """Skeletons of ``words`` spelt backwards, as one alternation ending at a word start."""
    backwards = sorted({"".join(char_skeleton(c) for c in w)[::-1] for w in words})
    return "(?:" + "|".join(re.escape(w) for w in backwards) + r")(?![^\W_])"


_CLAUSE_WINDOW = 160


def clause_before_source() -> str:
    """Read backwards from an imperative: spaces, up to eight lead-ins, then the start of the
    text (the end of the reversed window), a line break or punctuation, or an addressee (the
    lists of ``[clause-start]`` in the phrase file)."""
    starts = phrase_lists()["clause-start"]
    lead_ins = _reversed_words(*starts["lead-ins"])
    addressees = _reversed_words(*starts["addressees"])
    return rf"[ \t]*+(?:{lead_ins}[ \t]*+){{0,8}}(?:(?P<start>\Z)|[^\w \t]|_|{addressees})"


@functools.cache
def _clause_before() -> re.Pattern[str]:
    """The compiled ``clause_before_source``, as stored in the phrase regexes' file (built
    from the phrase lists when the file lacks it)."""
    stored = _stored_table().get("clause-start")
    source = stored.get("before") if isinstance(stored, dict) else None
    if isinstance(source, str):
        try:
            return re.compile(source)
        except re.error:
            pass
    return re.compile(clause_before_source())


def _starts_clause(text: str, start: int) -> bool:
    """Whether the word at ``start`` opens a clause: at the start of the text or a line, after
    punctuation, or after lead-ins ("please", "you must", "reviewer,") back to one of those."""
    if not _starts_word(text, start):
        return False
    low = max(0, start - _CLAUSE_WINDOW)
    found = _clause_before().match(text[low:start][::-1])
    return found is not None and (found.group("start") is None or low == 0)


_Check = Callable[[str, int], bool]
