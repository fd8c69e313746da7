"""Commands that surprised a new user (issue 39): one meaning for migrate's ``-o``, the
configuration's ``strict`` and a migration, ``--output-format``, one-line usage errors and
info findings that say they are info."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import paths

from kernel.cli.main import main

E = paths.EXAMPLES


def sk(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_migrate_refuses_o_with_a_page_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = sk(capsys, "migrate", "reviewer/full", "--format", "html", "-o", "page.html")
    assert code == 2 and out == ""
    assert err.splitlines()[0] == (
        "sprint-kernel migrate: error: -o/--output writes the migrated contract, not the page: "
        "-o page.html with --format html is ambiguous; give the page's file with "
        "--output-file (and the contract's with -o)"
    )
    assert not (tmp_path / "page.html").exists()
    # both named: the page in one file, the contract in the other
    code, _, err = sk(
        capsys, "migrate", "reviewer/full", "--format", "html", "--output-file", "page.html",
        "-o", "new.json",
    )  # fmt: skip
    assert code == 0, err
    assert (tmp_path / "page.html").read_text("utf-8").lstrip().startswith("<!DOCTYPE html>")
    assert json.loads((tmp_path / "new.json").read_text("utf-8"))["contract_id"]


def test_configured_strict_does_not_fail_a_successful_migration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sprint-kernel.toml").write_text("strict = true\n", "utf-8")
    code, out, _ = sk(capsys, "migrate", "reviewer/methodology_focus", "-o", "new.json")
    assert code == 0
    assert ": MG-2 " in out and (tmp_path / "new.json").exists()
    # strict asked for on the command line still fails the warning
    assert sk(capsys, "migrate", "reviewer/methodology_focus", "--strict")[0] == 1
    # and lint and check keep the configured strict
    assert sk(capsys, "check", str(E / "contract_panel3.json"))[0] == 1


@pytest.mark.parametrize(
    "argv",
    [
        ("check", "reviewer/full"),
        ("lint", str(E / "full" / "eic.phase2.md"), "--contract", "reviewer/full"),
        ("analyze", "reviewer/full"),
        ("templates", "list"),
    ],
)
def test_output_format_is_an_alias_of_format(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = sk(capsys, *argv, "--output-format", "json")
    assert code == 0, err
    assert out == sk(capsys, *argv, "--format", "json")[1]
    json.loads(out)


def test_a_usage_error_is_one_line_and_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = sk(
        capsys,
        "lint",
        "a.phase2.md",
        "b.phase2.md",
        "--phase1",
        "x.md",
        "--contract",
        "reviewer/full",
    )
    assert code == 2 and out == ""
    assert err.splitlines() == [
        "sprint-kernel lint: error: --phase1 goes with one Phase 2 document; lint one reviewer "
        "at a time",
        "(run 'sprint-kernel lint --help' for usage)",
    ]
    code, _, err = sk(capsys, "check", "--format", "yaml")
    assert code == 2 and len(err.splitlines()) == 2 and "usage:" not in err


def test_info_findings_say_info_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = sk(capsys, "check", "13.2/reviewer/full")
    assert code == 0
    assert (
        "13.2/reviewer/full:1:1: SC-15 info: mandatory dimension D1 has one eligible role "
        "(single-judge mandatory gate)"
    ) in out.splitlines()
    code, out, _ = sk(capsys, "check", "13.2/reviewer/full", "--format", "json")
    messages = [d["message"] for d in json.loads(out)["diagnostics"]]
    assert messages and not any(m.startswith("info") for m in messages)  # text only
