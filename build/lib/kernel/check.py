"""``python -m kernel.check CONTRACT``: the contract validator (see :mod:`kernel.cli.check`)."""

if __name__ == "__main__":
    import sys

    from kernel._cli import run
    from kernel.cli.check import main

    sys.exit(run(main))
