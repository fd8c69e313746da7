"""``python -m kernel.arena``: ``sprint-kernel arena`` (:mod:`kernel.cli.arena`)."""
from kernel.cli.main import command

raise SystemExit(command("arena"))
