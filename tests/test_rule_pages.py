"""Every code has a page (``sprint-kernel rule CODE``): why, a failing and a passing example,
how to fix it; and each example cut from a real file really fails and passes."""

from __future__ import annotations

import contextlib
import json
import shutil
from pathlib import Path

import pytest
from support import paths

from kernel.cli.main import main
from kernel.diagnostics import REGISTRY, _pages, explanation, rule_page

ROOT = paths.ROOT
PAGES = _pages()


def test_every_code_has_a_page_and_no_page_names_an_unknown_code() -> None:
    missing = [code for code in REGISTRY if explanation(code) is None]
    assert not missing, f"codes without a page in kernel/data/rules.toml: {missing}"
    assert set(PAGES["codes"]) <= set(REGISTRY)
    for code in REGISTRY:
        page = explanation(code)
        assert page is not None
        for part in ("why", "fix", "failing", "passing"):
            assert getattr(page, part).strip(), (code, part)
        assert page.failing != page.passing, code


def test_the_page_is_printed_by_rule_and_by_codes_explain(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rule", "SC-11"]) == 0
    out = capsys.readouterr().out
    assert out == rule_page("SC-11")
    for part in ("SC-11 (warning): ", "Rule: SC-11, R1", "Why\n", "Fails", "Passes\n"):
        assert part in out
    assert "How to fix\n" in out and "http" not in out  # no docs URL is known: no link
    assert main(["codes", "SC-11", "--explain"]) == 0
    assert capsys.readouterr().out == out
    assert main(["rule", "SC-11", "--format", "json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert entry["code"] == "SC-11" and entry["why"] and entry["url"] is None


def test_an_unknown_code_gets_the_closest_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["rule", "P2-04"])
    assert exc.value.code == 2
    assert "unknown code(s): 'P2-04'; did you mean 'P2-040'?" in capsys.readouterr().err


def test_docs_codes_md_holds_every_page() -> None:
    page = (ROOT / "docs" / "codes.md").read_text("utf-8")
    for code in REGISTRY:
        assert f"\n### {code}\n" in page, code


#: How each kind of example base is run: the command line around the file (``{file}``),
#: and the files copied beside it (the rest of its round).
_RUNS = {
    "check": (["check", "{file}"], []),
    "analyze": (["analyze", "{file}"], []),
    "lint": (
        ["lint", "--contract", "reviewer/full", "eic.phase1.md", "eic.phase2.md"],
        ["examples/full/eic.phase1.md", "examples/full/eic.phase2.md"],
    ),
    "lint13.2": (  # the changed document, dispatched as eic; a Phase 2 meets the Phase 1 beside it
        ["lint", "--contract", "contract.json", "--role", "eic", "{file}"],
        [f"examples/full-13.2/{n}" for n in ("contract.json", "eic.phase1.md", "eic.phase2.md")],
    ),
    "lint13.2-methodology": (  # the same, dispatched as methodology (ars main: receipts)
        ["lint", "--contract", "contract.json", "--role", "methodology", "{file}"],
        [
            f"examples/full-13.2/{n}"
            for n in ("contract.json", "methodology.phase1.md", "methodology.phase2.md")
        ],
    ),
    "arena-verdict": (["arena", "verdict", "{file}"], []),
    "consensus-round": (["consensus", "round", "{file}"], []),
    "panel-resolve": (["panel", "resolve", "{file}"], []),
    "synthesis": (
        ["decide", ".", "--contract", "reviewer/full", "--synthesis", "synthesis.md"],
        [str(p.relative_to(ROOT)) for p in sorted((ROOT / "examples" / "full").iterdir())],
    ),
}

CHECKED = sorted(c for c, e in PAGES["codes"].items() if "check" in e)


def _codes(
    tmp: Path,
    command: str,
    base: str,
    text: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> set[str]:
    monkeypatch.chdir(tmp)
    argv, beside = _RUNS[command]
    for name in beside:
        shutil.copy(ROOT / name, tmp / Path(name).name)
    target = tmp / Path(base).name
    target.write_text(text, encoding="utf-8")
    argv = [a.replace("{file}", str(target)) for a in argv]
    capsys.readouterr()
    with contextlib.suppress(SystemExit):
        main([*argv, "--format", "json", "--isolated"])
    out = capsys.readouterr().out
    return {d["code"] for d in json.loads(out)["diagnostics"]} if out.strip() else set()


def test_some_examples_are_checked() -> None:
    assert len(CHECKED) >= 40


@pytest.mark.parametrize("code", CHECKED)
def test_the_example_fails_and_passes(
    code: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = explanation(code)
    assert page is not None and page.base is not None and page.command is not None
    original = (ROOT / page.base).read_text("utf-8")
    assert original.count(page.passing) == 1, "the passing text must occur once in the base"
    fails = tmp_path / "fails"
    fails.mkdir()
    found = _codes(
        fails,
        page.command,
        page.base,
        original.replace(page.passing, page.failing),
        capsys,
        monkeypatch,
    )
    assert code in found, found
    passes = tmp_path / "passes"
    passes.mkdir()
    assert code not in _codes(passes, page.command, page.base, original, capsys, monkeypatch)
