"""The closest known spelling of a word that was not recognised ("did you mean …?").

One helper for every message that names an unknown code, configuration key, template name,
command or vocabulary word: :func:`closest` picks the candidate, :func:`did_you_mean` words it.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["closest", "did_you_mean"]

#: How alike (difflib's ratio, 0 to 1) a candidate must be to be offered.
CUTOFF = 0.6
#: Longer words get no suggestion (difflib's time grows with the product of the lengths).
MAX_WORD = 200


def closest(word: str, known: Iterable[str], *, cutoff: float = CUTOFF) -> str | None:
    """The known spelling nearest ``word`` (case-insensitively), or ``None`` when none is
    alike enough. A candidate that ``word`` is a prefix of (``P2-04`` → ``P2-040``) comes
    first."""
    import difflib  # only messages need it

    candidates = list(dict.fromkeys(known))
    if not word or not candidates or len(word) > MAX_WORD:
        return None
    folded = {c.casefold(): c for c in reversed(candidates)}
    key = word.casefold()
    if key in folded and folded[key] != word:
        return folded[key]
    prefixed = sorted(c for c in folded if c.startswith(key))
    if prefixed:
        return folded[prefixed[0]]
    found = difflib.get_close_matches(key, list(folded), n=1, cutoff=cutoff)
    return folded[found[0]] if found else None


def did_you_mean(word: str, known: Iterable[str], *, cutoff: float = CUTOFF) -> str:
    """``"; did you mean 'X'?"`` for the closest known spelling, else ``""``: appended to a
    message that names ``word`` as unknown."""
    found = closest(word, known, cutoff=cutoff)
    return "" if found is None or found == word else f"; did you mean {found!r}?"
