"""Every file a command writes (``-o``, ``--output-file``, ``init``, HTML pages) is written
here, whole or not at all: the text goes to a temporary file in the same folder, which then
takes the target's name in one step (:func:`os.replace`). A write that fails half-way (a
full disk, a file size limit) leaves the previous file as it was and no temporary file.
"""

from __future__ import annotations

import contextlib
import os

__all__ = ["same_file", "write_text"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: str, text: str, *, exclusive: bool = False) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically; ``exclusive``: refuse (``FileExistsError``)
    when ``path`` exists, without touching it. A symbolic link keeps pointing where it did:
    the file it points to is the one replaced. Raises :class:`OSError`."""
    import tempfile  # only when a file is written: it costs a command line's cold start

    target = os.path.realpath(path)
    folder = os.path.dirname(target) or "."
    try:
        mode = os.stat(target).st_mode & 0o7777
    except OSError:
        mode = 0o666 & ~_umask()
    name = os.path.basename(target)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        if exclusive:
            _link(temporary, target)
        else:
            os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def _link(temporary: str, target: str) -> None:
    """Give the temporary file the target's name unless the target exists."""
    try:
        os.link(temporary, target)  # fails when the target exists: nothing is overwritten
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        if os.path.lexists(target):
            raise FileExistsError(17, "File exists", target) from None
        os.replace(temporary, target)
        return
    os.unlink(temporary)


def same_file(first: str, second: str) -> bool:
    """Whether two names are one real file (``x``, ``./x``, its absolute path, a link to it),
    whether or not it exists yet."""
    try:
        return os.path.samefile(first, second)
    except OSError:
        return os.path.normcase(os.path.realpath(first)) == os.path.normcase(
            os.path.realpath(second)
        )
