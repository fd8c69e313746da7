"""The words a phrase regex needs: a gate that skips a regex the text cannot match.

``need_of(source)`` reads a phrase regex (as the injection scan builds them) and returns a
formula over whole words: ``None`` (no word needed), a ``frozenset`` (one of these words),
or ``("&", items)`` / ``("|", items)``. A word counts only where the regex puts a character
that is not an ASCII letter or digit (or the end of the text) on both of its sides, so a
match holds it as a word of ``injection._words``; the match's start must follow such a
character (the phrase rules' start checks see to it). Everything the reading cannot tell
(optional parts, lookarounds, classes) needs nothing: the formula is a necessary condition.

``clauses(need)`` weakens it to a few clauses (a match holds one word of each), which is
what the scan stores; ``possible(clauses, words)`` checks them against a text's words.
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias

__all__ = ["Clauses", "Need", "clauses", "need_of", "next_words", "possible", "word_led"]

Need: TypeAlias = "frozenset[str] | tuple[str, tuple[Need, ...]] | None"

_ALNUM = frozenset(string.ascii_letters + string.digits)
#: Past this many strings a literal alternation is not spelt out (it then needs nothing).
_MOST_STRINGS = 4096


#: Past this many alternatives a need's ``|`` is merged into one list of clauses.
_MOST_ALTERNATIVES = 8


def clauses(need: Need, first: str = "", most: int = 6) -> Clauses:
    """``need`` weakened to alternatives (those of a top-level ``|``, at most
    ``_MOST_ALTERNATIVES``) of at most ``most`` clauses each, a clause being the words of
    which a match holds one; clauses that ``first`` meets are left out. Deeper down, an
    ``|`` keeps, for each position, the union of its alternatives' clauses there (an
    alternative with fewer gives its last): whichever alternative matches meets it."""
    tops = list(need[1]) if isinstance(need, tuple) and need[0] == "|" else [need]
    if len(tops) > _MOST_ALTERNATIVES:
        tops = [need]
    out: list[str] = []
    for top in tops:
        own: list[str] = []
        for clause in _cnf(top):
            words = " ".join(sorted(clause))
            if first not in clause and clause and words not in own:
                own.append(words)
        if not own:
            return Clauses()  # an alternative that needs nothing: no gate
        own.sort(key=lambda c: c.count(" "))  # the fewest words first: the likeliest to fail
        out += [*([_OR] if out else []), *own[:most]]
    return Clauses(out)


_OR = "|"


def _cnf(need: Need) -> list[frozenset[str]]:
    if need is None:
        return []
    if isinstance(need, frozenset):
        return [need]
    op, items = need
    parts = [_cnf(n) for n in items]
    if op == "&":
        return [c for p in parts for c in p]
    if not all(parts):
        return []
    # Any one clause of each alternative, joined, is met: the k-th (or the last) of each.
    depth = max(len(p) for p in parts)
    return [frozenset().union(*(p[min(k, len(p) - 1)] for p in parts)) for k in range(depth)]


class Clauses:
    """Clauses as stored (each its words, space-separated; alternatives apart by ``"|"``),
    read into sets on first use."""

    __slots__ = ("_sets", "text")

    def __init__(self, text: Iterable[str] = ()) -> None:
        self.text = tuple(text)
        self._sets: tuple[tuple[frozenset[str], ...], ...] | None = None

    def __bool__(self) -> bool:
        return bool(self.text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Clauses) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return f"Clauses({self.text!r})"

    @property
    def words(self) -> frozenset[str]:
        """Every word some clause names."""
        return frozenset(w for c in self.text if c != _OR for w in c.split())

    def met_by(self, words: frozenset[str]) -> bool:
        """Whether a text with these ``words`` meets every clause of some alternative."""
        sets = self._sets
        if sets is None:
            alternatives: list[list[frozenset[str]]] = [[]]
            for c in self.text:
                if c == _OR:
                    alternatives.append([])
                else:
                    alternatives[-1].append(frozenset(c.split()))
            sets = self._sets = tuple(tuple(a) for a in alternatives)
        if len(sets) == 1:  # the usual case, without a generator
            return not any(map(words.isdisjoint, sets[0]))
        return any(not any(map(words.isdisjoint, a)) for a in sets)


def possible(clauses: Clauses, words: frozenset[str]) -> bool:
    """Whether a text with these ``words`` meets every clause of some alternative."""
    return clauses.met_by(words)


def need_of(source: str) -> Need:
    """The words a match of the regex ``source`` holds (see the module docstring)."""
    from re import _parser  # build time only

    parsed = _parser.parse(source)
    if parsed.state.flags & ~32:  # anything but re.UNICODE: read nothing
        return None
    return _Reader().need(list(parsed), True, False)


def word_led(source: str, word: str) -> bool:
    """Whether every match of the regex ``source`` starts with ``word`` as a whole word:
    its letters, then a character that is not an ASCII letter or digit (or the end of the
    text). ``False`` when the reading cannot tell."""
    past = _past_word(source, word)
    return past is not None and past[0].begins(past[1], False)


def next_words(source: str, word: str) -> frozenset[str] | None:
    """The words that may stand right after ``word`` in a match of the regex ``source``, which
    ``word`` leads (``word_led``): past the characters that are not ASCII letters or digits,
    the first run of them, whole. ``None`` when the reading cannot tell (a match may end
    after ``word``, or a part is not read); a superset otherwise."""
    past = _past_word(source, word)
    if past is None or not past[0].begins(past[1], False):  # not led by the whole word
        return None
    reader, items = past
    return reader.first(items)


def _past_word(source: str, word: str) -> tuple[_Reader, list[tuple[Any, Any]]] | None:
    """What the regex ``source`` reads after the letters of ``word``, when it starts with
    them (``None`` otherwise, or when the reading cannot tell)."""
    from re import _parser  # first use only

    parsed = _parser.parse(source)
    if parsed.state.flags & ~32 or not word:
        return None
    reader = _Reader()
    items = list(parsed)
    for ch in word:
        # a plain group is its content: open groups until the next item is a character
        while items and items[0][0] is reader.c.SUBPATTERN and not any(items[0][1][1:3]):
            items = [*items[0][1][3], *items[1:]]
        if not items or items[0] != (reader.c.LITERAL, ord(ch)):
            return None
        items = items[1:]
    return reader, items


def _both(op: str, items: Iterable[Need]) -> Need:
    out: list[Need] = []
    for n in items:
        if n is None:
            if op == "|":
                return None
            continue
        if isinstance(n, tuple) and n[0] == op:
            out.extend(n[1])
        elif n not in out:
            out.append(n)
    if op == "|" and out and all(isinstance(n, frozenset) for n in out):
        return frozenset().union(*(n for n in out if isinstance(n, frozenset)))
    if not out:
        return None if op == "&" else frozenset()
    return out[0] if len(out) == 1 else (op, tuple(out))


class _Reader:
    """Walks a parsed regex (``re._parser``). ``before``: the character before a position is
    not an ASCII letter or digit (or there is none); ``after``: nor the one at it."""

    def __init__(self) -> None:
        from re import _constants

        self.c = _constants

    def _clear_class(self, items: Sequence[tuple[Any, Any]]) -> bool:
        """Whether a character class matches no ASCII letter or digit."""
        return not any(self._in_class(items, ch) for ch in _ALNUM)

    def _in_class(self, items: Sequence[tuple[Any, Any]], ch: str) -> bool:
        """Whether the class matches ``ch``, an ASCII letter or digit (so a word character)."""
        c = self.c
        negate = hit = False
        tests: dict[Any, Callable[[str], bool]] = {
            c.CATEGORY_WORD: str.isalnum,
            c.CATEGORY_NOT_WORD: lambda x: not x.isalnum(),
            c.CATEGORY_DIGIT: str.isdigit,
            c.CATEGORY_NOT_DIGIT: lambda x: not x.isdigit(),
            c.CATEGORY_SPACE: str.isspace,
            c.CATEGORY_NOT_SPACE: lambda x: not x.isspace(),
        }
        for op, av in items:
            if op is c.NEGATE:
                negate = True
            elif op is c.LITERAL:
                hit = hit or chr(av) == ch
            elif op is c.RANGE:
                hit = hit or av[0] <= ord(ch) <= av[1]
            elif op is c.CATEGORY and av in tests:
                hit = hit or tests[av](ch)
            else:
                return True  # not read: it may match
        return hit != negate

    def _fills_class(self, items: Sequence[tuple[Any, Any]]) -> bool:
        """Whether a class matches every ASCII letter and digit."""
        return all(self._in_class(items, ch) for ch in _ALNUM)

    # -- boundaries ---------------------------------------------------------------------

    def begins(self, seq: Sequence[tuple[Any, Any]], after: bool) -> bool:
        for item in reversed(seq):
            after = self._edge(item, after, ahead=True)
        return after

    def ends(self, seq: Sequence[tuple[Any, Any]], before: bool) -> bool:
        for item in seq:
            before = self._edge(item, before, ahead=False)
        return before

    def _edge(self, item: tuple[Any, Any], outside: bool, *, ahead: bool) -> bool:
        """Whether ``item`` begins (``ahead``) or ends with no letter or digit, given that
        what stands past it on that side (``outside``) does."""
        c = self.c
        op, av = item
        edge = self.begins if ahead else self.ends
        if op is c.LITERAL:
            return chr(av) not in _ALNUM
        if op is c.IN:
            return self._clear_class(av)
        if op is c.SUBPATTERN:
            return edge(list(av[3]), outside)
        if op is c.ATOMIC_GROUP:
            return edge(list(av), outside)
        if op is c.BRANCH:
            return all(edge(list(alt), outside) for alt in av[1])
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            low, high, sub = av
            if high == 0:
                return outside
            one = edge(list(sub), False)
            return one if low >= 1 else one and outside
        if ahead and op is c.ASSERT_NOT and av[0] == 1:
            sub = list(av[1])
            if len(sub) == 1 and sub[0][0] is c.IN and self._fills_class(sub[0][1]):
                return True  # (?![^\W_]): no letter or digit next
            return outside
        if op is c.AT:
            return True if av is (c.AT_END_STRING if ahead else c.AT_BEGINNING_STRING) else outside
        if op in (c.ASSERT, c.ASSERT_NOT):
            return outside
        return False

    # -- the next word -------------------------------------------------------------------

    def first(self, seq: Sequence[tuple[Any, Any]]) -> frozenset[str] | None:
        """The first whole word a match of ``seq`` holds, read past items that match no ASCII
        letter or digit (a superset; ``None`` when unknown). ``seq`` runs to the end of the
        regex: a word at its end is whole only if a lookahead says so."""
        c = self.c
        seq = self._distributed(seq)
        for i, (op, av) in enumerate(seq):
            if self._strings((op, av)) is not None:
                j = i
                while j < len(seq) and self._strings(seq[j]) is not None:
                    j += 1
                words = self.strings(seq[i:j])
                if words is None or "" in words or not self.begins(seq[j:], False):
                    return None
                return words
            rest = list(seq[i + 1 :])
            if op is c.SUBPATTERN and not (av[1] or av[2]):
                return self.first([*av[3], *rest])
            if op is c.ATOMIC_GROUP:
                return self.first([*av, *rest])
            if op is c.BRANCH:
                return self._union([[*alt, *rest] for alt in av[1]])
            if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
                if self._clear(list(av[2])):
                    continue
                return self._union([[*av[2], *rest], rest])  # one turn or none: a superset
            if op in (c.ASSERT, c.ASSERT_NOT, c.AT) or self._clear([(op, av)]):
                continue  # zero width, or no letter or digit
            return None
        return None  # the match may end with no word

    def _union(self, seqs: Sequence[Sequence[tuple[Any, Any]]]) -> frozenset[str] | None:
        out: set[str] = set()
        for seq in seqs:
            own = self.first(seq)
            if own is None:
                return None
            out |= own
        return frozenset(out)

    def _clear(self, seq: Sequence[tuple[Any, Any]]) -> bool:
        """Whether every item of ``seq`` matches only characters that are not ASCII letters
        or digits (single characters, classes and their repeats)."""
        c = self.c
        for op, av in seq:
            if op is c.LITERAL:
                if chr(av) in _ALNUM:
                    return False
            elif op is c.IN:
                if not self._clear_class(av):
                    return False
            elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
                if not self._clear(list(av[2])):
                    return False
            else:
                return False
        return True

    # -- literal strings -----------------------------------------------------------------

    def strings(self, seq: Sequence[tuple[Any, Any]]) -> frozenset[str] | None:
        """The strings ``seq`` matches when it is letters and digits only, else ``None``."""
        out = frozenset({""})
        for item in seq:
            own = self._strings(item)
            if own is None or len(out) * len(own) > _MOST_STRINGS:
                return None
            out = frozenset(a + b for a, b in itertools.product(out, own))
        return out

    def _strings(self, item: tuple[Any, Any]) -> frozenset[str] | None:
        c = self.c
        op, av = item
        if op is c.LITERAL:
            return frozenset({chr(av)}) if chr(av) in _ALNUM else None
        if op is c.IN:
            if all(o is c.LITERAL and chr(a) in _ALNUM for o, a in av):
                return frozenset(chr(a) for _, a in av)
            return None
        if op is c.SUBPATTERN:
            return None if av[1] or av[2] else self.strings(list(av[3]))
        if op is c.BRANCH:
            found: set[str] = set()
            for alt in av[1]:
                own = self.strings(list(alt))
                if own is None:
                    return None
                found |= own
            return frozenset(found)
        return None

    # -- the formula ---------------------------------------------------------------------

    def need(self, seq: Sequence[tuple[Any, Any]], before: bool, after: bool) -> Need:
        """What a match of ``seq`` needs, given the boundaries around it."""
        seq = self._distributed(seq)
        n = len(seq)
        befores = [before]
        for item in seq:
            befores.append(self._edge(item, befores[-1], ahead=False))
        afters = [after]
        for item in reversed(seq):
            afters.append(self._edge(item, afters[-1], ahead=True))
        afters.reverse()  # afters[i]: at the start of item i; afters[n] == after
        needs: list[Need] = []
        i = 0
        while i < n:
            j = i
            while j < n and self._strings(seq[j]) is not None:
                j += 1
            if j > i:  # a run of letters and digits: a word when bounded on both sides
                words = self.strings(seq[i:j])
                if words is not None and "" not in words and befores[i] and afters[j]:
                    needs.append(words)
                i = j
                continue
            needs.append(self._need(seq[i], befores[i], afters[i + 1]))
            i += 1
        return _both("&", needs)

    def _distributed(self, seq: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
        """``seq`` with groups inlined and each run of letters and digits that stands before
        a branch moved into every alternative (a prefix tree's ``th(?:is|e)`` reads as
        ``(?:this|the)``): the same language, its words whole again."""
        c = self.c
        flat: list[tuple[Any, Any]] = []
        for op, av in seq:
            if op is c.SUBPATTERN and not (av[1] or av[2]):
                flat.extend(self._distributed(list(av[3])))
            else:
                flat.append((op, av))
        out: list[tuple[Any, Any]] = []
        for op, av in flat:
            if op is c.BRANCH and self._strings((op, av)) is None:
                i = len(out)
                while i > 0 and self._strings(out[i - 1]) is not None:
                    i -= 1
                if i < len(out):
                    run = out[i:]
                    del out[i:]
                    out.append((op, (av[0], [run + list(alt) for alt in av[1]])))
                    continue
            out.append((op, av))
        return out

    def _need(self, item: tuple[Any, Any], before: bool, after: bool) -> Need:
        c = self.c
        op, av = item
        if op is c.SUBPATTERN:
            return None if av[1] or av[2] else self.need(list(av[3]), before, after)
        if op is c.ATOMIC_GROUP:
            return self.need(list(av), before, after)
        if op is c.BRANCH:
            return _both("|", (self.need(list(alt), before, after) for alt in av[1]))
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT):
            low, _, sub = av
            if low < 1:
                return None
            sub = list(sub)
            # another turn may stand on either side of this one
            inner_before = before and self.ends(sub, False)
            inner_after = after and self.begins(sub, False)
            return self.need(sub, inner_before, inner_after)
        return None
