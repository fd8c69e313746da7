"""Mutation testing on demand (not in CI): ``python scripts/mutation.py [PACKAGE ...]``.

For each package it copies the tracked tree to a temporary directory, points mutmut at that
package with the tests that exercise it, runs every mutant, and prints the score:
killed / (killed + survived + not covered + timeouts), with the equivalent mutants listed in
``tests/mutation-equivalents.txt`` left out. ``--sample N`` runs N mutants chosen at random
(``--seed``, 0 unless given) instead of all of them; ``--keep DIR`` keeps the copy, for
``mutmut show NAME``.

The mutmut settings come from ``[tool.mutmut]`` in ``pyproject.toml``; only ``only_mutate``
and ``pytest_add_cli_args_test_selection`` are narrowed to one package (``PACKAGES``, whose
union the test suite checks against that section).

Requires the ``test`` and ``mutation`` extras (``pip install -e '.[test,mutation]'``).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

#: package → (files to mutate, tests that exercise them)
PACKAGES: dict[str, tuple[list[str], list[str]]] = {
    "expression": (
        ["kernel/expression/*"],
        ["tests/expression", "tests/decision", "tests/contract"],
    ),
    "contract": (["kernel/contract/*"], ["tests/contract", "tests/decision"]),
    "decision": (["kernel/decision/*"], ["tests/decision", "tests/contract"]),
    "lint": (
        ["kernel/reviewer/lint/*"],
        ["tests/reviewer", "tests/text/test_markdown_reading.py", "tests/cli/test_lint_cli.py"],
    ),
}
EQUIVALENTS = ROOT / "tests" / "mutation-equivalents.txt"
_STATUS = re.compile(r"^\s*(\S+): (.+)$")


def equivalents() -> set[str]:
    """Mutant names (glob patterns allowed) judged equivalent, one per line with a reason."""
    names = set()
    for line in EQUIVALENTS.read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(line.split()[0])
    return names


def base_config() -> dict[str, Any]:
    """The ``[tool.mutmut]`` section of ``pyproject.toml``."""
    with (ROOT / "pyproject.toml").open("rb") as fh:
        section: dict[str, Any] = tomllib.load(fh)["tool"]["mutmut"]
    return section


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"[tool.mutmut] value {value!r}: not a string, number, bool or list")


def _config(mutate: list[str], tests: list[str]) -> str:
    """The ``[tool.mutmut]`` section for one package."""
    settings = {
        **base_config(),
        "only_mutate": mutate,
        "pytest_add_cli_args_test_selection": tests,
    }
    return "[tool.mutmut]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in settings.items())


def _with_config(pyproject: str, section: str) -> str:
    """``pyproject`` with its ``[tool.mutmut]`` table replaced by ``section``."""
    lines = pyproject.splitlines(keepends=True)
    start = lines.index("[tool.mutmut]\n")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("[")), len(lines))
    return "".join([*lines[:start], section, "\n", *lines[end:]])


def _results(work: Path) -> dict[str, str]:
    out = subprocess.run(
        ["mutmut", "results", "--all", "true"], cwd=work, capture_output=True, text=True
    ).stdout
    found = {}
    for line in out.splitlines():
        m = _STATUS.match(line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def run_package(
    name: str, sample: int | None, children: int, keep: Path | None = None, seed: int = 0
) -> tuple[int, int, list[str]]:
    mutate, tests = PACKAGES[name]
    files = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    with tempfile.TemporaryDirectory(prefix=f"mutation-{name}-") as tmp:
        work = Path(tmp) if keep is None else keep / name
        if keep is not None and work.exists():
            raise SystemExit(f"{work} exists: --keep wants a new folder")
        for f in files:
            (work / f).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / f, work / f)
        pyproject = work / "pyproject.toml"
        pyproject.write_text(
            _with_config(pyproject.read_text("utf-8"), _config(mutate, tests)), "utf-8"
        )
        # The ci examples without shrinking: a killed mutant needs one failure, not the least.
        env = {**os.environ, "HYPOTHESIS_PROFILE": "mutation"}
        args = ["mutmut", "run", "--max-children", str(children)]
        if sample is not None:
            # Generate the mutants once (no names match), then run a random sample of them.
            subprocess.run([*args, "none-matches-this"], cwd=work, env=env, capture_output=True)
            names = sorted(_results(work))
            args += random.Random(seed).sample(names, min(sample, len(names)))
        run = subprocess.run(args, cwd=work, env=env, capture_output=True, text=True)
        results = _results(work)
        if not any(s != "not checked" for s in results.values()):
            # mutmut stops before any mutant when the unmutated tests fail in the copy.
            tail = "\n".join((run.stdout + run.stderr).splitlines()[-15:])
            raise SystemExit(f"{name}: mutmut checked no mutant (exit {run.returncode}):\n{tail}")
    skip = equivalents()
    counted = {
        n: s
        for n, s in results.items()
        if s != "not checked" and not any(fnmatch.fnmatch(n, p) for p in skip)
    }
    killed = sum(1 for s in counted.values() if s == "killed")
    survivors = sorted(n for n, s in counted.items() if s != "killed")
    return killed, len(counted), survivors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packages", nargs="*", help=f"any of {', '.join(PACKAGES)} (default all)")
    parser.add_argument("--sample", type=int, default=None, help="run N random mutants")
    parser.add_argument("--seed", type=int, default=0, help="the sample's random seed")
    parser.add_argument("--children", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    parser.add_argument("--survivors", action="store_true", help="list surviving mutants")
    parser.add_argument(
        "--keep", type=Path, default=None, help="keep each package's copy in DIR/<package>"
    )
    args = parser.parse_args()
    unknown = set(args.packages) - set(PACKAGES)
    if unknown:
        parser.error(f"unknown package(s): {', '.join(sorted(unknown))}")
    worst = 1.0
    for name in args.packages or list(PACKAGES):
        killed, total, survivors = run_package(
            name, args.sample, args.children, args.keep, args.seed
        )
        score = killed / total if total else 1.0
        worst = min(worst, score)
        print(f"{name}: {killed}/{total} killed, score {score:.2f}")
        if args.survivors:
            for s in survivors:
                print(f"  survived: {s}")
    return 0 if worst >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main())
