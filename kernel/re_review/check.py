"""``check_re_review``: every check of design §4 over a bundle, and the recomputed decision.

Layers L1 (manifest) … L7 (hash chain) run in order and the first with an error stops the
check (grade 2, that layer's abort reason); L8 (cross-document rules, ``decision_inputs`` and
emission equality) reports every error it finds (grade 1, ``synthesis_mismatch``). Notes
(RR-9xx) never fail.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.diagnostics import Diagnostic
from kernel.errors import InputError
from kernel.re_review.canonical import canonical_json, check_value_domain
from kernel.re_review.cross import cross_document, emission
from kernel.re_review.decision import ReReviewDecision, aborted, decide_records
from kernel.re_review.findings import Findings, is_text
from kernel.re_review.load import Document, ReReviewBundle, path_ref_problem
from kernel.re_review.model import (
    ARTIFACT_KEYS,
    PRIORITIES,
    SEVERITIES,
    SINGLE_ARTIFACTS,
    VERDICT_RANK,
    ReReviewError,
    abort_tag,
)
from kernel.re_review.schemas import document_schema_errors
from kernel.re_review.seal import apply_chain_witness
from kernel.strict import shown

__all__ = ["ReReviewReport", "check_re_review"]

_INCOMPLETE: Final = "manifest_incomplete"
_MISMATCH: Final = "manifest_hash_mismatch"
_SHA256: Final = re.compile(r"[0-9a-f]{64}")
_REPORT_AT: Final = re.compile(r"apply report \[([0-9]+)\]")
_FRESHNESS: Final = ("version_label", "origin_date")
_SINGLE_KEYS: Final = frozenset({"present", "path_or_passport_ref", "sha256", *_FRESHNESS})
_ITEM_KEYS: Final = frozenset({"path_or_passport_ref", "sha256", *_FRESHNESS})


@attrs.frozen
class ReReviewReport:
    """What ``check_re_review`` found (§6).

    ``grade`` is upstream's exit code: 0 the emission is right, 1 an L8 error
    (``synthesis_mismatch``), 2 an L1-L7 error (that layer's reason). ``decision`` is the
    recomputed :class:`~kernel.re_review.decision.ReReviewDecision`; ``decision_state`` the
    emitted state once verified (else ``None``).
    """

    grade: int
    abort_reason: str | None
    diagnostics: tuple[Diagnostic, ...]
    decision: ReReviewDecision
    decision_state: str | None = None
    witness: str | None = None
    round_id: str | None = None
    revision: int | None = None

    @property
    def ok(self) -> bool:
        return self.grade == 0

    @property
    def tag(self) -> str | None:
        """``[RE-REVIEW-ABORT: <reason>]`` when the check failed."""
        return None if self.abort_reason is None else abort_tag(self.abort_reason)

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")

    @property
    def notes(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity != "error")

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "grade": self.grade,
            "abort_reason": self.abort_reason,
            "tag": self.tag,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "decision": self.decision.to_dict(),
            "decision_state": self.decision_state,
            "witness": self.witness,
            "round_id": self.round_id,
            "revision": self.revision,
        }


class _Stop(Exception):
    """An L1-L7 layer failed: its abort reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --- L1: the manifest ----------------------------------------------------------------------


def _entry_fields(
    out: Findings, doc: Document, path: list[str | int], entry: Mapping[str, Any]
) -> None:
    """Ref, sha256 and freshness of one single entry or array item."""
    ref = entry.get("path_or_passport_ref")
    passport = False
    if "path_or_passport_ref" in entry:
        if isinstance(ref, str) and ref.startswith("passport:") and ref != "passport:":
            passport = True
        elif isinstance(ref, str) and ref.startswith("path:"):
            problem = path_ref_problem(ref[len("path:") :])
            if problem is not None:
                out.add(
                    "RR-004", doc, [*path, "path_or_passport_ref"], f"path ref {problem}", ref=ref
                )
        else:
            out.add(
                "RR-003",
                doc,
                [*path, "path_or_passport_ref"],
                f"{shown(ref)} is not a passport:<text> or path:<p> ref",
            )
    if "sha256" in entry:
        sha = entry.get("sha256")
        if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
            out.add("RR-005", doc, [*path, "sha256"], f"{shown(sha)} is not 64 lowercase hex")
    for name in _FRESHNESS:
        if name not in entry:
            out.add("RR-006", doc, path, f"{name} is missing (text or null)", field=name)
            continue
        value = entry[name]
        if value is None:
            if passport:
                out.add(
                    "RR-007", doc, [*path, name], f"{name} is null on a passport: ref", field=name
                )
        elif not is_text(value):
            out.add(
                "RR-006",
                doc,
                [*path, name],
                f"{name} is {shown(value)}, not text or null",
                field=name,
            )


def _manifest_layer(out: Findings, doc: Document) -> None:
    value = doc.value
    if not isinstance(value, dict):
        out.add("RR-001", doc, [], "the manifest is not a JSON object")
        return
    for key in sorted(set(value) ^ {"round_id", "cross_model_active", "artifacts"}):
        what = "unknown member" if key in value else "missing member"
        out.add("RR-001", doc, [key] if key in value else [], f"{what} {key!r}", field=key)
    if "round_id" in value and not is_text(value["round_id"]):
        out.add("RR-001", doc, ["round_id"], "round_id is not text")
    if "cross_model_active" in value and not isinstance(value["cross_model_active"], bool):
        out.add("RR-001", doc, ["cross_model_active"], "cross_model_active is not a boolean")
    artifacts = value.get("artifacts")
    if not isinstance(artifacts, dict):
        if "artifacts" in value:
            out.add("RR-001", doc, ["artifacts"], "artifacts is not an object")
        return
    for key in sorted(set(artifacts) ^ set(ARTIFACT_KEYS)):
        what = "unknown artifact" if key in artifacts else "missing artifact"
        path: list[str | int] = ["artifacts", key] if key in artifacts else ["artifacts"]
        out.add("RR-001", doc, path, f"{what} {key!r}", field=key)
    present: dict[str, bool] = {}
    for key in ARTIFACT_KEYS:
        entry = artifacts.get(key)
        path = ["artifacts", key]
        if key not in artifacts:
            continue
        if not isinstance(entry, dict) or not isinstance(entry.get("present"), bool):
            out.add("RR-001", doc, path, "not an object with a boolean present", artifact=key)
            continue
        present[key] = entry["present"]
        if not entry["present"]:
            if set(entry) != {"present"}:
                extra = sorted(set(entry) - {"present"})
                out.add(
                    "RR-002",
                    doc,
                    path,
                    f"absent artifact carries {', '.join(extra)}",
                    field=extra[0],
                )
            continue
        if key in SINGLE_ARTIFACTS:
            for name in sorted(set(entry) - _SINGLE_KEYS):
                out.add("RR-001", doc, [*path, name], f"unknown member {name!r}", field=name)
            for name in ("path_or_passport_ref", "sha256"):
                if name not in entry:
                    out.add("RR-001", doc, path, f"missing member {name!r}", field=name)
            _entry_fields(out, doc, path, entry)
            continue
        for name in sorted(set(entry) - {"present", "items"}):
            out.add("RR-001", doc, [*path, name], f"unknown member {name!r}", field=name)
        items = entry.get("items")
        if not isinstance(items, list) or not items:
            out.add("RR-008", doc, path, "items is missing, empty or not an array")
            continue
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                out.add("RR-008", doc, [*path, "items", i], "item is not an object")
                continue
            for name in sorted(set(item) - _ITEM_KEYS):
                out.add(
                    "RR-001", doc, [*path, "items", i, name], f"unknown member {name!r}", field=name
                )
            for name in ("path_or_passport_ref", "sha256"):
                if name not in item:
                    out.add("RR-008", doc, [*path, "items", i], f"item lacks {name!r}", field=name)
            _entry_fields(out, doc, [*path, "items", i], item)
    for key in ("revised_manuscript", "revision_roadmap"):
        if present.get(key) is False:
            out.add("RR-009", doc, ["artifacts", key], f"{key} must be present", artifact=key)
    if present.get("apply_reports") and present.get("revision_patches") is False:
        out.add(
            "RR-010", doc, ["artifacts", "apply_reports"], "apply reports without revision patches"
        )
    if present.get("apply_reports") and present.get("revision_patches"):
        reports = artifacts["apply_reports"].get("items")
        patches = artifacts["revision_patches"].get("items")
        if isinstance(reports, list) and isinstance(patches, list) and len(reports) != len(patches):
            out.add(
                "RR-011",
                doc,
                ["artifacts", "apply_reports"],
                f"{len(reports)} apply report(s) but {len(patches)} revision patch(es)",
                expected=len(patches),
                emitted=len(reports),
            )
    if out.errors():
        return
    for error in document_schema_errors("manifest", value):
        out.add("RR-001", doc, [], error.message, at=error.json_path)
    if out.errors():
        return
    letter = artifacts["editorial_decision_letter"]
    roadmap = artifacts["revision_roadmap"]
    if (
        letter["present"]
        and letter["origin_date"] is not None
        and roadmap["origin_date"] is not None
        and roadmap["origin_date"] < letter["origin_date"]
    ):
        out.add(
            "RR-012",
            doc,
            ["artifacts", "revision_roadmap", "origin_date"],
            f"the roadmap's origin_date {roadmap['origin_date']!r} sorts before the "
            f"letter's {letter['origin_date']!r}",
            expected=letter["origin_date"],
            emitted=roadmap["origin_date"],
        )


# --- L2: hash-bound files ------------------------------------------------------------------


def _surrogate(value: object) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            try:
                node.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _bytes_layer(
    out: Findings, doc: Document, key: str, entry: Mapping[str, Any], where: Sequence[str | int]
) -> bool:
    """Hash, then readability, of one hash-bound file: ``False`` when it failed."""
    if not doc.supplied:
        out.add(
            "E-READ",
            doc,
            [],
            "not supplied: the manifest names it by a passport: ref and no file was given",
            artifact=key,
        )
        return False
    if doc.data is None:
        out.unreadable(doc, doc.error or InputError(f"{doc.name}: cannot be read"))
        return False
    actual = hashlib.sha256(doc.data).hexdigest()
    if actual != entry.get("sha256"):
        out.add(
            "RR-013",
            doc,
            [],
            f"its bytes hash to {actual}, the manifest says "
            f"{entry.get('sha256')} (at {'/'.join(map(str, where))})",
            expected=entry.get("sha256"),
            emitted=actual,
        )
        return False
    if doc.error is not None:
        out.unreadable(doc, doc.error)
        return False
    if doc.name != "letter" and _surrogate(doc.value):
        out.add("E-JSON", doc, [], "holds a lone surrogate (not UTF-8 text)")
        return False
    return True


def _roadmap_form(out: Findings, doc: Document) -> None:
    value = doc.value
    items = value.get("items") if isinstance(value, dict) else None
    if not isinstance(items, list):
        out.add("RR-014", doc, [], "not a JSON object with an items array")
        return
    seen: set[str] = set()
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            out.add("RR-014", doc, ["items", i], "item is not an object")
            return
        item_id = item.get("id")
        if not isinstance(item_id, str) or not re.fullmatch(r"REV-[A-Za-z0-9-]+", item_id):
            out.add("RR-014", doc, ["items", i, "id"], f"id {shown(item_id)} is not REV-…")
            return
        if item_id in seen:
            out.add("RR-014", doc, ["items", i, "id"], f"id {item_id} repeats", item=item_id)
            return
        seen.add(item_id)
        if item.get("priority") not in PRIORITIES:
            out.add(
                "RR-014",
                doc,
                ["items", i, "priority"],
                f"priority {shown(item.get('priority'))} is not one of {', '.join(PRIORITIES)}",
                item=item_id,
            )
            return
        for name in ("verification_criteria", "reviewer"):
            if not is_text(item.get(name)):
                out.add(
                    "RR-014",
                    doc,
                    ["items", i],
                    f"{name} is missing or not text",
                    item=item_id,
                    field=name,
                )
                return
        if item.get("severity") is not None and item["severity"] not in SEVERITIES:
            out.add(
                "RR-014",
                doc,
                ["items", i, "severity"],
                f"severity {shown(item['severity'])} is not critical, major or minor",
                item=item_id,
            )
            return
        if item.get("source_kind") is not None and item["source_kind"] not in (
            "question",
            "editorial",
        ):
            out.add(
                "RR-014",
                doc,
                ["items", i, "source_kind"],
                f"source_kind {shown(item['source_kind'])} is not question or editorial",
                item=item_id,
            )
            return


def _files_layer(out: Findings, bundle: ReReviewBundle, artifacts: Mapping[str, Any]) -> None:
    road = bundle.roadmap
    if not _bytes_layer(
        out,
        road,
        "revision_roadmap",
        artifacts["revision_roadmap"],
        ["artifacts", "revision_roadmap", "sha256"],
    ):
        return
    _roadmap_form(out, road)
    if out.errors():
        return
    letter_entry = artifacts["editorial_decision_letter"]
    letter = bundle.letter
    if letter_entry["present"] and not letter.supplied:
        out.add(
            "RR-015",
            letter,
            [],
            "the manifest declares the letter present but none was supplied",
            artifact="editorial_decision_letter",
        )
        return
    if not letter_entry["present"] and letter.supplied:
        out.add(
            "RR-016",
            letter,
            [],
            "a letter was supplied but the manifest declares it absent",
            artifact="editorial_decision_letter",
        )
        return
    if letter.supplied and not _bytes_layer(
        out,
        letter,
        "editorial_decision_letter",
        letter_entry,
        ["artifacts", "editorial_decision_letter", "sha256"],
    ):
        return
    entry = artifacts["apply_reports"]
    declared = entry.get("items", []) if entry["present"] else []
    reports = bundle.apply_reports or ()
    if len(reports) != len(declared):
        out.add(
            "RR-017",
            Document("apply_reports"),
            [],
            f"{len(reports)} apply report(s) supplied, the manifest declares {len(declared)}",
            expected=len(declared),
            emitted=len(reports),
        )
        return
    for i, (doc, item) in enumerate(zip(reports, declared, strict=True)):
        if not _bytes_layer(
            out,
            doc,
            f"apply_reports[{i}]",
            item,
            ["artifacts", "apply_reports", "items", i, "sha256"],
        ):
            return


# --- L3: the apply-chain witness -----------------------------------------------------------


def _witness_layer(out: Findings, bundle: ReReviewBundle, manifest: Mapping[str, Any]) -> str:
    reports = bundle.apply_reports or ()
    try:
        witness = apply_chain_witness(manifest, [doc.value for doc in reports])
    except ReReviewError as exc:
        found = _REPORT_AT.search(exc.message)
        index = int(found.group(1)) if found else 0
        doc = reports[index] if index < len(reports) else Document("apply_reports")
        out.add(exc.code or "RR-018", doc, [], exc.message, report=index)
        raise _Stop(exc.abort_reason or _INCOMPLETE) from None
    for index, note in witness.notes:
        out.add("RR-901", reports[index], [], note, report=index)
    return witness.state


# --- L4-L6: the phase documents' schemas ---------------------------------------------------

_Rule = Callable[[Findings, Document, Mapping[str, Any]], None]


def _records(value: Mapping[str, Any], key: str) -> list[tuple[int, Mapping[str, Any]]]:
    found = value.get(key)
    if not isinstance(found, list):
        return []
    return [(i, r) for i, r in enumerate(found) if isinstance(r, dict)]


def _pre_rules(out: Findings, doc: Document, value: Mapping[str, Any]) -> None:
    for i, rec in _records(value, "items"):
        path: list[str | int] = ["items", i]
        item = rec.get("item_id")
        crit = rec.get("inherited_criterion")
        crit = crit if isinstance(crit, dict) else {}
        op = rec.get("operationalization")
        op = op if isinstance(op, dict) else {}
        if ("letter_text" in crit) != ("letter_item_ref" in crit):
            out.add(
                "RR-102",
                doc,
                [*path, "inherited_criterion"],
                "letter_text and letter_item_ref go together",
                item=item,
            )
        letter = "letter_text" in crit or "letter_item_ref" in crit
        extra = [k for k in ("partially_addressed", "made_worse_discriminator") if k in op]
        if rec.get("priority") == "should_fix":
            if letter:
                out.add(
                    "RR-103",
                    doc,
                    [*path, "inherited_criterion"],
                    "letter fields on a should_fix record",
                    item=item,
                )
            if extra:
                out.add(
                    "RR-105",
                    doc,
                    [*path, "operationalization"],
                    f"a should_fix record has {', '.join(extra)}",
                    item=item,
                )
        elif rec.get("priority") == "must_fix" and len(extra) < 2:
            out.add(
                "RR-104",
                doc,
                [*path, "operationalization"],
                "a must_fix record needs partially_addressed and made_worse_discriminator",
                item=item,
            )


def _payload(
    out: Findings,
    doc: Document,
    path: list[str | int],
    rec: Mapping[str, Any],
    verdict: object,
    codes: tuple[str, str],
    item: object,
) -> None:
    """Anchors/reason by CANNOT_VERIFY (``codes[0]``), residual_gap by PARTIALLY
    (``codes[1]``)."""
    if verdict == "CANNOT_VERIFY":
        if "evidence_anchor" in rec or "cannot_verify_reason" not in rec:
            out.add(
                codes[0],
                doc,
                path,
                "a CANNOT_VERIFY verdict takes cannot_verify_reason and no evidence_anchor",
                item=item,
            )
    elif isinstance(verdict, str) and (
        "evidence_anchor" not in rec or "cannot_verify_reason" in rec
    ):
        out.add(
            codes[0],
            doc,
            path,
            f"a {verdict} verdict takes evidence_anchor and no cannot_verify_reason",
            item=item,
        )
    if isinstance(verdict, str) and (verdict == "PARTIALLY_ADDRESSED") != ("residual_gap" in rec):
        out.add(
            codes[1], doc, path, "residual_gap goes exactly with PARTIALLY_ADDRESSED", item=item
        )


def _vr_rules(out: Findings, doc: Document, value: Mapping[str, Any]) -> None:
    for i, rec in _records(value, "items"):
        item = rec.get("item_id")
        _payload(out, doc, ["items", i], rec, rec.get("verdict"), ("RR-122", "RR-123"), item)
        applied = rec.get("applied_criterion")
        if "applied_criterion" in rec and not (
            applied in ("precommitted", "not_precommitted")
            or (isinstance(applied, str) and re.fullmatch(r"dissented:DIS-[1-9][0-9]*", applied))
        ):
            out.add(
                "RR-124",
                doc,
                ["items", i, "applied_criterion"],
                f"{shown(applied)} is not precommitted, not_precommitted or dissented:DIS-n",
                item=item,
            )


_SOURCE: Final = {
    "user_accepted_fail_closed": "acceptance:ACC-",
    "cross_model_adjudication": "reapplication:RAP-",
}
_CHECK: Final = re.compile(
    r"adjudicated:RADJ-[1-9][0-9]*|single_family_disclosed|pass_unavailable_disclosed"
)


def _tr_rules(out: Findings, doc: Document, value: Mapping[str, Any]) -> None:
    revision = value.get("revision")
    if (
        isinstance(revision, int)
        and not isinstance(revision, bool)
        and (revision >= 2) != ("supersedes_hash" in value)
    ):
        out.add("RR-142", doc, ["revision"], "supersedes_hash goes exactly with revision ≥ 2")
    if "decision_state" in value and (value["decision_state"] == "aborted") != (
        "abort_reason" in value
    ):
        out.add("RR-143", doc, ["decision_state"], "abort_reason goes exactly with aborted")
    for i, row in _records(value, "rows"):
        item = row.get("item_id")
        path: list[str | int] = ["rows", i]
        if row.get("priority") == "MUST_FIX":
            if "cross_model_status" not in row:
                out.add("RR-144", doc, path, "a MUST_FIX row needs cross_model_status", item=item)
        elif "cross_model_status" in row or "cross_model_verdict" in row:
            out.add("RR-145", doc, path, "only a MUST_FIX row has cross-model members", item=item)
            continue
        if "cross_model_status" in row and (row["cross_model_status"] in ("agree", "diverges")) != (
            "cross_model_verdict" in row
        ):
            out.add(
                "RR-146",
                doc,
                path,
                "cross_model_verdict goes exactly with agree or diverges",
                item=item,
            )
    for i, adj in _records(value, "adjustments"):
        item = adj.get("item_id")
        path = ["adjustments", i]
        to, basis = adj.get("to_verdict"), adj.get("basis")
        _payload(out, doc, path, adj, to, ("RR-147", "RR-150"), item)
        if (
            isinstance(to, str)
            and isinstance(basis, str)
            and (to == "CANNOT_VERIFY") != (basis == "user_accepted_fail_closed")
        ):
            out.add(
                "RR-148",
                doc,
                path,
                "CANNOT_VERIFY is the target exactly of user_accepted_fail_closed",
                item=item,
            )
        if basis in ("author_pointer_located_evidence", "scope_correction"):
            anchors = adj.get("evidence_anchor")
            for j, anchor in enumerate(anchors if isinstance(anchors, list) else []):
                if isinstance(anchor, dict) and anchor.get("anchor_artifact") == "letter":
                    out.add(
                        "RR-149",
                        doc,
                        [*path, "evidence_anchor", j],
                        f"a letter-tagged anchor on {basis}",
                        item=item,
                    )
        frm = adj.get("from_verdict")
        if basis == "valid_rebuttal" and (frm == "FULLY_ADDRESSED" or to != "FULLY_ADDRESSED"):
            out.add(
                "RR-151",
                doc,
                path,
                "valid_rebuttal moves a non-FULLY verdict to FULLY_ADDRESSED",
                item=item,
            )
        if basis == "author_pointer_located_evidence" and not (
            to in ("PARTIALLY_ADDRESSED", "FULLY_ADDRESSED")
            and isinstance(frm, str)
            and frm in VERDICT_RANK
            and VERDICT_RANK[str(frm)] < VERDICT_RANK[str(to)]
        ):
            out.add(
                "RR-152",
                doc,
                path,
                "author_pointer_located_evidence is a strict upgrade to PARTIALLY or FULLY",
                item=item,
            )
        source = adj.get("source_ref")
        want = _SOURCE.get(str(basis))
        if isinstance(basis, str) and (
            (want is None and "source_ref" in adj)
            or (want is not None and not (isinstance(source, str) and source.startswith(want)))
        ):
            out.add(
                "RR-153",
                doc,
                path,
                f"source_ref {shown(source)} does not fit basis {basis}",
                item=item,
            )
        if "critical_rebuttal_check" in adj and (
            basis != "valid_rebuttal"
            or not isinstance(adj["critical_rebuttal_check"], str)
            or not _CHECK.fullmatch(adj["critical_rebuttal_check"])
        ):
            out.add(
                "RR-154",
                doc,
                [*path, "critical_rebuttal_check"],
                "critical_rebuttal_check is only on valid_rebuttal, with a known value",
                item=item,
            )
    for i, intent in _records(value, "resolution_intents"):
        if intent.get("answered_by") == "system" and "guidance_note" in intent:
            out.add(
                "RR-155",
                doc,
                ["resolution_intents", i],
                "a system intent has no guidance_note",
                item=intent.get("item_id"),
            )
    for i, res in _records(value, "cross_model_resolutions"):
        if res.get("resolved_by") == "user" and res.get("state") == "primary_revised":
            out.add(
                "RR-156",
                doc,
                ["cross_model_resolutions", i],
                "a user resolution is primary_upheld",
                item=res.get("item_id"),
            )


_PHASES: Final[tuple[tuple[str, str, str, _Rule], ...]] = (
    ("precommitment", "RR-101", "phase1_lint_failed", _pre_rules),
    ("verdict_record", "RR-121", "phase2a_lint_failed", _vr_rules),
    ("traceability", "RR-141", "phase2b_lint_failed", _tr_rules),
)


def _phase_layer(out: Findings, doc: Document, shape: str, rules: _Rule) -> None:
    if not doc.ok:
        out.unreadable(doc, doc.error or InputError(f"{doc.name}: not supplied"))
        return
    value = doc.value
    if isinstance(value, dict):
        rules(out, doc, value)
    if out.errors():
        return
    for error in document_schema_errors(doc.name, value):
        out.add(shape, doc, [], error.message, at=error.json_path)
    if out.errors():
        return
    try:
        if doc.name == "traceability":  # nothing hashes the sidecar: the guard alone
            check_value_domain(value)
        else:
            out.hashes[doc.name] = hashlib.sha256(canonical_json(value)).hexdigest()
    except ReReviewError as exc:
        out.add(shape, doc, [], exc.message)


# --- L7: the hash chain --------------------------------------------------------------------


def _chain_layer(out: Findings, bundle: ReReviewBundle) -> None:
    links = (
        ("RR-201", bundle.precommitment, "input_manifest_hash", bundle.manifest),
        ("RR-202", bundle.verdict_record, "precommitment_hash", bundle.precommitment),
        ("RR-203", bundle.traceability, "verdict_record_hash", bundle.verdict_record),
    )
    for code, doc, member, source in links:
        expected = out.hashes[source.name]
        if doc.value[member] != expected:
            out.add(
                code,
                doc,
                [member],
                f"{member} is not the canonical sha256 of the {source.name} ({expected})",
                expected=expected,
                emitted=doc.value[member],
            )
            return  # the next link hashes this document: it cannot hold either


# --- the check -----------------------------------------------------------------------------


def _layers(out: Findings, bundle: ReReviewBundle) -> str:
    """L1-L7; raises :class:`_Stop` at the first failing layer; returns the witness."""
    man = bundle.manifest
    if not man.ok:
        out.unreadable(man, man.error or InputError("manifest: not supplied"))
        raise _Stop(_INCOMPLETE)
    _manifest_layer(out, man)
    if out.errors():
        raise _Stop(_MISMATCH if any(d.code == "RR-012" for d in out.errors()) else _INCOMPLETE)
    try:
        out.hashes["manifest"] = hashlib.sha256(canonical_json(man.value)).hexdigest()
    except ReReviewError as exc:
        out.add("RR-001", man, [], exc.message)
        raise _Stop(_INCOMPLETE) from None
    artifacts = man.value["artifacts"]
    _files_layer(out, bundle, artifacts)
    if out.errors():
        mismatch = any(d.code == "RR-013" for d in out.errors())
        raise _Stop(_MISMATCH if mismatch else _INCOMPLETE)
    witness = _witness_layer(out, bundle, man.value)
    for name, shape, reason, rules in _PHASES:
        _phase_layer(out, getattr(bundle, name), shape, rules)
        if out.errors():
            raise _Stop(reason)
    _chain_layer(out, bundle)
    if out.errors():
        raise _Stop(_MISMATCH)
    return witness


def check_re_review(bundle: ReReviewBundle) -> ReReviewReport:
    """Every check of §4 over ``bundle`` (from :func:`~kernel.re_review.load.load_re_review`)
    and the recomputed decision. Pure: the bundle's files were read by the loader."""
    if not isinstance(bundle, ReReviewBundle):
        raise ReReviewError(
            f"check_re_review takes a bundle from load_re_review, got {shown(bundle)}"
        )
    out = Findings()
    round_id = _member(bundle.manifest, "round_id")
    revision = _member(bundle.traceability, "revision")
    try:
        witness = _layers(out, bundle)
    except _Stop as stop:
        first = out.errors()[0]
        decision = aborted(stop.reason, f"{first.code} {first.message}", witness=None)
        return ReReviewReport(
            2, stop.reason, tuple(out.found), decision, None, None, round_id, revision
        )
    roadmap_items = tuple(bundle.roadmap.value["items"])
    cross_document(out, bundle, roadmap_items)
    if out.errors():
        first = out.errors()[0]
        decision = aborted("synthesis_mismatch", f"{first.code} {first.message}", witness=witness)
    else:
        decision = decide_records(
            roadmap_items, bundle.verdict_record.value, bundle.traceability.value, witness
        )
    records_ok = not out.errors()
    emission(out, bundle, decision, witness, records_ok)
    errors = out.errors()
    grade = 1 if errors else 0
    state = bundle.traceability.value.get("decision_state")
    return ReReviewReport(
        grade,
        "synthesis_mismatch" if errors else None,
        tuple(out.found),
        decision,
        None if errors else state,
        witness,
        round_id,
        revision,
    )


def _member(doc: Document, name: str) -> Any:
    value = doc.value.get(name) if isinstance(doc.value, dict) else None
    if name == "revision":
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    return value if isinstance(value, str) else None
