"""Challenge routing (companions §C2): queues are permutations, bands add up, ties keep order."""

from __future__ import annotations

from collections import Counter
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from kernel.errors import KernelError
from kernel.panel import PROFILES, PanelInputError, route
from kernel.panel.routing import BANDS, band_of, route_document

# The seed's two tables, copied verbatim: the profiles must match them cell for cell.
SEED_TABLES = {
    "code": """
| SEC | injection, auth, crypto, secrets | input-validation, error-handling |
| PERF | complexity, memory, io, caching | concurrency, scalability |
| QUAL | naming, duplication, solid, error-handling | readability, testing |
| CORR | logic, edge-cases, races, invariants | error-propagation, null-safety |
| ARCH | coupling, cohesion, boundaries, extensibility | patterns, dependencies |
""",
    "strategy": """
| FEAS | effort, dependencies, phasing, technical-risk | timeline, resources |
| ARCH | integration, api-contracts, boundaries, failure-modes | patterns, scalability |
| SEC | threat-model, auth, data-handling, compliance | crypto, network |
| USER | backward-compat, migration, usability, documentation | api-design, ux |
| SCOP | scope, acceptance-criteria, completeness, nfr | edge-cases, priorities |
| TEST | testability, coverage, test-strategy, verification | ci-cd, environments |
""",
}


def _seed_rows(profile: str) -> list[tuple[str, list[str], list[str]]]:
    rows = []
    for line in SEED_TABLES[profile].strip().splitlines():
        code, primary, adjacent = (c.strip() for c in line.strip("|").split("|"))
        rows.append((code, primary.split(", "), adjacent.split(", ")))
    return rows


@pytest.mark.parametrize("profile", ["code", "strategy"])
def test_profiles_are_the_seed_tables(profile: str) -> None:
    table = PROFILES[profile]
    assert [(s.code, list(s.primary), list(s.adjacent)) for s in table.values()] == _seed_rows(
        profile
    )
    assert list(table) == [code for code, _, _ in _seed_rows(profile)]


def _domains(profile: str) -> list[str]:
    return sorted({d for _, p, a in _seed_rows(profile) for d in (*p, *a)})


@st.composite
def routing_inputs(draw: st.DrawFn) -> tuple[str, list[dict[str, Any]]]:
    profile = draw(st.sampled_from(["code", "strategy"]))
    codes = [code for code, _, _ in _seed_rows(profile)]
    domains = [*_domains(profile), "unlisted-domain", "Auth"]
    rows = draw(st.lists(st.tuples(st.sampled_from(codes), st.sampled_from(domains)), max_size=25))
    findings = [
        {"id": f"F{i}", "originator": who, "domain": domain, "note": i}
        for i, (who, domain) in enumerate(rows)
    ]
    return profile, findings


def _oracle_band(domain: str, specialist: str, profile: str) -> str:
    for code, primary, adjacent in _seed_rows(profile):
        if code == specialist:
            return "primary" if domain in primary else "adjacent" if domain in adjacent else "rest"
    raise AssertionError(specialist)


@given(routing_inputs())
# From the seed's tables: CORR's injection finding is SEC's primary domain; QUAL's
# error-handling finding is SEC's adjacent domain (and QUAL's own primary, but QUAL is the
# originator); "races" is CORR's primary.
@example(
    (
        "code",
        [
            {"id": "A", "originator": "CORR", "domain": "injection"},
            {"id": "B", "originator": "QUAL", "domain": "error-handling"},
            {"id": "C", "originator": "SEC", "domain": "races"},
        ],
    )
)
# Strategy profile: "dependencies" is FEAS's primary, "scalability" ARCH's adjacent;
# "edge-cases" is SCOP's adjacent there but CORR's primary in the code profile.
@example(
    (
        "strategy",
        [
            {"id": "A", "originator": "SEC", "domain": "dependencies"},
            {"id": "B", "originator": "FEAS", "domain": "scalability"},
            {"id": "C", "originator": "TEST", "domain": "edge-cases"},
        ],
    )
)
@example(("code", []))
def test_queues_are_permutations_bands_add_up(
    inputs: tuple[str, list[dict[str, Any]]],
) -> None:
    profile, findings = inputs
    result = route(findings, profile)
    specialists = [code for code, _, _ in _seed_rows(profile)]
    assert list(result.queues) == specialists
    expected_bands: Counter[str] = Counter()
    for who in specialists:
        others = [f for f in findings if f["originator"] != who]
        queue = result.queues[who]
        assert sorted(queue) == sorted(f["id"] for f in others)  # a permutation
        assert len(set(queue)) == len(queue)
        bands = {f["id"]: _oracle_band(f["domain"], who, profile) for f in others}
        assert [r.band for r in result.routes[who]] == [bands[i] for i in queue]
        # Primary first, then adjacent, then the rest; ties in the findings' order.
        order = {f["id"]: n for n, f in enumerate(findings)}
        keys = [(BANDS.index(bands[i]), order[i]) for i in queue]
        assert keys == sorted(keys)
        expected_bands.update(bands.values())
    assert dict(result.bands) == {b: expected_bands[b] for b in BANDS}
    pairs = sum(len(specialists) - 1 for _ in findings)
    assert sum(result.bands.values()) == result.pairs == pairs
    listed = set(_domains(profile))
    assert set(result.unlisted) == {f["domain"] for f in findings} - listed


