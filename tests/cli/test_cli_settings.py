"""Settings as ruff finds them (from each input's directory upward), --show-settings and
--show-files, check DIR taking contracts only, .gitignore lines git cannot match, invalid
globs, and the "did you mean" suggestions; run in this process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import paths

from kernel.cli.main import main

E = paths.EXAMPLES
FULL = E / "full"


def sk(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``sprint-kernel ARGV`` in this process: exit code, stdout, stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def nested(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project under tmp_path/work/proj (its pyproject.toml names the contract, excludes
    the DA's documents and ignores SC-11), a sub-project proj/sub with its own
    sprint-kernel.toml, and the working directory tmp_path/outside, above neither."""
    proj = tmp_path / "work" / "proj"
    shutil.copytree(FULL, proj / "reviews", ignore=shutil.ignore_patterns("synthesis.md"))
    write(
        proj / "pyproject.toml",
        '[project]\nname = "p"\n\n[tool.sprint-kernel]\ncontract = "reviewer/full"\n'
        'exclude = ["reviews/da.*"]\nignore = ["SC-11"]\n',
    )
    (proj / "contracts").mkdir()
    shutil.copy(E / "contract_panel3.json", proj / "contracts" / "panel3.json")
    write(proj / "sub" / "sprint-kernel.toml", 'select = ["SC"]\n')
    (proj / "sub" / "contracts").mkdir()
    shutil.copy(E / "contract_panel3.json", proj / "sub" / "contracts" / "panel3.json")
    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.chdir(outside)
    return proj


