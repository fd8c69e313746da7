"""lint and decide read what they are not given: each 13.2 document's seat from the documents
(a Phase 2 report's contract_role line, a Phase 1 document's Phase 2 partner or file name),
and a Phase 2 document's Phase 1 from beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import paths

from kernel.cli.decide import main as decide_main
from kernel.cli.lint import main as lint_main
from kernel.cli.scaffold import run
from kernel.contract.model import load_contract
from kernel.reviewer.lint.seating import Claim, seat

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = str(EXAMPLE / "contract.json")
ROLES = ("eic", "methodology", "domain", "perspective", "da")


def lint(*argv: str) -> int:
    return run(lint_main, list(argv))


def decide(*argv: str) -> int:
    return run(decide_main, list(argv))


@pytest.fixture
def reviews(tmp_path: Path) -> Path:
    """examples/full-13.2's ten documents, in a folder of their own."""
    folder = tmp_path / "reviews"
    folder.mkdir()
    for path in EXAMPLE.glob("*.phase[12].md"):
        shutil.copy(path, folder / path.name)
    return folder


def files(out: str) -> dict[str, dict[str, object]]:
    return {Path(str(f["file"])).name: f for f in json.loads(out)["files"]}


def codes(out: str) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for d in json.loads(out)["diagnostics"]:
        found.setdefault(Path(d["file"]).name, []).append(d["code"])
    return found


# --- lint seats every document of a folder ---------------------------------------------------


