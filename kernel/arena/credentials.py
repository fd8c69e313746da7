"""Credential shapes that must never reach a protocol artifact (§10.3, check 13).

Only recognisable shapes are flagged (provider key prefixes, private-key blocks,
``password=``-style assignments), not high-entropy strings, so session ids pass.
"""

from __future__ import annotations

import re

from kernel.errors import KernelError

__all__ = ["CREDENTIAL_PATTERNS", "find_credentials"]

CREDENTIAL_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("openai-style key", re.compile(r"(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}")),
    ("stripe key", re.compile(r"(?<![A-Za-z0-9_])[rs]k_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("AWS access key id", re.compile(r"(?<![A-Z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])")),
    ("GitHub token", re.compile(r"(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{30,}")),
    ("GitHub fine-grained token", re.compile(r"github_pat_[A-Za-z0-9_]{40,}")),
    ("Slack token", re.compile(r"(?<![A-Za-z0-9])xox[abposr]-[A-Za-z0-9-]{10,}")),
    ("Google API key", re.compile(r"AIza[0-9A-Za-z_-]{35}")),
    ("private key block", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    (
        "credential assignment",
        re.compile(
            r"(?i)\b(?:password|passwd|pwd|secret|client_secret|api[_-]?key|access[_-]?token"
            r"|auth[_-]?token|private[_-]?key)\b[\"']?\s*[:=]\s*[\"']?[^\s\"',;]{4,}"
        ),
    ),
)


def find_credentials(text: str) -> list[tuple[str, int, int]]:
    """Each credential shape in ``text`` as ``(kind, start, end)``, in text order."""
    if not isinstance(text, str):
        raise KernelError(f"text must be a str, got {type(text).__name__}")
    hits = [
        (kind, m.start(), m.end())
        for kind, pattern in CREDENTIAL_PATTERNS
        for m in pattern.finditer(text)
    ]
    return sorted(hits, key=lambda h: (h[1], h[2]))
