"""A repository of many rounds and projects, as ruff treats a monorepo: a round is one folder
(its seats are unique within it), every setting comes from each file's nearest configuration,
a Phase 1 given alone brings its Phase 2, and a partner git does not track is a finding."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from support import paths

from kernel.cli.lint import main as lint_main
from kernel.cli.scaffold import run

E = paths.EXAMPLES
V2 = E / "full-13.2"
FULL = E / "full"
SHORT_TRIGGER = "the relevance to neighbouring fields is asserted in one sentence and never shown"


def lint(*argv: str) -> int:
    try:
        return run(lint_main, list(argv))
    except SystemExit as exc:  # --show-settings, a usage error
        if exc.code not in (0, None):
            raise
        return 0


def copy_round(source: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for path in source.glob("*.phase[12].md"):
        shutil.copy(path, folder / path.name)
    return folder


def codes(out: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for d in json.loads(out)["diagnostics"]:
        found.setdefault(d["file"], []).append(d["code"])
    return found


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Two 13.2 rounds under rounds/ (one contract, in sprint-kernel.toml at the top, strict)
    and a Schema 13 project in legacy/ with its own configuration; the working directory is
    the repository."""
    root = tmp_path / "repo"
    (root / "contracts").mkdir(parents=True)
    shutil.copy(V2 / "contract.json", root / "contracts" / "review.json")
    (root / "sprint-kernel.toml").write_text(
        'contract = "contracts/review.json"\nstrict = true\n', "utf-8"
    )
    copy_round(V2, root / "rounds" / "2026-01")
    copy_round(V2, root / "rounds" / "2026-02")
    copy_round(FULL, root / "legacy" / "reviews")
    (root / "legacy" / "pyproject.toml").write_text(
        '[project]\nname = "legacy"\n\n[tool.sprint-kernel]\ncontract = "reviewer/full"\n',
        "utf-8",
    )
    monkeypatch.chdir(root)
    return root


