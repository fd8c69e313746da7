"""``python -m kernel.check CONTRACT``: the contract validator (see :mod:`kernel.cli.check`)."""

if __name__ == "__main__":
    import sys

    from kernel.cli.check import main
    from kernel.cli.scaffold import run

    sys.exit(run(main))
