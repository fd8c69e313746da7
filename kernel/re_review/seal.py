"""What a producer (an ARS orchestrator) writes: the apply-chain witness and :func:`seal`,
which fills a bundle's hash links, its derived members and ``decision_inputs`` so that the
bundle is valid without re-implementing the integrity chain (design/re-review.md sec. 3, sec. 5.1).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from kernel.errors import InputError
from kernel.io import decode_utf8, loads_strict
from kernel.re_review.canonical import canonical_sha256
from kernel.re_review.decision import ReReviewDecision, decide_records, decision_inputs
from kernel.re_review.model import (
    ROW_PRIORITY_OF,
    SHA256,
    SHORT_HASH,
    VERIFIED_OF,
    ReReviewError,
)

__all__ = ["DOCUMENT_FILES", "Sealed", "Witness", "apply_chain_witness", "seal"]

#: The four documents' file names in a bundle folder.
DOCUMENT_FILES: Final = {
    "manifest": "manifest.json",
    "precommitment": "precommitment.json",
    "verdict_record": "verdict_record.json",
    "traceability": "traceability.json",
}
_VERSION: Final = re.compile(r"[0-9]+(?:\.[0-9]+)*")
_MISMATCH: Final = "manifest_hash_mismatch"
_INCOMPLETE: Final = "manifest_incomplete"


@attrs.frozen
class Witness:
    """The apply-chain witness: ``pass``, ``first_link_not_run`` or ``not_run_no_reports``,
    and a note per report older than format 1.2 (RR-901, with the report's index)."""

    state: str
    notes: tuple[tuple[int, str], ...] = ()


def _fail(message: str, reason: str, code: str) -> ReReviewError:
    return ReReviewError(message, abort_reason=reason, code=code)


def _text(value: object) -> bool:
    return isinstance(value, str) and value != ""


def apply_chain_witness(manifest: Mapping[str, Any], reports: Sequence[Any]) -> Witness:
    """The witness over the parsed apply reports in manifest order (sec. 3). Reads only the
    manifest's original and revised manuscripts and revision patches. Every report's fields
    are checked first (RR-018…022, report order), then the links: the first only when the
    original manuscript is present, every inner one, the last always (RR-023…025). A break
    raises :class:`ReReviewError` with its ``abort_reason`` and ``code``."""
    try:
        return _witness(manifest, reports)
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise _fail(
            f"manifest: not shaped as the witness reads it ({exc!r})", _INCOMPLETE, "RR-001"
        ) from None


def _witness(manifest: Mapping[str, Any], reports: Sequence[Any]) -> Witness:
    if not reports:
        return Witness("not_run_no_reports")
    artifacts = manifest["artifacts"]
    patches = artifacts["revision_patches"].get("items", ())
    notes: list[tuple[int, str]] = []
    for i, report in enumerate(reports):
        where = f"apply report [{i}]"
        if not isinstance(report, Mapping):
            raise _fail(f"{where}: not a JSON object", _INCOMPLETE, "RR-018")
        for name in ("report_format_version", "base_draft_hash", "output_draft_hash"):
            if not _text(report.get(name)):
                raise _fail(f"{where}: {name} is missing or not text", _INCOMPLETE, "RR-018")
        version = report["report_format_version"]
        if not _VERSION.fullmatch(version) or len(version) > 100:
            raise _fail(
                f"{where}: report_format_version {version!r} is not a dotted number",
                _INCOMPLETE,
                "RR-019",
            )
        for name in ("base_draft_hash", "output_draft_hash"):
            if not SHORT_HASH.fullmatch(report[name]):
                raise _fail(f"{where}: {name} is not 12 lowercase hex", _INCOMPLETE, "RR-020")
        if tuple(int(part) for part in version.split(".")) >= (1, 2):
            digest = report.get("patch_digest")
            if not isinstance(digest, str) or not SHA256.fullmatch(digest):
                raise _fail(
                    f"{where}: format {version} needs a 64-hex patch_digest", _INCOMPLETE, "RR-021"
                )
            if i >= len(patches) or digest != patches[i].get("sha256"):
                raise _fail(
                    f"{where}: patch_digest is not revision_patches[{i}].sha256",
                    _MISMATCH,
                    "RR-022",
                )
        else:
            notes.append((i, "[PATCH-BINDING-ABSENT: report format < 1.2]"))
    original = artifacts["original_manuscript"]
    if original.get("present") and reports[0]["base_draft_hash"] != original["sha256"][:12]:
        raise _fail(
            "apply report [0]: base_draft_hash is not the original manuscript's hash prefix",
            _MISMATCH,
            "RR-023",
        )
    for i in range(1, len(reports)):
        if reports[i]["base_draft_hash"] != reports[i - 1]["output_draft_hash"]:
            raise _fail(
                f"apply report [{i}]: base_draft_hash is not report [{i - 1}]'s output_draft_hash",
                _MISMATCH,
                "RR-024",
            )
    if reports[-1]["output_draft_hash"] != artifacts["revised_manuscript"]["sha256"][:12]:
        raise _fail(
            f"apply report [{len(reports) - 1}]: output_draft_hash is not the revised "
            "manuscript's hash prefix",
            _MISMATCH,
            "RR-025",
        )
    return Witness("pass" if original.get("present") else "first_link_not_run", tuple(notes))


@attrs.frozen
class Sealed:
    """A sealed bundle: the four documents, the hash-bound files (by their ``path:`` names)
    and the decision written into the sidecar."""

    manifest: dict[str, Any]
    precommitment: dict[str, Any]
    verdict_record: dict[str, Any]
    traceability: dict[str, Any]
    #: name in the folder → bytes, for the roadmap, the letter and the apply reports.
    inputs: dict[str, bytes]
    decision: ReReviewDecision

    def documents(self) -> dict[str, dict[str, Any]]:
        """File name → document, for the four documents."""
        return {
            DOCUMENT_FILES["manifest"]: self.manifest,
            DOCUMENT_FILES["precommitment"]: self.precommitment,
            DOCUMENT_FILES["verdict_record"]: self.verdict_record,
            DOCUMENT_FILES["traceability"]: self.traceability,
        }

    def files(self) -> dict[str, bytes]:
        """Every file of the bundle folder: the documents as indented JSON, and the inputs."""
        found = {
            name: (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
            for name, doc in self.documents().items()
        }
        return {**found, **self.inputs}


def _path(entry: Mapping[str, Any]) -> str | None:
    ref = entry.get("path_or_passport_ref")
    return ref[len("path:") :] if isinstance(ref, str) and ref.startswith("path:") else None


def _json(data: bytes, what: str) -> Any:
    try:
        return loads_strict(decode_utf8(data, what), source=what)
    except InputError as exc:
        raise ReReviewError(f"{what}: {exc.message}") from None


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def seal(
    manifest: Mapping[str, Any],
    precommitment: Mapping[str, Any],
    verdict_record: Mapping[str, Any],
    traceability: Mapping[str, Any],
    *,
    roadmap: bytes,
    letter: bytes | None = None,
    apply_reports: Sequence[bytes] = (),
    previous: Mapping[str, Any] | None = None,
) -> Sealed:
    """Fill what a bundle derives, in the order the chain needs (inputs are not changed):

    1. the manifest's ``sha256`` of the roadmap, the letter and each apply report (from the
       bytes given; the manuscripts' and patches' hashes are the producer's);
    2. ``precommitment.input_manifest_hash``; each dissent's ``criterion_hash``;
       ``verdict_record.precommitment_hash``; ``traceability.verdict_record_hash``, and
       ``supersedes_hash`` (the canonical hash of ``previous``, the emission this one
       revises) when given;
    3. the sidecar's derived members: per row ``priority`` (the roadmap's), ``phase2a_verdict``
       and ``verified_by`` (the verdict record's), ``status``, ``verified`` and, with a
       ``cross_model_verdict``, ``cross_model_status``; ``new_issues`` (the verdict record's);
    4. the outcome: ``decision_inputs``, ``decision_state`` and ``abort_reason`` as
       :func:`~kernel.re_review.decision.decide_records` decides them (a broken apply
       chain: ``aborted`` with its reason and witness ``fail``).

    Raises :class:`ReReviewError` when the records are not shaped enough to fill (a
    roadmap that is not JSON, a report count the manifest does not declare, …)."""
    try:
        out_manifest: dict[str, Any] = copy.deepcopy(dict(manifest))
        out_pre: dict[str, Any] = copy.deepcopy(dict(precommitment))
        out_vr: dict[str, Any] = copy.deepcopy(dict(verdict_record))
        out_tr: dict[str, Any] = copy.deepcopy(dict(traceability))
        return _seal(
            out_manifest, out_pre, out_vr, out_tr, roadmap, letter, apply_reports, previous
        )
    except (KeyError, TypeError, AttributeError, IndexError) as exc:
        raise ReReviewError(f"seal: the records are not shaped as sec. 2 says ({exc!r})") from None


def _seal(
    manifest: dict[str, Any],
    pre: dict[str, Any],
    vr: dict[str, Any],
    tr: dict[str, Any],
    roadmap: bytes,
    letter: bytes | None,
    apply_reports: Sequence[bytes],
    previous: Mapping[str, Any] | None,
) -> Sealed:
    artifacts = manifest["artifacts"]
    inputs: dict[str, bytes] = {}

    def bind(entry: dict[str, Any], data: bytes, default: str) -> None:
        entry["sha256"] = _sha(data)
        inputs[_path(entry) or default] = data

    bind(artifacts["revision_roadmap"], roadmap, "roadmap.json")
    if letter is not None:
        if not artifacts["editorial_decision_letter"].get("present"):
            raise ReReviewError("seal: a letter is given but the manifest declares it absent")
        bind(artifacts["editorial_decision_letter"], letter, "letter.md")
    entries = (
        artifacts["apply_reports"].get("items", [])
        if artifacts["apply_reports"].get("present")
        else []
    )
    if len(entries) != len(apply_reports):
        raise ReReviewError(
            f"seal: the manifest declares {len(entries)} apply report(s), "
            f"{len(apply_reports)} given"
        )
    for i, (entry, data) in enumerate(zip(entries, apply_reports, strict=True)):
        bind(entry, data, f"apply_report_{i + 1}.json")
    items = _json(roadmap, "roadmap")["items"]
    reports = [_json(data, f"apply report [{i}]") for i, data in enumerate(apply_reports)]

    pre["input_manifest_hash"] = canonical_sha256(manifest)
    records = {rec["item_id"]: rec for rec in pre.get("items", [])}
    for dissent in vr.get("dissents", []):
        record = records.get(dissent["item_id"])
        if record is not None:
            dissent["criterion_hash"] = canonical_sha256(record)
    vr["precommitment_hash"] = canonical_sha256(pre)
    _derived_members(tr, items, vr)
    tr["verdict_record_hash"] = canonical_sha256(vr)
    if previous is not None:
        tr["supersedes_hash"] = canonical_sha256(previous)

    try:
        witness = apply_chain_witness(manifest, reports).state
    except ReReviewError as exc:
        tr["decision_inputs"] = decision_inputs(items, vr, tr, "fail")
        tr["decision_state"] = "aborted"
        tr["abort_reason"] = exc.abort_reason
        decision = ReReviewDecision(
            "aborted",
            abort_reason=exc.abort_reason,
            tag=exc.tag,
            gate="G0",
            reasons=(("G0", exc.message, ()),),
            witness="fail",
        )
        return Sealed(manifest, pre, vr, tr, inputs, decision)
    decision = decide_records(items, vr, tr, witness)
    tr["decision_inputs"] = (
        dict(decision.decision_inputs)
        if decision.decision_inputs is not None
        else decision_inputs(items, vr, tr, witness)
    )
    tr["decision_state"] = decision.decision_state
    tr.pop("abort_reason", None)
    if decision.abort_reason is not None:
        tr["abort_reason"] = decision.abort_reason
    return Sealed(manifest, pre, vr, tr, inputs, decision)


def _derived_members(
    tr: dict[str, Any], items: Sequence[Mapping[str, Any]], vr: Mapping[str, Any]
) -> None:
    priority = {item["id"]: item["priority"] for item in items}
    verdicts = {rec["item_id"]: rec for rec in vr.get("items", [])}
    for row in tr.get("rows", []):
        item_id = row["item_id"]
        if priority.get(item_id) in ROW_PRIORITY_OF:
            row["priority"] = ROW_PRIORITY_OF[priority[item_id]]
        record = verdicts.get(item_id)
        if record is not None:
            row["phase2a_verdict"] = record["verdict"]
            row["verified_by"] = record["verified_by"]
        final = row["final_verdict"]
        row["status"] = final
        row["verified"] = VERIFIED_OF[final]
        if "cross_model_verdict" in row:
            row["cross_model_status"] = (
                "agree" if row["cross_model_verdict"] == final else "diverges"
            )
    tr["new_issues"] = copy.deepcopy(vr.get("new_issues", []))
