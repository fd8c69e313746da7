"""Every example in README.md and docs/**/*.md runs, and shows what it prints.

Conventions (also stated in docs/index.md):

* ```pycon blocks are doctests (``>>> `` / ``... `` prompts, then the exact output; ELLIPSIS
  is on). The blocks of one file share one namespace, in file order, like one interpreter
  session read top to bottom: a later block may use names an earlier block defined. Each
  block is its own test case; when a case runs on its own, the file's earlier blocks are run
  first, silently (their own cases report their failures).
* ```console blocks hold shell commands, each on a line starting with ``$ `` (a line ending in
  ``\\`` continues the command), followed by its exact combined stdout and stderr. Each
  command runs with bash from the repository root, with ``PYTHONUNBUFFERED=1`` so the two
  streams interleave as on a terminal. The exit status must be 0, unless the shown output's
  last line is ``[exit N]``: then it must be N.
* Any other fence (```json, ```text, ```sh, ```python …) is not executed.

The commands are run with this interpreter's directory first on ``PATH``. ``python -m
kernel.<name>`` run from the repository root imports ``kernel`` from the source tree (the
current directory comes first on ``sys.path`` with ``-m``), not from an installed copy; for
docs examples that is what we want: they document the tree they sit in.

Also checked here: every relative link in those files points to an existing file (and an
existing heading, when it names one), README.md stays within 15 KB, docs/index.md maps every
page, and docs/spec.md resolves every rule id (``R9``) and section (``§5.3b``) that the code,
the tests and the docs cite.
"""

from __future__ import annotations

import contextlib
import doctest
import os
import re
import subprocess
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token
from support import paths

ROOT = paths.ROOT
README = ROOT / "README.md"
DOCS = ROOT / "docs"
SPEC = DOCS / "spec.md"
INDEX = DOCS / "index.md"
README_MAX_BYTES = 15 * 1024
COMMAND_TIMEOUT_S = 300
DOCTEST_FLAGS = doctest.ELLIPSIS

#: Pages that other work in progress adds. A link to one of them is accepted while the file
#: does not exist yet; once it exists it is checked like any other. Empty this set when they
#: have all landed.
PAGES_WRITTEN_ELSEWHERE = frozenset(
    {
        "docs/analyzer.md",
        "docs/arena.md",
        "docs/benchmarks.md",
        "docs/cli.md",
        "docs/codes.md",
        "docs/consensus.md",
        "docs/orchestrating.md",
        "docs/panel.md",
        "docs/reviewer-documents.md",
    }
)

_MD = MarkdownIt("commonmark")


def markdown_files(root: Path = ROOT) -> list[Path]:
    """README.md and every page under docs/, in a stable order."""
    files = [root / "README.md"] if (root / "README.md").is_file() else []
    return files + sorted((root / "docs").rglob("*.md"))


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


# ---- the examples -----------------------------------------------------------------------


@attrs.frozen
class Block:
    """One executable fenced block: its file, the 1-based line of its opening fence, its
    language (``pycon`` or ``console``) and its content."""

    path: Path
    line: int
    lang: str
    text: str

    def ident(self) -> str:
        try:
            name = _rel(self.path, ROOT)
        except ValueError:  # a page outside the repository (the harness's own tests)
            name = self.path.name
        return f"{name}:{self.line}"


def blocks(path: Path) -> list[Block]:
    """The ```pycon and ```console blocks of one markdown file, in order."""
    found = []
    for token in _MD.parse(path.read_text("utf-8")):
        if token.type != "fence" or token.map is None:
            continue
        lang = token.info.split(maxsplit=1)[0] if token.info.strip() else ""
        if lang in ("pycon", "console"):
            found.append(Block(path, token.map[0] + 1, lang, token.content))
    return found


class ExampleFailed(AssertionError):
    """An example did not print what its block shows."""


def run_pycon(block: Block, globs: dict[str, Any]) -> None:
    """Run one pycon block as a doctest in ``globs``; raise :class:`ExampleFailed` on any
    difference."""
    parser = doctest.DocTestParser()
    name = block.ident()
    test = parser.get_doctest(block.text, globs, name, str(block.path), block.line)
    if not test.examples:
        raise ExampleFailed(f"{name}: a pycon block without any '>>> ' example")
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=DOCTEST_FLAGS, verbose=False)
    result = runner.run(test, out=report.append, clear_globs=False)
    globs.update(test.globs)  # the doctest ran in a copy
    if result.failed:
        raise ExampleFailed("".join(report))


