"""Injection scan over agent output (shared; companions.md §C, wire-format advisory lint).

``scan_injection(text)`` returns one ``InjectionFinding`` per suspicious passage, each with
its ``category``, its ``span`` (start, end) in the ORIGINAL text and the ``matched`` text:

* ``instruction_override`` — "ignore previous instructions", "disregard all prior rules",
  "forget everything above", "do not follow the system prompt", "new instructions:" ...
* ``role_reassignment`` — "you are now a …", "from now on you will …", "act as if you
  were …", "pretend to be …", "assume the role of …", "enter developer mode" ...
* ``forged_delimiter`` — an opening or closing tag of a kernel delimiter (default
  ``phase1_output``; pass ``delimiters=`` for others), an isolation marker
  (``REVIEW_TARGET_…``), chat-template control tokens (``<|im_start|>``, ``[INST]``,
  ``<<SYS>>`` ...);
* ``forged_provenance`` — text posing as a provenance marker (``provenance:`` /
  ``[PROVENANCE …``), which only the orchestrator may add;
* ``dangerous_command`` — ``rm -rf``, ``git push --force``, ``DROP TABLE``, ``mkfs``,
  ``dd if=``, fork bombs, a download piped into a shell, ``chmod -R 777`` ...

Matching runs on the skeleton of the text (``kernel.skeleton``: NFKC, default-ignorable
characters and combining marks removed, TS #39 confusables mapped to Latin, case-folded), so
zero-width splits, full-width letters and Cyrillic or Greek look-alikes do not hide a phrase.
Every pattern is a fixed alternation with bounded, possessive repetition, run once over the
skeleton: the scan is linear in the input.
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

import attrs

from kernel.errors import KernelError
from kernel.text.delimit import delimiters_in
from kernel.text.skeleton import char_skeleton, skeletonize

__all__ = [
    "CATEGORIES",
    "DANGEROUS_COMMAND",
    "DEFAULT_DELIMITERS",
    "FORGED_DELIMITER",
    "FORGED_PROVENANCE",
    "INSTRUCTION_OVERRIDE",
    "ROLE_REASSIGNMENT",
    "InjectionFinding",
    "scan_injection",
]

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

#: Delimiter names whose tags are always reported as forged in agent output.
DEFAULT_DELIMITERS: tuple[str, ...] = ("phase1_output",)


@attrs.frozen
class InjectionFinding:
    """One suspicious passage: ``category`` (see ``CATEGORIES``), ``span`` = (start, end)
    into the original text, ``matched`` = ``text[start:end]``."""

    category: str
    span: tuple[int, int]
    matched: str

    def to_dict(self) -> dict[str, object]:
        return {"category": self.category, "span": list(self.span), "matched": self.matched}


# --- pattern building: literals go through the same skeleton as the text --------------------

_SEP = r"[\W_]++"  # one run of non-letters between words (possessive: never backtracks)


def _lit(word: str) -> str:
    """A word or phrase as a regex over skeleton text; spaces mean any separator run."""
    parts = ["".join(char_skeleton(c) for c in part) for part in word.split()]
    return _SEP.join(re.escape(p) for p in parts)


def _any(*words: str) -> str:
    ordered = sorted(set(words), key=lambda w: (-len(w), w))
    return "(?:" + "|".join(_lit(w) for w in ordered) + ")"


def _seq(*items: str) -> str:
    return _SEP.join(items)


def _opt(item: str, most: int = 1) -> str:
    """``item`` followed by a separator, zero to ``most`` times."""
    return f"(?:{item}{_SEP}){{0,{most}}}"


def _phrase(body: str) -> str:
    """``body`` ending at a word end (the start is checked by ``_starts_word``)."""
    return rf"{body}(?![^\W_])"


_VERBS = (
    "ignore",
    "disregard",
    "forget",
    "override",
    "bypass",
    "skip",
    "discard",
    "drop",
    "abandon",
    "dismiss",
    "neglect",
    "erase",
    "delete",
    "do not follow",
    "don t follow",
    "dont follow",
    "do not obey",
    "don t obey",
    "stop following",
    "stop obeying",
    "no longer follow",
    "pay no attention to",
)
_FILL = _any("all", "any", "every", "each", "of", "the", "your", "my", "these", "those", "and")
_ADJ = _any(
    "previous",
    "prior",
    "above",
    "earlier",
    "preceding",
    "foregoing",
    "former",
    "original",
    "initial",
    "system",
    "existing",
    "old",
    "developer",
    "safety",
    "hidden",
)
_NOUN = _any(
    "instructions",
    "instruction",
    "prompts",
    "prompt",
    "rules",
    "directions",
    "directives",
    "directive",
    "guidelines",
    "guidance",
    "context",
    "messages",
    "commands",
    "orders",
    "constraints",
    "restrictions",
    "policies",
    "programming",
    "system prompt",
)


def _lead(firsts: Sequence[str], *rest: str) -> list[tuple[str, str]]:
    """``(first word, regex of the rest)`` pairs; ``_compile_words`` groups them by first
    letter so the regex engine skips fast to where some pattern can start."""
    return [(_lit(word), _SEP + _seq(*rest)) for word in firsts]


_OVERRIDE = [
    # ignore (all of) the previous (system) instructions
    *_lead(_VERBS, _opt(_FILL, 4) + _ADJ, _opt(_ADJ) + _NOUN),
    # ignore your instructions / disregard all rules
    *_lead(_VERBS, _opt(_FILL, 2) + _any("your", "all", "any"), _opt(_FILL, 2) + _NOUN),
    # forget everything above
    *_lead(
        _VERBS,
        _any("everything", "anything", "all of that", "all that", "what you were told"),
        _any("above", "before", "so far", "previously", "earlier", "you were told", "said"),
    ),
    # your new instructions / new instructions:
    *_lead(
        ("your", "here are your", "these are your"),
        _any("new", "real", "actual", "updated"),
        _NOUN,
    ),
    *_lead(
        ("new",), _opt(_lit("system")) + _any("instructions", "prompt", "directives") + r"\s*+:"
    ),
]

_ROLE = [
    *_lead(
        ("you are now", "you re now", "you are no longer", "you re no longer"),
        _any("a", "an", "the", "my", "acting", "operating", "playing", "called", "named", "dan",
             "free", "unrestricted", "jailbroken"),
    ),
    *_lead(("from now on", "from this point on", "henceforth"), _any("you", "your")),
    *_lead(
        ("you", "now"),
        _opt(_any("will", "must", "should", "shall", "are to", "have to", "now"))
        + _any("act", "behave", "respond", "function", "operate", "pose", "roleplay"),
        _any("as"),
    ),
    *_lead(
        ("act", "behave", "respond", "answer", "reply"),
        _any("as if you", "like you"),
        _any("are", "were"),
    ),
    *_lead(("pretend",), _any("to be", "you are", "that you are", "you re")),
    *_lead(("roleplay", "role play"), _any("as")),
    *_lead(
        ("assume", "take on", "adopt", "play", "switch to", "change to"),
        _opt(_any("the", "a", "an")) + _any("role", "persona", "identity", "character"),
        _any("of"),
    ),
    *_lead(("your",), _any("new", "real", "true"), _any("role", "persona", "identity", "name")),
    *_lead(
        ("enter", "enable", "activate", "switch to", "switch into", "you are in", "now in"),
        _any("developer", "dev", "god", "admin", "jailbreak", "jailbroken", "dan",
             "unrestricted", "debug", "sudo"),
        _any("mode"),
    ),
    *_lead(
        ("developer", "god", "jailbreak", "dan"),
        _any("mode"),
        _any("enabled", "activated", "on"),
    ),
]  # fmt: skip

_PROVENANCE = [
    r"\[\s*+" + _lit("provenance"),
    r"<!--\s*+" + _lit("provenance"),
    _lit("provenance") + r"[_-]" + _any("marker", "id", "tag"),
]
_PROVENANCE_LINE = _lit("provenance") + r"[ \t]*+[:=]"  # only at the start of a line

_CHAT_TOKENS = [
    r"<\|[a-z_]{1,40}\|>",  # <|im_start|>, <|system|>, <|endoftext|> ...
    r"\[\s*+/?" + _lit("inst") + r"\s*+\]",
    r"<</?" + _lit("sys") + ">>",
]
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
# A fork bomb, found from its body: NAME(){ NAME|NAME& };NAME (NAME checked before the "(").
_FORK_BODY = r"\(\s*+\)\s*+\{\s*+([\w:]{1,20}+)\s*+\|\s*+\1\s*+&\s*+\}\s*+;\s*+\1(?![\w:])"

_DOWNLOAD = re.compile(
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


_Check = Callable[[str, int], bool]


def _compile(patterns: Sequence[str]) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns))


def _compile_words(patterns: Sequence[tuple[str, str]]) -> re.Pattern[str]:
    """A flat alternation keyed by first letter, each alternative ending at a word end."""
    by_word: dict[str, list[str]] = {}
    for head, rest in patterns:
        by_word.setdefault(head, []).append(rest)
    by_letter: dict[str, list[str]] = {}
    for head in sorted(by_word, key=lambda w: (-len(w), w)):
        rests = "|".join(f"(?:{r})" for r in by_word[head])
        by_letter.setdefault(head[0], []).append(f"{head[1:]}(?:{rests})")
    return re.compile(
        "|".join(
            re.escape(letter) + "(?:" + "|".join(alts) + r")(?![^\W_])"
            for letter, alts in sorted(by_letter.items())
        )
    )


@attrs.frozen
class _Rule:
    name: str
    category: str
    #: A cheap necessary condition: when it finds nothing, ``pattern()`` cannot match either.
    gate: re.Pattern[str] | None
    #: The rule's regex; phrase rules compile theirs (tens of kB) on first need.
    pattern: Callable[[], re.Pattern[str]]
    starts: _Check


def _word_rule(name: str, category: str, patterns: Sequence[tuple[str, str]]) -> _Rule:
    heads = sorted({head for head, _ in patterns}, key=lambda w: (-len(w), w))
    return _Rule(
        name,
        category,
        re.compile("|".join(heads)),
        functools.cache(lambda: _compile_words(patterns)),
        _starts_word,
    )


def _rule(name: str, category: str, regex: re.Pattern[str], starts: _Check) -> _Rule:
    return _Rule(name, category, None, lambda: regex, starts)


_RULES: tuple[_Rule, ...] = (
    _word_rule("override", INSTRUCTION_OVERRIDE, _OVERRIDE),
    _word_rule("role", ROLE_REASSIGNMENT, _ROLE),
    _rule("provenance", FORGED_PROVENANCE, _compile(_PROVENANCE), _anywhere),
    _rule("provenance-line", FORGED_PROVENANCE, re.compile(_PROVENANCE_LINE), _starts_line),
    _rule("chat-token", FORGED_DELIMITER, _compile(_CHAT_TOKENS), _anywhere),
    _rule("isolation", FORGED_DELIMITER, re.compile(_ISOLATION), _starts_ident),
    _rule("fork-bomb", DANGEROUS_COMMAND, re.compile(_FORK_BODY), _anywhere),
    *(_rule(name, DANGEROUS_COMMAND, re.compile(p), _starts_command) for name, p in _COMMANDS),
)


def _matches(regex: re.Pattern[str], text: str, starts: _Check) -> Iterator[re.Match[str]]:
    """Like ``finditer``, but a match must start where ``starts`` allows; linear overall."""
    pos = 0
    while (m := regex.search(text, pos)) is not None:
        if starts(text, m.start()):
            yield m
            pos = max(m.end(), m.start() + 1)
        else:
            pos = m.start() + 1


_RM_RECURSIVE = re.compile(r"(?:^|\s)(?:-[a-z]*r|--recursive\b)")
_RM_FORCE = re.compile(r"(?:^|\s)(?:-[a-z]*f|--force\b|--no-preserve-root\b)")
_PUSH_FORCE = re.compile(r"(?:^|\s)(?:-[a-z]*f|--force|\+)")
_CHMOD_RECURSIVE = re.compile(r"(?:^|\s)(?:-[a-z]*r|--recursive\b)")
_CHMOD_WIDE = re.compile(r"(?:^|\s)(?:o*777|a\+rwx|ugo\+rwx|a\+w|o\+w)(?:\s|$)")


def _start_of(name: str, match: re.Match[str], text: str) -> int | None:
    """Where a command match really starts, or ``None`` when its flags make it harmless.

    Flags are read on the skeleton (lower case; ``0`` reads as ``o``).
    """
    if name == "rm":  # recursive and force, in any spelling
        flags = match.group(1)
        dangerous = bool(_RM_RECURSIVE.search(flags) and _RM_FORCE.search(flags))
        return match.start() if dangerous else None
    if name == "git-push":  # a force flag or a +refspec
        return match.start() if _PUSH_FORCE.search(match.group(1)) else None
    if name == "chmod":  # recursive and world-writable
        args = match.group(1)
        dangerous = bool(_CHMOD_RECURSIVE.search(args) and _CHMOD_WIDE.search(args))
        return match.start() if dangerous else None
    if name == "fork-bomb":  # the function name must stand right before the "()"
        fn, low = match.group(1), max(0, match.start() - 40)
        before = text[low : match.start()].rstrip()
        begin = low + len(before) - len(fn)
        if not before.endswith(fn) or (begin > 0 and re.match(r"[\w:]", text[begin - 1])):
            return None
        return begin
    return match.start()


def _download_pipe(text: str, match: re.Match[str], downloads: list[int]) -> int | None:
    """A pipe into a shell counts when curl/wget/... came earlier on the same line, at most
    300 characters and 3 pipes back; the finding then starts at the download."""
    i = bisect_left(downloads, match.start()) - 1
    if i < 0:
        return None
    start = downloads[i]
    if match.start() - start > 300 or "\n" in text[start : match.start()]:
        return None
    return start if text.count("|", start, match.start()) <= 2 else None


def _gate(gate: re.Pattern[str], text: str) -> bool:
    """Whether a head word occurs at the start of a word: only there can a phrase rule's match
    begin (:func:`_starts_word`), so a head inside a word ("act" in "contract") does not
    make the phrase regex compile."""
    return next(_matches(gate, text, _starts_word), None) is not None


def _raw(sk_text: str, wanted: set[str]) -> list[tuple[str, int, int]]:
    found: list[tuple[str, int, int]] = []
    downloads: list[int] | None = None
    for rule in _RULES:
        name, category, starts = rule.name, rule.category, rule.starts
        if category not in wanted or (rule.gate is not None and not _gate(rule.gate, sk_text)):
            continue
        regex = rule.pattern()
        if name == "download-pipe":
            downloads = [d.start() for d in _DOWNLOAD.finditer(sk_text)]
            if not downloads:
                continue
        for m in _matches(regex, sk_text, starts):
            if name == "download-pipe":
                assert downloads is not None
                start = _download_pipe(sk_text, m, downloads)
            elif category == DANGEROUS_COMMAND:
                start = _start_of(name, m, sk_text)
            else:
                start = m.start()
            if start is not None:
                found.append((category, start, m.end()))
    return found


def _names(value: object, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, bytes | Mapping) or not isinstance(value, Iterable):
        raise KernelError(f"{what} must be a list of names, got {type(value).__name__}")
    names = tuple(value)
    if not all(isinstance(n, str) for n in names):
        raise KernelError(f"{what} must be a list of strings")
    return names


def scan_injection(
    text: str,
    *,
    delimiters: Sequence[str] = DEFAULT_DELIMITERS,
    categories: Iterable[str] | None = None,
) -> tuple[InjectionFinding, ...]:
    """Scan agent output for injection attempts; findings in text order (see module doc).

    ``delimiters``: delimiter names whose opening or closing tags count as forged.
    ``categories``: restrict the scan to these categories (default: all).
    """
    if not isinstance(text, str):
        raise KernelError(f"scan_injection needs a string, got {type(text).__name__}")
    delimiters = _names(delimiters, "delimiters")
    wanted = set(CATEGORIES if categories is None else _names(categories, "categories"))
    unknown = wanted - set(CATEGORIES)
    if unknown:
        raise KernelError(f"unknown injection categories: {sorted(unknown)}")
    sk = skeletonize(text)
    raw = _raw(sk.text, wanted)
    spans = sk.spans((s, e) for _, s, e in raw)
    found = {(cat, span) for (cat, _, _), span in zip(raw, spans, strict=True)}
    if FORGED_DELIMITER in wanted:
        for name in delimiters:
            found.update((FORGED_DELIMITER, hit.span) for hit in delimiters_in(sk, name))
    return tuple(
        InjectionFinding(category=cat, span=span, matched=text[span[0] : span[1]])
        for cat, span in sorted(found, key=lambda f: (f[1][0], f[1][1], f[0]))
    )
