"""Every file a command writes is written whole or not at all (issue 38): a write that fails
half-way keeps the previous file; init refuses a contract file that is its configuration;
migrate refuses -o and --output-file naming one file; a file named twice is read once."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support import paths

from kernel.cli.atomic import same_file, write_text

E = paths.EXAMPLES
SCRIPT = str(Path(sys.executable).parent / "sprint-kernel")
TIMEOUT = 120
#: The previous, good content of every output file.
GOOD = "the previous good file\n" * 10


def _small_files() -> None:
    """In the child: files may grow to 1 KiB only; a larger write fails (EFBIG)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))


def sk(*argv: str, cwd: Path, limited: bool = False) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SCRIPT, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        preexec_fn=_small_files if limited else None,
    )


FULL_13_2 = E / "full-13.2"

WRITERS = {
    "migrate -o": ["migrate", "reviewer/full", "-o", "out.json"],
    "migrate --output-file": ["migrate", "reviewer/full", "--output-file", "out.json"],
    "migrate html page": [
        "migrate", "reviewer/full", "--format", "html", "--output-file", "out.json"
    ],
    "analyze html page": [
        "analyze", "reviewer/methodology_focus", "--format", "html", "--output-file", "out.json"
    ],
    "lint --output-file": [
        "lint", str(E / "full"), "--contract", "reviewer/full", "--format", "json",
        "--output-file", "out.json",
    ],
    "codes --write": ["codes", "--write", "out.json"],
}  # fmt: skip


@pytest.mark.parametrize("argv", list(WRITERS.values()), ids=list(WRITERS))
def test_a_write_that_fails_half_way_keeps_the_previous_file(
    argv: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "out.json"
    out.write_text(GOOD, "utf-8")
    done = sk(*argv, cwd=tmp_path, limited=True)
    assert done.returncode == 2, done.stderr
    assert "out.json" in done.stderr and "cannot be written" in done.stderr
    assert out.read_text("utf-8") == GOOD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]  # no temporary file


def test_init_keeps_nothing_when_its_configuration_cannot_be_written(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\n" + "# x\n" * 300, "utf-8")  # > 1 KiB
    done = sk("init", cwd=tmp_path, limited=True)
    assert done.returncode == 2
    assert not (tmp_path / "contracts" / "sprint.json").exists()
    assert (tmp_path / "pyproject.toml").read_text("utf-8").startswith("[project]\n# x\n")


@pytest.mark.parametrize("name", ["sprint-kernel.toml", "./sprint-kernel.toml", "pyproject.toml"])
def test_init_refuses_a_contract_file_that_is_its_configuration(name: str, tmp_path: Path) -> None:
    done = sk("init", "--contract-file", name, cwd=tmp_path)
    assert done.returncode == 2
    assert "is the project's configuration file" in done.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_a_written_file_keeps_its_mode_and_a_link_keeps_pointing(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text(GOOD, "utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_text(str(link), "new\n")
    assert link.is_symlink() and target.read_text("utf-8") == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    with pytest.raises(FileExistsError):
        write_text(str(target), "other\n", exclusive=True)
    assert target.read_text("utf-8") == "new\n"


@pytest.mark.parametrize("second", ["out.json", "./out.json", "ABSOLUTE"])
def test_migrate_refuses_one_file_for_the_contract_and_the_report(
    second: str, tmp_path: Path
) -> None:
    if second == "ABSOLUTE":
        second = str(tmp_path / "out.json")
    done = sk("migrate", "reviewer/full", "-o", "out.json", "--output-file", second, cwd=tmp_path)
    assert done.returncode == 2
    assert "name the same file" in done.stderr
    assert not (tmp_path / "out.json").exists()
    assert same_file(str(tmp_path / "out.json"), str(tmp_path / second))


def _named_three_ways(path: Path) -> list[str]:
    relative = os.path.relpath(path)
    return [relative, "./" + relative, str(path.resolve())]


@pytest.mark.parametrize("command", ["lint", "decide"])
def test_one_file_named_three_ways_is_read_once(command: str) -> None:
    phase2 = FULL_13_2 / "da.phase2.md"
    argv = [command, *_named_three_ways(phase2), "--contract", str(FULL_13_2 / "contract.json")]
    if command == "decide":
        argv[1:1] = [str(FULL_13_2)]
    done = sk(*argv, cwd=Path.cwd())
    assert "P2-140" not in done.stdout and "PANEL-CARDINALITY" not in done.stdout, done.stdout
    assert done.returncode == 0, done.stdout + done.stderr