@attrs.frozen
class Command:
    """One ``$ `` command of a console block with the output and exit status it shows."""

    line: int
    command: str
    output: str
    status: int


_EXIT_LINE = re.compile(r"\[exit (\d+)\]\Z")


def commands(block: Block) -> list[Command]:
    """Split a console block into its commands."""
    lines = block.text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    out: list[Command] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ExampleFailed(
                f"{block.ident()}: line {block.line + 1 + i} of a console block is output "
                f"with no '$ ' command before it: {lines[i]!r}"
            )
        start = i
        command = [lines[i][2:]]
        while command[-1].endswith("\\") and i + 1 < len(lines):
            i += 1
            command.append(lines[i])
        i += 1
        shown = []
        while i < len(lines) and not lines[i].startswith("$ "):
            shown.append(lines[i])
            i += 1
        status = 0
        if shown and (match := _EXIT_LINE.match(shown[-1])):
            status = int(match.group(1))
            shown.pop()
        output = "".join(f"{line}\n" for line in shown)
        out.append(Command(block.line + 1 + start, "\n".join(command), output, status))
    if not out:
        raise ExampleFailed(f"{block.ident()}: an empty console block")
    return out


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["PYTHONUNBUFFERED"] = "1"
    env.pop("PYTHONPATH", None)
    return env


def run_console(block: Block, cwd: Path = ROOT) -> None:
    """Run every command of a console block; raise :class:`ExampleFailed` on the first
    difference in output or exit status."""
    for command in commands(block):
        done = subprocess.run(
            ["bash", "-c", command.command],
            cwd=cwd,
            env=_environment(),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=COMMAND_TIMEOUT_S,
            check=False,
        )
        output = done.stdout.decode("utf-8", "replace")
        if output != command.output or done.returncode != command.status:
            raise ExampleFailed(
                f"{_rel(block.path, cwd)}:{command.line}: $ {command.command}\n"
                f"expected (exit {command.status}):\n{command.output}"
                f"got (exit {done.returncode}):\n{output}"
            )


class Sessions:
    """The shared pycon namespace of each file, advanced block by block in file order."""

    def __init__(self) -> None:
        self._state: dict[Path, tuple[dict[str, Any], int]] = {}

    def run(self, block: Block, position: int, every: list[Block]) -> None:
        """Run ``every[position]`` (== ``block``) after the file's earlier pycon blocks."""
        globs, done = self._state.get(block.path, ({}, 0))
        if done > position:  # run out of order: start the session again
            globs, done = {}, 0
        globs.setdefault("__name__", "__docs__")
        for earlier in every[done:position]:
            with contextlib.suppress(ExampleFailed):  # reported by its own case
                run_pycon(earlier, globs)
        self._state[block.path] = (globs, position + 1)
        run_pycon(block, globs)


_SESSIONS = Sessions()


def _example_cases() -> Iterator[Any]:
    for path in markdown_files():
        for block in blocks(path):
            yield pytest.param(block, id=f"{block.ident()}:{block.lang}")


