"""The injection scan's matcher (the second of its three rooms, see
:mod:`kernel.text.injection_phrases`): the rules table, phrase rules cut by first word and
gated by the words every match needs (:mod:`kernel.text.phrase_need`), the stored phrase
regexes, and the reading of a skeleton text into each rule's matches."""

from __future__ import annotations

import functools
import itertools
import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

from kernel.text.injection_phrases import (
    _CHAT_INST,
    _CHAT_TOKENS,
    _COMMAND_GATES,
    _COMMANDS,
    _DOWNLOAD,
    _FORK_BODY,
    _ISOLATION,
    _PROVENANCE,
    _PROVENANCE_LINE,
    _SEP,
    DANGEROUS_COMMAND,
    FORGED_DELIMITER,
    FORGED_PROVENANCE,
    INSTRUCTION_OVERRIDE,
    ROLE_REASSIGNMENT,
    _anywhere,
    _Check,
    _Compiler,
    _compiler,
    _starts_clause,
    _starts_command,
    _starts_ident,
    _starts_line,
    _starts_word,
    _stored_table,
    _trie,
    _units,
    clause_before_source,
    phrase_patterns,
)
from kernel.text.phrase_need import Clauses, clauses, need_of, next_words, word_led
from kernel.text.skeleton import char_skeleton


def _either(patterns: Sequence[str]) -> str:
    return "|".join(f"(?:{p})" for p in patterns)


def _sk(word: str) -> str:
    return "".join(char_skeleton(c) for c in word)


class _Part(NamedTuple):
    """One regex of a phrase rule, compiled on first need (the whole part, kept as the
    reference), and the same regex cut by the first word of its heads: ``by_first[w]`` holds
    only the heads that start with ``w``."""

    regex: Callable[[], re.Pattern[str]]
    by_first: Mapping[str, Callable[[], re.Pattern[str]]]


class _Finder(NamedTuple):
    """For one first word ``w``: a regex that starts with the literal ``w`` and matches
    wherever one of the parts can (the engine jumps from one ``w`` to the next), the parts
    that have heads starting with ``w``, and the second words of those heads (``None`` when a
    head is the one word ``w``). A match holds its head's second word as a whole word, so a
    text without any of them is not searched, and the regex is not even compiled."""

    regex: Callable[[], re.Pattern[str]]
    members: tuple[int, ...]
    seconds: frozenset[str] | None
    #: For each member, the words every match of its cut regex holds one of each
    #: (``kernel.text.phrase_need``); empty: none known.
    needs: tuple[Clauses, ...] = ()
    #: The words that may stand right after ``w`` in a match (``phrase_need.next_words``):
    #: a place of ``w`` followed by another word is not tried. ``None``: not known.
    nexts: _Next | None = None


class _Next:
    """A finder's next words, as stored; read into a set of bytes (what a text's words are
    split into) on first use."""

    __slots__ = ("_set", "words")

    def __init__(self, words: Iterable[str]) -> None:
        self.words = tuple(sorted(words))
        self._set: frozenset[bytes] | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Next) and other.words == self.words

    def __hash__(self) -> int:
        return hash(self.words)

    @property
    def set(self) -> frozenset[bytes]:
        if self._set is None:
            self._set = frozenset(w.encode("ascii") for w in self.words)
        return self._set


class _Phrases(NamedTuple):
    """A phrase rule's parts, and its finder for each first word."""

    parts: tuple[_Part, ...]
    finders: Mapping[str, _Finder]
    #: The finders' first words (a set: intersected with a text's words, the smaller is read).
    firsts: frozenset[str] = frozenset()
    #: Every word a gate of this rule asks about: first and second words, the words of the
    #: needs.
    words: frozenset[str] = frozenset()


class _Rule(NamedTuple):
    name: str
    category: str
    #: A phrase rule's regexes (built on first need); ``None`` for a plain rule.
    parts: Callable[[], _Phrases] | None
    #: A plain rule's regex (compiled on first need), and what every match of it contains: one
    #: of ``words`` (skeleton) as a whole word, or one of ``pieces`` (skeleton) anywhere.
    regex: Callable[[], re.Pattern[str]] | None
    words: frozenset[str]
    pieces: tuple[str, ...]
    starts: _Check
    #: A phrase rule's (head, rest) patterns, from which its regexes are built.
    patterns: Callable[[], Sequence[tuple[str, str]]] | None = None


