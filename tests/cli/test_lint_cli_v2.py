"""python -m kernel.lint on 13.2 documents: the dialect comes from the contract, the seat's
role from --role or the documents, and the tags carry upstream's bracketed text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import paths

from kernel.cli.lint import main
from kernel.cli.scaffold import run

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = str(EXAMPLE / "contract.json")
ROLES = ("eic", "methodology", "domain", "perspective", "da")


def _run(argv: list[str]) -> int:
    return run(main, argv)


@pytest.mark.parametrize("role", ROLES)
def test_every_example_document_passes(role: str, capsys: pytest.CaptureFixture[str]) -> None:
    p1, p2 = str(EXAMPLE / f"{role}.phase1.md"), str(EXAMPLE / f"{role}.phase2.md")
    assert _run([p1, "--contract", CONTRACT, "--role", role]) == 0
    assert _run([p2, "--contract", CONTRACT, "--role", role, "--phase1", p1]) == 0
    assert "FAILED" not in capsys.readouterr().err


def _usage(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as exc:
        _run(argv)
    assert isinstance(exc.value.code, int)
    return exc.value.code


def test_a_13_2_document_takes_its_seat_from_its_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert _run([str(EXAMPLE / "eic.phase1.md"), "--contract", CONTRACT, "--format", "json"]) == 0
    # the Phase 2 beside it is linted with it (a Phase 1 edit is checked against its report)
    entry, partner = json.loads(capsys.readouterr().out)["files"]
    assert entry["role"] == "eic" and entry["file"].endswith("eic.phase1.md")
    assert partner["file"].endswith("eic.phase2.md") and partner["role"] == "eic"


def test_role_is_for_one_document(capsys: pytest.CaptureFixture[str]) -> None:
    docs = [str(EXAMPLE / "eic.phase1.md"), str(EXAMPLE / "da.phase1.md")]
    assert _usage([*docs, "--contract", CONTRACT, "--role", "eic"]) == 2
    assert "--role names the seat of one document" in capsys.readouterr().err


def test_a_13_contract_takes_no_role(capsys: pytest.CaptureFixture[str]) -> None:
    doc = str(paths.ROOT / "examples" / "full" / "eic.phase1.md")
    assert _usage([doc, "--contract", "reviewer/full", "--role", "eic"]) == 2


def test_a_role_outside_the_mode_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert _run([str(EXAMPLE / "eic.phase1.md"), "--contract", CONTRACT, "--role", "boss"]) == 2
    assert "[ROLE-BINDING: --role boss is invalid for reviewer_full]" in capsys.readouterr().out


def test_an_out_of_role_score_fails_with_its_tag(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (EXAMPLE / "eic.phase2.md").read_text()
    head = "### D1: methodology_rigor\n\nscore: not_assessed"
    assert head in text
    bad = tmp_path / "eic.phase2.md"
    bad.write_text(text.replace(head, head.replace("not_assessed", "pass")))
    code = _run([str(bad), "--contract", CONTRACT, "--role", "eic", "--format", "json"])
    assert code == 1
    out = json.loads(capsys.readouterr().out)
    assert out["dialect"] == "13.2"
    assert sorted(d["message"] for d in out["diagnostics"]) == [
        f"[OUT-OF-ROLE-SCORE: {bad}: role eic may not score D1] write 'score: not_assessed' (a "
        "structural abstention, with no abstain_reason)",
        "trigger binding was not checked: no Phase 1 document was given; lint the report with "
        "its seat's Phase 1 document (ROLE.phase1.md beside it, or --phase1)",
    ]


def test_the_manuscript_leak_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p1 = (EXAMPLE / "eic.phase1.md").read_text()
    sentence = "the intervention raised completion rates among first year students at both sites"
    leaked = tmp_path / "eic.phase1.md"
    leaked.write_text(p1.replace("## Scoring Plan", sentence + "\n\n## Scoring Plan"))
    manuscript = tmp_path / "paper.txt"
    manuscript.write_text("Abstract. " + sentence + " as Table 2 shows.\n")
    metadata = tmp_path / "meta.json"
    metadata.write_text('{"title": "Completion", "field": "education", "word_count": 18}')
    args = ["--contract", CONTRACT, "--role", "eic"]
    extra = ["--manuscript", str(manuscript), "--metadata", str(metadata)]
    assert _run([str(EXAMPLE / "eic.phase1.md"), *args, *extra]) == 0
    assert _run([str(leaked), *args, *extra]) == 1
    assert "[PHASE1-MANUSCRIPT-LEAK: 12-word manuscript shingle" in capsys.readouterr().out
    metadata.write_text('{"title": "Completion", "field": "education"}')
    assert _run([str(leaked), *args, *extra]) == 2
    assert (
        "[METADATA-INVALID: expected exact title/field/word_count envelope, got ['field', 'title']]"
        in capsys.readouterr().out
    )
    assert _usage([str(leaked), *args, "--manuscript", str(manuscript)]) == 2


@pytest.mark.parametrize("given", ["the folder", "the Phase 2 document"])
def test_an_unreadable_phase1_beside_a_phase2_is_e_utf8(
    given: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 38: one Latin-1 byte in the Phase 1 document beside a Phase 2 is exit 2 with
    E-UTF8 naming it, as with --phase1 and in decide; the Phase 2 is never linted alone."""
    from kernel.cli.decide import main as decide

    folder = tmp_path / "round"
    folder.mkdir()
    for role in ROLES:
        for phase in (1, 2):
            name = f"{role}.phase{phase}.md"
            (folder / name).write_bytes((EXAMPLE / name).read_bytes())
    p1 = folder / "methodology.phase1.md"
    p1.write_bytes(p1.read_bytes() + b"caf\xe9\n")
    target = folder if given == "the folder" else folder / "methodology.phase2.md"
    assert _run([str(target), "--contract", CONTRACT, "--format", "json"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert [(d["code"], d["file"]) for d in out["diagnostics"]] == [("E-UTF8", str(p1))]
    [entry] = [f for f in out["files"] if f["file"].endswith("methodology.phase2.md")] or [None]
    if entry is not None:
        assert entry["ok"] is False and "P2-127" not in json.dumps(entry)
    assert _run([str(folder / "methodology.phase2.md"), "--contract", CONTRACT]) == 2
    assert "E-UTF8" in capsys.readouterr().out
    assert run(decide, [str(folder), "--contract", CONTRACT]) == 2
