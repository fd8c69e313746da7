"""Hypothesis profiles. Plain ``pytest`` uses ``default``: bounded and derandomised, so the
same run passes or fails the same way on every machine. The others are chosen with
``HYPOTHESIS_PROFILE``:

- ``ci``: what .ci/run uses (the same bounds as ``default``, kept as its own name);
- ``random``: random exploration, a fresh draw every run (``--hypothesis-seed=N`` repeats one);
- ``dev``: the same as ``random`` (its name before plain ``pytest`` was derandomised);
- ``heavy``: random, thousands of examples per property, on demand;
- ``mutation``: ``ci`` without shrinking (scripts/mutation.py needs to know only *that* a test
  fails, not its smallest example).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, TextIO

import pytest
from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci", settings.get_profile("default"))
settings.register_profile(
    "mutation",
    settings.get_profile("ci"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    print_blob=False,
)
settings.register_profile(
    "random",
    max_examples=150,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", settings.get_profile("random"))
settings.register_profile(
    "heavy", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True, scope="session")
def _every_json_output_fits_its_schema() -> Iterator[None]:
    """Every JSON report a test makes in process is checked against its command's shipped
    schema (tests/support/output_schemas.py)."""
    from support.output_schemas import check_output, schema_name

    from kernel.cli import scaffold

    write = scaffold._write

    def checked(run: Any, out: TextIO, *, color: bool) -> None:
        start = out.tell() if out.seekable() else None
        write(run, out, color=color)
        if run.fmt == "json" and start is not None:
            out.seek(start)
            check_output(schema_name(run.command, run.settings.statistics), out.read())

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(scaffold, "_write", checked)
        yield


@pytest.fixture(autouse=True, scope="session")
def _every_subprocess_json_output_fits_its_schema() -> Iterator[None]:
    """Every JSON report a test gets from the command line in a subprocess (any helper that
    calls ``subprocess.run``) is checked against its command's shipped schema, as are the
    ``decide --matrix FILE.jsonl`` lines, which bypass the renderer, in process."""
    import io
    import subprocess

    from support.output_schemas import check_output, check_process_output

    from kernel.cli import decide

    run = subprocess.run
    lines = decide._decide_lines

    def checked_run(*args: Any, **kwargs: Any) -> Any:
        done = run(*args, **kwargs)
        check_process_output(args[0] if args else kwargs.get("args"), done.stdout)
        return done

    def checked_lines(contract: Any, path: str, text: str, max_bytes: int, out: Any) -> int:
        buffer = io.StringIO()
        code = lines(contract, path, text, max_bytes, buffer)
        for line in buffer.getvalue().splitlines():
            check_output("decide-line", line)
        out.write(buffer.getvalue())
        return code

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(subprocess, "run", checked_run)
        patch.setattr(decide, "_decide_lines", checked_lines)
        yield
