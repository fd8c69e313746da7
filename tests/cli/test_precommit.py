"""This repository's pre-commit hooks, committed through real ``pre-commit`` and git in
a repository of two 13.2 rounds and a Schema 13 project, each under its own configuration.

The hooks are the ones ``.pre-commit-hooks.yaml`` defines (id, entry, files, types, serial),
run as ``repo: local`` hooks of ``language: system`` with the entry's ``sprint-kernel``
replaced by this environment's console script: the code under test is the working tree's,
and nothing is installed or fetched (``.ci/run`` installs the hooks from a commit, as a user
does)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import paths

E = paths.EXAMPLES
V2 = E / "full-13.2"
BIN = Path(sys.executable).parent
SHORT_TRIGGER = "the relevance to neighbouring fields is asserted in one sentence and never shown"
TIMEOUT = 300


def _hooks() -> list[dict[str, Any]]:
    """The hooks of .pre-commit-hooks.yaml as local hooks running this environment's code."""
    hooks = yaml.safe_load((paths.ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    local = []
    for hook in hooks:
        entry = hook["entry"].split(" ", 1)
        assert entry[0] == "sprint-kernel", hook
        local.append(
            {
                **{k: v for k, v in hook.items() if k not in ("description", "language")},
                "language": "system",
                "entry": " ".join([str(BIN / "sprint-kernel"), *entry[1:]]),
            }
        )
    return local


def _copy_round(source: Path, folder: Path) -> None:
    folder.mkdir(parents=True)
    for path in source.glob("*.phase[12].md"):
        shutil.copy(path, folder / path.name)


class Repo:
    def __init__(self, root: Path, home: Path) -> None:
        self.root = root
        self.env = {
            **os.environ,
            "PRE_COMMIT_HOME": str(home),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "ci",
            "GIT_AUTHOR_EMAIL": "ci@example.invalid",
            "GIT_COMMITTER_NAME": "ci",
            "GIT_COMMITTER_EMAIL": "ci@example.invalid",
            "COLUMNS": "200",
        }

    def run(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            argv,
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )

    def git(self, *argv: str) -> subprocess.CompletedProcess[str]:
        return self.run("git", *argv)

    def commit(self, message: str) -> subprocess.CompletedProcess[str]:
        return self.git("commit", "-q", "-m", message)


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """rounds/2026-01 and rounds/2026-02 (13.2, the contract and strict in the top
    sprint-kernel.toml) and legacy/ (Schema 13, its own pyproject.toml), committed, with the
    hooks installed."""
    root = tmp_path / "repo"
    (root / "contracts").mkdir(parents=True)
    shutil.copy(V2 / "contract.json", root / "contracts" / "review.json")
    (root / "sprint-kernel.toml").write_text(
        'contract = "contracts/review.json"\nstrict = true\n', "utf-8"
    )
    _copy_round(V2, root / "rounds" / "2026-01")
    _copy_round(V2, root / "rounds" / "2026-02")
    _copy_round(E / "full", root / "legacy" / "reviews")
    (root / "legacy" / "pyproject.toml").write_text(
        '[project]\nname = "legacy"\n\n[tool.sprint-kernel]\ncontract = "reviewer/full"\n',
        "utf-8",
    )
    config = {"repos": [{"repo": "local", "hooks": _hooks()}]}
    (root / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), "utf-8")
    repo = Repo(root, tmp_path / "pre-commit-home")
    assert repo.git("init", "-q").returncode == 0
    assert repo.git("add", "-A").returncode == 0
    installed = repo.run(str(BIN / "pre-commit"), "install")
    assert installed.returncode == 0, installed.stdout + installed.stderr
    done = repo.commit("two rounds and a legacy project")
    assert done.returncode == 0, done.stdout + done.stderr  # sibling rounds pass the hook
    return repo


def test_commits_through_the_hooks(repo: Repo) -> None:
    """One repository, the scenarios in turn (each commit costs a pre-commit run)."""
    # --all-files passes on the clean repository of sibling rounds and two projects
    done = repo.run(str(BIN / "pre-commit"), "run", "--all-files")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "sprint contract lint" in done.stdout and "Passed" in done.stdout
    assert "Skipped" not in done.stdout

    # a Phase 1 edit committed alone that breaks its committed Phase 2 fails
    p1 = repo.root / "rounds" / "2026-01" / "eic.phase1.md"
    p1.write_text(p1.read_text("utf-8").replace(SHORT_TRIGGER, SHORT_TRIGGER[:-5] + "proved"))
    repo.git("add", "rounds/2026-01/eic.phase1.md")
    done = repo.commit("eic: reword a trigger")
    said = done.stdout + done.stderr  # git prints the hook's output on standard error
    assert done.returncode != 0, said
    assert "rounds/2026-01/eic.phase2.md:" in said and "P2-114" in said
    assert repo.git("log", "-1", "--format=%s").stdout.strip() == "two rounds and a legacy project"
    # one word of its prose, no trigger: the commit passes
    repo.git("checkout", "HEAD", "--", str(p1))
    p1.write_text(p1.read_text("utf-8").replace("must be stated", "must all be stated"))
    repo.git("add", "rounds/2026-01/eic.phase1.md")
    done = repo.commit("eic: one word")
    assert done.returncode == 0, done.stdout + done.stderr

    # a Phase 2 whose Phase 1 is on disk but untracked fails
    _copy_round(V2, repo.root / "rounds" / "2026-03")
    repo.git("add", "rounds/2026-03/da.phase2.md")
    done = repo.commit("a report without its Phase 1")
    assert done.returncode != 0, done.stdout + done.stderr
    assert "rounds/2026-03/da.phase2.md:1:1: P2-128" in done.stdout + done.stderr
    repo.git("add", "rounds/2026-03/da.phase1.md")
    done = repo.commit("a report with its Phase 1")
    assert done.returncode == 0, done.stdout + done.stderr
