"""Which files a command reads: a directory argument is recursed (``.gitignore`` files and the
configuration's ``exclude`` honoured), and a Phase 2 document is paired with the Phase 1
document of the same name in the same directory.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kernel.cli.config import glob_error
from kernel.errors import EmptyDirectory

if TYPE_CHECKING:  # pathspec is imported only when a directory or an exclude needs it
    from pathspec import PathSpec

    from kernel.cli.config import Settings

__all__ = [
    "JSON_FILES",
    "PHASE_FILES",
    "expand",
    "is_excluded",
    "phase1_partners",
    "untracked",
    "warn",
]

PHASE1, PHASE2 = ".phase1.md", ".phase2.md"
#: What ``lint DIR`` and ``decide DIR`` take.
PHASE_FILES = (PHASE1, PHASE2)
#: What ``check DIR`` takes.
JSON_FILES = (".json",)

_Rules = list[tuple[str, "PathSpec[Any]"]]


def _spec(lines: Iterable[str]) -> PathSpec[Any]:
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _gitignore_spec(lines: Sequence[str]) -> PathSpec[Any]:
    """A ``.gitignore`` file's patterns. A line git cannot match anything with (``!`` alone,
    a reversed range ``[z-a]``, a trailing backslash) is skipped, as git skips it."""
    try:
        return _spec(lines)
    except (ValueError, re.error):
        return _spec(line for line in lines if glob_error(line) is None)


def _posix(path: str) -> str:
    return path.replace(os.sep, "/")


def _read_ignore(directory: str) -> _Rules:
    path = os.path.join(directory, ".gitignore")
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    return [(os.path.abspath(directory), _gitignore_spec(lines))]


def _ancestor_rules(top: str) -> _Rules:
    """The ``.gitignore`` files above ``top``, up to the repository's root (the directory
    holding ``.git``), outermost first; none when ``top`` is in no repository."""
    top = os.path.abspath(top)
    if os.path.exists(os.path.join(top, ".git")):
        return []
    rules: _Rules = []
    directory = os.path.dirname(top)
    while True:
        rules = _read_ignore(directory) + rules
        if os.path.exists(os.path.join(directory, ".git")):
            return rules
        parent = os.path.dirname(directory)
        if parent == directory:
            return []
        directory = parent


def _ignored(rules: _Rules, path: str, is_dir: bool) -> bool:
    """Git's answer: the deepest ``.gitignore`` with a matching pattern decides."""
    absolute = os.path.abspath(path)
    verdict = False
    for base, spec in rules:
        relative = os.path.relpath(absolute, base)
        if relative.startswith(os.pardir):
            continue
        check = spec.check_file(_posix(relative) + ("/" if is_dir else ""))
        if check.include is not None:
            verdict = check.include
    return verdict


def _excluder(settings: Settings) -> Callable[[str, bool], bool] | None:
    """Whether a path is excluded: by the ``exclude`` of the configuration nearest it."""
    if not settings.exclude and not settings.discover:
        return None

    def excluded(path: str, is_dir: bool) -> bool:
        own = settings.for_file(path)  # a directory: by the configuration above it
        if not own.exclude:
            return False
        relative = os.path.relpath(os.path.abspath(path), os.path.abspath(own.root))
        if relative.startswith(os.pardir):
            return False
        return _exclude_spec(own.exclude).match_file(_posix(relative) + ("/" if is_dir else ""))

    return excluded


@functools.cache
def _exclude_spec(patterns: tuple[str, ...]) -> PathSpec[Any]:
    return _spec(patterns)


def _walk(
    top: str, suffixes: Sequence[str], excluded: Callable[[str, bool], bool] | None
) -> list[str]:
    rules = {top: _ancestor_rules(top) + _read_ignore(top)}
    found = []
    for directory, subdirectories, names in os.walk(top):
        here = rules.pop(directory)
        kept = []
        for name in subdirectories:
            path = os.path.join(directory, name)
            if name == ".git" or _ignored(here, path, True):
                continue
            if excluded is not None and excluded(path, True):
                continue
            rules[path] = here + _read_ignore(path)
            kept.append(name)
        subdirectories[:] = kept
        for name in names:
            path = os.path.join(directory, name)
            if not name.endswith(tuple(suffixes)) or _ignored(here, path, False):
                continue
            if excluded is None or not excluded(path, False):
                found.append(os.path.normpath(path))
    return found


