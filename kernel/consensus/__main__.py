"""``python -m kernel.consensus``: ``sprint-kernel consensus`` (:mod:`kernel.cli.consensus`)."""
from kernel.cli.main import command

raise SystemExit(command("consensus"))