def _phrase_parts(patterns: Sequence[tuple[str, str]]) -> _Phrases:
    """One regex per set of heads that share their rests: the heads a prefix tree, then the
    rests as alternatives. Every rest starts with a separator, so a head's first word is a
    whole word wherever the regex matches: at a word ``w`` only the heads starting with ``w``
    can match, which is what the cut regexes and the finders rely on."""
    rests: dict[str, list[str]] = {}
    for head, rest in patterns:
        if not rest.startswith(_SEP):
            raise AssertionError(f"a phrase rest must start with a separator: {head!r}")
        if rest not in rests.setdefault(head, []):
            rests[head].append(rest)
    groups: dict[tuple[str, ...], list[str]] = {}
    for head, own_rests in rests.items():
        groups.setdefault(tuple(own_rests), []).append(head)
    parts = []
    # first word -> (index of a part, what follows the word in that part's heads, its tail)
    after: dict[str, list[tuple[int, str]]] = {}
    heads_of: dict[str, list[str]] = {}  # first word -> the heads it starts, in every part
    for index, (own, heads) in enumerate(groups.items()):
        tail = f"(?:{'|'.join(own)})(?![^\\W_])"
        firsts: dict[str, list[tuple[str, ...]]] = {}
        for head in heads:
            first = _sk(head.split()[0])
            firsts.setdefault(first, []).append(_units(head))
            heads_of.setdefault(first, []).append(head)
        whole = _compiler(f"(?:{_trie(sorted(_units(h) for h in heads))}){tail}")
        by_first = {w: _compiler(f"(?:{_trie(sorted(us))}){tail}") for w, us in firsts.items()}
        parts.append(_Part(whole, by_first))
        for w, us in firsts.items():
            rest = _trie(sorted(u[len(w) :] for u in us))
            after.setdefault(w, []).append((index, f"(?:{rest}){tail}"))
    finders = {}
    for w, alts in after.items():
        # One part: its own cut regex finds it (one regex to compile, one call per hit).
        regex = (
            parts[alts[0][0]].by_first[w]
            if len(alts) == 1
            else _compiler(re.escape(w) + "(?:" + "|".join(alt for _, alt in alts) + ")")
        )
        assert isinstance(regex, _Compiler)
        members = tuple(i for i, _ in alts)
        for source in (regex.source, *(_source_of(parts[i].by_first[w]) for i in members)):
            if not word_led(source, w):  # what _Tokens.of relies on
                raise AssertionError(f"a phrase search must start with its first word: {w!r}")
        needs = tuple(clauses(need_of(_source_of(parts[i].by_first[w])), w) for i in members)
        nexts = next_words(regex.source, w)
        finders[w] = _Finder(
            regex, members, _seconds(heads_of[w]), needs, None if nexts is None else _Next(nexts)
        )
    return _Phrases(tuple(parts), finders, frozenset(finders), _asked(finders))


def _asked(finders: Mapping[str, _Finder]) -> frozenset[str]:
    """The words the gates of these finders ask about (``_Phrases.words``)."""
    out = set(finders)
    for finder in finders.values():
        out |= finder.seconds or frozenset()
        for need in finder.needs:
            out |= need.words
    return frozenset(out)


def _source_of(compiled: Callable[[], re.Pattern[str]]) -> str:
    assert isinstance(compiled, _Compiler)
    return compiled.source


def _seconds(heads: Sequence[str]) -> frozenset[str] | None:
    """The skeletons of the heads' second words, or ``None`` when one of them is not a plain
    ASCII word (or a head has one word): then nothing can be said."""
    found = set()
    for head in heads:
        words = head.split()
        second = _sk(words[1]) if len(words) > 1 else ""
        if not (second.isascii() and second.isalnum()):
            return None
        found.add(second)
    return frozenset(found)


def _phrases_data(phrases: _Phrases) -> dict[str, Any]:
    return {
        "parts": [
            {
                "whole": _source_of(p.regex),
                "by_first": {w: _source_of(c) for w, c in p.by_first.items()},
            }
            for p in phrases.parts
        ],
        "finders": {
            w: [
                _source_of(f.regex),
                list(f.members),
                None if f.seconds is None else sorted(f.seconds),
                [list(n.text) for n in f.needs],
                None if f.nexts is None else list(f.nexts.words),
            ]
            for w, f in phrases.finders.items()
        },
        "words": sorted(phrases.words),
    }


