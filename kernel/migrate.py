"""``python -m kernel.migrate``: ``sprint-kernel migrate`` (:mod:`kernel.cli.migrate`).

``kernel.migrate`` is also the name of a function at the top of the package, so this module
refuses to be imported: importing it would shadow that function.
"""

if __name__ == "__main__":
    from kernel.cli.main import command

    raise SystemExit(command("migrate"))
else:
    raise ImportError(
        "kernel.migrate is the command line (python -m kernel.migrate); "
        "import the function with: from kernel import migrate"
    )
