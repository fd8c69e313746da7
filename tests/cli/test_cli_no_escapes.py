"""No escapes from the command lines: every subcommand of ``sprint-kernel`` (and so every
``python -m kernel.X``, which runs the same ``command``), given arbitrary files and arbitrary
option values, exits 0, 1 or 2 and never prints a traceback.

Run in-process through ``kernel.cli.main.main`` with strict UTF-8 standard streams (see
``support.fuzz.call_cli``); the companion CLIs' JSON documents are fuzzed in more depth in
test_companion_cli_fuzz.py. A few real subprocess runs check what in-process cannot: that each
``python -m kernel.X`` entry is wired to the same command.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support.fuzz import JSON, call_cli, dump, mutated, texts
from support.paths import EXAMPLES, ROOT

from kernel import shipped_template, testing
from kernel.cli.main import COMMANDS
from kernel.cli.main import main as sprint_kernel

FULL = shipped_template("reviewer/full")
P1 = (EXAMPLES / "full" / "eic.phase1.md").read_text(encoding="utf-8")
P2 = (EXAMPLES / "full" / "eic.phase2.md").read_text(encoding="utf-8")
SYNTHESIS = (EXAMPLES / "full" / "synthesis.md").read_text(encoding="utf-8")
MATRIX = json.loads((EXAMPLES / "full_major_revision.json").read_text(encoding="utf-8"))
MATRICES = (EXAMPLES / "full_matrices.jsonl").read_text(encoding="utf-8")
EXAMPLE_FILES = {
    name: (EXAMPLES / name).read_text(encoding="utf-8")
    for name in [
        "panel/votes.json", "panel/findings.json", "panel/changed.txt", "panel/agent.md",
        "panel/session.jsonl", "consensus/round.json", "consensus/critique.txt",
        "arena/run.jsonl", "arena/review.md",
    ]
}  # fmt: skip
SMALL = testing.contracts(max_dimensions=3, max_conditions=3, panel_sizes=st.integers(1, 3))

#: What a file may hold: markdown, JSON, JSON lines, each as shipped or mutated, or junk.
CONTRACT_TEXT = st.one_of(
    st.just(FULL).flatmap(mutated).map(dump),
    SMALL.map(dump),
    SMALL.flatmap(mutated).map(dump),
    JSON.map(dump),
    texts(),
)
MATRIX_TEXT = st.one_of(
    st.just(MATRIX).flatmap(mutated).map(dump),
    st.lists(st.just(MATRIX).flatmap(mutated).map(dump), max_size=3).map(
        lambda lines: MATRICES + "".join(f"{x}\n" for x in lines)
    ),
    JSON.map(dump),
    texts(),
)
DOC_TEXT = texts(P1, P2, SYNTHESIS, *EXAMPLE_FILES.values()) | st.sampled_from(
    list(EXAMPLE_FILES.values())
).flatmap(lambda t: st.just(t))
ANY_TEXT = DOC_TEXT | CONTRACT_TEXT | MATRIX_TEXT | st.sampled_from(list(EXAMPLE_FILES.values()))

#: Option values: sensible, absurd, huge, negative, not numbers, not UTF-8 (a surrogate is
#: what Python makes of a command-line byte that is not UTF-8).
NUMBERS = st.sampled_from(
    ["-1", "0", "1", "100", "1048576", "1073741824", "1073741825", "1e9", "0x10", " 5", "٣",
     "99999999999999999999", "1" + "0" * 5000, "abc", "", "\udcff"]
)  # fmt: skip
WORDS = st.text(max_size=8) | st.sampled_from(["\udcff", "-", "--", "-x", "1/0"])
FORMAT = st.sampled_from(["text", "json", "sarif", "github", "html", "xml", ""])
PRIORS = st.sampled_from(
    ["pass=1/2,warn=1/4,block=1/4", "pass=1/0", "pass=1/0,warn=0,block=0", "pass=1,warn=0,block=0",
     "pass=" + "1" * 5000 + ",warn=0,block=0", "pass=1e400,warn=0,block=0", "pass=nan",
     "pass=-1,warn=1,block=1", "D1:pass=1", "=", ""]
) | WORDS  # fmt: skip
VERSIONS = WORDS | st.sampled_from(
    ["v3.6.7", "v3.7.0", "v" + "9" * 5000 + ".0.0", "3.6", "v1.2.3.4"]
)
TEMPLATES = st.sampled_from(["reviewer/full", "reviewer/methodology_focus", "reviewer/none"])


@st.composite
def options(draw: st.DrawFn, formats: bool = True) -> list[str]:
    """``--format`` and ``--max-bytes``, each left out, well-formed or hostile."""
    argv: list[str] = []
    if formats and draw(st.booleans()):
        argv += ["--format", draw(FORMAT)]
    if draw(st.integers(0, 3)) == 0:
        argv += ["--max-bytes", draw(NUMBERS)]
    return argv


@st.composite
def invocations(draw: st.DrawFn, command: str | None = None) -> tuple[list[str], dict[str, str]]:
    """A ``sprint-kernel`` command line (of ``command``, or any) and the files it names
    (name → text)."""
    files: dict[str, str] = {}

    def file(name: str, content: st.SearchStrategy[str]) -> str:
        if draw(st.integers(0, 9)) == 0:  # a file that is not there
            return str(Path("no-such-dir") / name)
        files[name] = draw(content)
        return name

    def contract() -> str:
        return draw(TEMPLATES) if draw(st.booleans()) else file("contract.json", CONTRACT_TEXT)

    if command is None:
        command = draw(st.sampled_from(sorted(COMMANDS)))
    argv = [command]
    if command == "check":
        argv += [contract() for _ in range(draw(st.integers(1, 2)))]
        if draw(st.booleans()):
            argv += ["--ars-version", draw(VERSIONS)]
    elif command == "lint":
        argv += [file("doc.md", DOC_TEXT), "--contract", contract()]
        if draw(st.booleans()):
            argv += ["--phase1", file("p1.md", DOC_TEXT)]
        if draw(st.booleans()):
            argv += ["--phase", draw(st.sampled_from(["1", "2", "3"]) | WORDS)]
    elif command == "decide":
        argv += ["--contract", contract()]
        if draw(st.booleans()):
            suffix = draw(st.sampled_from([".json", ".jsonl"]))
            argv += ["--matrix", file("matrix" + suffix, MATRIX_TEXT)]
        else:
            for i in range(draw(st.integers(0, 3))):
                argv += [file(f"r{i}.md", DOC_TEXT)]
                if draw(st.integers(0, 4)):
                    argv += ["--phase1", file(f"r{i}.p1.md", DOC_TEXT)]
        if draw(st.booleans()):
            argv += ["--explain"]
        if draw(st.booleans()):
            argv += ["--synthesis", file("synthesis.md", DOC_TEXT)]
    elif command == "analyze":
        argv += [contract()]
        choice = draw(st.integers(0, 3))
        if choice == 1:
            argv += ["--diff", contract()]
        elif choice == 2:
            argv += ["--prior", draw(PRIORS)]
        elif choice == 3:
            prior = st.dictionaries(
                st.sampled_from(["pass", "warn", "block", "*", "D1"]),
                st.sampled_from(["1/2", "1/0", "0", "1", 0.5, 1, "nan", None]) | JSON,
            )
            argv += ["--prior-file", file("prior.json", prior.map(dump) | ANY_TEXT)]
    elif command == "templates":
        argv += draw(st.sampled_from([[], ["list"], ["show"]]))
        if argv[-1] == "show":
            argv += [draw(TEMPLATES | WORDS)]
    elif command == "init":
        argv += [INIT_DIR]  # only ever a directory of the test's own
        if draw(st.booleans()):
            argv += ["--template", draw(TEMPLATES | WORDS)]
    elif command == "migrate":
        argv += [contract()]
        if draw(st.booleans()):
            roles = st.sampled_from(["D1=eic", "D1=chair", "D9=da", "x"]) | WORDS
            argv += ["--roles", draw(roles)]
        if draw(st.booleans()):
            argv += ["--actions", draw(st.sampled_from(["F1=reject", "F1=no"]) | WORDS)]
        if draw(st.booleans()):
            argv += ["--fatal", draw(st.sampled_from(["D1", "D4", "D1,D9"]) | WORDS)]
        if draw(st.booleans()):
            argv += ["--mode", draw(st.sampled_from(["reviewer_full"]) | WORDS)]
        if draw(st.booleans()):
            argv += ["--prior", draw(PRIORS)]
        if draw(st.booleans()):
            argv += ["-o", draw(st.sampled_from([OUT_DIR + "/new.json", "no-such-dir/new.json"]))]
    elif command == "rule":
        codes = st.sampled_from(["P1-001", "E-JSON", "CN-OK", "P2-04"]) | WORDS
        argv += draw(st.lists(codes, min_size=1, max_size=2))
        if draw(st.booleans()):
            argv += ["--format", draw(st.sampled_from(["text", "json"]) | WORDS)]
        return argv, files
    elif command == "codes":
        argv += draw(st.lists(st.sampled_from(["P1-001", "E-JSON", "SC-1"]) | WORDS, max_size=2))
        if draw(st.booleans()):
            argv += ["--explain"]
        if draw(st.booleans()):
            argv += [draw(st.sampled_from(["--check", "--write"])), file("codes.md", ANY_TEXT)]
    else:
        sub = draw(
            st.sampled_from(
                {
                    "arena": ["verdict", "conformance"],
                    "consensus": ["parse", "round"],
                    "panel": ["resolve", "scan", "route", "delta", "audit"],
                }[command]
            )
        )
        argv += [sub, file("input", ANY_TEXT)]
        if sub == "delta":
            argv += [file("findings.json", ANY_TEXT)]
        if sub == "parse":
            argv += ["--kind", draw(st.sampled_from(["participant", "critique", "synthesis",
                                                     "update"]) | WORDS)]  # fmt: skip
            if draw(st.booleans()):
                argv += ["--strict-json"]
        if sub == "scan" and draw(st.booleans()):
            argv += ["--delimiter", draw(WORDS)]
        if sub == "route" and draw(st.booleans()):
            argv += ["--profile", draw(st.sampled_from(["code", "strategy"]) | WORDS)]
    argv += draw(options(formats=command != "codes" or draw(st.booleans())))
    if command != "init" and draw(st.integers(0, 9)) == 0:
        argv.insert(draw(st.integers(1, len(argv))), draw(WORDS))  # a stray argument
    return argv, files


#: Stands for the directory ``init`` writes in: one under the test's own work directory.
INIT_DIR = "<init-project>"
#: Stands for the test's own work directory where a command writes a file (never the cwd).
OUT_DIR = "<out>"


def _call(argv: list[str], files: dict[str, str], workdir: Path) -> None:
    argv = [str(workdir / "init-project") if a == INIT_DIR else a for a in argv]
    argv = [str(workdir) + a[len(OUT_DIR) :] if a.startswith(OUT_DIR + "/") else a for a in argv]
    call_cli(sprint_kernel, argv, files, workdir)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-no-escapes")


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(invocations())
# an argument that is not UTF-8 echoed in a usage error (UnicodeEncodeError)
@example((["codes", "\udcff"], {}))
# a file name or stray argument that is not UTF-8, echoed in a message (UnicodeEncodeError)
@example((["check", "\udcff", "no-such-dir/contract.json"], {}))
# standard input that cannot be read (OSError; under pytest, reading it raises)
@example((["check", "-", "no-such-dir/contract.json"], {}))
# a --write page in a directory that does not exist (FileNotFoundError)
@example((["codes", "--write", "no-such-dir/codes.md"], {}))
# a --check page that is not UTF-8 (UnicodeDecodeError)
@example((["codes", "--check", "codes.md"], {"codes.md": "\ud800 stale"}))
@example((["check", "no-such-dir/contract.json", "--ars-version", "", "\udcff"], {}))
def test_every_command_on_arbitrary_files_and_options(
    workdir: Path, invocation: tuple[list[str], dict[str, str]]
) -> None:
    argv, files = invocation
    _call(argv, files, workdir)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@settings(max_examples=max(5, settings().max_examples // 6))
@given(data=st.data())
def test_each_command_on_arbitrary_files_and_options(
    workdir: Path, command: str, data: st.DataObject
) -> None:
    """The same, command by command, so that every one gets its share of examples."""
    argv, files = data.draw(invocations(command))
    _call(argv, files, workdir)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_python_m_entry_is_the_same_command(command: str, tmp_path: Path) -> None:
    """``python -m kernel.X`` on a file that is not UTF-8 and an absurd ``--max-bytes``: the
    same exit and messages as ``sprint-kernel X`` in-process."""
    bad = tmp_path / "bad"
    bad.write_bytes(b"\xff\xfe{")
    module = {"arena": "kernel.arena", "consensus": "kernel.consensus", "panel": "kernel.panel"}
    argv = {
        "check": [str(bad)],
        "lint": [str(bad), "--contract", "reviewer/full"],
        "decide": ["--contract", "reviewer/full", "--matrix", str(bad)],
        "analyze": [str(bad)],
        "migrate": [str(bad)],
        "codes": ["--check", str(bad), "--max-bytes", "-1"],
        "rule": ["P1-001"],
        "arena": ["verdict", str(bad)],
        "consensus": ["round", str(bad)],
        "panel": ["resolve", str(bad)],
        "templates": ["show", str(bad)],
        "init": [str(tmp_path / "project"), "--template", str(bad)],
    }[command] + ["--max-bytes", "1" + "0" * 5000]
    entry = module.get(command, f"kernel.{command}")
    if command in ("codes", "rule", "templates", "init"):  # no python -m kernel.X of their own
        entry_argv = ["-m", "kernel.cli.main", command, *argv]
    else:
        entry_argv = ["-m", entry, *argv]
    done = subprocess.run(
        [sys.executable, *entry_argv], capture_output=True, cwd=ROOT, timeout=60, check=False
    )
    assert done.returncode == 2, done
    assert b"Traceback" not in done.stdout + done.stderr
    assert b"--max-bytes" in done.stderr