def test_seed_examples_in_detail() -> None:
    result = route(
        [
            {"id": "A", "originator": "CORR", "domain": "injection"},
            {"id": "B", "originator": "QUAL", "domain": "error-handling"},
            {"id": "C", "originator": "SEC", "domain": "races"},
            {"id": "D", "originator": "SEC", "domain": "logging"},
        ],
        "code",
    )
    assert result.queues["SEC"] == ("A", "B")  # primary, then adjacent
    assert result.queues["CORR"] == ("C", "B", "D")  # races is CORR's primary
    assert result.queues["QUAL"] == ("A", "C", "D")  # all rest: the findings' order
    assert dict(result.bands) == {"primary": 2, "adjacent": 1, "rest": 13}
    assert result.unlisted == ("logging",)
    assert band_of("error-handling", "QUAL", "code") == "primary"
    assert band_of("error-handling", "SEC", "code") == "adjacent"
    assert band_of("Auth", "SEC", "code") == "rest"  # domains compare exactly
    doc = result.to_dict()
    assert doc["queues"]["SEC"] == ["A", "B"]
    assert doc["routes"]["SEC"][1] == {"id": "B", "band": "adjacent"}
    assert doc["pairs"] == 16  # 4 findings x 4 other specialists
    assert doc["unlisted_domains"] == ["logging"]


def test_accepts_read_only_mappings_and_tuples() -> None:
    f = MappingProxyType({"id": "A", "originator": "SEC", "domain": "io"})
    assert route((f,), "code").queues["PERF"] == ("A",)


@pytest.mark.parametrize("profile", ["Code", "", "security", None, 1])
def test_unknown_profile(profile: Any) -> None:
    with pytest.raises(KernelError, match="unknown profile"):
        route([], profile)


def test_unknown_specialist_code() -> None:
    with pytest.raises(KernelError, match="unknown specialist 'USER' for the code profile"):
        band_of("ux", "USER", "code")
    with pytest.raises(PanelInputError) as exc:
        route([{"id": "A", "originator": "USER", "domain": "ux"}], "code")
    assert [str(p) for p in exc.value.problems] == [
        "/0/originator: 'USER' is not a specialist of the code profile "
        "(expected one of SEC, PERF, QUAL, CORR, ARCH)"
    ]


@pytest.mark.parametrize(
    ("findings", "where"),
    [
        ([{"id": "A", "originator": "SEC"}], "/0"),
        ([{"id": "", "originator": "SEC", "domain": "io"}], "/0/id"),
        ([{"id": "A", "originator": "SEC", "domain": 3}], "/0/domain"),
        ([{"id": "A", "originator": "SEC", "domain": "io"}, "F2"], "/1"),
        (
            [
                {"id": "A", "originator": "SEC", "domain": "io"},
                {"id": "A", "originator": "ARCH", "domain": "io"},
            ],
            "/1/id",
        ),
    ],
)
def test_bad_findings_name_the_json_path(findings: list[Any], where: str) -> None:
    with pytest.raises(PanelInputError) as exc:
        route(findings, "code")
    assert [p.where for p in exc.value.problems] == [where]


@pytest.mark.parametrize("findings", ["F1", {"id": "A"}, 3, None])
def test_findings_must_be_a_list(findings: Any) -> None:
    with pytest.raises(KernelError, match="findings must be a list"):
        route(findings, "code")


def test_document_forms() -> None:
    f = {"id": "A", "originator": "SEC", "domain": "io"}
    assert route_document([f], "code") == route_document({"findings": [f], "x": 1}, "code")
    with pytest.raises(PanelInputError) as exc:
        route_document({"findings": [{"id": "A"}]}, "code")
    assert {p.where for p in exc.value.problems} == {"/findings/0"}
    with pytest.raises(PanelInputError, match="'findings' array"):
        route_document({"items": []}, "code")
    with pytest.raises(PanelInputError, match="is not of type 'array'"):
        route_document({"findings": 3}, "code")
