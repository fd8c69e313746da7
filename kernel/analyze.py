"""``python -m kernel.analyze``: see :mod:`kernel.cli.analyze`.

``kernel.analyze`` is also the name of a function at the top of the package, so this module
refuses to be imported: importing it would shadow that function.
"""

if __name__ == "__main__":
    import sys

    from kernel.cli.analyze import main
    from kernel.cli.scaffold import run

    sys.exit(run(main))
else:
    raise ImportError(
        "kernel.analyze is the command line (python -m kernel.analyze); "
        "import the function with: from kernel import analyze"
    )
