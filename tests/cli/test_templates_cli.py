"""sprint-kernel templates and init: the shipped templates from the command line, and a
project started from one; an unknown template name names the closest ones."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from support import paths

from kernel.cli.check import main as check_main
from kernel.cli.init import main as init_main
from kernel.cli.main import main as sprint_kernel
from kernel.cli.scaffold import run
from kernel.cli.templates import main as templates_main
from kernel.contract.model import load_contract
from kernel.contract.templates import TEMPLATE_NAMES, shipped_template, template_is_pristine
from kernel.errors import ContractError, ContractInputError


def templates(*argv: str) -> int:
    return run(templates_main, list(argv))


def init(*argv: str) -> int:
    return run(init_main, list(argv))


def test_templates_lists_every_shipped_template(capsys: pytest.CaptureFixture[str]) -> None:
    assert templates() == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["template", "dialect", "mode", "panel"]
    listed = {line.split()[0]: line.split()[1:] for line in out[1:]}
    assert list(listed) == list(TEMPLATE_NAMES)
    assert listed["reviewer/full"] == ["13", "reviewer_full", "5"]
    assert listed["13.2/reviewer/methodology_focus"] == ["13.2", "reviewer_methodology_focus", "2"]
    assert listed["13.2/writer/full"] == ["13.2", "writer_full", "-"]
    assert templates("list", "--format", "json") == 0
    rows = json.loads(capsys.readouterr().out)
    assert templates("--format", "json") == 0
    assert json.loads(capsys.readouterr().out) == rows
    schema = json.loads(
        (paths.ROOT / "kernel" / "data" / "output" / "templates.schema.json").read_text("utf-8")
    )
    Draft202012Validator.check_schema(schema)
    assert list(Draft202012Validator(schema).iter_errors(rows)) == []
    for row in rows:  # each row says what loading the template says
        contract = load_contract(row["name"])
        assert (row["dialect"], row["mode"]) == (contract.dialect, contract.mode)


@pytest.mark.parametrize("name", TEMPLATE_NAMES)
def test_show_prints_the_template_as_it_ships(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert templates("show", name) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == shipped_template(name)
    assert template_is_pristine(name)  # so out is the pinned file, byte for byte


def test_an_unknown_name_names_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    assert templates("show", "reviewer/quick") == 2
    err = capsys.readouterr().err
    assert "no shipped template named 'reviewer/quick'" in err
    assert err.rstrip().endswith("; did you mean 'reviewer/full'?")
    with pytest.raises(ContractError, match=r"did you mean '13\.2/writer/full'"):
        shipped_template("writer/full")
    with pytest.raises(ContractError) as error:
        shipped_template("zzz")
    assert "did you mean" not in error.value.message


def test_check_and_load_contract_suggest_a_template_for_a_missing_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(check_main, ["reviewer/quick"]) == 1
    out = capsys.readouterr().out
    assert "reviewer/quick:1:1: E-READ no such file and no template of that name" in out
    with pytest.raises(ContractInputError, match=r"did you mean '13\.2/reviewer/full'"):
        load_contract("13.2/reviewer/fulll")
    with pytest.raises(ContractInputError) as error:
        load_contract("no/such/contract.json")
    assert error.value.message == "no/such/contract.json: no such file"


def test_the_commands_are_on_the_console_script(capsys: pytest.CaptureFixture[str]) -> None:
    assert sprint_kernel(["--help"]) == 0
    out = capsys.readouterr().out
    assert "  templates " in out and "  init " in out


# --- init ------------------------------------------------------------------------------------


def test_init_writes_a_contract_and_its_own_configuration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert init() == 0
    assert capsys.readouterr().out == (
        "wrote contracts/sprint.json: 13.2/reviewer/full (dialect 13.2, reviewer_full)\n"
        'wrote sprint-kernel.toml: contract = "contracts/sprint.json"\n'
    )
    assert json.loads((tmp_path / "contracts" / "sprint.json").read_text("utf-8")) == (
        shipped_template("13.2/reviewer/full")
    )
    config = tomllib.loads((tmp_path / "sprint-kernel.toml").read_text("utf-8"))
    assert config == {"contract": "contracts/sprint.json"}
    assert run(check_main, ["--strict"]) == 0  # check takes the configured contract
    assert capsys.readouterr().out.endswith("All checks passed.\n")


def test_init_adds_the_table_to_a_pyproject(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "x"', "utf-8")  # no final LF
    args = (str(project), "--template", "reviewer/methodology_focus", "--contract-file", "c.json")
    assert init(*args) == 0
    data = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))
    assert data == {"project": {"name": "x"}, "tool": {"sprint-kernel": {"contract": "c.json"}}}
    assert load_contract(str(project / "c.json")).mode == "reviewer_methodology_focus"
    capsys.readouterr()
    (project / "c.json").unlink()
    assert init(*args) == 2  # the table is there already
    assert "has a [tool.sprint-kernel] table already" in capsys.readouterr().err
    assert not (project / "c.json").exists()  # nothing written


def test_init_overwrites_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "contracts").mkdir()
    (tmp_path / "contracts" / "sprint.json").write_text("mine", "utf-8")
    assert init(str(tmp_path)) == 2
    assert "contracts/sprint.json exists; init overwrites nothing" in capsys.readouterr().err
    assert (tmp_path / "contracts" / "sprint.json").read_text("utf-8") == "mine"
    assert not (tmp_path / "sprint-kernel.toml").exists()
    (tmp_path / "sprint-kernel.toml").write_text("strict = true\n", "utf-8")
    assert init(str(tmp_path), "--contract-file", "other.json") == 2
    assert not (tmp_path / "other.json").exists()
    assert (tmp_path / "sprint-kernel.toml").read_text("utf-8") == "strict = true\n"


def test_init_refuses_an_unknown_template(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        init(str(tmp_path), "--template", "writer/full")
    assert exc.value.code == 2
    assert "did you mean '13.2/writer/full'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# --- init --reviews / --pre-commit -------------------------------------------------------------


@pytest.mark.parametrize(
    ("template", "ars", "names"),
    [
        ("13.2/reviewer/full", None, ["eic", "methodology", "domain", "perspective", "da"]),
        ("13.2/reviewer/methodology_focus", "fork", ["eic", "methodology"]),
        ("reviewer/full", None, [f"reviewer{j}" for j in range(1, 6)]),
    ],
)
def test_init_writes_a_starter_round_that_lints_and_decides(
    template: str,
    ars: str | None,
    names: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from kernel.cli.decide import main as decide_main
    from kernel.cli.lint import main as lint_main

    monkeypatch.chdir(tmp_path)
    assert init("--template", template, "--reviews", *(("--ars", ars) if ars else ())) == 0
    expected = [f"{n}.phase{k}.md" for n in names for k in (1, 2)] + ["synthesis.md"]
    assert sorted(p.name for p in (tmp_path / "reviews").iterdir()) == sorted(expected)
    out = capsys.readouterr().out
    assert out.endswith("wrote reviews/synthesis.md\n")
    config = tomllib.loads((tmp_path / "sprint-kernel.toml").read_text("utf-8"))
    assert config == {"contract": "contracts/sprint.json", **({"ars": ars} if ars else {})}
    assert run(lint_main, ["reviews", "--strict"]) == 0
    assert capsys.readouterr().out == "All checks passed.\n"
    assert run(decide_main, ["reviews", "--synthesis", "reviews/synthesis.md"]) == 0
    assert capsys.readouterr().out.startswith("decision: editorial_decision=accept")


def test_init_writes_a_pre_commit_configuration_of_the_package_hooks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import yaml  # pre-commit's own dependency (the test extra)

    assert init(str(tmp_path), "--pre-commit", "--format", "json") == 0
    body = json.loads(capsys.readouterr().out)
    assert body["files"] == [str(tmp_path / ".pre-commit-config.yaml")]
    written = yaml.safe_load((tmp_path / ".pre-commit-config.yaml").read_text("utf-8"))
    offered = yaml.safe_load((paths.ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    (repo,) = written["repos"]
    assert repo["repo"] == "local"
    keys = ("id", "entry", "files", "types", "require_serial")
    assert [{k: h.get(k) for k in keys} for h in repo["hooks"]] == [
        {k: h.get(k) for k in keys} for h in offered
    ]
    assert {h["language"] for h in repo["hooks"]} == {"system"}


def test_init_refuses_a_starter_file_that_exists_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "reviews").mkdir()
    (tmp_path / "reviews" / "da.phase2.md").write_text("mine", "utf-8")
    assert init(str(tmp_path), "--reviews", "--pre-commit") == 2
    assert "reviews/da.phase2.md exists; init overwrites nothing" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["da.phase2.md", "reviews"]
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", "utf-8")
    assert init(str(tmp_path), "--pre-commit") == 2
    assert ".pre-commit-config.yaml exists" in capsys.readouterr().err
    assert not (tmp_path / "contracts").exists()
    assert init(str(tmp_path), "--template", "13.2/writer/full", "--reviews", "r") == 2
    assert "13.2/writer/full (writer_full) seats no reviewers" in capsys.readouterr().err
