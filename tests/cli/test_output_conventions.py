"""The output conventions (docs/cli.md), held for every registered subcommand in every format.

Each subcommand the command line registers (``kernel.cli.main.COMMANDS`` and the subcommands
of each group) must have cases in :data:`CASES`, run on the one shared set of inputs in
``examples/`` (plus a few broken inputs written once, :func:`inputs`). A subcommand added
without cases fails :func:`test_every_registered_subcommand_has_cases`; one that prints
elsewhere, leaves a finding without a position, ends without the summary line, ignores
``--exit-zero`` or ``--strict``, or disagrees between formats fails the tests below.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import attrs
import pytest
from support import paths
from support.output_schemas import check_output, schema_name

from kernel.cli import main as cli_main
from kernel.cli import scaffold
from kernel.cli.scaffold import FORMATS

E = paths.EXAMPLES
SUMMARY = re.compile(r"^Found \d+ errors? and \d+ warnings? in \d+ files?\.$")
PASSED = "All checks passed."


@attrs.frozen
class Case:
    """``argv`` (``{tmp}`` is the shared directory of broken inputs) and what it finds:
    ``clean`` (no error or warning, exit 0), ``warn`` (warnings only, exit 0), ``fail``
    (exit 1 with an error finding), or ``listing`` (a command that judges nothing)."""

    argv: tuple[str, ...]
    kind: str


def _c(kind: str, *argv: str) -> Case:
    return Case(argv, kind)


#: command path → its cases, on the shared inputs.
CASES: dict[str, list[Case]] = {
    "check": [
        _c("clean", "check", "reviewer/full"),
        _c("warn", "check", str(E / "contract_panel3.json")),
        _c("fail", "check", str(E / "contract_typo.json"), "reviewer/full"),
    ],
    "lint": [
        _c(
            "clean",
            "lint",
            str(E / "full" / "eic.phase1.md"),
            str(E / "full" / "eic.phase2.md"),
            "--contract",
            "reviewer/full",
        ),
        _c("warn", "lint", "{tmp}/alone.phase2.md", "--contract", "reviewer/full"),
        _c("fail", "lint", "{tmp}/bad.phase2.md", "--contract", "reviewer/full"),
        _c("fail", "lint", str(E / "full" / "eic.phase2.md"), "--contract", "{tmp}/typo.json"),
    ],
    "decide": [
        _c(
            "clean",
            "decide",
            "--contract",
            "reviewer/full",
            "--matrix",
            str(E / "full_reject.json"),
        ),
        _c("clean", "decide", "--contract", "reviewer/full", str(E / "full")),
        _c(
            "clean",
            "decide",
            "--contract",
            str(E / "full-13.2" / "contract.json"),
            str(E / "full-13.2"),
        ),
        _c(
            "fail", "decide", "--contract", "reviewer/full", "--matrix", str(E / "full_shrunk.json")
        ),
        _c(
            "fail",
            "decide",
            "--contract",
            "{tmp}/typo.json",
            "--matrix",
            str(E / "full_reject.json"),
        ),
    ],
    "analyze": [
        _c("warn", "analyze", "reviewer/full"),
        _c("clean", "analyze", "reviewer/full", "--diff", str(E / "full_f2_any.json")),
        _c("fail", "analyze", "{tmp}/typo.json"),
    ],
    "migrate": [
        _c("warn", "migrate", "reviewer/methodology_focus"),
        _c("fail", "migrate", "13.2/reviewer/full"),
    ],
    "arena verdict": [
        _c("clean", "arena", "verdict", str(E / "arena" / "review.md")),
        _c("fail", "arena", "verdict", str(E / "panel" / "agent.md")),
    ],
    "arena conformance": [
        _c("clean", "arena", "conformance", str(E / "arena" / "run.jsonl")),
        _c("fail", "arena", "conformance", str(E / "panel" / "session.jsonl")),
    ],
    "consensus parse": [
        _c(
            "warn",
            "consensus",
            "parse",
            str(E / "consensus" / "critique.txt"),
            "--kind",
            "critique",
        ),
        _c(
            "fail",
            "consensus",
            "parse",
            str(E / "consensus" / "critique.txt"),
            "--kind",
            "critique",
            "--strict-json",
        ),
    ],
    "consensus round": [
        _c("warn", "consensus", "round", str(E / "consensus" / "round.json")),
        _c("fail", "consensus", "round", "{tmp}/round.json"),
    ],
    "panel resolve": [
        _c("clean", "panel", "resolve", str(E / "panel" / "votes.json")),
        _c("fail", "panel", "resolve", str(E / "panel" / "findings.json")),
    ],
    "panel scan": [
        _c("clean", "panel", "scan", str(E / "arena" / "review.md")),
        _c("fail", "panel", "scan", str(E / "panel" / "agent.md")),
    ],
    "panel route": [
        _c("warn", "panel", "route", str(E / "panel" / "findings.json")),
        _c("fail", "panel", "route", str(E / "panel" / "findings.json"), "--profile", "strategy"),
    ],
    "panel delta": [
        _c(
            "clean",
            "panel",
            "delta",
            str(E / "panel" / "changed.txt"),
            str(E / "panel" / "findings.json"),
        ),
        _c("fail", "panel", "delta", "{tmp}/changed.txt", str(E / "panel" / "findings.json")),
    ],
    "panel audit": [
        _c("clean", "panel", "audit", str(E / "panel" / "session.jsonl")),
        _c("fail", "panel", "audit", str(E / "panel" / "session_illegal.jsonl")),
    ],
    "re-review": [
        _c("clean", "re-review", str(E / "re-review" / "accept")),
        _c("fail", "re-review", str(E / "re-review" / "aborted-manifest-hash-mismatch")),
    ],
    "codes": [_c("listing", "codes"), _c("listing", "codes", "P2-043", "SC-11")],
    "rule": [_c("listing", "rule", "SC-11"), _c("listing", "rule", "P2-043", "E-READ")],
    "templates list": [_c("listing", "templates", "list")],
    "templates show": [_c("listing", "templates", "show", "13.2/reviewer/full")],
    "init": [_c("listing", "init", "{new}")],  # {new}: a new directory for each run
}


class _Captured(Exception):
    def __init__(self, parser: Any) -> None:
        self.parser = parser


def registered() -> list[str]:
    """Every command path the command line registers: each command, and for a group
    (``arena``, ``panel`` …) each of its subcommands, read from the parser it builds."""
    import importlib

    found = []
    for name, (module, _) in cli_main.COMMANDS.items():

        def capture(self: Any, *args: Any, **kwargs: Any) -> Any:
            raise _Captured(self)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(scaffold.Parser, "parse_args", capture)
            patch.setattr(scaffold.Parser, "parse_intermixed_args", capture)
            try:
                importlib.import_module(module).main([])
            except _Captured as got:
                parser = got.parser
        subs = [a for a in parser._actions if a.dest == "command" and a.choices]
        if subs:
            found += [f"{name} {sub}" for sub in subs[0].choices]
        else:
            found.append(name)
    return found


def test_every_registered_subcommand_has_cases() -> None:
    missing = sorted(set(registered()) - set(CASES))
    assert missing == [], f"add cases for {missing} to CASES (docs/cli.md, output conventions)"
    assert sorted(CASES) == sorted(registered()), "CASES names a command that is not registered"
    for path, cases in CASES.items():
        kinds = {c.kind for c in cases}
        assert kinds == {"listing"} or "fail" in kinds, f"{path}: give a failing case too"


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The broken inputs the shared examples lack, written once."""
    tmp = tmp_path_factory.mktemp("shared")
    text = (E / "full" / "eic.phase2.md").read_text("utf-8")
    (tmp / "bad.phase2.md").write_text(text.replace("score: ", "score: meh", 1), "utf-8")
    (tmp / "alone.phase2.md").write_text(text, "utf-8")  # no alone.phase1.md: P2-043
    (tmp / "typo.json").write_text((E / "contract_typo.json").read_text("utf-8"), "utf-8")
    round_doc = json.loads((E / "consensus" / "round.json").read_text("utf-8"))
    (tmp / "round.json").write_text(json.dumps({**round_doc, "participants": 1}), "utf-8")
    (tmp / "changed.txt").write_text("a.py\n../outside.py\n", "utf-8")
    return tmp