@pytest.mark.parametrize("block", list(_example_cases()))
def test_example(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    if block.lang == "console":
        run_console(block)
        return
    pycon = [b for b in blocks(block.path) if b.lang == "pycon"]
    _SESSIONS.run(block, pycon.index(block), pycon)


def test_there_are_examples_of_both_kinds() -> None:
    langs = {b.lang for path in markdown_files() for b in blocks(path)}
    assert langs == {"pycon", "console"}


# ---- links --------------------------------------------------------------------------------


def _inline_text(token: Token) -> str:
    return "".join(
        child.content for child in token.children or [] if child.type in ("text", "code_inline")
    )


def github_anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a markdown file."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    tokens = _MD.parse(path.read_text("utf-8"))
    for i, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        text = _inline_text(tokens[i + 1]).strip().lower()
        slug = "".join(
            ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LNM"
        ).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _links(path: Path) -> Iterator[tuple[int, str]]:
    for token in _MD.parse(path.read_text("utf-8")):
        for child in token.children or []:
            href = child.attrs.get("href") if child.type == "link_open" else None
            href = child.attrs.get("src") if child.type == "image" else href
            if isinstance(href, str):
                yield (token.map[0] + 1 if token.map else 0), href


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    """Relative links of ``path`` whose file (or heading) does not exist."""
    problems = []
    for line, href in _links(path):
        if re.match(r"[a-z][a-z0-9+.-]*:", href, re.IGNORECASE):
            continue  # https:, mailto: …
        target_part, _, anchor = href.partition("#")
        target = (path.parent / target_part).resolve() if target_part else path
        where = f"{_rel(path, root)}:{line}: {href}"
        try:
            relative = target.relative_to(root).as_posix()
        except ValueError:
            problems.append(f"{where}: points outside the repository")
            continue
        if not target.exists():
            if relative not in PAGES_WRITTEN_ELSEWHERE:
                problems.append(f"{where}: no such file")
            continue
        if anchor and target.suffix == ".md" and anchor not in github_anchors(target):
            problems.append(f"{where}: no heading with anchor #{anchor}")
    return problems


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: _rel(p, ROOT))
def test_relative_links_resolve(path: Path) -> None:
    assert broken_links(path) == []


# ---- the pages themselves -----------------------------------------------------------------


def test_readme_is_at_most_15_kb() -> None:
    assert README.stat().st_size <= README_MAX_BYTES


def test_index_maps_every_page() -> None:
    linked = {
        (INDEX.parent / href.partition("#")[0]).resolve()
        for _, href in _links(INDEX)
        if href.partition("#")[0]
    }
    pages = set(DOCS.rglob("*.md")) - {INDEX}
    assert sorted(_rel(p, ROOT) for p in pages - linked) == []


#: What the code calls its rules: ``R9`` (spec resolutions) and ``§5.3b`` (seed sections).
RULE_ID = re.compile(r"(?<![\w.])R(1[0-9]|[1-9])(?![\w])")
SECTION = re.compile(r"§([0-9]+(?:\.[0-9]+)*[a-z]?|[A-C][0-9]?)(?![\w])")


def cited(root: Path = ROOT) -> dict[str, set[str]]:
    """Every rule id and seed section cited in code, grammar, tests, benchmarks and docs,
    mapped to the files citing it."""
    sources = [
        *root.glob("kernel/**/*.py"),
        *root.glob("grammar/*.lark"),
        *root.glob("tests/**/*.py"),
        *root.glob("benchmarks/**/*.py"),
        *markdown_files(root),
    ]
    out: dict[str, set[str]] = {}
    for source in sources:
        text = source.read_text("utf-8")
        # RFC sections (RFC 8259 §8.1) are the RFC's, not the seed's.
        text = re.sub(r"RFC \d+ §[0-9.]+", "", text)
        for match in RULE_ID.finditer(text):
            out.setdefault(f"R{match.group(1)}", set()).add(_rel(source, root))
        for match in SECTION.finditer(text):
            out.setdefault(f"§{match.group(1)}", set()).add(_rel(source, root))
    return out


def unresolved(spec: Path = SPEC, root: Path = ROOT) -> dict[str, list[str]]:
    """Citations that docs/spec.md does not define: a rule needs its own ``R<n>.`` heading,
    a section must appear in the page."""
    text = spec.read_text("utf-8")
    anchors = github_anchors(spec)
    missing = {}
    for ref, where in cited(root).items():
        if ref.startswith("R"):
            ok = any(a.startswith(ref.lower() + "-") for a in anchors)
        else:
            ok = re.search(re.escape(ref) + r"(?![\w])", text) is not None
        if not ok:
            missing[ref] = sorted(where)
    return missing


def test_spec_page_resolves_every_citation() -> None:
    assert unresolved() == {}


# ---- the harness can fail -----------------------------------------------------------------

_BAD_PAGE = """\
# A page with wrong examples

```pycon
>>> 1 + 1
3
```

```console
$ echo hello
goodbye
```

```console
$ exit 3
```

```console
$ exit 3
[exit 4]
```

```console
$ printf 'a\\nb\\n' \\
  | tail -n 1
b
```

```console
$ bash -c 'echo out; echo err >&2; exit 2'
out
err
[exit 2]
```

See [a missing page](missing.md), [a missing heading](#nowhere)
and [this one](#a-page-with-wrong-examples).
"""


