"""Benchmarks of the kernel against its peers, side by side in one process.

Layout: every section is one module ``bench_<section>.py`` exposing
``run(quick: bool) -> list[Row]`` (rows made with :func:`benchmarks.timing.row`);
:mod:`benchmarks.run` finds the sections by that name. Shared pieces: :mod:`~benchmarks.timing`
(rows, interleaved timing, the machine), :mod:`~benchmarks.peers` (what ``decide`` is compared
with), :mod:`~benchmarks.contracts` (generated contracts), :mod:`~benchmarks.documents`
(reviewer documents).

Run from the repository root::

    python -m benchmarks.run [--quick] [--only decide,cli] [--json] [--clock cpu] [--write]

That measures the ``kernel`` importable from the current directory: the source tree (an
editable install points to the same files). CI measures the installed package instead: it
copies ``benchmarks/`` and ``examples/`` out of the tree and runs the same command there.
"""
