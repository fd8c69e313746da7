"""Delta mode (companions §C2): a partition of the findings by changed paths."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.panel import PanelInputError, delta
from kernel.panel.delta_mode import delta_document, normalise_path, parse_changed_paths

SEGMENTS = st.sampled_from(["src", "api", "a.py", "b.py", "docs", "x y", "é", "README.md"])
CANONICAL = st.lists(SEGMENTS, min_size=1, max_size=4).map("/".join)


@st.composite
def spellings(draw: st.DrawFn, canonical: str) -> str:
    """Another spelling of ``canonical``: ``./`` prefixes, doubled or back slashes, a
    trailing slash, detours through ``x/..``."""
    parts = canonical.split("/")
    out: list[str] = []
    for part in parts:
        if draw(st.booleans()):
            out.append(draw(st.sampled_from([".", "detour/..", "./."])))
        out.append(part)
    sep = draw(st.sampled_from(["/", "//", "\\", "/./"]))
    return sep.join(out) + draw(st.sampled_from(["", "/", "/."]))


@st.composite
def delta_inputs(draw: st.DrawFn) -> tuple[list[str], list[dict[str, Any]], dict[str, str]]:
    pool = draw(st.lists(CANONICAL, min_size=1, max_size=6, unique=True))
    changed_canon = draw(st.lists(st.sampled_from(pool), max_size=6))
    changed = [draw(spellings(c)) for c in changed_canon]
    rows = draw(st.lists(st.sampled_from(pool), max_size=12))
    findings = [{"id": f"F{i}", "path": draw(spellings(p)), "n": i} for i, p in enumerate(rows)]
    return changed, findings, {f"F{i}": p for i, p in enumerate(rows)}


@given(delta_inputs())
@example((["src/a.py"], [{"id": "F1", "path": "./src/a.py"}], {"F1": "src/a.py"}))
@example(([], [{"id": "F1", "path": "a.py"}], {"F1": "a.py"}))
def test_delta_partitions_the_findings(
    inputs: tuple[list[str], list[dict[str, Any]], dict[str, str]],
) -> None:
    changed, findings, canonical = inputs
    result = delta(changed, findings)
    kept = [f["id"] for f in result.kept]
    dropped = [f["id"] for f in result.dropped]
    assert not set(kept) & set(dropped)
    assert sorted(kept + dropped) == sorted(f["id"] for f in findings)
    changed_set = {normalise_path(c) for c in changed}
    assert set(result.targets) == changed_set
    assert len(result.targets) == len(changed_set)
    assert set(dropped) == {i for i, p in canonical.items() if p in changed_set}
    # Each side keeps the findings' order and the mappings as given.
    order = [f["id"] for f in findings]
    assert kept == [i for i in order if i in set(kept)]
    assert dropped == [i for i in order if i in set(dropped)]
    by_id = {f["id"]: f for f in findings}
    assert all(dict(f) == by_id[f["id"]] for f in (*result.kept, *result.dropped))


@given(CANONICAL.flatmap(lambda c: st.tuples(st.just(c), spellings(c))))
def test_normal_form(pair: tuple[str, str]) -> None:
    canonical, spelt = pair
    assert normalise_path(spelt) == canonical
    assert normalise_path(canonical) == canonical


@st.composite
def escaping(draw: st.DrawFn) -> str:
    inside = draw(st.lists(SEGMENTS, max_size=3))
    ups = len(inside) + draw(st.integers(1, 3))
    tail = draw(st.lists(SEGMENTS, min_size=1, max_size=2))
    return "/".join([*inside, *[".."] * ups, *tail])


ABSOLUTE = st.tuples(
    st.sampled_from(["/", "//", "\\", "C:/", "c:\\", "\\\\host\\", "D:"]), CANONICAL
).map("".join)


@given(st.one_of(ABSOLUTE, escaping()))
@example("/etc/passwd")
@example("../secrets.txt")
@example("src/../../x")
def test_absolute_or_escaping_paths_are_refused(path: str) -> None:
    with pytest.raises(KernelError, match=r"absolute|escapes"):
        normalise_path(path)
    with pytest.raises(PanelInputError) as exc:
        delta(["ok.py", path], [])
    assert [p.where for p in exc.value.problems] == ["/changed_paths/1"]
    with pytest.raises(PanelInputError) as exc:
        delta([], [{"id": "F1", "path": "ok.py"}, {"id": "F2", "path": path}])
    assert [p.where for p in exc.value.problems] == ["/1/path"]


@pytest.mark.parametrize("path", ["", ".", "./", "a/..", "//", "a\0b"])
def test_empty_root_or_nul_paths_are_refused(path: str) -> None:
    with pytest.raises(KernelError):
        normalise_path(path)


def test_detour_inside_the_repository_is_fine() -> None:
    assert normalise_path("src/../README.md") == "README.md"
    assert normalise_path("src\\api\\a.py") == "src/api/a.py"


@pytest.mark.parametrize(
    ("findings", "where"),
    [
        ([{"id": "F1"}], "/0"),
        ([{"id": "F1", "path": 3}], "/0/path"),
        ([{"path": "a.py"}], "/0"),
        ([{"id": "F1", "path": "a"}, {"id": "F1", "path": "b"}], "/1/id"),
    ],
)
def test_bad_findings_name_the_json_path(findings: list[Any], where: str) -> None:
    with pytest.raises(PanelInputError) as exc:
        delta([], findings)
    assert [p.where for p in exc.value.problems] == [where]


def test_bad_arguments() -> None:
    with pytest.raises(KernelError, match="changed_paths must be a list"):
        delta("src/a.py", [])
    with pytest.raises(PanelInputError, match="a path must be a string"):
        delta([3], [])  # type: ignore[list-item]


def test_to_dict() -> None:
    result = delta(["b.py", "./b.py"], [{"id": "F1", "path": "a.py"}, {"id": "F2", "path": "b.py"}])
    assert result.to_dict() == {
        "targets": ["b.py"],
        "kept": [{"id": "F1", "path": "a.py"}],
        "dropped": [{"id": "F2", "path": "b.py"}],
    }


def test_changed_paths_list_as_git_prints_it() -> None:
    text = 'src/a.py\r\n\n"caf\\303\\251.txt"\n"tab\\there"\n"quote\\"d"\ndocs/x y.md\n'
    assert parse_changed_paths(text) == (
        "src/a.py",
        "café.txt",
        "tab\there",
        'quote"d',
        "docs/x y.md",
    )
    assert parse_changed_paths("") == ()
    assert parse_changed_paths("\ufeffa.py") == ("a.py",)


@pytest.mark.parametrize(
    ("text", "line", "match"),
    [
        ("a.py\n/etc/passwd\n", 2, "absolute"),
        ("a.py\n\n../x\n", 3, "escapes"),
        (" a.py\n", 1, "whitespace"),
        ("a.py \n", 1, "whitespace"),
        ('"bad\\q"\n', 1, "bad escape"),
        ('"\\377"\n', 1, "not UTF-8"),
    ],
)
def test_changed_paths_list_problems_name_the_line(text: str, line: int, match: str) -> None:
    with pytest.raises(PanelInputError, match=match) as exc:
        parse_changed_paths(text)
    assert [p.line for p in exc.value.problems] == [line]


def test_delta_document() -> None:
    doc = {"findings": [{"id": "F1", "path": "a.py"}, {"id": "F2", "path": "./b.py"}]}
    result = delta_document("b.py\n", doc)
    assert [f["id"] for f in result.kept] == ["F1"]
    assert [f["id"] for f in result.dropped] == ["F2"]
    with pytest.raises(PanelInputError) as exc:
        delta_document("b.py\n", {"findings": [{"id": "F1", "path": "/abs"}]})
    assert [p.where for p in exc.value.problems] == ["/findings/0/path"]