def test_a_13_2_folder_lints_in_one_run(reviews: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lint(str(reviews), "--contract", CONTRACT, "--strict", "--format", "json") == 0
    found = files(capsys.readouterr().out)
    assert {name: f["role"] for name, f in found.items()} == {
        f"{role}.phase{n}.md": role for role in ROLES for n in (1, 2)
    }
    assert all(f["ok"] for f in found.values())


def test_the_configured_contract_is_enough(
    reviews: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = reviews.parent
    shutil.copy(CONTRACT, project / "contract.json")
    (project / "pyproject.toml").write_text(
        '[tool.sprint-kernel]\ncontract = "contract.json"\nstrict = true\n', "utf-8"
    )
    monkeypatch.chdir(project)
    assert lint("reviews") == 0
    capsys.readouterr()
    assert lint("reviews/da.phase2.md", "--format", "json") == 0  # a changed file alone
    [entry] = json.loads(capsys.readouterr().out)["files"]  # as pre-commit passes it
    assert entry["ok"] and entry["findings"] == [] and entry["phase1_from_disk"] is True


def test_a_phase1_takes_its_partners_seat_whatever_its_name(
    reviews: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in (1, 2):
        (reviews / f"eic.phase{n}.md").rename(reviews / f"chief.phase{n}.md")
    assert lint(str(reviews), "--contract", CONTRACT, "--format", "json") == 0
    found = files(capsys.readouterr().out)
    assert found["chief.phase1.md"]["role"] == found["chief.phase2.md"]["role"] == "eic"


def test_a_phase1_no_seat_takes_is_a_finding(
    reviews: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (reviews / "eic.phase1.md").rename(reviews / "chair.phase1.md")
    assert lint(str(reviews), "--contract", CONTRACT, "--format", "json") == 1
    out = capsys.readouterr().out
    assert codes(out) == {"chair.phase1.md": ["P1-120"], "eic.phase2.md": ["P2-127"]}
    findings = json.loads(out)["diagnostics"]
    assert "its name 'chair' is not a role of reviewer_full" in findings[0]["message"]
    assert files(out)["chair.phase1.md"]["role"] is None


def test_two_reports_on_one_seat_are_each_a_finding(
    reviews: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(reviews / "eic.phase2.md", reviews / "another.phase2.md")
    assert lint(str(reviews), "--contract", CONTRACT, "--format", "json") == 1
    found = codes(capsys.readouterr().out)
    assert found["another.phase2.md"] == ["P2-127", "P2-140"]
    assert found["eic.phase2.md"] == ["P2-140"]
    assert lint(str(reviews), "--contract", CONTRACT) == 1
    out = capsys.readouterr().out
    tag = "P2-140 [PANEL-CARDINALITY: duplicate roles ['eic']]"
    assert f"{reviews}/eic.phase2.md:1:1: {tag}" in out


def test_two_phase1_documents_on_one_seat_are_each_a_finding(
    reviews: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (reviews / "eic.phase2.md").rename(reviews / "chief.phase2.md")  # still declares eic
    shutil.copy(reviews / "eic.phase1.md", reviews / "chief.phase1.md")
    assert lint(str(reviews), "--contract", CONTRACT, "--format", "json") == 1
    found = codes(capsys.readouterr().out)
    assert found == {"chief.phase1.md": ["P1-121"], "eic.phase1.md": ["P1-121"]}


def test_a_role_the_mode_lacks_is_a_finding(
    reviews: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p2 = reviews / "da.phase2.md"
    p2.write_text(p2.read_text("utf-8").replace("contract_role: da", "contract_role: chair"))
    assert lint(str(reviews), "--contract", CONTRACT, "--format", "json") == 1
    found = codes(capsys.readouterr().out)
    assert "P2-105" in found["da.phase2.md"]
    assert "da.phase1.md" not in found  # seated by its name instead


def test_role_still_overrides_for_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    doc = str(EXAMPLE / "da.phase2.md")
    assert lint(doc, "--contract", CONTRACT, "--role", "eic", "--format", "json") == 1
    assert "P2-106" in codes(capsys.readouterr().out)["da.phase2.md"]


# --- partners read from disk ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("folder", "contract"),
    [(paths.ROOT / "examples" / "full", "reviewer/full"), (EXAMPLE, CONTRACT)],
)
def test_a_phase2_alone_is_read_with_its_phase1(
    folder: Path, contract: str, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = str(folder / "eic.phase2.md")
    assert lint(doc, "--contract", contract, "--strict", "--format", "json") == 0
    [entry] = json.loads(capsys.readouterr().out)["files"]
    assert entry["phase1_file"] == str(folder / "eic.phase1.md")
    assert entry["phase1_from_disk"] is True and entry["consistency_checked"] is True
    assert lint(doc, "--contract", contract, "--verbose") == 0
    out = capsys.readouterr().out
    assert f"{doc}: read with {folder / 'eic.phase1.md'}, found beside it" in out


def test_a_phase2_with_no_phase1_beside_it_is_linted_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "da.phase2.md"
    shutil.copy(EXAMPLE / "da.phase2.md", doc)
    assert lint(str(doc), "--contract", CONTRACT, "--format", "json") == 0
    [entry] = json.loads(capsys.readouterr().out)["files"]
    assert "phase1_file" not in entry and entry["consistency_checked"] is False
    assert lint(str(doc), "--contract", CONTRACT, "--strict") == 1
    assert "P2-127" in capsys.readouterr().out


def test_decide_reads_each_phase1_from_beside_its_phase2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    reports = [str(EXAMPLE / f"{role}.phase2.md") for role in ROLES]
    assert decide(*reports, "--contract", CONTRACT, "--format", "json") == 0
    body = json.loads(capsys.readouterr().out)
    assert body["action"] == "editorial_decision=major_revision"
    assert [(s["phase1_file"], s["phase1_from_disk"]) for s in body["seats"]] == [
        (str(EXAMPLE / f"{role}.phase1.md"), True) for role in sorted(ROLES)
    ]
    assert decide(*reports, "--contract", CONTRACT, "-v") == 0
    assert capsys.readouterr().out.count("found beside it") == 5


def test_decide_still_refuses_a_phase2_with_no_phase1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = tmp_path / "da.phase2.md"
    shutil.copy(EXAMPLE / "da.phase2.md", doc)
    with pytest.raises(SystemExit) as exc:
        decide(str(doc), "--contract", CONTRACT)
    assert exc.value.code == 2
    assert f"{tmp_path}/da.phase1.md is neither given nor there" in capsys.readouterr().err


# --- the seating rule itself ---------------------------------------------------------------


def test_seat_rule() -> None:
    contract = load_contract(CONTRACT)
    seating = seat(
        contract,
        [
            Claim("a.phase2.md", 2, "eic"),
            Claim("a.phase1.md", 1, "a", partner="a.phase2.md"),
            Claim("da.phase1.md", 1, "da"),
            Claim("x.phase1.md", 1, "x"),
            Claim("y.phase2.md", 2, None),
            Claim("y.phase1.md", 1, "domain", partner="y.phase2.md"),
        ],
    )
    assert dict(seating.roles) == {
        "a.phase2.md": "eic",
        "a.phase1.md": "eic",
        "da.phase1.md": "da",
        "x.phase1.md": None,
        "y.phase2.md": None,
        "y.phase1.md": "domain",
    }
    assert {n: [f.code for f in found] for n, found in seating.findings.items()} == {
        "x.phase1.md": ["P1-120"]
    }


def test_an_excluded_phase1_is_not_read_from_disk(
    reviews: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = reviews.parent
    (project / "sprint-kernel.toml").write_text(
        f'contract = "{CONTRACT}"\nexclude = ["reviews/da.phase1.md"]\n', "utf-8"
    )
    monkeypatch.chdir(project)
    assert lint("reviews/da.phase2.md", "--format", "json") == 0
    [entry] = json.loads(capsys.readouterr().out)["files"]
    assert "phase1_file" not in entry and [f["code"] for f in entry["findings"]] == ["P2-127"]
    assert lint("reviews/eic.phase2.md", "--format", "json") == 0
    [entry] = json.loads(capsys.readouterr().out)["files"]
    assert entry["phase1_from_disk"] is True
