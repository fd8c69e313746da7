"""Guardrails: evidence threshold, severity inflation, scope, destructive fixes."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.panel.guardrails import apply_guardrails, in_scope
from kernel.panel.verdicts import SEVERITIES

LONG = "x" * 100


def f(**kw: Any) -> dict[str, Any]:
    base = {"id": "F1", "agent": "SEC", "severity": "Important", "evidence": LONG}
    return {**base, **kw}


def test_evidence_threshold_counts_code_points_after_trimming() -> None:
    (ok,) = apply_guardrails([f(evidence="  " + "é" * 100 + "  ")]).findings
    assert ok.severity == "Important" and ok.codes == ()
    (short,) = apply_guardrails([f(evidence=" " + "x" * 99 + " " * 10)]).findings
    assert short.severity == "Minor" and short.codes == ("EVIDENCE_THRESHOLD",)


def test_demotions_add_up_and_stop_at_info() -> None:
    (g,) = apply_guardrails([f(evidence="x", location="lib/x.py")], scope=["src"]).findings
    assert g.severity == "Info" and g.codes == ("EVIDENCE_THRESHOLD", "OUT_OF_SCOPE")
    (h,) = apply_guardrails([f(severity="Info", evidence="x")]).findings
    assert h.severity == "Info"


def test_strict_scope_rejects() -> None:
    (g,) = apply_guardrails([f(location="lib/x.py")], scope=["src"], strict_scope=True).findings
    assert g.rejected and g.severity == "Important"


@pytest.mark.parametrize(
    ("location", "inside"),
    [
        ("src/app.py", True),
        ("./src/app.py:12", True),
        ("src", True),
        ("src/apple.py", True),
        ("srcx/a.py", False),
        ("src/../etc/passwd", False),
        ("lib/a.py", False),
    ],
)
def test_scope_is_by_path_components(location: str, inside: bool) -> None:
    assert in_scope(location, ["src/", "docs/readme.md"]) is inside


def test_severity_inflation_is_judged_before_demotion() -> None:
    findings = [
        f(id="1", severity="Critical", evidence="x"),
        f(id="2", severity="Critical", evidence="x"),
        f(id="3", severity="Minor"),
        f(id="4", agent="PERF", severity="Critical"),
        f(id="5", agent="PERF", severity="Minor"),
    ]
    report = apply_guardrails(findings)
    assert report.warnings == ("SEVERITY_INFLATION SEC: 2 of 3 findings Critical",)
    assert [g.severity for g in report.findings[:2]] == ["Important", "Important"]


def test_destructive_fix_is_flagged() -> None:
    (g,) = apply_guardrails([f(fix="Run `rm -rf build/` then rebuild")]).findings
    assert g.codes == ("DESTRUCTIVE_FIX",)
    assert g.destructive[0].matched == "rm -rf"
    (h,) = apply_guardrails([f(fix="Delete the stale cache entry")]).findings
    assert h.codes == ()


@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "id": st.text(max_size=3),
                "agent": st.sampled_from(["A", "B"]),
                "severity": st.sampled_from(SEVERITIES),
                "evidence": st.text(max_size=120),
                "location": st.one_of(st.none(), st.sampled_from(["src/a", "lib/b"])),
            }
        ),
        max_size=10,
    ),
    st.booleans(),
)
def test_guardrails_never_promote(findings: list[dict[str, Any]], strict: bool) -> None:
    report = apply_guardrails(findings, scope=["src"], strict_scope=strict)
    for before, after in zip(findings, report.findings, strict=True):
        assert SEVERITIES.index(after.severity) <= SEVERITIES.index(before["severity"])
        assert after.reported == before["severity"]
        demoted = SEVERITIES.index(before["severity"]) - SEVERITIES.index(after.severity)
        assert demoted <= len(after.codes)


@pytest.mark.parametrize(
    "bad",
    [[f(severity="Severe")], [f(evidence=None)], [f(location=3)], ["F1"], [f(agent=1)]],
)
def test_bad_findings_are_refused(bad: list[Any]) -> None:
    with pytest.raises(KernelError):
        apply_guardrails(bad)


def test_scope_must_be_a_list() -> None:
    with pytest.raises(KernelError):
        apply_guardrails([f()], scope="src")