def test_the_project_configuration_applies_to_an_absolute_path_run_from_outside(
    nested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = sk(capsys, "lint", str(nested / "reviews"))
    assert code == 0, err  # the contract came from the project: no "--contract required"
    assert "da.phase" not in out + err  # its exclude applied
    code, out, _ = sk(capsys, "lint", str(nested / "reviews"), "--format", "json")
    assert any(f["file"].endswith("eic.phase2.md") for f in json.loads(out)["files"])
    code, _, err = sk(capsys, "lint", str(nested / "reviews"), "--isolated")
    assert code == 2 and "contract" in err


def test_show_files_lists_what_a_run_reads_after_exclude_and_gitignore(
    nested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(nested / ".gitignore", "perspective.*\n")
    (nested / ".git").mkdir()
    code, out, _ = sk(capsys, "lint", str(nested / "reviews"), "--show-files")
    names = [Path(line).name for line in out.splitlines()]
    assert code == 0
    assert names == [
        f"{who}.phase{n}.md" for who in ("domain", "eic", "methodology") for n in (1, 2)
    ]
    code, out, _ = sk(capsys, "lint", str(nested / "reviews"), "--show-files", "--format", "json")
    assert [Path(p).name for p in json.loads(out)] == names


def test_show_settings_says_where_each_value_came_from(
    nested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = sk(
        capsys, "lint", str(nested / "reviews"), "--show-settings", "--select", "P2", "--format",
        "json",
    )  # fmt: skip
    assert code == 0
    shown = json.loads(out)
    config = str(nested / "pyproject.toml")
    assert shown["configuration"] == config
    assert Path(shown["file"]).name == "domain.phase1.md"
    settings = shown["settings"]
    assert settings["contract"] == {"value": "reviewer/full", "from": config}
    assert settings["exclude"] == {"value": ["reviews/da.*"], "from": config}
    assert settings["ignore"] == {"value": ["SC-11"], "from": config}
    assert settings["select"] == {"value": ["P2"], "from": "command line (--select)"}
    assert settings["dialect"] == {"value": "auto", "from": "default"}
    code, out, _ = sk(capsys, "lint", str(nested / "reviews"), "--show-settings")
    assert out.splitlines()[:2] == [
        f"Settings for: {nested / 'reviews' / 'domain.phase1.md'}",
        f"Configuration: {config}",
    ]
    assert f'  contract = "reviewer/full"  # {config}' in out.splitlines()


def test_a_nested_configuration_applies_to_the_files_below_it(
    nested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    top, below = nested / "contracts" / "panel3.json", nested / "sub" / "contracts" / "panel3.json"
    code, out, err = sk(capsys, "check", str(top), str(below))
    assert code == 0
    assert f"{below}:6:17: SC-11" in out and err == ""  # sub/ selects SC: its file warns
    assert f"{top}:" not in out  # the project ignores SC-11
    code, out, _ = sk(capsys, "check", str(below), "--show-settings", "--format", "json")
    shown = json.loads(out)
    assert shown["configuration"] == str(nested / "sub" / "sprint-kernel.toml")
    assert shown["settings"]["select"]["value"] == ["SC"]


# --- check DIR -----------------------------------------------------------------------------


def test_check_dir_reads_contracts_only_and_counts_what_it_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(E / "full_reject.json", tmp_path / "matrix.json")  # a matrix: skipped
    write(tmp_path / "votes.json", '{"votes": []}\n')  # not a contract: skipped
    shutil.copy(E / "contract_panel3.json", tmp_path / "mine.json")  # shaped like one
    write(tmp_path / "contracts" / "broken.json", "{bad\n")  # the hook's pattern: checked
    code, out, err = sk(capsys, "check", ".")
    assert code == 1
    assert "E-SCHEMA" not in out and "matrix" not in out and "votes" not in out and err == ""
    assert "contracts/broken.json:1:2: E-JSON" in out
    assert "mine.json:6:17: SC-11" in out
    assert out.splitlines()[-2:] == [
        "Skipped 2 JSON file(s) that are not contracts.",
        "Found 1 error and 1 warning in 2 files.",
    ]
    code, out, _ = sk(capsys, "check", ".", "--format", "json")
    assert sorted(json.loads(out)["skipped"]) == ["matrix.json", "votes.json"]
    code, out, _ = sk(capsys, "check", ".", "--show-files")
    assert out.splitlines() == ["contracts/broken.json", "mine.json"]
    code, out, _ = sk(capsys, "check", "matrix.json")  # named: checked as a contract
    assert code == 1 and "E-SCHEMA" in out


def test_check_dir_of_no_contracts_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(E / "full_reject.json", tmp_path / "matrix.json")
    code, out, _ = sk(capsys, "check", ".")
    assert code == 2
    assert "no contracts to read (1 JSON file(s) that are not contracts skipped)" in out


# --- .gitignore lines git cannot match, invalid globs (issue 30) ---------------------------


@pytest.mark.parametrize("line", ["!", "[z-a]", "a[z-a]b", "\\"])
@pytest.mark.parametrize("command", ["check", "lint", "decide"])
def test_a_gitignore_line_git_skips_is_skipped(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    line: str,
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    write(tmp_path / ".gitignore", f"{line}\nignored/\n")
    shutil.copytree(FULL, tmp_path / "reviews", ignore=shutil.ignore_patterns("synthesis.md"))
    write(tmp_path / "reviews" / ".gitignore", f"{line}\n")
    write(tmp_path / "reviews" / "ignored" / "bad.phase1.md", "broken\n")
    (tmp_path / "contracts").mkdir()
    shutil.copy(E / "contract_panel3.json", tmp_path / "contracts" / "c.json")
    write(tmp_path / "contracts" / "ignored" / "bad.json", "{bad\n")
    target = "contracts" if command == "check" else "reviews"
    extra = () if command == "check" else ("--contract", "reviewer/full")
    code, out, err = sk(capsys, command, target, *extra)
    assert "Traceback" not in err and "bad" not in out + err
    assert code == 0, err


@pytest.mark.parametrize(
    ("table", "key"),
    [
        ('exclude = ["[z-a]"]\n', "exclude"),
        ('exclude = ["!"]\n', "exclude"),
        ('[per-file-ignores]\n"[z-a]" = ["SC-11"]\n', "per-file-ignores"),
        ('[per-file-ignores]\n"\\\\" = ["SC-11"]\n', "per-file-ignores"),
    ],
)
def test_an_invalid_glob_is_a_configuration_error_naming_file_and_key(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    table: str,
    key: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "sprint-kernel.toml", table)
    code, _, err = sk(capsys, "check", "reviewer/full")
    assert code == 2
    assert f"sprint-kernel.toml {key}: " in err and "is not a usable glob" in err
    assert "Traceback" not in err


# --- did you mean ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ('select = ["P2-04"]\n', "'P2-04' is no code and no prefix of one; did you mean 'P2-040'?"),
        ('ignore = ["SC-111"]\n', "did you mean 'SC-11'?"),
        ('excludes = ["x"]\n', "excludes: unknown key; did you mean 'exclude'?"),
        ('selct = ["SC"]\n', "selct: unknown key; did you mean 'select'?"),
    ],
)
def test_configuration_typos_get_the_closest_spelling(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    table: str,
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "sprint-kernel.toml", table)
    code, _, err = sk(capsys, "check", "reviewer/full")
    assert code == 2 and said in err


def test_a_selector_typo_on_the_command_line_gets_the_closest_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = sk(capsys, "check", "reviewer/full", "--isolated", "--select", "P2-04")
    assert code == 2 and "did you mean 'P2-040'?" in err


@pytest.mark.parametrize("command", ["lint", "check"])
def test_a_template_typo_gets_the_closest_template(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(FULL / "eic.phase1.md", tmp_path / "eic.phase1.md")
    argv = ["lint", "--contract", "reviewer/quick", "eic.phase1.md"]
    if command == "check":
        argv = ["check", "reviewer/quick"]
    code, out, err = sk(capsys, *argv)
    assert code != 0
    assert "no template of that name; did you mean 'reviewer/full'?" in out + err


def test_a_misspelt_quantifier_gets_the_closest_word(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from kernel.contract.templates import shipped_template

    monkeypatch.chdir(tmp_path)
    contract = shipped_template("13.2/reviewer/full")
    contract["failure_conditions"][1]["cross_reviewer_quantifier"] = "majorty"
    write(tmp_path / "c.json", json.dumps(contract, indent=1))
    code, out, _ = sk(capsys, "check", "c.json")
    assert code == 1
    assert "'majorty' is not one of ['any', 'majority', 'all']; did you mean 'majority'?" in out