def expand(
    arguments: Sequence[str],
    suffixes: Sequence[str],
    settings: Settings,
    *,
    warn: Callable[[str], None] | None = None,
) -> list[str]:
    """The files a command reads, sorted and each once: a directory is replaced by the files
    below it whose names end in one of ``suffixes``, leaving out what ``.gitignore`` or the
    configuration's ``exclude`` leaves out; a file named on the command line is read even
    when ``exclude`` covers it, unless ``--force-exclude`` (as ruff does); ``-`` and template
    names are kept as they are. A directory with nothing to read, or one ``exclude`` covers,
    is a usage error; ``warn`` is told when every file named is excluded."""
    excluded = _excluder(settings)
    out: dict[object, str] = {}  # one name per real file: the first it was given by
    stdin = []  # each - is kept: standard input named twice is an error the reader reports
    walked: list[str] = []
    left_out = []
    for argument in arguments:
        if argument == "-":
            stdin.append(argument)
        elif os.path.isdir(argument):
            if excluded is not None and excluded(argument, True):
                raise EmptyDirectory(
                    argument, "", excluded_by=settings.for_file(argument).source or "?"
                )
            found = _walk(argument, suffixes, excluded)
            if not found:
                wanted = " or ".join(f"*{s}" for s in suffixes)
                raise EmptyDirectory(argument, wanted)
            walked += found
        elif settings.force_exclude and excluded is not None and excluded(argument, False):
            left_out.append(argument)
        else:
            out.setdefault(_identity(argument), argument)
    for path in walked:  # a file named on the command line keeps that name
        out.setdefault(_identity(path), path)
    if left_out and not out and not stdin and warn is not None:
        warn(
            f"every file given is excluded by the configuration's exclude (--force-exclude): "
            f"{', '.join(left_out)}; nothing was read"
        )
    return stdin + sorted(out.values())


def _identity(path: str) -> object:
    """What tells one real file from another: ``x``, ``./x``, its absolute path and a link
    to it are one file (read once); a name that is not a file yet stands for itself."""
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return os.path.normcase(os.path.abspath(path))
    return found.st_dev, found.st_ino


def warn(message: str) -> None:
    """A warning of the command line's own, on standard error (ruff's ``warning:``)."""
    import sys

    print(f"warning: {message}", file=sys.stderr)


def is_excluded(path: str, settings: Settings) -> bool:
    """Whether the ``exclude`` of the configuration nearest ``path`` covers it."""
    excluded = _excluder(settings)
    return excluded is not None and excluded(path, os.path.isdir(path))


def _work_tree(directory: str) -> str | None:
    """The top of the git work tree ``directory`` lies in (the directory holding ``.git``)."""
    directory = os.path.abspath(directory)
    while True:
        if os.path.exists(os.path.join(directory, ".git")):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def untracked(paths: Iterable[str]) -> set[str]:
    """Those of ``paths`` that lie in a git work tree that does not track them (not in its
    index). None when git cannot answer (no git, no work tree): then nothing is reported.
    git runs at the work tree's top, where a hook's relative ``GIT_INDEX_FILE`` points."""
    import subprocess

    by_top: dict[str, dict[str, str]] = {}
    for path in paths:
        top = _work_tree(os.path.dirname(os.path.abspath(path)))
        if top is not None:
            relative = os.path.relpath(os.path.abspath(path), top)
            by_top.setdefault(top, {})[_posix(relative)] = path
    found: set[str] = set()
    for top, files in by_top.items():
        try:
            done = subprocess.run(
                ["git", "--literal-pathspecs", "-C", top, "ls-files", "-z", "--", *files],
                capture_output=True,
                check=False,
                timeout=60,
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if done.returncode != 0:
            continue
        tracked = {os.fsdecode(n) for n in done.stdout.split(b"\0") if n}
        found.update(path for relative, path in files.items() if relative not in tracked)
    return found


def phase1_partners(files: Iterable[str]) -> dict[str, str]:
    """Each ``NAME.phase2.md`` among ``files`` → the ``NAME.phase1.md`` beside it, when that
    is among ``files`` too."""
    given = {os.path.abspath(path): path for path in files}
    return {
        path: given[partner]
        for key, path in given.items()
        if key.endswith(PHASE2) and (partner := key[: -len(PHASE2)] + PHASE1) in given
    }
