"""``python -m kernel.decide``: see :mod:`kernel.cli.decide`.

``kernel.decide`` is also the name of a function at the top of the package, so this module
refuses to be imported: importing it would shadow that function.
"""

if __name__ == "__main__":
    import sys

    from kernel.cli.decide import main
    from kernel.cli.scaffold import run

    sys.exit(run(main))
else:
    raise ImportError(
        "kernel.decide is the command line (python -m kernel.decide); "
        "import the function with: from kernel import decide"
    )
