"""``python -m kernel.check``: ``sprint-kernel check`` (:mod:`kernel.cli.check`)."""

if __name__ == "__main__":
    from kernel.cli.main import command

    raise SystemExit(command("check"))