def _bad_page(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "bad.md"
    page.write_text(_BAD_PAGE, "utf-8")
    return page


def test_harness_reports_a_wrong_pycon_output(tmp_path: Path) -> None:
    (block, *_) = blocks(_bad_page(tmp_path))
    with pytest.raises(ExampleFailed, match=r"Expected:\s+3\s+Got:\s+2"):
        run_pycon(block, {})


def test_harness_reports_wrong_console_output_and_status(tmp_path: Path) -> None:
    _, wrong_text, wrong_status, wrong_shown_status, continued, both = blocks(_bad_page(tmp_path))
    with pytest.raises(ExampleFailed, match="got \\(exit 0\\):\nhello\n"):
        run_console(wrong_text, cwd=tmp_path)
    with pytest.raises(ExampleFailed, match="expected \\(exit 0\\)"):
        run_console(wrong_status, cwd=tmp_path)
    with pytest.raises(ExampleFailed, match="expected \\(exit 4\\)"):
        run_console(wrong_shown_status, cwd=tmp_path)
    run_console(continued, cwd=tmp_path)  # a continued command and piped output pass
    run_console(both, cwd=tmp_path)  # stdout and stderr in order, with the shown status


def test_harness_parses_commands_exactly(tmp_path: Path) -> None:
    *_, continued, both = blocks(_bad_page(tmp_path))
    assert commands(continued) == [Command(23, "printf 'a\\nb\\n' \\\n  | tail -n 1", "b\n", 0)]
    assert commands(both)[0].status == 2
    assert commands(both)[0].output == "out\nerr\n"
    orphan = Block(tmp_path / "x.md", 1, "console", "output first\n$ true\n")
    with pytest.raises(ExampleFailed, match="no '\\$ ' command before it"):
        commands(orphan)


def test_harness_refuses_a_pycon_block_without_examples(tmp_path: Path) -> None:
    block = Block(tmp_path / "docs" / "x.md", 1, "pycon", "print(1)\n")
    with pytest.raises(ExampleFailed, match="without any"):
        run_pycon(block, {})


def test_pycon_blocks_of_a_file_share_one_namespace(tmp_path: Path) -> None:
    page = tmp_path / "docs" / "shared.md"
    page.parent.mkdir()
    page.write_text("```pycon\n>>> x = 41\n```\n\n```pycon\n>>> x + 1\n42\n```\n", "utf-8")
    first, second = blocks(page)
    Sessions().run(second, 1, [first, second])  # runs the first block before the second
    with pytest.raises(ExampleFailed, match="NameError"):
        run_pycon(second, {})


def test_harness_reports_broken_links(tmp_path: Path) -> None:
    page = _bad_page(tmp_path)
    assert broken_links(page, root=tmp_path) == [
        "docs/bad.md:35: missing.md: no such file",
        "docs/bad.md:35: #nowhere: no heading with anchor #nowhere",
    ]


def test_anchors_follow_github(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# How `decide` stays fast\n\n## R9. Panel cardinality\n\n## R9. Panel cardinality\n"
        "\n## Décisions: *où* (§5.3b)?\n",
        "utf-8",
    )
    assert github_anchors(page) == {
        "how-decide-stays-fast",
        "r9-panel-cardinality",
        "r9-panel-cardinality-1",
        "décisions-où-53b",
    }


def test_spec_check_reports_an_unknown_rule(tmp_path: Path) -> None:
    (tmp_path / "kernel").mkdir()
    (tmp_path / "kernel" / "x.py").write_text('"""R9, R17, §5.3b and RFC 8259 §8.1."""\n')
    spec = tmp_path / "spec.md"
    spec.write_text("# Spec\n\n## R9. Panel cardinality\n\nNothing about §5.3.\n")
    assert unresolved(spec, root=tmp_path) == {"R17": ["kernel/x.py"], "§5.3b": ["kernel/x.py"]}
    spec.write_text("## R1. Majority\n\n## R17. Synthesis\n\n§5.3b: the Phase 2 lint.\n")
    assert unresolved(spec, root=tmp_path) == {"R9": ["kernel/x.py"]}
