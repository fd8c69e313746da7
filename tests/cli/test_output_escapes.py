"""Every report is well formed whatever its input holds, and a report that cannot be written
is a message (issue 30's escapes): a file name that is not UTF-8, characters XML cannot hold,
standard output that fails."""

from __future__ import annotations

import errno
import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import paths

from kernel.cli.main import main
from kernel.cli.scaffold import Result, emit, run
from kernel.diagnostics import REGISTRY, Diagnostic

E = paths.EXAMPLES
NOT_UTF8 = os.fsdecode(b"bad\xff.json")  # what Python makes of the name: a lone surrogate


def _parsed(fmt: str, text: str) -> Any:
    if fmt == "junit":
        return ElementTree.fromstring(text.encode("utf-8"))
    if fmt in ("json", "sarif", "gitlab"):
        return json.loads(text)
    return text


@pytest.mark.parametrize("fmt", ["sarif", "gitlab", "junit", "json", "text", "github"])
def test_a_file_name_that_is_not_utf8_is_reported_in_every_format(
    fmt: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was a UnicodeEncodeError (sarif, gitlab), and ``-o`` left an empty file."""
    monkeypatch.chdir(tmp_path)
    Path(NOT_UTF8).write_bytes((E / "contract_panel3.json").read_bytes())
    target = tmp_path / f"report.{fmt}"
    assert main(["check", NOT_UTF8, "--format", fmt, "-o", str(target)]) == 0
    assert capsys.readouterr() == ("", "")
    report = target.read_bytes().decode("utf-8")  # valid UTF-8
    _parsed(fmt, report)
    shown = report.replace("\\\\", "\\")  # a JSON string escapes the backslash
    assert "bad\\xff.json" in shown or (fmt == "sarif" and "bad%FF.json" in report)
    if fmt == "sarif":
        [result] = json.loads(report)["runs"][0]["results"]
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location["uri"] == "bad%FF.json"  # the name's own bytes, percent-encoded


def test_a_file_name_that_is_not_utf8_reaches_standard_output(tmp_path: Path) -> None:
    Path(tmp_path, NOT_UTF8).write_bytes((E / "contract_panel3.json").read_bytes())
    env = {**os.environ, "PYTHONPATH": str(paths.ROOT)}
    for fmt in ("sarif", "gitlab", "junit"):
        done = subprocess.run(
            [sys.executable, "-m", "kernel", "check", NOT_UTF8, "--format", fmt],
            capture_output=True,
            cwd=tmp_path,
            env=env,
            check=False,
        )
        assert (done.returncode, done.stderr) == (0, b""), done.stderr
        _parsed(fmt, done.stdout.decode("utf-8"))


class _Full(io.StringIO):
    """Standard output on a full disk."""

    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def fileno(self) -> int:
        raise io.UnsupportedOperation("fileno")


def test_a_failing_standard_output_is_a_message_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was a traceback and exit 1."""
    from kernel.cli.check import main as check_main

    monkeypatch.setattr(sys, "stdout", _Full())
    assert run(check_main, ["reviewer/full"]) == 2
    err = capsys.readouterr().err
    assert err == "error: standard output cannot be written (No space left on device)\n"


def test_dev_full_is_a_message_and_exit_2() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "kernel", "check", str(E / "contract_panel3.json")],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            cwd=paths.ROOT,
            check=False,
        )
    assert done.returncode == 2
    assert done.stderr == "error: standard output cannot be written (No space left on device)\n"


def test_a_heading_with_control_characters_gives_well_formed_junit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It copied U+0001, U+000B and U+001B into the XML, which a CI parser rejects."""
    text = (E / "full" / "eic.phase2.md").read_text("utf-8")
    doc = tmp_path / "e\x01i\x1bc.phase2.md"
    doc.write_text(text.replace("### D5: ", "### D5\x01\x0b\x1b: "), "utf-8")
    assert main(["lint", str(doc), "--contract", "reviewer/full", "--format", "junit"]) == 1
    root = ElementTree.fromstring(capsys.readouterr().out.encode("utf-8"))
    failures = [f.get("message") or "" for f in root.iter("failure")]
    assert any("D5\\x01\\x0b\\x1b" in m for m in failures), failures
    assert all("e\\x01i\\x1bc.phase2.md" in s.get("name", "") for s in root.iter("testsuite"))


_ANY_TEXT = st.text(alphabet=st.characters(codec=None), max_size=30)


@given(message=_ANY_TEXT, file=_ANY_TEXT.filter(bool), code=st.sampled_from(sorted(REGISTRY)))
def test_every_xml_sarif_and_gitlab_report_is_well_formed_whatever_the_input(
    message: str, file: str, code: str
) -> None:
    found = [Diagnostic(code, message, file=file, line=3, column=2)]
    for fmt in ("junit", "sarif", "gitlab", "json"):
        out = io.StringIO()
        emit(fmt, Result(1, found), out, io.StringIO())
        report = out.getvalue()
        report.encode("utf-8")  # no lone surrogate left
        _parsed(fmt, report)
