"""A refusal's protocol tag is printed once, by every command, in both dialects (issue 31).

Each case runs a command line that refuses with a tag and scans everything it printed, in text
and in JSON: the tag occurs exactly once in the text output, and once in the JSON ``tags``
(or in one finding's message, for commands with no ``tags`` key)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support import paths

from kernel import shipped_template
from kernel.cli import main as cli_main

E = paths.EXAMPLES
FULL_13_2 = E / "full-13.2"
ROLES = ("eic", "methodology", "domain", "perspective", "da")
TAG = re.compile(r"\[[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+[:\]]")


def _matrix_13_2(**changes: dict[str, str]) -> dict[str, dict[str, str]]:
    contract = json.loads((FULL_13_2 / "contract.json").read_text("utf-8"))
    out = {
        d["id"]: {r: "pass" if r in d["eligible_roles"] else "not_assessed" for r in ROLES}
        for d in contract["acceptance_dimensions"]
    }
    for dimension, seats in changes.items():
        out[dimension] = {**out[dimension], **seats}
    return out


def _inputs(tmp: Path) -> dict[str, str]:
    """The broken inputs, written once per test."""
    contract = json.loads((FULL_13_2 / "contract.json").read_text("utf-8"))
    dropped = {d: {r: v for r, v in s.items() if r != "da"} for d, s in _matrix_13_2().items()}
    bad13 = shipped_template("reviewer/methodology_focus")
    bad13["failure_conditions"][2]["expression"] = "D1 passes"
    files: dict[str, Any] = {
        "ineligible.json": {**contract, "panel_size": 4},
        "unassessed.json": _matrix_13_2(D1={"methodology": "not_assessed"}),
        "out_of_role.json": _matrix_13_2(D1={"eic": "pass"}),
        "dropped.json": dropped,
        "extra.json": _matrix_13_2(D1={"chair": "pass"}),
        "bad13.json": bad13,
        "matrix13.json": {"D1": ["pass", "pass"], "D2": ["pass", "pass"]},
    }
    for name, value in files.items():
        (tmp / name).write_text(json.dumps(value), "utf-8")
    (tmp / "lines.jsonl").write_text(
        json.dumps(_matrix_13_2()) + "\n" + json.dumps(_matrix_13_2(D1={"eic": "pass"})) + "\n",
        "utf-8",
    )
    return {name.split(".")[0]: str(tmp / name) for name in [*files, "lines.jsonl"]}


C132 = str(FULL_13_2 / "contract.json")

#: (argv with {name} placeholders, the tag it must print once).
CASES: list[tuple[tuple[str, ...], str]] = [
    # dialect 13.2
    (("decide", "--contract", C132, "--matrix", "{unassessed}"), "[DIMENSION-UNASSESSED: D1]"),
    (
        ("decide", "--contract", C132, "--matrix", "{out_of_role}"),
        "[OUT-OF-ROLE-SCORE: role eic may not score D1]",
    ),
    (("decide", "--contract", C132, "--matrix", "{dropped}"), "[PANEL-CARDINALITY: roles"),
    (("decide", "--contract", C132, "--matrix", "{extra}"), "[PANEL-CARDINALITY: roles"),
    (("decide", "--contract", "{ineligible}", "--matrix", "{unassessed}"), "[CONTRACT-INELIGIBLE"),
    (("decide", "--contract", "{ineligible}", str(FULL_13_2)), "[CONTRACT-INELIGIBLE"),
    (("check", "{ineligible}"), "[CONTRACT-INELIGIBLE"),
    (("analyze", "{ineligible}"), "[CONTRACT-INELIGIBLE"),
    (("lint", "--contract", "{ineligible}", str(FULL_13_2)), "[CONTRACT-INELIGIBLE"),
    (
        ("lint", "--contract", C132, "--role", "chair", str(FULL_13_2 / "eic.phase1.md")),
        "[ROLE-BINDING: --role chair",
    ),
    (
        ("decide", "--contract", C132, "--roles", "eic,da", str(FULL_13_2)),
        "[ROLE-BINDING: --roles count=2",
    ),
    # dialect 13
    (
        ("decide", "--contract", "reviewer/full", "--matrix", str(E / "full_shrunk.json")),
        "[PANEL-SHRUNK: usable=4, panel_size=5]",
    ),
    (("decide", "--contract", "{bad13}", "--matrix", "{matrix13}"), "[EXPRESSION-UNRECOGNISED"),
    (("check", "{bad13}"), "[EXPRESSION-UNRECOGNISED"),
    (("analyze", "{bad13}"), "[EXPRESSION-UNRECOGNISED"),
]


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    try:
        code = cli_main.main(argv)
    except SystemExit as exc:  # a usage error
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.parametrize(("argv", "tag"), CASES, ids=[" ".join(a[:1]) + f"-{t}" for a, t in CASES])
def test_a_refusal_prints_its_tag_once(
    argv: tuple[str, ...], tag: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [a.format(**_inputs(tmp_path)) for a in argv]
    code, text = _run(capsys, args)
    assert code != 0, text
    assert text.count(tag) == 1, text
    code, printed = _run(capsys, [*args, "--format", "json"])
    assert code != 0
    if code == 2 and not printed.startswith("{"):  # a usage error is a line on stderr
        assert printed.count(tag) == 1, printed
        return
    body = json.loads(printed)
    tags = [t for t in body.get("tags", []) if t.startswith(tag)]
    found = body.get("diagnostics", body.get("findings", []))
    messages = [d["message"] for d in found if tag in d["message"]]
    assert len(tags) == 1 or (not tags and len(messages) == 1), printed


def test_the_jsonl_batch_names_the_tag_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = _inputs(tmp_path)
    code, text = _run(capsys, ["decide", "--contract", C132, "--matrix", names["lines"]])
    assert code == 1
    assert text.count("[OUT-OF-ROLE-SCORE: role eic may not score D1]") == 1, text


@pytest.mark.parametrize("dialect", ["13", "13.2"])
def test_every_text_refusal_has_each_tag_once(
    dialect: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No tag of any kind is printed twice by a refusing case of the dialect."""
    ran = 0
    for argv, _ in CASES[:11] if dialect == "13.2" else CASES[11:]:
        code, text = _run(capsys, [a.format(**_inputs(tmp_path)) for a in argv])
        found = [m.start() for m in TAG.finditer(text)]
        tags = [text[i : text.index("]", i) + 1] for i in found]
        assert code != 0 and tags, text
        assert len(tags) == len(set(tags)), text
        ran += 1
    assert ran >= 4


