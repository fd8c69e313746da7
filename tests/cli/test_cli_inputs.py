"""What every command reads: several files, stdin, FIFOs and directories, --max-bytes, and the
two spellings (python -m kernel.X, sprint-kernel X)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from support import paths

import kernel
from kernel.cli.main import COMMANDS, main
from kernel.contract.warnings import check_contract
from kernel.io import json_positions
from kernel.reviewer.render import render_phase1

E = paths.EXAMPLES
FULL = E / "full"
SCRIPT = Path(sys.executable).with_name("sprint-kernel")
TIMEOUT = 60  # generous: a hang would take forever, a refusal takes well under a second


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _sub(argv: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        argv, input=stdin, capture_output=True, timeout=TIMEOUT, cwd=paths.ROOT, check=False
    )


# --- several files, worst exit code ------------------------------------------------------


def test_lint_several_files_worst_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ok = str(shutil.copy(FULL / "eic.phase1.md", tmp_path))  # no Phase 2 beside it
    bad = tmp_path / "bad.md"
    bad.write_text("## Contract Paraphrase\n\nnothing\n", "utf-8")
    code, out, err = _run(capsys, ["lint", ok, str(bad), "--contract", "reviewer/full"])
    assert code == 1 and err == ""
    assert f"{ok}:" not in out and f"{bad}:" in out
    assert out.endswith(" in 1 file.\n")
    code, _, _ = _run(
        capsys,
        ["lint", ok, str(bad), str(tmp_path / "missing.md"), "--contract", "reviewer/full"],
    )
    assert code == 2
    code, out, _ = _run(
        capsys, ["lint", ok, str(bad), "--contract", "reviewer/full", "--format", "json"]
    )
    body = json.loads(out)
    assert [f["file"] for f in body["files"]] == sorted([ok, str(bad)])  # files sorted
    assert [f["ok"] for f in body["files"]] == [f["file"] == ok for f in body["files"]]
    assert body["ok"] is False


def test_check_several_files_worst_exit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"contract_id": 1}', "utf-8")
    code, out, err = _run(capsys, ["check", "reviewer/full", str(bad)])
    assert code == 1 and err == ""
    assert "reviewer/full" not in out and f"{bad}:1:17: E-SCHEMA $.contract_id" in out
    code, out, _ = _run(capsys, ["check", "reviewer/full", str(tmp_path)])
    assert code == 1 and f"{bad}:1:17: E-SCHEMA" in out  # a directory: its *.json files
    (tmp_path / "empty").mkdir()
    code, _, _ = _run(capsys, ["check", "reviewer/full", str(tmp_path / "empty")])
    assert code == 2  # a directory with nothing to check is a usage error even for check
    code, _, _ = _run(capsys, ["check", "reviewer/full", str(tmp_path / "missing.json")])
    assert code == 1  # the seed's validator: a missing file is exit 1 (§4.4)


# --- standard input ----------------------------------------------------------------------


def test_stdin_for_check_lint_and_contract() -> None:
    contract = json.dumps(kernel.shipped_template("reviewer/full")).encode()
    done = _sub([sys.executable, "-m", "kernel.check", "-"], contract)
    assert (done.returncode, done.stdout) == (0, b"All checks passed.\n")
    doc = (FULL / "eic.phase1.md").read_bytes()
    done = _sub([sys.executable, "-m", "kernel.lint", "-", "--contract", "reviewer/full"], doc)
    assert (done.returncode, done.stdout, done.stderr) == (0, b"All checks passed.\n", b"")
    doc_path = str(FULL / "eic.phase1.md")
    done = _sub([sys.executable, "-m", "kernel.lint", doc_path, "--contract", "-"], contract)
    assert done.returncode == 0, done.stderr
    done = _sub([sys.executable, "-m", "kernel.lint", "-", "-", "--contract", "reviewer/full"], doc)
    assert done.returncode == 2 and b"standard input can be read only once" in done.stdout
    done = _sub([sys.executable, "-m", "kernel.arena", "verdict", "-"], b"VERDICT: REVISE\n")
    assert (
        done.returncode == 0
        and done.stdout == b"-:1:1: ARENA-VERDICT info: REVISE\nAll checks passed.\n"
    )


# --- FIFOs and directories: exit 2 at once, never a hang -----------------------------------

READERS: list[list[str]] = [
    ["check", "{f}"],
    ["lint", "{f}", "--contract", "reviewer/full"],
    ["lint", str(FULL / "eic.phase2.md"), "--contract", "reviewer/full", "--phase1", "{f}"],
    ["lint", str(FULL / "eic.phase1.md"), "--contract", "{f}"],
    ["decide", "--contract", "reviewer/full", "--matrix", "{f}"],
    ["decide", "--contract", "{f}", "--matrix", str(E / "full_reject.json")],
    ["analyze", "{f}"],
    ["analyze", "reviewer/full", "--prior-file", "{f}"],
    ["arena", "verdict", "{f}"],
    ["arena", "conformance", "{f}"],
    ["consensus", "parse", "{f}", "--kind", "critique"],
    ["consensus", "round", "{f}"],
    ["panel", "resolve", "{f}"],
    ["panel", "scan", "{f}"],
]


@pytest.mark.parametrize("argv", READERS, ids=[" ".join(a[:2]) for a in READERS])
def test_fifo_and_directory_exit_2_at_once(
    tmp_path: Path, argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    args = [a.replace("{f}", str(fifo)) for a in argv]
    done = _sub([sys.executable, "-m", "kernel", *args])  # a hang fails by timeout
    assert done.returncode == 2, (args, done.stdout, done.stderr)
    assert b"FIFO" in done.stdout + done.stderr and b"Traceback" not in done.stderr
    code, out, err = _run(capsys, [a.replace("{f}", str(tmp_path)) for a in argv])
    assert code == 2 and "is a directory" in out + err


# --- --max-bytes -----------------------------------------------------------------------------


def test_max_bytes_lowers_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    doc = str(FULL / "eic.phase1.md")
    code, out, _ = _run(capsys, ["lint", doc, "--contract", "reviewer/full", "--max-bytes", "100"])
    assert code == 2 and "E-SIZE" in out
    code, out, _ = _run(
        capsys, ["check", "reviewer/full", str(E / "full_reject.json"), "--max-bytes", "10"]
    )
    assert code == 1 and "E-SIZE" in out
    verdict = str(E / "arena" / "review.md")
    assert _run(capsys, ["arena", "verdict", verdict, "--max-bytes", "5"])[0] == 2


def test_max_bytes_raises_the_limit_for_every_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    contract = kernel.load_contract("reviewer/full")
    # A valid Phase 1 document over 1 MiB: the padding is an HTML comment before the tag.
    text = render_phase1(contract)
    head, tag = text.rstrip("\n").rsplit("\n", 1)
    big = tmp_path / "big.phase1.md"
    big.write_text(f"{head}\n<!-- {'x' * (1 << 20)} -->\n\n{tag}\n", "utf-8")
    argv = ["lint", str(big), "--contract", "reviewer/full"]
    code, out, _ = _run(capsys, argv)
    assert code == 2 and "E-SIZE" in out
    code, out, _ = _run(capsys, [*argv, "--max-bytes", str(2 << 20)])
    assert code == 0, out
    reply = tmp_path / "review.md"
    reply.write_text("x" * (1 << 20) + "\nVERDICT: APPROVED\n", "utf-8")
    assert _run(capsys, ["arena", "verdict", str(reply)])[0] == 2
    assert _run(capsys, ["arena", "verdict", str(reply), "--max-bytes", str(2 << 20)])[0] == 0


@settings(max_examples=25)
@given(st.text(max_size=12))
@example("0")
@example("-1")
@example("1" + "0" * 30)
@example("1e3")
@example("\u0663")
@example("1_000")
@example(" 5")
@example(str(1 << 31))
def test_bad_max_bytes_is_a_usage_error(value: str) -> None:
    path = E / "arena" / "review.md"
    argv = ["arena", "verdict", str(path), "--max-bytes", value]
    try:
        code = main(argv)
    except SystemExit as exc:
        code = int(exc.code or 0)
    if not (value.isascii() and value.isdigit() and 1 <= int(value) <= 1 << 30):
        assert code == 2
    else:  # a valid limit: the file is read when it fits
        assert code == (0 if path.stat().st_size <= int(value) else 2)


# --- --version, --help, the two spellings --------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run(capsys, ["--version"]) == (0, f"sprint-kernel {kernel.__version__}\n", "")
    for name in COMMANDS:
        code, out, _ = _run(capsys, [name, "--version"])
        assert (code, out) == (0, f"sprint-kernel {kernel.__version__}\n")


HELP = [[n] for n in COMMANDS if n not in ("arena", "consensus", "panel")] + [
    ["arena", "verdict"],
    ["arena", "conformance"],
    ["consensus", "parse"],
    ["consensus", "round"],
    ["panel", "resolve"],
    ["panel", "scan"],
]


@pytest.mark.parametrize("argv", HELP, ids=[" ".join(a) for a in HELP])
def test_help_states_exit_codes(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, [*argv, "--help"])
    assert code == 0
    assert "exit codes:" in out and "\n  0 " in out and "\n  2 " in out


def test_unknown_command_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, ["bogus"])
    assert code == 2 and "unknown command" in err


SAME = [
    ["check", "reviewer/full", "--ars-version", "v3.6.2"],
    ["check", str(E / "full_reject.json")],
    ["lint", str(FULL / "eic.phase2.md"), "--contract", "reviewer/full", "--format", "sarif"],
    ["decide", "--contract", "reviewer/full", "--matrix", str(E / "full_shrunk.json")],
    ["arena", "conformance", str(E / "arena" / "run.jsonl"), "--format", "github"],
    ["panel", "scan", "--help"],
    ["lint", "--max-bytes", "-3", "x.md"],
]


@pytest.mark.parametrize("argv", SAME, ids=[" ".join(a[:2]) for a in SAME])
def test_python_m_and_console_script_are_identical(argv: list[str]) -> None:
    assert SCRIPT.exists(), "pip install -e . installs the sprint-kernel console script"
    module = _sub([sys.executable, "-m", f"kernel.{argv[0]}", *argv[1:]])
    script = _sub([str(SCRIPT), *argv])
    assert (module.returncode, module.stdout, module.stderr) == (
        script.returncode,
        script.stdout,
        script.stderr,
    )
    assert b"Traceback" not in module.stderr


def test_check_places_warnings_at_the_value_they_are_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    contract = json.loads(json.dumps(kernel.shipped_template("reviewer/full")))
    contract["panel_size"] = 1
    contract["measurement_procedure"]["paraphrase_minimum_dimensions"] = 9
    path = tmp_path / "c.json"
    path.write_text(json.dumps(contract, indent=2), encoding="utf-8")
    positions = json_positions(path.read_text(encoding="utf-8"))
    found = {d.code: d.json_path for d in check_contract(contract)}
    assert found == {
        "SC-9": "$.measurement_procedure.paraphrase_minimum_dimensions",
        "SC-11": "$.panel_size",
    }
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    for code, json_path in found.items():
        assert json_path is not None
        line, column = positions[json_path]
        assert f"{path}:{line}:{column}: {code} " in out, (code, out)