def test_sibling_rounds_each_seat_their_own_reviewers(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert lint("rounds", "--format", "json") == 0, capsys.readouterr().out
    body = json.loads(capsys.readouterr().out)
    assert len(body["files"]) == 20 and body["diagnostics"] == []
    roles = {f["file"]: f["role"] for f in body["files"]}
    assert roles["rounds/2026-01/eic.phase1.md"] == roles["rounds/2026-02/eic.phase1.md"] == "eic"
    # a seat taken twice within one folder is still a finding
    shutil.copy(repo / "rounds/2026-01/eic.phase2.md", repo / "rounds/2026-01/chair.phase2.md")
    assert lint("rounds", "--format", "json") == 1
    found = codes(capsys.readouterr().out)
    assert set(found) == {"rounds/2026-01/chair.phase2.md", "rounds/2026-01/eic.phase2.md"}
    assert "P2-140" in found["rounds/2026-01/chair.phase2.md"]


def test_each_file_takes_every_setting_from_its_nearest_configuration(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the 13.2 rounds under the top configuration, the Schema 13 reviews under their own
    assert lint("rounds/2026-01", "legacy/reviews", "--format", "json") == 0
    body = json.loads(capsys.readouterr().out)
    assert body["diagnostics"] == [] and len(body["files"]) == 20
    roles = {f["file"]: f.get("role") for f in body["files"]}
    assert (
        roles["rounds/2026-01/da.phase2.md"] == "da"
        and roles["legacy/reviews/da.phase2.md"] is None
    )
    assert lint("legacy/reviews", "rounds/2026-01") == 0  # in either order
    capsys.readouterr()
    # strict comes from the top configuration: it fails a 13.2 warning, not a legacy one
    (repo / "rounds/2026-03").mkdir()
    shutil.copy(repo / "rounds/2026-01/da.phase2.md", repo / "rounds/2026-03/da.phase2.md")
    (repo / "legacy/reviews/lone.phase2.md").write_text(
        (FULL / "eic.phase2.md").read_text("utf-8"), "utf-8"
    )
    # legacy is not strict: its P2-043 warning passes, even beside a strict project's files
    assert lint("legacy/reviews", "rounds/2026-02") == 0
    assert "legacy/reviews/lone.phase2.md:1:1: P2-043" in capsys.readouterr().out
    assert lint("legacy/reviews", "rounds/2026-03") == 1
    assert "rounds/2026-03/da.phase2.md:1:1: P2-127" in capsys.readouterr().out
    assert lint("rounds/2026-03", "--isolated", "--contract", "contracts/review.json") == 0
    capsys.readouterr()
    # a nested project's contract wins for its files over the one above it
    (repo / "legacy" / "sprint-kernel.toml").write_text('contract = "13.2/reviewer/full"\n')
    assert lint("legacy/reviews/eic.phase1.md", "--format", "json") == 1
    assert json.loads(capsys.readouterr().out)["dialect"] == "13.2"


def test_a_phase1_given_alone_is_checked_with_the_phase2_beside_it(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p1 = repo / "rounds/2026-01/eic.phase1.md"
    p1.write_text(p1.read_text("utf-8").replace(SHORT_TRIGGER, SHORT_TRIGGER[:-5] + "proved"))
    assert lint("rounds/2026-01/eic.phase1.md", "--verbose") == 1
    out = capsys.readouterr().out
    assert "rounds/2026-01/eic.phase2.md" in out and "P2-114" in out
    assert (
        "rounds/2026-01/eic.phase2.md: brought in by rounds/2026-01/eic.phase1.md, found beside it"
    ) in out
    # --phase 1 lints the one document as a Phase 1, as before
    assert lint("rounds/2026-01/eic.phase1.md", "--phase", "1") == 0


def _git(root: Path, *argv: str) -> None:
    subprocess.run(["git", "-C", str(root), *argv], check=True, capture_output=True)


def test_a_partner_git_does_not_track_is_a_finding(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _git(repo, "init", "-q")
    _git(repo, "add", "sprint-kernel.toml", "contracts", "rounds/2026-01/eic.phase2.md")
    assert lint("rounds/2026-01/eic.phase2.md") == 1
    out = capsys.readouterr().out
    assert out.startswith(
        "rounds/2026-01/eic.phase2.md:1:1: P2-128 read with rounds/2026-01/eic.phase1.md, which "
        "git does not track: a clone of the repository has no Phase 1 for this report (git add "
        "rounds/2026-01/eic.phase1.md)"
    )
    _git(repo, "add", "rounds/2026-01/eic.phase1.md")
    assert lint("rounds/2026-01/eic.phase2.md") == 0
    capsys.readouterr()
    # a Phase 2 git does not track is not brought in by its Phase 1
    assert lint("rounds/2026-02/eic.phase1.md", "--format", "json") == 0
    assert [f["file"] for f in json.loads(capsys.readouterr().out)["files"]] == [
        "rounds/2026-02/eic.phase1.md"
    ]


def test_lint_with_no_path_lints_the_project(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert lint("--format", "json") == 0
    assert len(json.loads(capsys.readouterr().out)["files"]) == 30
    (repo / "rounds/2026-02/eic.phase1.md").write_text("## Contract Paraphrase\n\nnothing\n")
    assert lint() == 1
    assert "rounds/2026-02/eic.phase1.md:" in capsys.readouterr().out


def test_a_synthesis_among_the_files_is_no_phase1(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(V2 / "synthesis.md", repo / "rounds/2026-01/synthesis.md")
    named = sorted(str(p.relative_to(repo)) for p in (repo / "rounds/2026-01").glob("*.md"))
    assert lint(*named) == 0
    out = capsys.readouterr().out
    assert "P1-120" not in out
    assert (
        "rounds/2026-01/synthesis.md: a synthesis, not linted (decide --synthesis checks it)"
        in (out)
    )
    with pytest.raises(SystemExit) as exc:
        lint("rounds/2026-01/synthesis.md")
    assert exc.value.code == 2
    assert "a synthesis, not a reviewer document" in capsys.readouterr().err


def test_decide_takes_one_round(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lint("rounds/2026-01") == 0
    with pytest.raises(SystemExit) as exc:
        from kernel.cli.decide import main as decide_main

        decide_main(["rounds"])
    assert exc.value.code == 2
    assert (
        "the documents lie in 2 folders (rounds/2026-01, rounds/2026-02): a round is one folder"
        in capsys.readouterr().err
    )


def test_show_settings_gives_each_files_own_settings_and_every_path_absolute(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert lint("rounds/2026-01", "--show-settings") == 0
    lines = capsys.readouterr().out.splitlines()
    top = str(repo / "sprint-kernel.toml")
    assert lines[:3] == [
        f"Settings for: {repo / 'rounds/2026-01/da.phase1.md'}",
        f"Configuration: {top}",
        f'  contract = "{repo / "contracts/review.json"}"  # {top}',
    ]
    assert f"  strict = true  # {top}" in lines
    assert lint("legacy/reviews/eic.phase1.md", "--show-settings", "--format", "json") == 0
    shown = json.loads(capsys.readouterr().out)
    legacy = str(repo / "legacy/pyproject.toml")
    assert shown["file"] == str(repo / "legacy/reviews/eic.phase1.md")
    assert shown["settings"]["contract"] == {"value": "reviewer/full", "from": legacy}
    assert shown["settings"]["strict"] == {"value": False, "from": "default"}


def test_check_reads_each_contract_under_its_own_project(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kernel.cli.check import main as check_main

    (repo / "legacy" / "contracts").mkdir()
    shutil.copy(repo / "contracts/review.json", repo / "legacy/contracts/review.json")
    (repo / "legacy" / "sprint-kernel.toml").write_text('dialect = "13"\n', "utf-8")
    assert run(check_main, ["contracts/review.json", "legacy/contracts/review.json"]) == 1
    out = capsys.readouterr().out
    assert "legacy/contracts/review.json:" in out and "E-SCHEMA" in out  # read as Schema 13
    top = [line for line in out.splitlines() if line.startswith("contracts/review.json:")]
    assert top and all(" info: " in line for line in top)  # the 13.2 contract passes