def test_the_library_error_keeps_its_tag_off_the_message() -> None:
    """``str(error)`` says what is wrong; the tag is on ``.tag`` (printed once by the CLI)."""
    import attrs

    from kernel import load_contract
    from kernel.decision.decision import decide
    from kernel.errors import ContractError

    contract = attrs.evolve(load_contract(C132), panel_size=4)
    with pytest.raises(ContractError) as info:
        decide(contract, _matrix_13_2())
    assert info.value.tag == (
        "[CONTRACT-INELIGIBLE: panel_size=4 inconsistent with mode=reviewer_full; expected 5]"
    )
    assert info.value.tag not in info.value.message
    assert "panel_size=4 inconsistent with mode=reviewer_full" in info.value.message
    assert str(info.value) == f"{info.value.message} {info.value.tag}"


@pytest.mark.parametrize(
    "argv",
    [
        ("analyze", "{ineligible}"),
        ("analyze", C132, "--diff", "{ineligible}"),
        ("lint", "--contract", "{ineligible}", str(FULL_13_2)),
        ("lint", "--contract", "{ineligible}", "--role", "eic", str(FULL_13_2 / "eic.phase1.md")),
        ("decide", "--contract", "{ineligible}", "--matrix", "{unassessed}"),
        ("decide", "--contract", "{ineligible}", str(FULL_13_2)),
    ],
)
def test_every_command_reports_an_ineligible_contract_as_check_does(
    argv: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Same code (E-INELIGIBLE), same position, the tag once, whichever command reads it."""
    names = _inputs(tmp_path)
    code, printed = _run(capsys, ["check", names["ineligible"], "--format", "json"])
    assert code == 1
    (expected,) = json.loads(printed)["diagnostics"]
    assert expected["code"] == "E-INELIGIBLE" and expected["line"] == 1
    code, printed = _run(capsys, [*(a.format(**names) for a in argv), "--format", "json"])
    assert code == 1
    assert json.loads(printed)["diagnostics"] == [expected]
