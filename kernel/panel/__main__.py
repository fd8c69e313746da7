"""``python -m kernel.panel``: ``sprint-kernel panel`` (:mod:`kernel.cli.panel`)."""

from kernel.cli.main import command

raise SystemExit(command("panel"))
