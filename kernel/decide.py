"""``python -m kernel.decide``: ``sprint-kernel decide`` (:mod:`kernel.cli.decide`).

``kernel.decide`` is also the name of a function at the top of the package, so this module
refuses to be imported: importing it would shadow that function.
"""

if __name__ == "__main__":
    from kernel.cli.main import command

    raise SystemExit(command("decide"))
else:
    raise ImportError(
        "kernel.decide is the command line (python -m kernel.decide); "
        "import the function with: from kernel import decide"
    )