def _phrases_from_data(data: Any) -> _Phrases:
    parts = tuple(
        _Part(_compiler(p["whole"]), {w: _compiler(s) for w, s in p["by_first"].items()})
        for p in data["parts"]
    )
    finders = {}
    for w, (s, members, seconds, needs, nexts) in data["finders"].items():
        own = parts[members[0]].by_first.get(w) if len(members) == 1 else None
        regex = own if isinstance(own, _Compiler) and own.source == s else _compiler(s)
        finders[w] = _Finder(
            regex,
            tuple(members),
            None if seconds is None else frozenset(seconds),
            tuple(Clauses(n) for n in needs),
            None if nexts is None else _Next(nexts),
        )
    return _Phrases(parts, finders, frozenset(finders), frozenset(data["words"]))


def _stored_or_built(name: str, patterns: Callable[[], Sequence[tuple[str, str]]]) -> _Phrases:
    data = _stored_table().get(name)
    if data is not None:
        try:
            return _phrases_from_data(data)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            pass  # not what --write writes: build the regexes instead
    return _phrase_parts(patterns())


def _word_rule(
    name: str,
    category: str,
    patterns: Callable[[], Sequence[tuple[str, str]]],
    starts: _Check = _starts_word,
) -> _Rule:
    parts = functools.cache(lambda: _stored_or_built(name, patterns))
    return _Rule(name, category, parts, None, frozenset(), (), starts, patterns)


def _rule(
    name: str,
    category: str,
    source: str,
    starts: _Check,
    words: tuple[str, ...] = (),
    pieces: tuple[str, ...] = (),
) -> _Rule:
    return _Rule(
        name,
        category,
        None,
        _compiler(source),
        frozenset(_sk(w) for w in words),
        tuple(_sk(p) for p in pieces),
        starts,
    )


_RULES: tuple[_Rule, ...] = (
    _word_rule("override", INSTRUCTION_OVERRIDE, lambda: phrase_patterns("override")),
    _word_rule(
        "override-imperative",
        INSTRUCTION_OVERRIDE,
        lambda: phrase_patterns("override-imperative"),
        _starts_clause,
    ),
    _word_rule("role", ROLE_REASSIGNMENT, lambda: phrase_patterns("role")),
    _rule("provenance", FORGED_PROVENANCE, _either(_PROVENANCE), _anywhere, (), ("provenance",)),
    _rule(
        "provenance-line",
        FORGED_PROVENANCE,
        _PROVENANCE_LINE,
        _starts_line,
        ("provenance",),
    ),
    _rule("chat-token", FORGED_DELIMITER, _either(_CHAT_TOKENS), _anywhere, (), ("<",)),
    _rule("chat-inst", FORGED_DELIMITER, _CHAT_INST, _anywhere, ("inst",)),
    _rule("isolation", FORGED_DELIMITER, _ISOLATION, _starts_ident, ("target",)),
    _rule("fork-bomb", DANGEROUS_COMMAND, _FORK_BODY, _anywhere, (), ("{",)),
    *(
        _rule(name, DANGEROUS_COMMAND, p, _starts_command, *_COMMAND_GATES[name])
        for name, p in _COMMANDS
    ),
)


def phrase_table() -> dict[str, Any]:
    """Every phrase rule's regex sources, built from its patterns, and the clause-start check's
    regex (what ``PHRASES`` stores)."""
    table: dict[str, Any] = {
        r.name: _phrases_data(_phrase_parts(r.patterns())) for r in _RULES if r.patterns is not None
    }
    table["clause-start"] = {"before": clause_before_source()}
    return table


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


# ASCII bytes that are not letters or digits (``?`` included: it stands for every non-ASCII
# character) read as spaces.
_ASCII_BLANK_BYTES = bytes(b if chr(b).isalnum() else 0x20 for b in range(128)) + bytes(128)


def _words(sk_text: str) -> frozenset[str]:
    """The words of a skeleton text that a gate asks about (see ``_Tokens.words``)."""
    return _Tokens(sk_text).words()


@functools.cache
def _gate_words() -> frozenset[bytes]:
    """Every word a rule's gate asks about: the phrase rules' ``_Phrases.words`` and the
    plain rules' words."""
    out: set[str] = set()
    for rule in _RULES:
        out |= rule.words if rule.parts is None else rule.parts().words
    return frozenset(w.encode("ascii") for w in out if w.isascii())


def _raw(
    sk_text: str, wanted: set[str], words: frozenset[str] | None = None
) -> tuple[list[tuple[str, int, int]], frozenset[str] | None]:
    """Every rule's matches in ``sk_text`` as (category, start, end), and the text's words
    when a rule needed them (``words``: a known superset of them, else built on need)."""
    found, words, _ = _read(sk_text, wanted, words)
    return found, words


