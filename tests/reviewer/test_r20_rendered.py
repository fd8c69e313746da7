"""R20, the rendered page (issue 38): the page a person reads is rendered by markdown-it and
read by an HTML parser, so a field line shown by a character reference, an escape or a
look-alike letter, or hidden by raw HTML (``<template>``, ``hidden``, ``display:none``), is
a reading that disagrees, and the document fails. Every case here was decided (or linted
clean) on the code before the rendered reading.

The property at the end decorates one field line of a generated round with HTML,
character references, escapes or look-alike letters: either the kernel fails the report, or
the rendered page shows exactly the field lines the column-0 reader reads (and the kernel
reads what that reader reads); the round is never more lenient than the undecorated one.
Bounded under the ``default`` profile; ``HYPOTHESIS_PROFILE=heavy`` explores thousands."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from hypothesis import event, example, given
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from support import paths
from support.line_reader132 import fence_stripped, read_report

from kernel import lint_phase2, load_contract, render_phase2
from kernel.contract.model import Contract
from kernel.reviewer.lint.phase1_v2 import lint_phase1_v2
from kernel.reviewer.lint.phase2_v2 import analyse_phase2_v2, lint_phase2_v2
from kernel.reviewer.lint.readings import field_shapes
from kernel.reviewer.render import render_phase1
from kernel.reviewer.render_v2 import render_phase1_v2, render_phase2_v2
from kernel.reviewer.review import decide_documents
from kernel.reviewer.roles import scope_of
from kernel.reviewer.round_v2 import RoundV2Outcome, decide_reports_v2
from kernel.testing import RoundV2, contracts, rounds_v2
from kernel.text.markdown import parse_document
from kernel.text.rendered import rendered

CONTRACT = load_contract(str(paths.ROOT / "examples" / "full-13.2" / "contract.json"))
SCOPE = scope_of(CONTRACT)
PHASE1 = {r: render_phase1_v2(SCOPE, r) for r in SCOPE.roles}
PHASE2 = {
    r: render_phase2_v2(SCOPE, r, {d.id: "pass" for d in SCOPE.eligible(r)}) for r in SCOPE.roles
}
D6 = "### D6: critical_weaknesses\n\nscore: pass\n"
TRIGGER = "critical_weaknesses is broken beyond repair so no revision could rescue the work"


def round_with(role: str, text: str, phase1: str | None = None) -> RoundV2Outcome:
    phase2 = {**PHASE2, role: text}
    first = {**PHASE1, **({role: phase1} if phase1 is not None else {})}
    return decide_reports_v2(CONTRACT, [(f"{r}.md", phase2[r], first[r]) for r in SCOPE.roles])


def codes(role: str, text: str) -> list[str]:
    return [f.code for f in lint_phase2_v2(text, SCOPE, PHASE1[role], role=role).errors]


def da_with_d6(body: str) -> str:
    assert D6 in PHASE2["da"]
    return PHASE2["da"].replace(D6, "### D6: critical_weaknesses\n\n" + body)


def test_the_undecorated_round_accepts() -> None:
    outcome = round_with("da", PHASE2["da"])
    assert outcome.decision is not None
    assert outcome.decision.action == "editorial_decision=accept"


# ---- the page shows a field no rule reads -------------------------------------------------

SHOWN = {
    # the case: the page shows "score: block" and "block_class: fatal" word for word
    "decimal references": (
        f'score: pass\n\nscore&#58; block\nblock_class&#58; fatal\ntrigger&#58; "{TRIGGER}"\n'
    ),
    "named reference": "score: pass\n\nscore&colon; block\n",
    "hexadecimal reference": "score: pass\n\nscore&#x3A; block\n",
    "a reference for a key letter": "score: pass\n\n&#115;core: block\n",
    "Greek omicron": "score: pass\n\nsc\u03bfre: block\n",
    "Cyrillic letters": "score: pass\n\n\u0455\u0441\u043ere: block\n",
    "a ratio sign for the colon": "score: pass\n\nscore\u2236 block\n",
    "hidden inline HTML inside the key": "score: pass\n\nsc<span hidden>x</span>ore: block\n",
}


@pytest.mark.parametrize("case", sorted(SHOWN))
def test_a_field_the_page_shows_and_no_rule_reads_fails_the_report_and_the_round(
    case: str,
) -> None:
    text = da_with_d6(SHOWN[case])
    assert "P2-135" in codes("da", text)
    outcome = round_with("da", text)
    assert outcome.decision is None
    assert "R20" in outcome.tags[0]


#: Decorations refused before the rendered reading too (their letters read as a field as
#: written): they must stay refused.
STILL_REFUSED = {
    "a reference in the middle of the key": "score: pass\n\nblock&#95;class: fatal\n",
    "empty inline HTML inside the key": "score: pass\n\nsc<b></b>ore: block\n",
    "an escaped colon": "score: pass\n\nscore\\: block\n",
}


@pytest.mark.parametrize("case", sorted(STILL_REFUSED))
def test_decorations_refused_as_written_stay_refused(case: str) -> None:
    text = da_with_d6(STILL_REFUSED[case])
    assert "P2-135" in codes("da", text)
    assert round_with("da", text).decision is None


# ---- the page hides a field the rules read ------------------------------------------------

HIDDEN = {
    "template": "<template>\n\nscore: pass\n\n</template>\n",
    "div hidden": "<div hidden>\n\nscore: pass\n\n</div>\n",
    "display none": '<div style="display: none">\n\nscore: pass\n\n</div>\n',
    "aria-hidden": '<section aria-hidden="true">\n\nscore: pass\n\n</section>\n',
    "noscript": "<noscript>\n\nscore: pass\n\n</noscript>\n",
    "an inline hidden span left open": "<span hidden>a note\n\nscore: pass\n",
    "a self-closed hidden div (HTML ignores the slash)": "<div hidden/>\n\nscore: pass\n",
}


@pytest.mark.parametrize("case", sorted(HIDDEN))
def test_a_d6_the_page_does_not_show_is_not_credited(case: str) -> None:
    text = da_with_d6(HIDDEN[case])
    assert "P2-135" in codes("da", text)
    assert round_with("da", text).decision is None


def test_the_rendered_page_maps_text_back_to_its_lines() -> None:
    doc = parse_document(
        "score&#58; block\n\n<template>\n\nscore: pass\n\n</template>\n\n"
        "a `code\nspan` b\nscore: p<span hidden>ass</span>\n\n- <!--\n\nscore: hidden\n"
    )
    page = rendered(doc)
    assert page.shown[1] == "score: block"
    assert 5 not in page.shown and 5 in page.altered
    assert page.shown[11] == "score: p" and 11 in page.altered
    assert 15 not in page.shown and 15 in page.altered
    assert 1 in page.altered
    # a code span over two lines: its text is shown on its first line, the rest on the next
    assert page.shown[9] == "a code span" and page.shown[10].strip() == "b"


def test_prose_with_references_and_tags_outside_the_fields_stays_clean() -> None:
    # a comparison, a reference and plain inline tags in the Review Body are prose
    prose = PHASE2["eic"].replace(
        "The report's findings follow.",
        "The report's findings follow: p &lt; 0.05 holds for R&amp;D, <sub>i</sub> and "
        "<br> stay; `<template>` in code is text.",
    )
    assert prose != PHASE2["eic"]
    assert codes("eic", prose) == []


# ---- the dissent: a hidden dissent releases no trigger -------------------------------------

WARN = "cross_disciplinary_relevance shows gaps that a careful revision can repair soon"
DRIFTED = render_phase2_v2(SCOPE, "eic", {"D3": "pass", "D4": "warn", "D5": "pass"}).replace(
    f'trigger: "{WARN}"', 'trigger: "gaps in relevance"'
)
DISSENT = "dimension_id: D4\nrationale: the plan did not foresee the second cohort"


def with_dissent(body: str) -> str:
    return DRIFTED.replace(
        "## Dimension Scores", f"## Scoring Plan Dissent\n\n{body}\n\n## Dimension Scores", 1
    )


def test_a_drifted_trigger_aborts_unless_a_dissent_releases_it() -> None:
    assert round_with("eic", DRIFTED).decision is None
    released = round_with("eic", with_dissent(DISSENT))
    assert released.decision is not None


@pytest.mark.parametrize(
    "wrap",
    [
        "<template>\n\n{}\n\n</template>",
        "<div hidden>\n\n{}\n\n</div>",
        '<div style="display:none">\n\n{}\n\n</div>',
    ],
)
def test_a_dissent_the_page_does_not_show_releases_no_trigger(wrap: str) -> None:
    text = with_dissent(wrap.format(DISSENT))
    report = analyse_phase2_v2(text, SCOPE, PHASE1["eic"], role="eic")
    assert report.dissent == ()
    assert any(f.code == "P2-114" for f in report.findings)  # TRIGGER-DRIFT stands
    outcome = round_with("eic", text)
    assert outcome.decision is None  # TRIGGER-DRIFT aborts the round


# ---- Phase 1: a hidden commitment is no commitment -----------------------------------------


@pytest.mark.parametrize(
    ("opener", "closer"), [("<template>", "</template>"), ("<div hidden>", "</div>")]
)
def test_a_phase1_commitment_the_page_hides_fails_and_aborts_the_round(
    opener: str, closer: str
) -> None:
    text = PHASE1["eic"]
    head = "### D4: cross_disciplinary_relevance\n\n"
    start, end = text.index(head) + len(head), text.index("\n\n### D5")
    hidden = f"{text[:start]}{opener}\n\n{text[start:end]}\n\n{closer}{text[end:]}"
    errors = lint_phase1_v2(hidden, SCOPE, "eic").errors
    assert errors and {f.code for f in errors} == {"P1-116"}
    assert round_with("eic", PHASE2["eic"], phase1=hidden).decision is None


def test_a_phase1_commitment_shown_by_a_reference_fails() -> None:
    text = PHASE1["eic"]
    line = next(t for t in text.split("\n") if t.startswith("what_triggers_warn: "))
    shown = text.replace(line, line + "\n\nwhat_triggers_warn&#58; a second commitment", 1)
    assert "P1-116" in [f.code for f in lint_phase1_v2(shown, SCOPE, "eic").errors]


# ---- dialect 13: check 8 reads the rendered page too ---------------------------------------

FOCUS = load_contract("reviewer/methodology_focus")
FOCUS_P2 = render_phase2(FOCUS, {"D1": "pass", "D2": "pass"})
FOCUS_P1 = render_phase1(FOCUS)


@pytest.mark.parametrize(
    "second",
    [
        "score\\: block",
        "score&#58; block",
        "score&colon; block",
        "&#115;core: block",
        "sc\u03bfre: block",
        "<span>score</span>: block",
    ],
)
def test_dialect_13_a_second_score_the_page_shows_fails_check_8(second: str) -> None:
    assert lint_phase2(FOCUS_P2, FOCUS).ok
    text = FOCUS_P2.replace("score: pass", f"score: pass\n{second}", 1)
    errors = lint_phase2(text, FOCUS).errors
    assert [e.code for e in errors] == ["P2-060"]
    outcome = decide_documents(FOCUS, [("r1", text, FOCUS_P1), ("r2", FOCUS_P2, FOCUS_P1)])
    assert outcome.decision is None
    assert "key_lines" in outcome.tags[0]


def test_dialect_13_a_score_in_a_template_is_hidden() -> None:
    text = FOCUS_P2.replace("score: pass", "<template>\n\nscore: pass\n\n</template>", 1)
    errors = lint_phase2(text, FOCUS).errors
    assert errors and errors[0].code == "P2-060" and "hidden on the rendered" in errors[0].message


# ---- the property ---------------------------------------------------------------------------

FIELDS = ("score:", "block_class:", "trigger:", "abstain_reason:", "contract_role:")
RANK = {
    "editorial_decision=accept": 0,
    "editorial_decision=minor_revision": 1,
    "editorial_decision=major_revision": 2,
    "editorial_decision=reject": 3,
}
LOOK_ALIKES = {
    "o": "\u03bf\u043e",
    "c": "\u0441\u03f2",
    "e": "\u0435",
    "a": "\u0430",
    "i": "\u0456",
    "p": "\u0440",
    "s": "\u0455",
    "r": "\u0433",
    ":": "\u2236\ua789\uff1a",
}
HIDERS = (
    ("<template>\n\n", "\n\n</template>"),
    ("<div hidden>\n\n", "\n\n</div>"),
    ('<div style="display:none">\n\n', "\n\n</div>"),
    ('<p aria-hidden="true">\n\n', "\n\n</p>"),
    ("<noscript>\n\n", "\n\n</noscript>"),
    ("<span hidden>", "</span>"),
    ("<!-->\n\n", ""),
)


def _reference(key: str, value: str, k: int) -> str:
    if k % 3 == 0:
        colon = ("&#58;", "&colon;", "&#x3a;", "&#X3A;")[k // 3 % 4]
        return f"{key}{colon} {value}"
    i = k % len(key)
    return f"{key[:i]}&#{ord(key[i])};{key[i + 1 :]}: {value}"


def _escape(key: str, value: str, k: int) -> str:
    if "_" in key and k % 2:
        return key.replace("_", "\\_", 1) + f": {value}"
    return f"{key}\\: {value}"


def _look_alike(key: str, value: str, k: int) -> str:
    spots = [i for i, c in enumerate(key + ":") if c in LOOK_ALIKES]
    i = spots[k % len(spots)]
    c = (key + ":")[i]
    swapped = (key + ":")[:i] + LOOK_ALIKES[c][k // len(spots) % len(LOOK_ALIKES[c])]
    return swapped + (key + ":")[i + 1 :] + f" {value}"


def _hidden(key: str, value: str, k: int) -> str:
    before, after = HIDERS[k % len(HIDERS)]
    return f"{before}{key}: {value}{after}"


def _inline_tag(key: str, value: str, k: int) -> str:
    forms = (
        f"<span>{key}</span>: {value}",
        f"{key[:2]}<b></b>{key[2:]}: {value}",
        f"{key}: {value}<span hidden> and more</span>",
        f"<em>{key}: {value}</em>",
    )
    return forms[k % len(forms)]


def _prose_beside(key: str, value: str, k: int) -> str:
    """The field line as it is, and prose beside it with references, plain tags, escapes and
    a look-alike letter that spell no field: the report may pass."""
    notes = (
        "A note&#58; R&amp;D <sub>i</sub> and \\*stars\\* stay prose.",
        "Sc\u03bfring note: p &lt; 0.05 <br> holds.",
        "<b>Aside</b>: the &quot;claim&quot; holds.",
    )
    return f"{key}: {value}\n\n{notes[k % len(notes)]}"


DECORATIONS = {
    "prose beside": _prose_beside,
    "reference": _reference,
    "escape": _escape,
    "look-alike": _look_alike,
    "hidden": _hidden,
    "inline tag": _inline_tag,
}
OTHER = {
    "score": ("block", "warn", "pass", "not_assessed"),
    "block_class": ("fatal", "repairable"),
    "trigger": ('"a trigger the seat never committed to in its plan"',),
    "abstain_reason": ("another reason",),
    "contract_role": ("eic", "da", "methodology"),
}


def decorate(text: str, index: int, name: str, k: int, added: int | None) -> str:
    """``text`` with its line ``index`` decorated; with ``added``, the line stays and a second
    line of the same field (another value) is decorated after it, as a paragraph of its own."""
    lines = text.split("\n")
    key, _, value = lines[index].partition(": ")
    if added is None:
        return "\n".join([*lines[:index], DECORATIONS[name](key, value, k), *lines[index + 1 :]])
    other = OTHER[key][added % len(OTHER[key])]
    extra = DECORATIONS[name](key, other, k)
    return "\n".join([*lines[: index + 1], "", extra, "", *lines[index + 1 :]])


_FIELD = re.compile(r"(score|block_class|trigger|abstain_reason|contract_role): \S.*")


class _Visible(HTMLParser):
    """What a browser shows of markdown-it's full render, one line per block (written apart
    from the kernel's reader: a different parse, no line mapping), code left out."""

    HIDE = frozenset({"template", "script", "style", "noscript", "title", "pre"})
    BLOCK = frozenset({"p", "li", "h1", "h2", "h3", "h4", "h5", "h6", "div", "br", "section"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.BLOCK:
            self.out.append("\n")
            if tag != "br":  # a block start tag ends an open <p>, as HTML says
                self.handle_endtag("p")
        if tag in ("br", "hr", "img", "input", "meta", "link", "wbr"):
            return
        style = "".join(v or "" for k, v in attrs if k == "style").replace(" ", "").lower()
        hides = (
            tag in self.HIDE
            or any(k == "hidden" for k, _ in attrs)
            or any(k == "aria-hidden" and (v or "").strip().lower() == "true" for k, v in attrs)
            or "display:none" in style
        )
        self.stack.append((tag, hides))

    def handle_endtag(self, tag: str) -> None:
        if tag in self.BLOCK:
            self.out.append("\n")
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if not any(h for _, h in self.stack):
            self.out.append(data)


def visible_fields(text: str) -> list[str]:
    """The field lines (of the five Phase 2 keys) the rendered page shows, in order."""
    html = MarkdownIt("commonmark").render(text)
    # HTML closes <!--> and <!---> at once (abrupt closing of an empty comment); the
    # standard library's parser would read on to the next -->
    html = html.replace("<!--->", "<!---->").replace("<!-->", "<!---->")
    page = _Visible()
    page.feed(html + "\n-->")
    page.close()
    lines = [" ".join(line.split()) for line in "".join(page.out).split("\n")]
    return [line for line in lines if _FIELD.fullmatch(line)]


def column_0_fields(text: str) -> list[str]:
    """The field lines the column-0 reader reads (outside its fences), in order."""
    return [" ".join(t.split()) for t in fence_stripped(text) if _FIELD.fullmatch(t)]


def looks_like_a_field(text: str) -> bool:
    return any(field_shapes(t) & {"score", "blockclass", "trigger"} for t in text.split("\n"))


@st.composite
def decorated_rounds(draw: st.DrawFn) -> tuple[Contract, RoundV2, str, str]:
    contract = draw(st.one_of(st.just(CONTRACT), contracts(dialect="13.2").map(load_contract)))
    round_ = draw(rounds_v2(contract))
    role = draw(st.sampled_from(contract.roles))
    text = round_.phase2[role]
    index = draw(
        st.sampled_from([i for i, t in enumerate(text.split("\n")) if t.startswith(FIELDS)])
    )
    name = draw(st.sampled_from(sorted(DECORATIONS)))
    added = draw(st.none() | st.integers(0, 3))
    event(f"decoration: {name}{'' if added is None else ', a second line'}")
    return contract, round_, role, decorate(text, index, name, draw(st.integers(0, 59)), added)


def _d6(name: str, k: int, added: int | None) -> tuple[Contract, RoundV2, str, str]:
    """D6's score line of the DA's all-pass report, decorated."""
    matrix = {
        d.id: {r: "pass" for r in SCOPE.roles if r in d.eligible_roles} for d in SCOPE.dimensions
    }
    round_ = RoundV2(SCOPE, PHASE1, PHASE2, matrix, 0)
    lines = PHASE2["da"].split("\n")
    index = lines.index("score: pass", lines.index("### D6: critical_weaknesses"))
    return CONTRACT, round_, "da", decorate(PHASE2["da"], index, name, k, added)


@given(decorated_rounds())
@example(_d6("reference", 0, 0))  # the case: a second, referenced score line
@example(_d6("prose beside", 0, None))  # a report that passes: every reading agrees
def test_a_decorated_field_line_fails_or_every_reading_sees_the_same_fields(
    case: tuple[Contract, RoundV2, str, str],
) -> None:
    contract, round_, role, mutated = case
    scope = scope_of(contract)
    original = round_.phase2[role]
    assert visible_fields(original) == column_0_fields(original)
    report = analyse_phase2_v2(mutated, scope, round_.phase1[role], role=role)
    failed = any(f.severity == "error" for f in report.findings)
    event("the report fails" if failed else "the report passes, every reading agrees")
    if not failed:
        assert visible_fields(mutated) == column_0_fields(mutated), "the page shows other fields"
        read = read_report(mutated, [(d.id, d.name) for d in contract.dimensions])
        assert read is not None, "the kernel passes a report the line reader cannot parse"
        assert report.scores is not None and dict(report.scores) == read[1]
    entries = [(f"{r}.md", round_.phase2[r], round_.phase1[r]) for r in contract.roles]
    before = decide_reports_v2(contract, entries)
    assert before.decision is not None
    after = decide_reports_v2(
        contract, [(n, mutated if n == f"{role}.md" else p2, p1) for n, p2, p1 in entries]
    )
    if failed:
        assert after.decision is None
    elif after.decision is not None:
        assert RANK[after.decision.action] >= RANK[before.decision.action]


def test_a_document_with_more_markup_than_the_page_is_read_for_is_refused() -> None:
    """R13: rendering is bounded; past the bound the page cannot be compared, so the report
    fails rather than being read without it."""
    from kernel.text.rendered import MAX_RENDERED_MARKUP

    body = "R&amp;D " * (MAX_RENDERED_MARKUP // 2)
    within = PHASE2["eic"].replace("The report's findings follow.", body)
    assert codes("eic", within) == []
    over = PHASE2["eic"].replace("The report's findings follow.", body * 2 + "R&amp;D")
    errors = lint_phase2_v2(over, SCOPE, PHASE1["eic"], role="eic").errors
    assert [f.code for f in errors] == ["P2-135"] and "R13" in errors[0].message
    focus = FOCUS_P2.replace("## Review Body", "## Review Body\n\n" + body * 2 + "R&amp;D", 1)
    assert [e.code for e in lint_phase2(focus, FOCUS).errors] == ["P2-060"]


def test_a_block_tag_ends_an_open_paragraph_as_html_says() -> None:
    # found by the heavy property: markdown's own <p> closes a raw <p aria-hidden> left
    # open, so a browser shows the paragraph after it (and the report passes)
    doc = parse_document('<p aria-hidden="true">\n\ncontract_role: eic\n\n</p>\n')
    assert rendered(doc).shown[3] == "contract_role: eic"
    doc = parse_document("<template>\n\n<p>\n\ncontract_role: eic\n\n</p>\n")
    assert 5 not in rendered(doc).shown  # but not out of a template


def test_a_da_table_row_the_page_shows_otherwise_fails() -> None:
    """A DA table row is a field line too (R20): text in it the page hides fails the report."""
    da = (paths.ROOT / "examples" / "full-13.2" / "da.phase2.md").read_text()
    p1 = (paths.ROOT / "examples" / "full-13.2" / "da.phase1.md").read_text()
    assert lint_phase2_v2(da, SCOPE, p1, role="da").ok
    cell = "Attrition could explain the effect. |"
    assert cell in da
    hidden = da.replace(cell, "Attrition could <span hidden>not</span> explain the effect. |")
    errors = lint_phase2_v2(hidden, SCOPE, p1, role="da").errors
    assert [f.code for f in errors] == ["P2-130"] and "rendered page" in errors[0].message
