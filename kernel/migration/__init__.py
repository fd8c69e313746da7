"""Migrating a Schema 13 contract to 13.2: the new contract, every choice the migration made,
and the exact change in decisions over the old contract's whole matrix space.

- :func:`migrate` builds the 13.2 contract and counts, per pair (old action, new action), the
  old matrices that make it, with the simplest example of each pair whose action changes.
- :func:`format_migration` and :func:`html_migration` report it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel._lazy import lazy_exports

__all__ = [
    "Choice",
    "Migration",
    "MigrationExample",
    "Transition",
    "format_migration",
    "html_migration",
    "migrate",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Choice": "kernel.migration.plan",
        "Migration": "kernel.migration.result",
        "MigrationExample": "kernel.migration.result",
        "Transition": "kernel.migration.result",
        "format_migration": "kernel.migration.report",
        "html_migration": "kernel.migration.html",
        "migrate": "kernel.migration.compare",
    },
)

if TYPE_CHECKING:
    from kernel.migration.compare import migrate
    from kernel.migration.html import html_migration
    from kernel.migration.plan import Choice
    from kernel.migration.report import format_migration
    from kernel.migration.result import Migration, MigrationExample, Transition
