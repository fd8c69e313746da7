"""``python -m kernel.analyze``: ``sprint-kernel analyze`` (:mod:`kernel.cli.analyze`).

``kernel.analyze`` is also the name of a function at the top of the package, so this module
refuses to be imported: importing it would shadow that function.
"""

if __name__ == "__main__":
    from kernel.cli.main import command

    raise SystemExit(command("analyze"))
else:
    raise ImportError(
        "kernel.analyze is the command line (python -m kernel.analyze); "
        "import the function with: from kernel import analyze"
    )
