"""The repository's ``benchmarks`` package, for the tests that check the benchmarks' own
correctness: ``from support.bench import peers, run, …``.

It is loaded from its folder by location (the ``importlib`` recipe for importing a source
file), never by putting the repository root on ``sys.path``: that would also put the source
``kernel/`` ahead of the installed one, which is what CI tests.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

from support import paths

BENCHMARKS = paths.ROOT / "benchmarks"


def register_benchmarks() -> ModuleType:
    """Make ``import benchmarks.<module>`` work; idempotent."""
    loaded = sys.modules.get("benchmarks")
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(
        "benchmarks", BENCHMARKS / "__init__.py", submodule_search_locations=[str(BENCHMARKS)]
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["benchmarks"] = module
    spec.loader.exec_module(module)
    return module


register_benchmarks()

from benchmarks import bench_decide, contracts, peers, run, timing  # noqa: E402

__all__ = ["bench_decide", "contracts", "peers", "register_benchmarks", "run", "timing"]
