"""The project configuration, code selection, directories and the linter-grade outputs, each
through the installed console script (``sprint-kernel``), as a project's CI runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from support import paths
from support.output_schemas import check_argv_output

from kernel.diagnostics import REGISTRY

E = paths.EXAMPLES
FULL = E / "full"
SCRIPT = str(Path(sys.executable).parent / "sprint-kernel")
TIMEOUT = 120


def sk(*argv: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``sprint-kernel ARGV`` in ``cwd`` (its JSON output checked against its schema)."""
    done = subprocess.run(
        [SCRIPT, *argv],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env={**os.environ, "COLUMNS": "200"},
    )
    check_argv_output(argv, done.stdout)
    return done


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A project holding the five reviewers' documents under reviews/, two Phase 2 documents
    without their Phase 1 under solo/, and a contract whose panel of 3 draws an SC-11
    warning."""
    root = tmp_path / "project"
    shutil.copytree(FULL, root / "reviews", ignore=shutil.ignore_patterns("synthesis.md"))
    (root / "solo").mkdir()
    for name in ("eic.phase2.md", "da.phase2.md"):
        shutil.copy(FULL / name, root / "solo" / name)
    (root / "contracts").mkdir()
    shutil.copy(E / "contract_panel3.json", root / "contracts" / "panel3.json")
    return root


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def lines(text: str) -> list[str]:
    return text.splitlines()


# --- where the configuration comes from --------------------------------------------------


def test_pyproject_table_names_the_contract(project: Path) -> None:
    write(
        project / "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.sprint-kernel]\ncontract = "reviewer/full"\n',
    )
    done = sk("lint", "reviews", cwd=project)
    assert done.returncode == 0, done.stderr
    assert (done.stdout, done.stderr) == ("All checks passed.\n", "")
    done = sk("decide", "reviews", cwd=project)
    assert done.returncode == 0 and "editorial_decision=major_revision" in done.stdout


def test_sprint_kernel_toml_comes_first_and_the_search_goes_upward(project: Path) -> None:
    write(project / "pyproject.toml", '[tool.sprint-kernel]\ncontract = "missing.json"\n')
    write(project / "sprint-kernel.toml", 'contract = "reviewer/full"\n')
    below = project / "reviews"
    done = sk("lint", "eic.phase1.md", cwd=below)
    assert done.returncode == 0, done.stderr
    (project / "sprint-kernel.toml").unlink()
    done = sk("lint", "eic.phase1.md", cwd=below)
    assert done.returncode == 2 and "missing.json" in done.stdout + done.stderr


def test_a_pyproject_without_the_table_is_passed_over(project: Path) -> None:
    write(project / "sprint-kernel.toml", 'contract = "reviewer/full"\n')
    # A project's own pyproject.toml that only mentions the script is not a configuration.
    write(
        project / "reviews" / "pyproject.toml",
        '[project.scripts]\nsprint-kernel = "kernel.cli.main:main"\n',
    )
    assert sk("lint", "eic.phase1.md", cwd=project / "reviews").returncode == 0


def test_check_and_analyze_take_the_configured_contract(project: Path) -> None:
    write(project / "sprint-kernel.toml", 'contract = "contracts/panel3.json"\n')
    done = sk("check", cwd=project / "reviews")
    assert done.returncode == 0
    assert done.stdout == (
        "../contracts/panel3.json:6:17: SC-11 panel_size=3 inconsistent with mode=reviewer_full; "
        "expected 5\nFound 0 errors and 1 warning in 1 file.\n"
    )
    done = sk("analyze", "--format", "json", cwd=project)
    assert done.returncode == 0 and json.loads(done.stdout)["panel_size"] == 3
    for command in ("check", "analyze"):
        done = sk(command, "--isolated", cwd=project)
        assert done.returncode == 2 and "configuration" in done.stderr


def test_contract_paths_are_relative_to_the_configuration(project: Path) -> None:
    write(project / "sprint-kernel.toml", 'contract = "contracts/panel3.json"\n')
    done = sk("check", "contracts", cwd=project)
    assert done.returncode == 0
    done = sk("lint", "eic.phase1.md", cwd=project / "reviews")
    assert done.returncode == 0, done.stdout + done.stderr


def test_config_names_one_file_and_isolated_ignores_them_all(project: Path) -> None:
    named = write(project / "elsewhere" / "settings.toml", 'contract = "reviewer/full"\n')
    doc = "reviews/eic.phase1.md"
    assert sk("lint", doc, "--config", str(named), cwd=project).returncode == 0
    write(project / "sprint-kernel.toml", 'contract = "reviewer/full"\n')
    assert sk("lint", doc, cwd=project).returncode == 0
    done = sk("lint", doc, "--isolated", cwd=project)
    assert done.returncode == 2 and "--contract" in done.stderr
    done = sk("lint", doc, "--config", "nowhere.toml", cwd=project)
    assert done.returncode == 2 and "nowhere.toml: cannot be read" in done.stderr
    bare = write(project / "other" / "pyproject.toml", '[project]\nname = "x"\n')
    done = sk("lint", doc, "--config", str(bare), cwd=project)
    assert done.returncode == 2 and "[tool.sprint-kernel]" in done.stderr


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("colour = true", "colour"),
        ("contract = 5", "contract"),
        ("dialect = '14'", "dialect"),
        ("select = 'SC'", "select"),
        ("select = ['XX']", "select"),
        ("ignore = ['P2-001']", "P2-001"),
        ("ignore = ['E']", "ignore"),
        ("per-file-ignores = { 'x.md' = ['SC-12'] }", "SC-12"),
        ("per-file-ignores = ['SC-11']", "per-file-ignores"),
        ("exclude = 'drafts'", "exclude"),
        ("strict = 'yes'", "strict"),
        ("max-bytes = 0", "max-bytes"),
        ("max-bytes = true", "max-bytes"),
        ("[[", "TOML"),
    ],
)
def test_a_bad_key_or_value_is_a_configuration_error(project: Path, line: str, named: str) -> None:
    write(project / "pyproject.toml", f"[tool.sprint-kernel]\n{line}\n")
    done = sk("check", "reviewer/full", cwd=project)
    assert done.returncode == 2
    assert "pyproject.toml" in done.stderr and named in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("dialect", "template", "said"),
    [
        ("auto", "reviewer/full", "Schema 13"),
        ("13", "reviewer/full", "Schema 13"),
        ("13.2", "13.2/reviewer/full", "Schema 13.2"),
    ],
)
def test_dialect_is_a_key_and_a_flag(project: Path, dialect: str, template: str, said: str) -> None:
    write(project / "sprint-kernel.toml", f"dialect = '{dialect}'\n")
    done = sk("check", template, "--format", "json", cwd=project)
    assert done.returncode == 0, done.stderr
    assert f"Schema {json.loads(done.stdout)['files'][0]['dialect']}" == said
    assert sk("check", template, "--dialect", dialect, cwd=project).returncode == 0
    assert sk("check", template, "--dialect", "14", cwd=project).returncode == 2
    # A contract of the other dialect, forced by the configuration, fails loudly (13.2 §J1).
    other = "13.2/reviewer/full" if dialect == "13" else "reviewer/full"
    if dialect != "auto":
        done = sk("check", other, cwd=project)
        assert done.returncode == 1 and "E-SCHEMA" in done.stdout
        assert sk("check", other, "--dialect", "auto", cwd=project).returncode == 0


def test_flags_override_the_configuration(project: Path) -> None:
    write(
        project / "sprint-kernel.toml",
        'contract = "missing.json"\nmax-bytes = 100\nselect = ["SC-1"]\n',
    )
    doc = "reviews/eic.phase1.md"
    done = sk("lint", doc, "--contract", "reviewer/full", cwd=project)
    assert done.returncode == 2 and "E-SIZE" in done.stdout  # max-bytes from the file
    done = sk("lint", doc, "--contract", "reviewer/full", "--max-bytes", "100000", cwd=project)
    assert done.returncode == 0, done.stdout
    assert "SC-11" not in sk("check", "contracts", "--max-bytes", "100000", cwd=project).stdout
    done = sk("check", "contracts", "--max-bytes", "100000", "--select", "SC-11", cwd=project)
    assert "SC-11" in done.stdout


# --- selection ---------------------------------------------------------------------------

PANEL3 = "contracts/panel3.json"


@pytest.mark.parametrize(
    ("flags", "shown"),
    [
        ([], True),
        (["--ignore", "SC-11"], False),
        (["--ignore", "SC"], False),
        (["--ignore", "SC-1"], True),  # SC-1 is not a prefix of SC-11
        (["--select", "SC-1"], False),
        (["--select", "SC"], True),
        (["--select", "P2,SC-11"], True),
        (["--select", "P2"], False),
        (["--select", "SC", "--ignore", "SC-11"], False),
        (["--select", "SC-11", "--ignore", "SC"], True),  # the more specific selector decides
    ],
)
def test_select_and_ignore_take_codes_and_prefixes(
    project: Path, flags: list[str], shown: bool
) -> None:
    done = sk("check", PANEL3, *flags, cwd=project)
    assert done.returncode == 0
    assert ("SC-11" in done.stdout) is shown and done.stderr == ""
    assert lines(done.stdout)[-1] == (
        "Found 0 errors and 1 warning in 1 file." if shown else "All checks passed."
    )


def test_a_prefix_covers_p2_codes(project: Path) -> None:
    doc = "solo/eic.phase2.md"
    done = sk("lint", doc, "--contract", "reviewer/full", cwd=project)
    assert "P2-043" in done.stdout
    assert (
        "P2-043"
        not in sk("lint", doc, "--contract", "reviewer/full", "--ignore", "P2", cwd=project).stdout
    )
    done = sk("lint", doc, "--contract", "reviewer/full", "--ignore", "P2-0", cwd=project)
    assert done.returncode == 2 and "'P2-0' is no code" in done.stderr


@pytest.mark.parametrize("code", ["SC-12", "P2-001", "E-SCHEMA", "E", "INJECTION"])
def test_errors_cannot_be_ignored(project: Path, code: str) -> None:
    done = sk("check", PANEL3, "--ignore", code, cwd=project)
    assert done.returncode == 2
    assert code in done.stderr and "cannot be ignored" in done.stderr


def test_errors_are_reported_whatever_is_selected(project: Path) -> None:
    done = sk("check", str(E / "contract_typo.json"), "--select", "SC-1", cwd=project)
    assert done.returncode == 1 and "SC-12" in done.stdout


def test_per_file_ignores(project: Path) -> None:
    write(
        project / "sprint-kernel.toml",
        'contract = "reviewer/full"\n[per-file-ignores]\n"solo/eic.*" = ["P2-043"]\n',
    )
    done = sk("lint", "solo/eic.phase2.md", "solo/da.phase2.md", cwd=project)
    assert done.returncode == 0
    assert "eic.phase2.md:1:1: P2-043" not in done.stdout
    assert "da.phase2.md:1:1: P2-043" in done.stdout


def test_per_file_ignores_match_the_stdin_filename(project: Path) -> None:
    write(
        project / "sprint-kernel.toml",
        'contract = "reviewer/full"\n[per-file-ignores]\n"pilot/*.phase2.md" = ["P2"]\n',
    )
    text = (project / "reviews" / "eic.phase2.md").read_text("utf-8")
    done = sk("lint", "-", "--stdin-filename", "pilot/eic.phase2.md", cwd=project, stdin=text)
    assert (done.returncode, done.stdout) == (0, "All checks passed.\n")
    done = sk("lint", "-", "--stdin-filename", "main/eic.phase2.md", cwd=project, stdin=text)
    assert done.stdout.startswith("main/eic.phase2.md:1:1: P2-043")


def test_strict_fails_on_a_reported_warning(project: Path) -> None:
    doc = "solo/eic.phase2.md"
    args = ("lint", doc, "--contract", "reviewer/full")
    assert sk(*args, cwd=project).returncode == 0
    assert sk(*args, "--strict", cwd=project).returncode == 1
    assert sk(*args, "--strict", "--ignore", "P2-043", cwd=project).returncode == 0
    done = sk(*args, "--strict", "--format", "json", cwd=project)
    assert done.returncode == 1 and json.loads(done.stdout)["ok"] is False
    write(project / "sprint-kernel.toml", "strict = true\n")
    assert sk(*args, cwd=project).returncode == 1
    # info is not a warning: a verdict is reported, and the run passes
    assert sk("arena", "verdict", str(E / "arena" / "review.md"), cwd=project).returncode == 0


# --- no inline suppression ----------------------------------------------------------------

SUPPRESSIONS = (
    "<!-- sprint-kernel: disable P2-043 P2-025 P2-052 -->",
    "<!-- noqa: P2-043 -->",
    "<!-- sprint-kernel-disable-file -->",
)


def test_a_comment_in_a_reviewer_document_switches_nothing_off(project: Path) -> None:
    """Reviewer documents are untrusted model output: no comment in one disables a check."""
    plain = project / "solo" / "eic.phase2.md"
    text = plain.read_text("utf-8")
    commented = write(project / "c" / "eic.phase2.md", text + "\n" + "\n".join(SUPPRESSIONS) + "\n")
    args = ("--contract", "reviewer/full", "--format", "json")
    before = json.loads(sk("lint", str(plain), *args, cwd=project).stdout)["diagnostics"]
    after = json.loads(sk("lint", str(commented), *args, cwd=project).stdout)["diagnostics"]
    assert [d["code"] for d in before] == [d["code"] for d in after] == ["P2-043"]
    # a document that fails still fails with a comment asking to disable its codes
    broken = text.replace("fired: true", "fired: false", 1)
    assert broken != text
    bad = write(project / "b" / "eic.phase2.md", broken)
    worse = write(project / "w" / "eic.phase2.md", broken + "\n" + SUPPRESSIONS[0] + "\n")
    first = sk("lint", str(bad), *args, cwd=project)
    second = sk("lint", str(worse), *args, cwd=project)
    assert first.returncode == second.returncode == 1
    codes = [d["code"] for d in json.loads(first.stdout)["diagnostics"]]
    assert codes == [d["code"] for d in json.loads(second.stdout)["diagnostics"]]
    assert "P2-025" in codes or "P2-052" in codes


# --- files -------------------------------------------------------------------------------


def test_a_directory_is_recursed_sorted_and_pairs_phase_documents(project: Path) -> None:
    write(
        project / "reviews" / "late" / "zz.phase1.md",
        (project / "reviews" / "eic.phase1.md").read_text("utf-8"),
    )
    write(project / "reviews" / "notes.md", "# not a reviewer document\n")
    done = sk("lint", "reviews", "--contract", "reviewer/full", cwd=project)
    assert done.returncode == 0, done.stdout
    assert "P2-043" not in done.stdout  # every Phase 2 met its Phase 1
    body = json.loads(
        sk("lint", "reviews", "--contract", "reviewer/full", "--format", "json", cwd=project).stdout
    )
    linted = [f["file"] for f in body["files"]]
    assert linted == sorted(linted) and "reviews/late/zz.phase1.md" in linted
    assert "reviews/notes.md" not in linted and len(linted) == 11
    pairs = {f["file"]: f.get("phase1_file") for f in body["files"]}
    assert pairs["reviews/eic.phase2.md"] == "reviews/eic.phase1.md"
    # a Phase 2 without its Phase 1 in the call is checked with the one beside it
    args = ("lint", "reviews/eic.phase2.md", "reviews/da.phase1.md", "--contract", "reviewer/full")
    done = sk(*args, "--strict", cwd=project)
    assert done.returncode == 0 and "P2-043" not in done.stdout
    body = json.loads(sk(*args, "--format", "json", cwd=project).stdout)
    read = [(f["file"], f.get("phase1_file"), f.get("phase1_from_disk")) for f in body["files"]]
    assert read == [  # and a Phase 1 given alone with the Phase 2 beside it
        ("reviews/da.phase1.md", None, None),
        ("reviews/da.phase2.md", "reviews/da.phase1.md", False),
        ("reviews/eic.phase2.md", "reviews/eic.phase1.md", True),
    ]
    verbose = sk(*args, "--verbose", cwd=project)
    assert "reviews/eic.phase2.md: read with reviews/eic.phase1.md, found beside it" in (
        verbose.stdout
    )
    # and without it when there is none
    done = sk("lint", "solo/eic.phase2.md", "--contract", "reviewer/full", cwd=project)
    assert "solo/eic.phase2.md:1:1: P2-043" in done.stdout


def test_an_explicit_phase1_wins(project: Path) -> None:
    other = write(project / "other.phase1.md", "## Contract Paraphrase\n\nnothing\n")
    done = sk(
        "lint",
        "reviews/eic.phase2.md",
        "--phase1",
        str(other),
        "--contract",
        "reviewer/full",
        cwd=project,
    )
    assert done.returncode == 1 and "P2-042" in done.stdout


def test_gitignore_and_exclude_leave_files_out(project: Path) -> None:
    (project / ".git").mkdir()
    write(project / ".gitignore", "drafts/\n*.tmp.phase1.md\n")
    write(project / "reviews" / "drafts" / "bad.phase1.md", "broken\n")
    write(project / "reviews" / "x.tmp.phase1.md", "broken\n")
    write(project / "reviews" / "old" / "bad.phase1.md", "broken\n")
    write(project / "sprint-kernel.toml", 'contract = "reviewer/full"\nexclude = ["reviews/old"]\n')
    done = sk("lint", "reviews", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "bad" not in done.stdout and "tmp" not in done.stdout
    # a file named on the command line is read all the same, as ruff reads it ...
    done = sk("lint", "reviews/old/bad.phase1.md", "reviews/eic.phase1.md", cwd=project)
    assert done.returncode == 1 and "reviews/old/bad.phase1.md:1:1" in done.stdout
    # ... unless --force-exclude (a pre-commit hook names every changed file)
    args = ("lint", "--force-exclude", "reviews/old/bad.phase1.md", "reviews/eic.phase1.md")
    done = sk(*args, cwd=project)
    assert done.returncode == 0 and "old" not in done.stdout
    done = sk("lint", "--force-exclude", "reviews/old/bad.phase1.md", cwd=project)
    assert done.returncode == 0 and "All checks passed." in done.stdout
    assert done.stderr == (
        "warning: every file given is excluded by the configuration's exclude "
        "(--force-exclude): reviews/old/bad.phase1.md; nothing was read\n"
    )
    # an excluded folder named on the command line says so
    done = sk("lint", "reviews/old", cwd=project)
    assert done.returncode == 2
    assert (
        "reviews/old:1:1: E-NOT-FILE is excluded by the exclude of sprint-kernel.toml: "
        "nothing in it is read"
    ) in done.stdout
    (project / "sprint-kernel.toml").unlink()
    done = sk("lint", "reviews", "--contract", "reviewer/full", cwd=project)
    assert done.returncode == 1 and "reviews/old/bad.phase1.md" in done.stdout


def test_check_takes_the_json_files_of_a_directory(project: Path) -> None:
    shutil.copy(E / "contract_typo.json", project / "contracts" / "typo.json")
    write(project / "contracts" / "README.md", "not a contract\n")
    done = sk("check", "contracts", cwd=project)
    assert done.returncode == 1
    assert "contracts/typo.json:65:21: SC-12" in done.stdout
    assert "contracts/panel3.json:6:17: SC-11" in done.stdout
    assert lines(done.stdout)[-1] == "Found 1 error and 1 warning in 2 files."
    empty = project / "empty"
    empty.mkdir()
    done = sk("check", "empty", cwd=project)
    assert done.returncode == 2 and "no *.json files" in done.stdout


def test_decide_on_a_directory_needs_every_pair(project: Path) -> None:
    phase2 = sorted(str(p.relative_to(project)) for p in (project / "reviews").glob("*.phase2.md"))
    done = sk("decide", *phase2, "--contract", "reviewer/full", "--format", "json", cwd=project)
    assert done.returncode == 0, done.stderr  # each Phase 1 is read from beside its Phase 2
    assert {r["phase1_from_disk"] for r in json.loads(done.stdout)["reviewers"]} == {True}
    (project / "reviews" / "da.phase1.md").unlink()
    done = sk("decide", "reviews", "--contract", "reviewer/full", cwd=project)
    assert done.returncode == 2
    assert "reviews/da.phase1.md is neither given nor there" in done.stderr
    (project / "reviews" / "eic.phase2.md").unlink()
    done = sk("decide", "reviews/eic.phase1.md", "--contract", "reviewer/full", cwd=project)
    assert done.returncode == 2 and "reviews/eic.phase2.md is not given" in done.stderr


# --- output ------------------------------------------------------------------------------


def test_quiet_prints_findings_only_and_nothing_when_clean(project: Path) -> None:
    done = sk("lint", "reviews", "--contract", "reviewer/full", "-q", cwd=project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    done = sk("check", PANEL3, "--quiet", cwd=project)
    assert done.stderr == "" and lines(done.stdout) == [
        f"{PANEL3}:6:17: SC-11 panel_size=3 inconsistent with mode=reviewer_full; expected 5"
    ]


def test_statistics_counts_each_code(project: Path) -> None:
    done = sk(
        "lint",
        "solo/eic.phase2.md",
        "solo/da.phase2.md",
        "--contract",
        "reviewer/full",
        "--statistics",
        cwd=project,
    )
    assert lines(done.stdout) == [
        f"    2  P2-043  {REGISTRY['P2-043'].summary}",
        "Found 0 errors and 2 warnings in 2 files.",
    ]
    done = sk("check", PANEL3, "--statistics", "--format", "json", cwd=project)
    assert json.loads(done.stdout) == [
        {
            "count": 1,
            "code": "SC-11",
            "severity": "warning",
            "summary": REGISTRY["SC-11"].summary,
            "url": None,
        }
    ]
    assert sk("check", PANEL3, "--statistics", "--format", "sarif", cwd=project).returncode == 2


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "gitlab"])
def test_output_file(project: Path, fmt: str) -> None:
    target = project / f"report.{fmt}"
    done = sk("check", PANEL3, "--format", fmt, "-o", str(target), cwd=project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert "SC-11" in target.read_text("utf-8")
    done = sk("check", PANEL3, "--output-file", str(project / "no" / "dir" / "r"), cwd=project)
    assert done.returncode == 2 and "cannot be written" in done.stderr


def test_junit(project: Path) -> None:
    done = sk(
        "lint",
        "reviews/eic.phase2.md",
        "reviews/eic.phase1.md",
        "solo/da.phase2.md",
        "--contract",
        "reviewer/full",
        "--format",
        "junit",
        cwd=project,
    )
    root = ElementTree.fromstring(done.stdout)
    assert root.tag == "testsuites" and root.get("failures") == "1"
    (suite,) = root.findall("testsuite")
    assert suite.get("name") == "solo/da.phase2.md"
    (case,) = suite.findall("testcase")
    assert case.get("line") == "1" and case.find("failure") is not None
    clean = sk(
        "lint",
        "reviews/eic.phase1.md",
        "--contract",
        "reviewer/full",
        "--format",
        "junit",
        cwd=project,
    )
    root = ElementTree.fromstring(clean.stdout)
    assert root.get("failures") == "0" and [c.get("name") for c in root.iter("testcase")] == [
        "no findings"
    ]


def test_gitlab_code_quality(project: Path) -> None:
    args = (
        "lint",
        "solo/eic.phase2.md",
        "solo/da.phase2.md",
        "--contract",
        "reviewer/full",
        "--format",
        "gitlab",
    )
    report = json.loads(sk(*args, cwd=project).stdout)
    assert [sorted(r) for r in report] == [
        ["check_name", "description", "fingerprint", "location", "severity"]
    ] * 2
    assert [r["location"] for r in report] == [
        {"path": "solo/da.phase2.md", "lines": {"begin": 1}},
        {"path": "solo/eic.phase2.md", "lines": {"begin": 1}},
    ]
    assert {r["check_name"] for r in report} == {"P2-043"}
    assert {r["severity"] for r in report} == {"minor"}
    assert all("consistency with Phase 1" in r["description"] for r in report)
    fingerprints = [r["fingerprint"] for r in report]
    assert len(set(fingerprints)) == 2
    assert [r["fingerprint"] for r in json.loads(sk(*args, cwd=project).stdout)] == fingerprints


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "junit", "gitlab"])
def test_stdin_filename_names_the_document_and_document_findings_stand_at_1_1(
    project: Path, fmt: str
) -> None:
    text = (project / "reviews" / "eic.phase2.md").read_text("utf-8")
    name = "reviews/from-stdin.phase2.md"
    done = sk(
        "lint",
        "-",
        "--contract",
        "reviewer/full",
        "--stdin-filename",
        name,
        "--format",
        fmt,
        cwd=project,
        stdin=text,
    )
    assert done.returncode == 0
    out = done.stdout + done.stderr
    assert name in out and "-:" not in out
    if fmt == "text":
        assert f"{name}:1:1: P2-043" in out and done.stderr == ""
    elif fmt == "json":
        body = json.loads(done.stdout)
        (d,) = body["diagnostics"]
        assert (d["file"], d["line"], d["column"]) == (name, 1, 1)
        assert body["files"][0]["file"] == name
    elif fmt == "sarif":
        (result,) = json.loads(done.stdout)["runs"][0]["results"]
        location = result["locations"][0]["physicalLocation"]
        assert location["artifactLocation"]["uri"] == name
        assert location["region"] == {"startLine": 1, "startColumn": 1}
    elif fmt == "github":
        assert done.stdout.startswith(f"::warning file={name},line=1,col=1,title=P2-043::")
    elif fmt == "junit":
        suite = ElementTree.fromstring(done.stdout).find("testsuite")
        assert suite is not None and suite.get("name") == name
    else:
        assert json.loads(done.stdout)[0]["location"] == {"path": name, "lines": {"begin": 1}}


# --- links -------------------------------------------------------------------------------


def test_no_placeholder_links_and_links_from_the_configured_docs_url(project: Path) -> None:
    listed = json.loads(sk("codes", "--format", "json", cwd=project).stdout)
    assert len(listed) == len(REGISTRY)
    assert all(entry["url"] is None for entry in listed)  # no Documentation URL is published
    log = json.loads(sk("check", PANEL3, "--format", "sarif", cwd=project).stdout)
    driver = log["runs"][0]["tool"]["driver"]
    assert "informationUri" not in driver and "helpUri" not in driver["rules"][0]
    junit = sk("check", PANEL3, "--format", "junit", cwd=project).stdout
    assert "http" not in junit.replace('xml version="1.0"', "")
    write(project / "sprint-kernel.toml", 'docs-url = "https://docs.example.org/kernel/"\n')
    log = json.loads(sk("check", PANEL3, "--format", "sarif", cwd=project).stdout)
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == "https://docs.example.org/kernel/"
    page = (paths.ROOT / "docs" / "codes.md").read_text("utf-8")
    for rule in driver["rules"]:
        assert rule["helpUri"] == f"https://docs.example.org/kernel/codes.md#{rule['id'].lower()}"
        assert f'<a id="{rule["id"].lower()}"></a>' in page
    junit = sk("check", PANEL3, "--format", "junit", cwd=project).stdout
    assert "https://docs.example.org/kernel/codes.md#sc-11" in junit
    for code in REGISTRY.values():
        assert f'<a id="{code.anchor}"></a>' in page


# --- pre-commit hooks ----------------------------------------------------------------------


def _hook(hook_id: str) -> dict[str, str]:
    """One hook of .pre-commit-hooks.yaml, its scalar keys (the file is flat YAML)."""
    text = (paths.ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")
    entries = text.split("\n- ")[1:]
    (entry,) = [e for e in entries if e.startswith(f"id: {hook_id}\n")]
    pairs = (line.strip().split(": ", 1) for line in entry.splitlines() if ": " in line)
    return {key: value for key, value in pairs if not key.startswith("#")}


def test_the_lint_hook_takes_phase_documents_only_and_needs_no_args() -> None:
    import re

    lint = _hook("sprint-contract-lint")
    files = re.compile(lint["files"])
    assert "args" not in lint and "types" not in lint and lint["require_serial"] == "true"
    for name in ("reviews/eic.phase1.md", "eic.phase2.md", "a/b/x.phase2.md"):
        assert files.search(name), name
    for name in ("README.md", "docs/cli.md", "eic.phase3.md", "x.phase1.md.bak"):
        assert not files.search(name), name
    assert "args" not in _hook("sprint-contract-check")
