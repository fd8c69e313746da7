"""``sprint-kernel re-review DIR``: check an ARS round-2 (re-review) bundle and its decision.

The four documents (``manifest.json``, ``precommitment.json``, ``verdict_record.json``,
``traceability.json``) are read from DIR, the roadmap, letter and apply reports from the
manifest's ``path:`` refs there; a flag names any of them elsewhere. The manuscripts and
revision patches the manifest names by a ``path:`` ref are hashed when the folder has them
(a mismatch is RR-013), and named in a note when it does not. ``--previous`` is the emission
this one revises: its canonical hash must be ``supersedes_hash`` and its
``verdict_record_hash`` must not have changed. Upstream's grade (0/1/2) is in the JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import stat
from collections.abc import Sequence
from typing import Any, Final

from kernel.cli.scaffold import EXIT_FAILED, EXIT_OK, EXIT_USAGE, Parser, Result, emit
from kernel.diagnostics import Diagnostic, from_error
from kernel.errors import InputError, KernelError
from kernel.io import decode_utf8, loads_strict, read_bytes

__all__ = ["main"]

EXIT_CODES = """\
  0  the bundle checks and its decision is Accept, Minor Revision, Major Revision or
     user_review_required
  1  a finding (upstream's grade 1 or 2), or a verified aborted decision
  2  usage error, or a document that cannot be read"""

#: Input codes that make a run unreadable input (exit 2), whichever layer reports them.
_UNREADABLE: Final = ("E-READ", "E-NOT-FILE", "E-SIZE", "E-UTF8", "E-JSON")
#: Manifest entries the kernel never reads, hashed when the folder holds them.
_HASHED: Final = ("original_manuscript", "revised_manuscript")
#: The codes that judge the emitted decision (``decision_inputs``, the state, the flag):
#: ``--derive`` does not judge the emission.
_EMISSION: Final = frozenset(
    ["RR-399", *(f"RR-{n}" for n in range(401, 408)), *(f"RR-{n}" for n in range(410, 422))]
)


def _parser() -> Parser:
    parser = Parser(
        "sprint-kernel re-review",
        "Check an ARS round-2 (re-review) bundle: the input manifest, Phase 1 precommitment, "
        "Phase 2A verdict record and Phase 2B traceability sidecar, their hash chain, and "
        "the emitted decision (design: docs/re-review.md).",
        exit_codes=EXIT_CODES,
        walks=(".json", ".md"),
    )
    parser.add_argument(
        "folder", nargs="?", metavar="DIR", help="the bundle folder (default: the flags alone)"
    )
    for flag, what in (
        ("--manifest", "input manifest"),
        ("--precommitment", "Phase 1 precommitment"),
        ("--verdict-record", "Phase 2A verdict record"),
        ("--traceability", "Phase 2B traceability sidecar"),
        ("--roadmap", "revision roadmap (hashed)"),
        ("--letter", "editorial decision letter (hashed)"),
    ):
        parser.add_argument(flag, metavar="F", help=f"the {what}")
    parser.add_argument(
        "--apply-report",
        metavar="F",
        action="append",
        dest="apply_reports",
        help="an apply report, in the manifest's order (repeat)",
    )
    parser.add_argument(
        "--previous",
        metavar="EMISSION",
        help="the traceability sidecar this one revises (checks supersedes_hash and that "
        "verdict_record_hash is unchanged)",
    )
    parser.add_argument("--explain", action="store_true", help="print each step of the decision")
    parser.add_argument(
        "--derive",
        action="store_true",
        help="print the decision the records give (state, flag, decision_inputs), what a "
        "producer writes, without judging the emitted one",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    named = (args.manifest, args.precommitment, args.verdict_record, args.traceability)
    if args.folder is None and None in named:
        parser.error(
            "give DIR, or all of --manifest, --precommitment, --verdict-record and --traceability"
        )
    if args.folder is not None and not os.path.isdir(args.folder):
        error = InputError(f"{args.folder}: not a folder", code="E-NOT-FILE")
        return emit(args, Result(EXIT_USAGE, [from_error(error, args.folder)], _empty()))
    from kernel.re_review.load import load_re_review

    try:
        bundle = load_re_review(
            args.folder,
            manifest=args.manifest,
            precommitment=args.precommitment,
            verdict_record=args.verdict_record,
            traceability=args.traceability,
            roadmap=args.roadmap,
            letter=args.letter,
            apply_reports=args.apply_reports,
            max_bytes=args.max_bytes,
        )
    except KernelError as exc:
        return emit(args, Result(EXIT_USAGE, [from_error(exc, args.folder)], _empty()))
    if args.derive:
        return _derive(args, bundle)
    return _check(args, bundle)


def _empty() -> dict[str, Any]:
    return {
        "grade": 2,
        "abort_reason": None,
        "tag": None,
        "decision_state": None,
        "decision": None,
        "witness": None,
        "round_id": None,
        "revision": None,
        "hashed": [],
    }


def _derive(args: argparse.Namespace, bundle: Any) -> int:
    from kernel.re_review.check import check_re_review

    report = check_re_review(bundle)
    decision = report.decision
    # what stopped the derivation (a layer's error); the emission's own rules are not judged
    stopped = [
        d
        for d in report.diagnostics
        if decision.gate == "G0" and d.severity == "error" and d.code not in _EMISSION
    ]
    derived = {
        "decision_state": decision.decision_state,
        "abort_reason": decision.abort_reason,
        "reject_recommended": decision.reject_recommended,
        "decision_inputs": (
            None if decision.decision_inputs is None else dict(decision.decision_inputs)
        ),
    }
    body = {"derived": derived, "decision": decision.to_dict()}
    text = decision.explain().splitlines() if args.explain else []
    text.append(f"decision_state: {decision.decision_state}")
    if decision.abort_reason is not None:
        text.append(f"abort_reason: {decision.abort_reason}")
    if decision.reject_recommended is not None:
        text.append(f"reject_recommended: {json.dumps(decision.reject_recommended)}")
    if decision.decision_inputs is not None:
        shown = json.dumps(dict(decision.decision_inputs), indent=2, ensure_ascii=False)
        text += ["decision_inputs:", *shown.splitlines()]
    if any(d.code in _UNREADABLE for d in stopped):
        code = EXIT_USAGE
    else:
        code = EXIT_FAILED if decision.gate == "G0" else EXIT_OK
    return emit(args, Result(code, stopped, body, text, ok=code == EXIT_OK))


def _hashed(bundle: Any) -> tuple[list[dict[str, Any]], list[Diagnostic]]:
    """The manuscripts and patches the manifest names by ``path:`` and the folder holds:
    hashed against the manifest (RR-013 on a mismatch); the others are listed as not
    hashed."""
    manifest = bundle.manifest.value
    folder = bundle.folder
    if folder is None or not isinstance(manifest, dict):
        return [], []
    artifacts = manifest.get("artifacts")
    if not isinstance(artifacts, dict):
        return [], []
    entries: list[tuple[str, Any]] = [(key, artifacts.get(key)) for key in _HASHED]
    patches = artifacts.get("revision_patches")
    if isinstance(patches, dict) and isinstance(patches.get("items"), list):
        entries += [(f"revision_patches[{i}]", e) for i, e in enumerate(patches["items"])]
    from kernel.re_review.load import path_ref_problem

    found: list[dict[str, Any]] = []
    diagnostics: list[Diagnostic] = []
    base = os.path.realpath(folder)
    for artifact, entry in entries:
        if not isinstance(entry, dict) or entry.get("present") is False:
            continue
        ref, sha = entry.get("path_or_passport_ref"), entry.get("sha256")
        if not isinstance(ref, str) or not ref.startswith("path:") or not isinstance(sha, str):
            found.append({"artifact": artifact, "file": None, "state": "not_in_folder"})
            continue
        body = ref[len("path:") :]
        path = os.path.join(folder, body)
        real = os.path.realpath(path)
        if path_ref_problem(body) is not None:
            continue  # RR-004
        if os.path.commonpath([base, real]) != base:
            found.append({"artifact": artifact, "file": path, "state": "outside_folder"})
            continue  # a symlink out of the folder is never read
        if not os.path.lexists(path):
            found.append({"artifact": artifact, "file": path, "state": "not_in_folder"})
            continue
        try:
            actual = _sha256_of(path)
        except InputError as exc:
            diagnostics.append(from_error(exc, path))
            found.append({"artifact": artifact, "file": path, "state": "unreadable"})
            continue
        state = "match" if actual == sha else "mismatch"
        found.append({"artifact": artifact, "file": path, "state": state})
        if state == "mismatch":
            diagnostics.append(
                Diagnostic(
                    "RR-013",
                    f"the bytes hash to {actual[:12]}…, the manifest's {artifact} sha256 is "
                    f"{sha[:12]}… (manifest_hash_mismatch)",
                    file=path,
                    data={"artifact": artifact, "expected": sha, "emitted": actual},
                )
            )
    return found, diagnostics


def _sha256_of(path: str) -> str:
    """The sha256 of a regular file, read in chunks: a manuscript is hashed, never parsed,
    so ``--max-bytes`` does not bound it; anything but a regular file is refused unread."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise InputError(f"{path}: is not a regular file", code="E-NOT-FILE")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                raise InputError(f"{path}: is not a regular file", code="E-NOT-FILE")
            return hashlib.file_digest(handle, "sha256").hexdigest()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def _previous(args: argparse.Namespace, bundle: Any) -> tuple[dict[str, Any], list[Diagnostic]]:
    """``--previous``: the revised emission's canonical hash is ``supersedes_hash``, and the
    2A hash is unchanged."""
    from kernel.re_review.canonical import canonical_sha256

    path = args.previous
    try:
        previous = loads_strict(
            decode_utf8(read_bytes(path, max_bytes=args.max_bytes), path),
            source=path,
            max_bytes=args.max_bytes,
        )
        expected = canonical_sha256(previous)
    except KernelError as exc:
        return {"file": path, "supersedes_hash": None, "verdict_record_hash": None}, [
            from_error(exc, path)
        ]
    current = bundle.traceability.value
    current = current if isinstance(current, dict) else {}
    file = bundle.traceability.file
    found: list[Diagnostic] = []
    supersedes = current.get("supersedes_hash")
    same_chain = supersedes == expected
    if not same_chain:
        found.append(
            Diagnostic(
                "RR-142",
                f"supersedes_hash is {supersedes!r}, the canonical sha256 of the previous "
                f"emission {path} is {expected}",
                file=file,
                data={"field": "supersedes_hash", "expected": expected, "emitted": supersedes},
            )
        )
    before = previous.get("verdict_record_hash") if isinstance(previous, dict) else None
    unchanged = before == current.get("verdict_record_hash")
    if not unchanged:
        found.append(
            Diagnostic(
                "RR-203",
                f"verdict_record_hash changed since the previous emission {path} "
                f"({before!r}): the Phase 2A record is immutable across revisions",
                file=file,
                data={
                    "field": "verdict_record_hash",
                    "expected": before,
                    "emitted": current.get("verdict_record_hash"),
                },
            )
        )
    return {
        "file": path,
        "supersedes_hash": "match" if same_chain else "mismatch",
        "verdict_record_hash": "unchanged" if unchanged else "changed",
    }, found


def _check(args: argparse.Namespace, bundle: Any) -> int:
    from kernel.re_review.check import check_re_review
    from kernel.re_review.decision import aborted
    from kernel.re_review.model import abort_tag

    report = check_re_review(bundle)
    diagnostics = list(report.diagnostics)
    grade, reason, tag = report.grade, report.abort_reason, report.tag
    decision = report.decision
    hashed, extra = _hashed(bundle)
    previous: dict[str, Any] | None = None
    if args.previous is not None:
        previous, more = _previous(args, bundle)
        extra += more
    if any(d.severity == "error" for d in extra):
        # an input hash or a link to the previous emission broke: an L2/L7 abort
        if grade != 2:
            broken = any(d.code.startswith("RR-") for d in extra)
            reason = "manifest_hash_mismatch" if broken else "manifest_incomplete"
            grade, tag = 2, abort_tag(reason)
            decision = aborted(
                reason,
                "an input the manifest hashes does not match it"
                if broken
                else "an input the manifest names cannot be read",
            )
        diagnostics += extra
    state = report.decision_state if grade == 0 else None
    unreadable = any(d.code in _UNREADABLE and d.severity == "error" for d in diagnostics)
    if unreadable:
        code = EXIT_USAGE
    elif grade != 0 or state == "aborted":
        code = EXIT_FAILED
    else:
        code = EXIT_OK
    body: dict[str, Any] = {
        "grade": grade,
        "abort_reason": reason,
        "tag": tag,
        "decision_state": state,
        "decision": decision.to_dict() if decision is not None else None,
        "witness": report.witness,
        "round_id": report.round_id,
        "revision": report.revision,
        "hashed": hashed,
    }
    if previous is not None:
        body["previous"] = previous
    text = decision.explain().splitlines() if args.explain and decision is not None else []
    text += [
        f"note: {h['artifact']} is not in the folder: not hashed"
        for h in hashed
        if h["state"] == "not_in_folder"
    ]
    if grade == 0 and state is not None:
        rule = decision.base_rule or decision.gate if decision is not None else None
        text.append(
            f"re-review: {state}"
            + (f" ({rule})" if rule else "")
            + (f" {decision.tag}" if decision is not None and decision.tag else "")
            + f", witness {report.witness}"
        )
    else:
        errors = sum(d.severity == "error" for d in diagnostics)
        text.append(f"re-review: {tag or 'failed'}, {errors} error(s)")
    return emit(args, Result(code, diagnostics, body, text, ok=code == EXIT_OK))
