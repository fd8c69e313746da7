"""A 13.2 report with a wrong field value gets one finding naming the allowed values, as
Schema 13's lint names them (issue 31)."""

from __future__ import annotations

import pytest
from support import paths

from kernel import decide_documents, lint_phase2, load_contract

EXAMPLE = paths.ROOT / "examples" / "full-13.2"
CONTRACT = load_contract(str(EXAMPLE / "contract.json"))
ROLES = ("eic", "methodology", "domain", "perspective", "da")
ALL_ROLES = "eic, methodology, domain, perspective, da"


def _errors(role: str, old: str, new: str) -> list[tuple[str, str]]:
    text = (EXAMPLE / f"{role}.phase2.md").read_text()
    assert old in text
    report = lint_phase2(text.replace(old, new, 1), CONTRACT)
    return [(f.code, f.message) for f in report.errors]


@pytest.mark.parametrize(
    ("role", "old", "new", "said"),
    [
        # regression: P2-109 "must be a canonical unbulleted field line" plus P2-108 "found 0"
        ("methodology", "score: warn", "score: Warn", "score 'Warn' in D1 is not one of "
         "block, warn, pass, not_assessed"),
        ("methodology", "score: warn", "score: warning", "score 'warning' in D1 is not one of "
         "block, warn, pass, not_assessed"),
        ("da", "block_class: repairable", "block_class: fatl", "block_class 'fatl' in D6 is "
         "not one of fatal, repairable"),
        ("eic", "contract_role: eic", "contract_role: EIC", f"contract_role 'EIC' is not one "
         f"of {ALL_ROLES}"),
    ],
)  # fmt: skip
def test_a_wrong_value_is_one_finding_naming_the_allowed_values(
    role: str, old: str, new: str, said: str
) -> None:
    key = old.partition(":")[0]
    allowed = said.rpartition(" is not one of ")[2].split(", ")
    fix = "write one of " + ", ".join(f"{key}: {v}" for v in allowed)
    assert _errors(role, old, new) == [("P2-109", f"[REPORT-PARSE: document: {said}] {fix}")]


def test_a_role_the_mode_lacks_names_the_mode_s_roles_and_keeps_its_tag() -> None:
    found = _errors("eic", "contract_role: eic", "contract_role: chair")
    assert found == [
        (
            "P2-105",
            "[REPORT-ROLE: document: role=chair is not valid for reviewer_full] "
            f"write 'contract_role: <role>' with one of the roles of reviewer_full: {ALL_ROLES}",
        )
    ]
    seats = [(r, (EXAMPLE / f"{r}.phase2.md").read_text(), None) for r in ROLES]
    seats[0] = (
        "eic",
        seats[0][1].replace("contract_role: eic", "contract_role: chair", 1),
        None,
    )
    outcome = decide_documents(CONTRACT, seats)
    # the round's tag is upstream's, without the hint
    assert "[REPORT-ROLE: eic: role=chair is not valid for reviewer_full]" in outcome.tags


def test_a_decorated_line_is_still_named_as_decorated() -> None:
    found = _errors("methodology", "score: warn", "- score: warn")
    assert ("P2-109", "[REPORT-PARSE: document: score: line in D1 must be a canonical "
            "unbulleted field line at column 0, outside HTML] write one of score: block, "
            "score: warn, score: pass, score: not_assessed") in found  # fmt: skip
    # one defect, one finding: no "found 0" count beside it (issue 39)
    assert "P2-108" not in {code for code, _ in found}
