"""Re-review bundles for benchmarks, tests and examples: a compact description of a round
(:class:`Draft`) made into the four documents and the hash-bound files by
:func:`kernel.re_review.seal.seal`, the six outcome scenarios of ``examples/re-review/``, and
bundles of any size (:func:`sized`). The tests' Hypothesis strategy for valid bundles is in
``tests/support/re_review_bundles.py``.

``python -m benchmarks.re_review_bundles examples/re-review`` rewrites the examples.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from kernel.re_review.seal import Sealed, seal

ORIGINAL = b"# Sleep and memory consolidation in adolescents\n\nVersion 1 (submitted).\n"
REVISED = b"# Sleep and memory consolidation in adolescents\n\nVersion 2 (revised).\n"
PATCH = b'{"patch": "v1 -> v2", "hunks": 14}\n'
ORIGINAL_SHA = hashlib.sha256(ORIGINAL).hexdigest()
REVISED_SHA = hashlib.sha256(REVISED).hexdigest()
PATCH_SHA = hashlib.sha256(PATCH).hexdigest()
RESPONSE_SHA = hashlib.sha256(b"response to reviewers").hexdigest()

_VERIFIER = {"EIC": "EIC", "R1": "R1", "R2": "R2", "R3": "R3"}
_ANCHORS = {
    "FULLY_ADDRESSED": 'text: sec. 3.2 "a priori power analysis (d = 0.4, alpha = .05)"',
    "PARTIALLY_ADDRESSED": 'table: Table 2 "robustness, model B only"',
    "NOT_ADDRESSED": 'absence: sec. 4 "no sensitivity analysis"',
    "MADE_WORSE": 'text: sec. 2.1 "exclusion criteria widened"',
}
_MAG = ("must_fix", "should_fix", "consider")


@dataclass(frozen=True)
class Item:
    """One roadmap item and what the round found. ``magnitude`` is the 2A residual gap's
    (PARTIALLY only); a ``final`` that differs from ``verdict`` is carried by one adjustment
    (``basis``, ``final_magnitude``), unless ``silent`` (then G1 trips)."""

    id: str
    priority: str
    severity: str | None
    verdict: str
    final: str | None = None
    magnitude: str | None = None
    final_magnitude: str | None = None
    reviewer: str = "R1"
    labels: tuple[str, ...] = ("R1",)
    criterion: str = "The revision states how the concern was met."
    silent: bool = False


@dataclass(frozen=True)
class Draft:
    """A round described compactly; :func:`build` makes it a sealed bundle."""

    items: tuple[Item, ...]
    round_id: str = "ms-2291-round-2"
    original: bool = True
    letter: bool = True
    new_issues: tuple[tuple[str, str], ...] = ()  # (attribution, severity)
    escalations: tuple[tuple[str, str, str | None], ...] = ()  # (class, impact, approval)
    reports: int = 1
    broken_last_link: bool = False


def _roadmap(draft: Draft) -> bytes:
    items = []
    for item in draft.items:
        entry: dict[str, Any] = {
            "id": item.id,
            "description": f"Concern {item.id}",
            "reviewer": item.reviewer,
            "type": "Major" if item.priority == "must_fix" else "Minor",
            "priority": item.priority,
            "target_section": "Methods",
            "verification_criteria": item.criterion,
        }
        if item.severity is not None:
            entry["severity"] = item.severity
        else:
            entry["source_kind"] = "editorial"
        items.append(entry)
    roadmap = {
        "items": items,
        "total_items": len(items),
        "must_fix_count": sum(i.priority == "must_fix" for i in draft.items),
        "editorial_decision": "Major Revision",
    }
    return (json.dumps(roadmap, indent=2, ensure_ascii=False) + "\n").encode()


def _letter_text(item: Item) -> str:
    return f"{item.criterion.rstrip('.')} (see the letter's item)."


def _letter(draft: Draft) -> bytes:
    blocks = []
    p1 = [i for i in draft.items if i.priority == "must_fix"]
    for n, item in enumerate(p1, 1):
        blocks.append(
            f"**R{n}: Concern {item.id}**\n"
            f"- **Problem**: The submitted version leaves {item.id} open.\n"
            f"- **Acceptance criteria**: {_letter_text(item)}\n"
        )
    return (
        "# Editorial Decision — Major Revision\n\n"
        "Dear authors,\n\nthe panel asks for a revision. The must-fix items follow; the "
        "others are in the roadmap.\n\n"
        "```text\nnot a block: **R9: inside a fence**\n```\n\n"
        "## Required Revisions (Must Fix)\n\n"
        "### Required Item Details\n\n" + "\n".join(blocks) + "\n## Closing\n\nThe editor\n"
    ).encode()


def _entry(
    ref: str, sha: str, label: str | None = "v1", date: str | None = "2026-03-02"
) -> dict[str, Any]:
    return {
        "present": True,
        "path_or_passport_ref": ref,
        "sha256": sha,
        "version_label": label,
        "origin_date": date,
    }


def _manifest(draft: Draft) -> dict[str, Any]:
    absent = {"present": False}
    return {
        "round_id": draft.round_id,
        "cross_model_active": False,
        "artifacts": {
            "original_manuscript": _entry("path:manuscript_v1.md", ORIGINAL_SHA)
            if draft.original
            else absent,
            "revised_manuscript": _entry("path:manuscript_v2.md", REVISED_SHA, "v2", "2026-04-20"),
            "revision_roadmap": _entry("path:roadmap.json", "0" * 64, "round-1", "2026-03-02"),
            "editorial_decision_letter": (
                _entry("path:decision_letter.md", "0" * 64, "round-1", "2026-03-01")
                if draft.letter
                else absent
            ),
            "response_to_reviewers": _entry(
                "passport:response-letter-v2", RESPONSE_SHA, "v2", "2026-04-20"
            ),
            "round1_findings": absent,
            "round1_config_cards": absent,
            "revision_patches": (
                {
                    "present": True,
                    "items": [
                        {
                            "path_or_passport_ref": f"path:patch_{n}.json",
                            "sha256": PATCH_SHA,
                            "version_label": f"p{n}",
                            "origin_date": "2026-04-19",
                        }
                        for n in range(1, draft.reports + 1)
                    ],
                }
                if draft.reports
                else absent
            ),
            "apply_reports": (
                {
                    "present": True,
                    "items": [
                        {
                            "path_or_passport_ref": f"path:apply_report_{n}.json",
                            "sha256": "0" * 64,
                            "version_label": f"a{n}",
                            "origin_date": "2026-04-19",
                        }
                        for n in range(1, draft.reports + 1)
                    ],
                }
                if draft.reports
                else absent
            ),
        },
    }


def _reports(draft: Draft) -> list[bytes]:
    drafts = (
        [ORIGINAL_SHA[:12]]
        + [hashlib.sha256(f"draft {n}".encode()).hexdigest()[:12] for n in range(1, draft.reports)]
        + [REVISED_SHA[:12]]
    )
    if draft.broken_last_link:
        drafts[-1] = "0123456789ab"
    reports = []
    for n in range(draft.reports):
        report = {
            "report_format_version": "1.2",
            "base_draft_hash": drafts[n],
            "output_draft_hash": drafts[n + 1],
            "patch_digest": PATCH_SHA,
            "applied_hunks": 14,
        }
        reports.append((json.dumps(report, indent=2) + "\n").encode())
    return reports


def _precommitment(draft: Draft) -> dict[str, Any]:
    records = []
    ordinal = 0
    for item in draft.items:
        if item.priority == "consider":
            continue
        criterion: dict[str, Any] = {"roadmap_text": item.criterion}
        operationalization = {"fully_addressed": f"The revision meets: {item.criterion}"}
        if item.priority == "must_fix":
            ordinal += 1
            if draft.letter:
                criterion["letter_text"] = _letter_text(item)
                criterion["letter_item_ref"] = f"R{ordinal}"
            operationalization["partially_addressed"] = (
                "Part of the criterion is met, a named part is not."
            )
            operationalization["made_worse_discriminator"] = (
                "The revision removes what the first version had."
            )
        records.append(
            {
                "item_id": item.id,
                "priority": item.priority,
                "inherited_criterion": criterion,
                "operationalization": operationalization,
                "expected_change_surface": "Methods",
                "equivalence_policy": "allowed",
                "source_reviewer": item.reviewer,
                "source_reviewer_labels": list(item.labels),
            }
        )
    return {
        "contract_version": "1.0",
        "round_id": draft.round_id,
        "input_manifest_hash": "",
        "items": records,
        "new_standards": [],
    }


def _gap(magnitude: str | None) -> dict[str, Any]:
    return {
        "text": "One named part of the criterion is still open.",
        "residual_magnitude": magnitude or "should_fix",
    }


def _verdict_record(draft: Draft) -> dict[str, Any]:
    records = []
    for item in draft.items:
        rec: dict[str, Any] = {"item_id": item.id, "verdict": item.verdict}
        if item.verdict == "CANNOT_VERIFY":
            rec["cannot_verify_reason"] = "The cited supplement is not in the revised package."
        else:
            rec["evidence_anchor"] = [_ANCHORS[item.verdict]]
        rec["change_summary"] = f"What changed for {item.id}."
        if item.verdict == "PARTIALLY_ADDRESSED":
            rec["residual_gap"] = _gap(item.magnitude)
        rec["verified_by"] = _VERIFIER.get(item.labels[0] if item.labels else "R1", "R1")
        rec["applied_criterion"] = (
            "not_precommitted" if item.priority == "consider" else "precommitted"
        )
        records.append(rec)
    new_issues = [
        {
            "new_issue_id": f"NEW-{n}",
            "description": f"A new problem ({attribution}).",
            "location_anchor": 'text: sec. 5 "the added subgroup analysis"',
            "severity": severity,
            "found_by": "R2",
            "confidence": 4,
            "competence_basis": "methods reviewer",
            "attribution": attribution if draft.original else "indeterminate",
            "attribution_evidence": "compared against the first version",
            "nearest_roadmap_item": None,
            "non_match_rationale": "outside every committed criterion",
        }
        for n, (attribution, severity) in enumerate(draft.new_issues, 1)
    ]
    exceptions = [
        {
            "exception_id": f"ESC-{n}",
            "escalation_class": cls,
            "reason_code": "undisclosed_conflict",
            "evidence_anchor": 'text: sec. 7 "funding statement"',
            "why_round1_missed_it": "The statement was added in the revision.",
            "mechanical_decision_impact": impact,
            "approval_state": "pending",
        }
        for n, (cls, impact, _approval) in enumerate(draft.escalations, 1)
    ]
    return {
        "round_id": draft.round_id,
        "precommitment_hash": "",
        "items": records,
        "new_issues": new_issues,
        "dissents": [],
        "escalation_exceptions": exceptions,
    }


def _basis(before: str, after: str) -> str:
    rank = {
        "MADE_WORSE": 0,
        "CANNOT_VERIFY": 0,
        "NOT_ADDRESSED": 1,
        "PARTIALLY_ADDRESSED": 2,
        "FULLY_ADDRESSED": 3,
    }
    if after in ("PARTIALLY_ADDRESSED", "FULLY_ADDRESSED") and rank[after] > rank[before]:
        return "author_pointer_located_evidence"
    return "scope_correction"


def _traceability(draft: Draft) -> dict[str, Any]:
    rows = []
    adjustments: list[dict[str, Any]] = []
    for n, item in enumerate(draft.items, 1):
        final = item.final or item.verdict
        row: dict[str, Any] = {
            "item_id": item.id,
            "concern_id": {"must_fix": "R", "should_fix": "S", "consider": "N"}[item.priority]
            + str(n),
            "priority": "",
            "original_comment": f"The first version leaves {item.id} open.",
            "authors_claim": "We revised the section as asked.",
            "revision_location": "Methods sec. 3.2",
            "verified": "",
            "status": "",
            "quality_assessment": "Checked against the precommitted criterion.",
            "final_verdict": final,
            "phase2a_verdict": "",
            "verified_by": "",
        }
        if final != item.verdict and not item.silent:
            adj_id = f"ADJ-{len(adjustments) + 1}"
            adj: dict[str, Any] = {
                "adjustment_id": adj_id,
                "item_id": item.id,
                "from_verdict": item.verdict,
                "to_verdict": final,
                "basis": _basis(item.verdict, final),
                "rationale": "The response letter points to evidence the 2A pass missed.",
                "evidence_anchor": [{"anchor": _ANCHORS[final], "anchor_artifact": "manuscript"}],
            }
            if final == "PARTIALLY_ADDRESSED":
                adj["residual_gap"] = _gap(item.final_magnitude)
            adjustments.append(adj)
            row["adjustment_id"] = adj_id
        if item.priority == "must_fix":
            row["cross_model_status"] = "not_configured"
        rows.append(row)
    approvals = [
        {"exception_id": f"ESC-{n}", "approval_state": approval, "approved_by": "user"}
        for n, (_c, _i, approval) in enumerate(draft.escalations, 1)
        if approval is not None
    ]
    return {
        "round_id": draft.round_id,
        "revision": 1,
        "verdict_record_hash": "",
        "rows": rows,
        "adjustments": adjustments,
        "new_issues": [],
        "post_letter_observations": [
            "The response letter cites page numbers of the tracked-changes copy."
        ],
        "dissent_adjudications": [],
        "resolution_intents": [],
        "cross_model_resolutions": [],
        "rebuttal_adjudications": [],
        "g2d_acceptances": [],
        "pending_rebuttal_upgrades": [],
        "escalation_approvals": approvals,
        "reapplications": [],
        "decision_inputs": {},
        "decision_state": "Accept",
    }


def records(draft: Draft) -> dict[str, Any]:
    """The unsealed documents and files of ``draft`` (the keyword arguments of ``seal``)."""
    return {
        "manifest": _manifest(draft),
        "precommitment": _precommitment(draft),
        "verdict_record": _verdict_record(draft),
        "traceability": _traceability(draft),
        "roadmap": _roadmap(draft),
        "letter": _letter(draft) if draft.letter else None,
        "apply_reports": _reports(draft),
    }


def build(draft: Draft) -> Sealed:
    """``draft`` sealed."""
    return seal(**records(draft))


def folder_files(sealed: Sealed) -> dict[str, bytes]:
    """Every file of the bundle's folder (the manuscripts and patches too, so that the
    command can hash them)."""
    files = dict(sealed.files())
    artifacts = sealed.manifest["artifacts"]
    if artifacts["original_manuscript"]["present"]:
        files["manuscript_v1.md"] = ORIGINAL
    files["manuscript_v2.md"] = REVISED
    for entry in artifacts["revision_patches"].get("items", []):
        files[entry["path_or_passport_ref"][len("path:") :]] = PATCH
    return files


def write(sealed: Sealed, folder: str) -> None:
    os.makedirs(folder, exist_ok=True)
    for name, data in folder_files(sealed).items():
        with open(os.path.join(folder, name), "wb") as handle:
            handle.write(data)


# --- the six outcomes of examples/re-review -------------------------------------------------

F, P, N, W, C = (
    "FULLY_ADDRESSED",
    "PARTIALLY_ADDRESSED",
    "NOT_ADDRESSED",
    "MADE_WORSE",
    "CANNOT_VERIFY",
)

_POWER = Item(
    "REV-001",
    "must_fix",
    "major",
    P,
    F,
    magnitude="must_fix",
    reviewer="Peer Reviewer 1 (Methodology)",
    labels=("R1",),
    criterion="A power analysis with a stated effect size appears in Methods.",
)
_ROBUST = Item(
    "REV-002",
    "must_fix",
    "major",
    F,
    reviewer="R2",
    labels=("R2",),
    criterion="A robustness table covers both alternative specifications.",
)
_LIMITS = Item(
    "REV-003",
    "should_fix",
    "minor",
    F,
    reviewer="EIC",
    labels=("EIC",),
    criterion="A limitations paragraph names the generalisability bounds.",
)
_FIGURE = Item(
    "REV-004",
    "consider",
    None,
    N,
    reviewer="EIC",
    labels=("EIC",),
    criterion="A pipeline figure exists, or its omission is argued.",
)

SCENARIOS: dict[str, Draft] = {
    "accept": Draft(
        (_POWER, _ROBUST, _LIMITS, _FIGURE), new_issues=(("previously_missed", "major"),)
    ),
    "minor-revision": Draft(
        (
            replace(_POWER, final=None, magnitude="should_fix"),
            _ROBUST,
            replace(_LIMITS, verdict=N),
            _FIGURE,
        ),
    ),
    "major-reject": Draft(
        (replace(_POWER, severity="critical", verdict=W, final=None), _ROBUST, _LIMITS, _FIGURE),
        new_issues=(("regression", "major"),),
    ),
    "user-review-required": Draft(
        (_POWER, _ROBUST, _LIMITS, _FIGURE),
        escalations=(("research_integrity", "Major Revision", None),),
    ),
    "aborted-criteria-drift": Draft(
        (_POWER, replace(_ROBUST, final=N, silent=True), _LIMITS, _FIGURE),
    ),
    "aborted-manifest-hash-mismatch": Draft(
        (_POWER, _ROBUST, _LIMITS, _FIGURE),
        reports=2,
        broken_last_link=True,
    ),
}
#: What each example decides: (decision_state, abort_reason, base_rule, reject_recommended).
OUTCOMES: dict[str, tuple[str, str | None, str | None, bool | None]] = {
    "accept": ("Accept", None, "B6", False),
    "minor-revision": ("Minor Revision", None, "B5", False),
    "major-reject": ("Major Revision", None, "B1", True),
    "user-review-required": ("user_review_required", None, None, None),
    "aborted-criteria-drift": ("aborted", "criteria_drift", None, None),
    "aborted-manifest-hash-mismatch": ("aborted", "manifest_hash_mismatch", None, None),
}


def sized(count: int) -> Draft:
    """A bundle of ``count`` items (benchmarks): every fifth a P1 item, a few adjusted."""
    found = []
    for n in range(1, count + 1):
        priority = ("must_fix", "should_fix", "should_fix", "consider", "should_fix")[n % 5]
        verdict = (F, P, F, N, F, C, F)[n % 7]
        final = F if verdict == P and n % 3 == 0 else verdict
        found.append(
            Item(
                f"REV-{n:04d}",
                priority,
                ("major", "minor", None)[n % 3],
                verdict,
                final,
                magnitude=_MAG[n % 3],
                reviewer="R1",
                labels=("R1",),
            )
        )
    return Draft(tuple(found), new_issues=(("previously_missed", "minor"),))


def main(argv: list[str]) -> int:
    target = argv[0] if argv else "examples/re-review"
    for name, draft in SCENARIOS.items():
        write(build(draft), os.path.join(target, name))
    return 0


def scenario_files(name: str) -> Mapping[str, bytes]:
    return folder_files(build(SCENARIOS[name]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