def _read(
    sk_text: str, wanted: set[str], words: frozenset[str] | None = None
) -> tuple[list[tuple[str, int, int]], frozenset[str] | None, bool]:
    """``_raw``, and whether any rule's gate opened (a phrase finder or a plain rule ran)."""
    opened = False
    found: list[tuple[str, int, int]] = []
    downloads: list[int] | None = None
    plain: bool | None = None  # whether any plain rule's gate can open (known on first need)
    tokens = _Tokens(sk_text)
    if words is None and any(r.category in wanted and (r.parts or r.words) for r in _RULES):
        words = tokens.words()
    admitted = {
        rule.name: _admitted(rule.parts(), words)
        for rule in _RULES
        if rule.parts is not None and rule.category in wanted and words is not None
    }
    searched = {w for firsts in admitted.values() for w, _ in firsts}
    places = None
    if len(searched) >= _PLACES_FROM:  # one reading of the text instead of a search a word
        places = tokens
        tokens.read(searched)
    for rule in _RULES:
        category = rule.category
        if category not in wanted:
            continue
        name, starts = rule.name, rule.starts
        matches: Iterable[re.Match[str]]
        if rule.parts is not None:
            assert words is not None
            firsts = admitted[name]
            if not firsts:
                continue
            opened = True
            matches = _phrase_matches(rule.parts(), words, sk_text, starts, firsts, places)
        else:
            assert rule.regex is not None
            if plain is None:
                plain = _any_plain(sk_text, words)
                opened = opened or plain
            if not plain or not _may_match(rule, sk_text, words):
                continue
            if name == "download-pipe":
                downloads = [d.start() for d in _DOWNLOAD().finditer(sk_text)]
                if not downloads:
                    continue
            matches = _matches(rule.regex(), sk_text, starts)
        for m in matches:
            if name == "download-pipe":
                assert downloads is not None
                start = _download_pipe(sk_text, m, downloads)
            elif category == DANGEROUS_COMMAND:
                start = _start_of(name, m, sk_text)
            else:
                start = m.start()
            if start is not None:
                found.append((category, start, m.end()))
    return found, words, opened


@functools.cache
def _plain_gates() -> tuple[frozenset[str], tuple[str, ...]]:
    """Every plain rule's gate words, and its pieces (``""``, found in every text, when a
    rule has no gate)."""
    plain = [r for r in _RULES if r.parts is None]
    pieces = {p for r in plain for p in r.pieces}
    if any(not r.words and not r.pieces for r in plain):
        pieces.add("")
    return frozenset().union(*(r.words for r in plain)), tuple(sorted(pieces))


def _any_plain(sk_text: str, words: frozenset[str] | None) -> bool:
    """``False`` when no plain rule's gate can open: every gate needs one of the gate words
    or one of the pieces."""
    gate_words, pieces = _plain_gates()
    if words is None or not words.isdisjoint(gate_words):
        return True
    return any(map(sk_text.__contains__, pieces))


def _may_match(rule: _Rule, sk_text: str, words: frozenset[str] | None) -> bool:
    """A plain rule's gate: ``False`` when its regex cannot match ``sk_text``."""
    if rule.words and (words is None or words.isdisjoint(rule.words)):
        return False
    return not rule.pieces or any(map(sk_text.__contains__, rule.pieces))


def _admitted(phrases: _Phrases, words: frozenset[str]) -> list[tuple[str, tuple[int, ...]]]:
    """The first words whose finders a text with ``words`` passes the gates of (the word
    itself, one of the heads' second words), each with the members whose need clauses it
    meets (at least one)."""
    out = []
    for w in words & phrases.firsts:
        _, members, seconds, needs, _ = phrases.finders[w]
        if seconds is not None and seconds.isdisjoint(words):
            continue
        if len(needs) == 1:
            if not needs[0].met_by(words):
                continue
        elif needs:
            members = tuple(i for i, n in zip(members, needs, strict=True) if n.met_by(words))
            if not members:
                continue
        out.append((w, members))
    return out