def _cases() -> list[Any]:
    return [
        pytest.param(path, case, id=f"{path}-{case.kind}-{i}")
        for path, cases in CASES.items()
        for i, case in enumerate(cases)
    ]


def _formats(case: Case) -> tuple[str, ...]:
    return ("text", "json") if case.kind == "listing" else FORMATS


def _run(
    capsys: pytest.CaptureFixture[str], case: Case, tmp: Path, *extra: str
) -> tuple[int, str, str]:
    import tempfile

    argv = [a.replace("{tmp}", str(tmp)) for a in case.argv]
    argv = [tempfile.mkdtemp(dir=tmp) if a == "{new}" else a for a in argv]
    try:
        code = cli_main.main([*argv, *extra])
    except SystemExit as exc:  # argparse's usage error
        code = exc.code if isinstance(exc.code, int) else 2
    out, err = capsys.readouterr()
    return code, out, err


def _positions(out: str) -> list[tuple[str, int, int, str]]:
    body = json.loads(out)
    return [(d["file"], d["line"], d["column"], d["code"]) for d in body["diagnostics"]]


@pytest.mark.parametrize(("path", "case"), _cases())
def test_streams_exit_codes_and_summary(
    path: str, case: Case, inputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = 1 if case.kind == "fail" else 0
    for fmt in _formats(case):
        code, out, err = _run(capsys, case, inputs, "--format", fmt)
        assert (code, err) == (expected, ""), (fmt, code, err)  # stderr: the tool's failures only
        assert out.strip() or (fmt == "github" and case.kind == "clean"), fmt
    if case.kind == "listing":
        return
    code, out, _ = _run(capsys, case, inputs)
    last = out.splitlines()[-1]
    if case.kind == "clean":
        assert last == PASSED
    else:
        assert SUMMARY.match(last), last
    assert (last == PASSED) is (case.kind == "clean")
    # --exit-zero: findings reported, the run exits 0; --strict: a warning fails it
    code, zeroed, err = _run(capsys, case, inputs, "--exit-zero")
    assert (code, zeroed, err) == (0, out, "")
    code, strict, err = _run(capsys, case, inputs, "--strict")
    assert code == (0 if case.kind == "clean" else 1) and err == ""
    said = [ln for ln in strict.splitlines() if not re.search(r":\d+:\d+: [A-Z]", ln)]
    assert code == 0 or not any(re.search(r"\bOK\b", ln) for ln in said)  # no "OK" on failure
    assert strict.splitlines()[-1] == last
    assert _run(capsys, case, inputs, "--strict", "--exit-zero")[0] == 0
    code, quiet, _ = _run(capsys, case, inputs, "--quiet")
    assert PASSED not in quiet and not any(SUMMARY.match(ln) for ln in quiet.splitlines())


@pytest.mark.parametrize(("path", "case"), _cases())
def test_every_finding_has_one_position_in_every_format(
    path: str, case: Case, inputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if case.kind == "listing":
        _, out, _ = _run(capsys, case, inputs, "--format", "json")
        check_output(schema_name(f"sprint-kernel {path}"), out)
        return
    _, out, _ = _run(capsys, case, inputs, "--format", "json")
    found = _positions(out)
    assert found or case.kind == "clean"
    for file, line, column, _ in found:
        assert file and line >= 1 and column >= 1
    _, text, _ = _run(capsys, case, inputs, "--format", "text")
    for file, line, column, rule in found:
        assert f"{file}:{line}:{column}: {rule} " in text
    _, sarif, _ = _run(capsys, case, inputs, "--format", "sarif")
    results = json.loads(sarif)["runs"][0]["results"]
    assert [
        (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
        )
        for r in results
    ] == [(c, line, column) for _, line, column, c in found]
    _, github, _ = _run(capsys, case, inputs, "--format", "github")
    assert [
        (int(m[1]), int(m[2]), m[3])
        for m in re.finditer(r",line=(\d+),col=(\d+)(?:,[a-zA-Z]+=\d+)*,title=([^:]+)::", github)
    ] == [(line, column, c) for _, line, column, c in found]
    _, junit, _ = _run(capsys, case, inputs, "--format", "junit")
    cases = ElementTree.fromstring(junit).iter("testcase")
    named = [c.get("name", "") for c in cases if c.get("name") != "no findings"]
    assert sorted(named) == sorted(f"{c} at {line}:{column}" for _, line, column, c in found)
    _, gitlab, _ = _run(capsys, case, inputs, "--format", "gitlab")
    assert [(g["check_name"], g["location"]["lines"]["begin"]) for g in json.loads(gitlab)] == [
        (c, line) for _, line, _, c in found
    ]


@pytest.mark.parametrize(("path", "case"), _cases())
def test_json_fits_the_commands_shipped_schema(
    path: str, case: Case, inputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Also done for every test by tests/conftest.py; here each command is named."""
    _, out, _ = _run(capsys, case, inputs, "--format", "json")
    check_output(schema_name(f"sprint-kernel {path}"), out)
    if case.kind != "listing":
        _, stats, _ = _run(capsys, case, inputs, "--format", "json", "--statistics")
        check_output("statistics", stats)


@pytest.mark.parametrize(("path", "case"), _cases())
def test_usage_errors_go_to_stderr_alone(
    path: str, case: Case, inputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, case, inputs, "--no-such-option")
    assert (code, out) == (2, "") and "error:" in err


@pytest.mark.parametrize(
    ("env", "flag", "coloured"),
    [
        ({}, "always", True),
        ({}, "never", False),
        ({}, "auto", False),  # piped (captured): plain
        ({"FORCE_COLOR": "1"}, "auto", True),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, "auto", False),
        ({"NO_COLOR": "1"}, "always", True),  # the flag wins
    ],
)
def test_colour(
    env: dict[str, str],
    flag: str,
    coloured: bool,
    inputs: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in ("FORCE_COLOR", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    for case in (CASES["check"][2], CASES["panel scan"][1], CASES["lint"][1]):
        _, out, _ = _run(capsys, case, inputs, "--color", flag)
        assert ("\x1b[" in out) is coloured
        plain = re.sub(r"\x1b\[[0-9;]*m", "", out)
        _, expected, _ = _run(capsys, case, inputs, "--color", "never")
        assert plain == expected
        _, as_json, _ = _run(capsys, case, inputs, "--color", flag, "--format", "json")
        assert "\x1b[" not in as_json  # only text is coloured


def test_colour_marks_the_code_by_severity_and_the_file(
    inputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = _run(capsys, CASES["check"][2], inputs, "--color", "always")
    line = next(ln for ln in out.splitlines() if "SC-12" in ln)
    assert line.startswith("\x1b[1m" + str(E / "contract_typo.json") + "\x1b[0m")
    assert "\x1b[1;31mSC-12\x1b[0m" in line
    _, out, _ = _run(capsys, CASES["check"][1], inputs, "--color", "always")
    assert "\x1b[1;33mSC-11\x1b[0m" in out


def test_an_invalid_contract_stands_where_check_puts_it_in_every_command(
    inputs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same finding has the same position in every subcommand: the typo of
    contract_typo.json is at 65:21 for check, lint, decide and analyze alike."""
    typo = str(inputs / "typo.json")
    at = f"{typo}:65:21: SC-12 $.failure_conditions[1].expression: unrecognised expression"
    for argv in (
        ["check", typo],
        ["analyze", typo],
        ["lint", str(E / "full" / "eic.phase2.md"), "--contract", typo],
        ["decide", "--contract", typo, "--matrix", str(E / "full_reject.json")],
    ):
        assert cli_main.main(argv) == 1
        out, err = capsys.readouterr()
        assert at in out and err == "", argv
        assert cli_main.main([*argv, "--format", "json"]) == 1
        [d] = json.loads(capsys.readouterr().out)["diagnostics"]
        assert (d["file"], d["line"], d["column"], d["code"]) == (typo, 65, 21, "SC-12")


def test_the_two_dialects_decide_with_the_same_json_keys(
    capsys: pytest.CaptureFixture[str],
) -> None:
    keys = []
    for argv in (
        ["decide", "--contract", "reviewer/full", str(E / "full")],
        ["decide", "--contract", str(E / "full-13.2" / "contract.json"), str(E / "full-13.2")],
    ):
        assert cli_main.main([*argv, "--format", "json"]) == 0
        body = json.loads(capsys.readouterr().out)
        keys.append(body)
    thirteen, v2 = keys
    shared = ("action", "condition_id", "fallback", "fired", "counts", "thresholds", "tags")
    for key in shared:
        assert key in thirteen and key in v2, key
        assert type(thirteen[key]) is type(v2[key]), key
    assert (thirteen["dialect"], v2["dialect"]) == ("13", "13.2")
    assert "decision" not in v2  # no second place for the same keys
    assert v2["action"] == "editorial_decision=major_revision"


def test_a_lint_report_lists_its_findings_in_the_one_shape(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = str(tmp_path / "alone.phase2.md")  # no Phase 1 beside it: P2-043
    Path(doc).write_text((E / "full" / "eic.phase2.md").read_text("utf-8"), "utf-8")
    assert cli_main.main(["lint", doc, "--contract", "reviewer/full", "--format", "json"]) == 0
    body = json.loads(capsys.readouterr().out)
    [report] = body["files"]
    assert report["findings"] == body["diagnostics"]
    assert (report["findings"][0]["line"], report["findings"][0]["column"]) == (1, 1)


def test_analyze_prints_huge_counts_compactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from kernel.contract.templates import shipped_template

    contract = shipped_template("reviewer/full")
    contract["panel_size"] = 200
    path = tmp_path / "wide.json"
    path.write_text(json.dumps(contract), "utf-8")
    cli_main.main(["analyze", str(path)])
    text = capsys.readouterr().out
    assert "1.32e477 possible matrices" in text
    table = [ln for ln in text.splitlines() if re.match(r"  (F\d+|none|outcome) ", ln)]
    assert len(table) == 6 and max(map(len, table)) < 80  # not padded to 478 digits
    assert not re.search(r"\d{16}", text)  # no count past 15 digits in text
    cli_main.main(["analyze", str(path), "--format", "json"])
    body = json.loads(capsys.readouterr().out)
    assert body["space"] == 3 ** (5 * 200)  # exact in JSON


def test_each_decision_line_of_a_jsonl_run_fits_its_schema(
    capsys: pytest.CaptureFixture[str],
) -> None:
    matrices = E / "full_matrices.jsonl"
    assert cli_main.main(["decide", "--contract", "reviewer/full", "--matrix", str(matrices)]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert err == "" and len(lines) == len(matrices.read_text("utf-8").splitlines())
    for line in lines:
        check_output("decide-line", line)