def _phrase_matches(
    phrases: _Phrases,
    words: frozenset[str],
    text: str,
    starts: _Check,
    firsts: Iterable[tuple[str, tuple[int, ...]]] | None = None,
    places: _Tokens | None = None,
) -> list[re.Match[str]]:
    """What ``_matches`` finds with each part's whole regex, for the first words ``text``
    has (``firsts``: those ``_admitted`` gives, with the members that can match): each word's
    finder gives the places where a part can match, then each part's cut regex is tried
    there and its matches are kept as ``_matches`` would keep them. A word left with one
    member searches with that member's cut regex (the others cannot match). With
    ``places``, a finder is tried only where its word stands (see ``_hits``)."""
    found: dict[int, list[re.Match[str]]] = {}
    for w, members in _admitted(phrases, words) if firsts is None else firsts:
        own = phrases.finders[w]
        finder = own.regex if len(members) > 1 else phrases.parts[members[0]].by_first[w]
        nexts = None if own.nexts is None else own.nexts.set
        hits = _hits(finder(), w, text, starts, places, nexts)
        for at, hit in hits:
            for i in members:
                cut = phrases.parts[i].by_first[w]
                m = hit if cut is finder else cut().match(text, at)
                if m is not None:
                    found.setdefault(i, []).append(m)
    if not found:
        return []
    out = []
    for i in sorted(found):
        pos = 0
        for m in sorted(found[i], key=lambda m: m.start()):
            if m.start() >= pos:
                out.append(m)
                pos = max(m.end(), m.start() + 1)
    return out


#: From this many first words that the phrase rules search a text for, their places are
#: read in one pass over the text's words instead of one regex search each.
_PLACES_FROM = 8


def _hits(
    finder: re.Pattern[str],
    word: str,
    text: str,
    starts: _Check,
    places: _Tokens | None,
    nexts: frozenset[bytes] | None = None,
) -> Iterator[tuple[int, re.Match[str]]]:
    """Each place where ``finder`` matches and ``starts`` holds, in text order. Every phrase
    search starts with its first word as a whole word (``_phrase_parts`` checks it) and every
    phrase rule's start check asks for a word start: so with ``places`` the finder is tried
    only where the word stands and the word after it is one of ``nexts`` (when known), else
    the regex engine searches the whole text."""
    if places is not None and word.isascii():
        for at in places.of(word, nexts):
            hit = finder.match(text, at)  # the cheaper test first: most places fail it
            if hit is not None and starts(text, at):
                yield at, hit
        return
    pos = 0
    while (hit := finder.search(text, pos)) is not None:
        at = hit.start()
        pos = at + 1
        if starts(text, at):
            yield at, hit


class _Tokens:
    """A skeleton text read as ASCII words: runs of ASCII letters and digits, every other
    character a separator (a non-ASCII one too: every word the rules look for is ASCII, and
    a word next to a non-ASCII letter is only an extra candidate, which the rule's regex and
    start check then judge). Split once, on first need; a word's places (where it stands as
    a whole word) are read for the words asked for. A word start that the phrase rules'
    start checks accept is such a place."""

    def __init__(self, sk_text: str) -> None:
        self._text = sk_text
        self._blank = b""
        self._words: list[bytes] | None = None
        self._at: dict[bytes, list[int]] = {}
        self._next: dict[bytes, list[bytes]] = {}  # the word after each place ("" at the end)

    def _split(self) -> list[bytes]:
        if self._words is None:
            # One byte per code point (a non-ASCII one becomes "?"), then blanks.
            self._blank = self._text.encode("ascii", "replace").translate(_ASCII_BLANK_BYTES)
            self._words = self._blank.split()
        return self._words

    def words(self) -> frozenset[str]:
        """The words of the text that a gate asks about (``_gate_words``)."""
        return frozenset(map(bytes.decode, _gate_words().intersection(self._split())))

    def read(self, words: Iterable[str]) -> None:
        """Read the places of these ASCII words in one pass over the text's words: each
        occurrence, in text order, is found by a substring search from the one before (no
        whole word in between is one of them)."""
        wanted = frozenset(w.encode("ascii") for w in words if w.isascii()) - self._at.keys()
        if not wanted:
            return
        text_words = self._split()
        padded = b" " + self._blank + b" "  # a word's start in the text: " word " in padded
        at = 0
        out: dict[bytes, list[int]] = {w: [] for w in wanted}
        after: dict[bytes, list[bytes]] = {w: [] for w in wanted}
        text_words.append(b"")  # what follows the last word
        for i in itertools.compress(itertools.count(), map(wanted.__contains__, text_words)):
            word = text_words[i]
            at = padded.find(b" " + word + b" ", at)
            out[word].append(at)
            after[word].append(text_words[i + 1])
            at += len(word) + 1
        text_words.pop()
        self._at.update(out)
        self._next.update(after)

    def of(self, word: str, nexts: frozenset[bytes] | None = None) -> list[int]:
        """Where the ASCII ``word`` stands as a whole word, in order; with ``nexts``, only
        the places where the next word is one of them."""
        key = word.encode("ascii")
        if key not in self._at:
            self.read((word,))
        if nexts is None:
            return self._at[key]
        return list(itertools.compress(self._at[key], map(nexts.__contains__, self._next[key])))
