"""L8: the cross-document rules of design §4 (RR-301 … RR-398, notes RR-902 … RR-904) and
emission equality (RR-399 … RR-421, §5.5). Runs on documents every earlier layer passed, so
each record has the members and types its schema requires."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any, Final

from kernel.re_review.canonical import canonical_sha256
from kernel.re_review.decision import (
    Operands,
    ReReviewDecision,
    decision_inputs,
    derive,
    gates,
    operands,
)
from kernel.re_review.findings import Findings
from kernel.re_review.labels import normalize_reviewer_labels
from kernel.re_review.letter import parse_letter_blocks
from kernel.re_review.load import Document, ReReviewBundle
from kernel.re_review.model import ROW_PRIORITY_OF, VERIFIED_OF, ReReviewError

__all__ = ["cross_document", "emission"]

Record = Mapping[str, Any]
#: Each array of records and the member that identifies a record in it (RR-302).
_KEYED: Final = (
    ("precommitment", "items", "item_id"),
    ("precommitment", "new_standards", "new_standard_id"),
    ("verdict_record", "items", "item_id"),
    ("verdict_record", "new_issues", "new_issue_id"),
    ("verdict_record", "dissents", "dissent_id"),
    ("verdict_record", "escalation_exceptions", "exception_id"),
    ("traceability", "rows", "item_id"),
    ("traceability", "adjustments", "adjustment_id"),
    ("traceability", "dissent_adjudications", "dissent_id"),
    ("traceability", "resolution_intents", "intent_id"),
    ("traceability", "cross_model_resolutions", "resolution_id"),
    ("traceability", "rebuttal_adjudications", "rebuttal_adjudication_id"),
    ("traceability", "g2d_acceptances", "acceptance_id"),
    ("traceability", "pending_rebuttal_upgrades", "proposal_id"),
    ("traceability", "escalation_approvals", "exception_id"),
    ("traceability", "reapplications", "reapplication_id"),
)
_TRANSPORTED: Final = ("evidence_anchor", "confidence", "competence_basis")


def _first(records: Iterable[Record], key: str) -> dict[str, Record]:
    out: dict[str, Record] = {}
    for rec in records:
        out.setdefault(rec[key], rec)
    return out


def _body(adjustment: Record) -> str:
    """The canonical hash of an adjustment's body: without id, predecessor and check."""
    ignored = ("adjustment_id", "supersedes_adjustment_id", "critical_rebuttal_check")
    return canonical_sha256({k: v for k, v in adjustment.items() if k not in ignored})


class _Cross:
    """The documents of a bundle that passed L1-L7, indexed once."""

    def __init__(self, out: Findings, bundle: ReReviewBundle, items: Sequence[Record]) -> None:
        self.out = out
        self.bundle = bundle
        self.items = items
        self.man = bundle.manifest.value
        self.pre = bundle.precommitment.value
        self.vr = bundle.verdict_record.value
        self.tr = bundle.traceability.value
        self.active: bool = self.man["cross_model_active"]
        self.original: bool = self.man["artifacts"]["original_manuscript"]["present"]
        self.roadmap = {item["id"]: item for item in items}
        self.priority = {item["id"]: item["priority"] for item in items}
        self.pre_records = _first(self.pre["items"], "item_id")
        self.verdicts = _first(self.vr["items"], "item_id")
        self.rows = _first(self.tr["rows"], "item_id")
        self.dissents = _first(self.vr["dissents"], "dissent_id")
        self.adjudications = _first(self.tr["dissent_adjudications"], "dissent_id")
        self.intents = _first(self.tr["resolution_intents"], "intent_id")
        self.reaps = _first(self.tr["reapplications"], "reapplication_id")
        self.rebuttals = _first(self.tr["rebuttal_adjudications"], "rebuttal_adjudication_id")
        self.acceptances = _first(self.tr["g2d_acceptances"], "acceptance_id")
        self.adjustments = _first(self.tr["adjustments"], "adjustment_id")
        superseded = Counter(
            r["supersedes_reapplication_id"]
            for r in self.tr["reapplications"]
            if "supersedes_reapplication_id" in r
        )
        self.superseded_reaps = set(superseded)
        self.current = [
            r for r in self.tr["reapplications"] if r["reapplication_id"] not in superseded
        ]
        self.chains: dict[str, list[Record]] = {}
        self._cycle_ids: set[str] | None = None
        # Indexes, so that no rule scans an array once per record (a 1 MiB sidecar holds
        # thousands of records).
        self.at: dict[int, int] = {}
        for array in ("rows", "adjustments", "dissent_adjudications", "reapplications"):
            self.at.update((id(rec), i) for i, rec in enumerate(self.tr[array]))
        self.by_source: dict[str, list[tuple[int, Record]]] = {}
        for k, adj in enumerate(self.tr["adjustments"]):
            if "source_ref" in adj:
                self.by_source.setdefault(adj["source_ref"], []).append((k, adj))
        self.successors: dict[str, list[Record]] = {}
        for r in self.tr["reapplications"]:
            if "supersedes_reapplication_id" in r:
                self.successors.setdefault(r["supersedes_reapplication_id"], []).append(r)
        self.answered: dict[str, list[Record]] = {}
        for r in self.current:
            for ref in set(r["answer_refs"]):
                self.answered.setdefault(ref, []).append(r)
        self.approved_replacement: dict[str, str] = {}
        for adj in self.tr["dissent_adjudications"]:
            dis = self.dissents.get(adj["dissent_id"])
            if dis is not None and adj["outcome"] == "replacement_approved":
                self.approved_replacement.setdefault(dis["item_id"], adj["dissent_id"])
        self.accepted_by: dict[str, list[str]] = {}
        for acc in self.tr["g2d_acceptances"]:
            self.accepted_by.setdefault(acc["reapplication_id"], []).append(acc["acceptance_id"])

    def add(
        self, code: str, doc: Document, path: Sequence[str | int], message: str, **data: Any
    ) -> None:
        self.out.add(code, doc, path, message, **data)

    @property
    def p(self) -> Document:
        return self.bundle.precommitment

    @property
    def v(self) -> Document:
        return self.bundle.verdict_record

    @property
    def t(self) -> Document:
        return self.bundle.traceability

    def evaluated(self, item_id: str) -> bool:
        row = self.rows.get(item_id)
        return row is not None and row["priority"] == "MUST_FIX" and "cross_model_verdict" in row

    # --- RR-301 … RR-303 ------------------------------------------------------------------

    def identity(self) -> None:
        for doc in (self.p, self.v, self.t):
            if doc.value["round_id"] != self.man["round_id"]:
                self.add(
                    "RR-301",
                    doc,
                    ["round_id"],
                    f"round_id {doc.value['round_id']!r} is not the manifest's "
                    f"{self.man['round_id']!r}",
                    expected=self.man["round_id"],
                    emitted=doc.value["round_id"],
                )
        docs = {"precommitment": self.p, "verdict_record": self.v, "traceability": self.t}
        for name, array, key in _KEYED:
            doc = docs[name]
            seen: set[str] = set()
            for i, rec in enumerate(doc.value[array]):
                if rec[key] in seen:
                    self.add(
                        "RR-302",
                        doc,
                        [array, i, key],
                        f"{key} {rec[key]} repeats",
                        kind=array,
                        item=rec[key],
                    )
                seen.add(rec[key])
        p12 = {i for i, p in self.priority.items() if p in ("must_fix", "should_fix")}
        every = set(self.priority)
        for doc, array, want in (
            (self.p, "items", p12),
            (self.v, "items", every),
            (self.t, "rows", every),
        ):
            have = {rec["item_id"] for rec in doc.value[array]}
            for item in sorted(want - have):
                self.add(
                    "RR-303",
                    doc,
                    [array],
                    f"no record for roadmap item {item}",
                    item=item,
                    kind=array,
                )
            for i, rec in enumerate(doc.value[array]):
                if rec["item_id"] not in want:
                    self.add(
                        "RR-303",
                        doc,
                        [array, i, "item_id"],
                        f"{rec['item_id']} is not a {'P1/P2 ' if want is p12 else ''}roadmap item",
                        item=rec["item_id"],
                        kind=array,
                    )

    # --- RR-304 … RR-312, notes RR-902 / RR-903 -------------------------------------------

    def letter_criteria(self) -> dict[str, tuple[str, str]]:
        """item id → (``Rn``, criterion) for must_fix items the sound letter covers."""
        letter = self.bundle.letter
        if not letter.supplied or not isinstance(letter.value, str):
            return {}
        blocks = parse_letter_blocks(letter.value)
        must = [item["id"] for item in self.items if item["priority"] == "must_fix"]
        refs = [b.ref for b in blocks]
        if refs != [f"R{n}" for n in range(1, len(refs) + 1)] or len(refs) > len(must):
            self.out.add(
                "RR-902",
                letter,
                [],
                f"[CRITERIA-LAYER-ABSENT: letter/roadmap ordinal mismatch]: blocks "
                f"{', '.join(refs) or 'none'} for {len(must)} must_fix item(s)",
                line=blocks[0].line if blocks else None,
            )
            return {}
        if not blocks:
            self.out.add("RR-903", letter, [], "the letter has no required-item block")
        return {
            must[n]: (block.ref, block.criterion)
            for n, block in enumerate(blocks)
            if block.criterion  # an empty criterion cannot be recorded: no letter layer
        }

    def inheritance(self) -> None:
        criteria = self.letter_criteria()
        for i, rec in enumerate(self.pre["items"]):
            item_id = rec["item_id"]
            road = self.roadmap.get(item_id)
            if road is None:
                continue
            path: list[str | int] = ["items", i]
            if rec["priority"] != road["priority"]:
                self.add(
                    "RR-304",
                    self.p,
                    [*path, "priority"],
                    f"priority {rec['priority']} is not the roadmap's {road['priority']}",
                    item=item_id,
                    expected=road["priority"],
                    emitted=rec["priority"],
                )
            crit = rec["inherited_criterion"]
            if crit["roadmap_text"] != road["verification_criteria"]:
                self.add(
                    "RR-305",
                    self.p,
                    [*path, "inherited_criterion", "roadmap_text"],
                    "roadmap_text is not the roadmap's verification_criteria",
                    item=item_id,
                )
            if rec["source_reviewer"] != road["reviewer"]:
                self.add(
                    "RR-306",
                    self.p,
                    [*path, "source_reviewer"],
                    "source_reviewer is not the roadmap's reviewer",
                    item=item_id,
                    expected=road["reviewer"],
                    emitted=rec["source_reviewer"],
                )
            labels = list(normalize_reviewer_labels(rec["source_reviewer"]).labels)
            if rec["source_reviewer_labels"] != labels:
                self.add(
                    "RR-307",
                    self.p,
                    [*path, "source_reviewer_labels"],
                    f"labels {rec['source_reviewer_labels']} are not the normalization {labels}",
                    item=item_id,
                    expected=labels,
                    emitted=rec["source_reviewer_labels"],
                )
            has_letter = "letter_item_ref" in crit
            own = criteria.get(item_id)
            if road["priority"] == "must_fix" and own is not None and not has_letter:
                self.add(
                    "RR-308",
                    self.p,
                    [*path, "inherited_criterion"],
                    f"the letter's {own[0]} holds this item's criterion; the record has no "
                    "letter fields",
                    item=item_id,
                    ref=own[0],
                )
            if not has_letter:
                continue
            if road["priority"] != "must_fix":
                self.add(
                    "RR-312",
                    self.p,
                    [*path, "inherited_criterion"],
                    "letter fields on an item the roadmap does not mark must_fix",
                    item=item_id,
                )
            elif own is None:
                self.add(
                    "RR-311",
                    self.p,
                    [*path, "inherited_criterion"],
                    "letter fields on an item without a letter criterion",
                    item=item_id,
                )
            else:
                if crit["letter_item_ref"] != own[0]:
                    self.add(
                        "RR-309",
                        self.p,
                        [*path, "inherited_criterion", "letter_item_ref"],
                        f"letter_item_ref {crit['letter_item_ref']} is not {own[0]}",
                        item=item_id,
                        expected=own[0],
                        emitted=crit["letter_item_ref"],
                    )
                if crit["letter_text"] != own[1]:
                    self.add(
                        "RR-310",
                        self.p,
                        [*path, "inherited_criterion", "letter_text"],
                        f"letter_text is not the acceptance criterion of {own[0]}",
                        item=item_id,
                        ref=own[0],
                        expected=own[1],
                        emitted=crit["letter_text"],
                    )

    # --- RR-313 … RR-324, note RR-904 -----------------------------------------------------

    def phase2a(self) -> None:
        for i, dis in enumerate(self.vr["dissents"]):
            item_id = dis["item_id"]
            rec = self.pre_records.get(item_id)
            path: list[str | int] = ["dissents", i]
            if rec is None:
                self.add(
                    "RR-313",
                    self.v,
                    [*path, "item_id"],
                    f"dissent on {item_id}, which has no precommitment record",
                    item=item_id,
                )
            elif dis["criterion_hash"] != (expected := canonical_sha256(rec)):
                self.add(
                    "RR-314",
                    self.v,
                    [*path, "criterion_hash"],
                    "criterion_hash is not the canonical sha256 of the item's precommitment record",
                    item=item_id,
                    expected=expected,
                    emitted=dis["criterion_hash"],
                )
            verdict = self.verdicts.get(item_id)
            if verdict is not None and verdict["applied_criterion"] != (
                f"dissented:{dis['dissent_id']}"
            ):
                self.add(
                    "RR-315",
                    self.v,
                    path,
                    f"{item_id}'s verdict record does not say dissented:{dis['dissent_id']}",
                    item=item_id,
                )
        for i, rec in enumerate(self.vr["items"]):
            item_id = rec["item_id"]
            priority = self.priority.get(item_id)
            applied = rec["applied_criterion"]
            path = ["items", i, "applied_criterion"]
            if priority == "consider" and applied != "not_precommitted":
                self.add(
                    "RR-316",
                    self.v,
                    path,
                    f"a P3 item's criterion is {applied}, not not_precommitted",
                    item=item_id,
                )
            if priority in ("must_fix", "should_fix") and applied == "not_precommitted":
                self.add(
                    "RR-317",
                    self.v,
                    path,
                    "a P1/P2 item's criterion is not_precommitted",
                    item=item_id,
                )
            if applied.startswith("dissented:"):
                dis = self.dissents.get(applied[len("dissented:") :])
                if dis is None or dis["item_id"] != item_id:
                    self.add(
                        "RR-318",
                        self.v,
                        path,
                        f"{applied} names no dissent on {item_id}",
                        item=item_id,
                        ref=applied,
                    )
        standards = _first(self.pre["new_standards"], "new_standard_id")
        for i, exc in enumerate(self.vr["escalation_exceptions"]):
            path = ["escalation_exceptions", i]
            if not self.original:
                self.add(
                    "RR-319",
                    self.v,
                    path,
                    "an escalation exception while the original manuscript is absent",
                    item=exc["exception_id"],
                )
            ref = exc.get("new_standard_ref")
            if ref is None:
                continue
            target = standards.get(ref)
            if target is None:
                self.add(
                    "RR-320",
                    self.v,
                    [*path, "new_standard_ref"],
                    f"{ref} names no new standard",
                    ref=ref,
                )
            elif target["classification"] != "escalation_requested":
                self.add(
                    "RR-321",
                    self.v,
                    [*path, "new_standard_ref"],
                    f"{ref} is {target['classification']}, not escalation_requested",
                    ref=ref,
                )
        if self.tr["new_issues"] != self.vr["new_issues"]:
            self.add(
                "RR-322",
                self.t,
                ["new_issues"],
                "new_issues are not the verdict record's (same records, same order)",
            )
        for i, issue in enumerate(self.vr["new_issues"]):
            path = ["new_issues", i]
            near = issue["nearest_roadmap_item"]
            if near is not None and near not in self.roadmap:
                self.add(
                    "RR-323",
                    self.v,
                    [*path, "nearest_roadmap_item"],
                    f"{near} is not a roadmap item",
                    new_issue=issue["new_issue_id"],
                )
            if not self.original and issue["attribution"] != "indeterminate":
                self.add(
                    "RR-324",
                    self.v,
                    [*path, "attribution"],
                    f"attribution {issue['attribution']} while the original manuscript is "
                    "absent (only indeterminate)",
                    new_issue=issue["new_issue_id"],
                )
            if issue["attribution"] == "regression" and near is not None:
                self.add(
                    "RR-904",
                    self.v,
                    [*path, "nearest_roadmap_item"],
                    f"regression {issue['new_issue_id']} names nearest_roadmap_item "
                    f"{near}: review it for overlap",
                    new_issue=issue["new_issue_id"],
                )

    # --- RR-325 … RR-339, RR-397 ----------------------------------------------------------

    def rows_and_chains(self) -> None:
        for i, row in enumerate(self.tr["rows"]):
            item_id = row["item_id"]
            path: list[str | int] = ["rows", i]
            road = self.priority.get(item_id)
            if road is not None and row["priority"] != ROW_PRIORITY_OF[road]:
                self.add(
                    "RR-325",
                    self.t,
                    [*path, "priority"],
                    f"priority {row['priority']} is not the roadmap's {road}",
                    item=item_id,
                )
            verdict = self.verdicts.get(item_id)
            if verdict is not None:
                if row["phase2a_verdict"] != verdict["verdict"]:
                    self.add(
                        "RR-326",
                        self.t,
                        [*path, "phase2a_verdict"],
                        f"phase2a_verdict {row['phase2a_verdict']} is not the verdict "
                        f"record's {verdict['verdict']}",
                        item=item_id,
                        expected=verdict["verdict"],
                        emitted=row["phase2a_verdict"],
                    )
                if row["verified_by"] != verdict["verified_by"]:
                    self.add(
                        "RR-327",
                        self.t,
                        [*path, "verified_by"],
                        "verified_by is not the verdict record's",
                        item=item_id,
                    )
            final = row["final_verdict"]
            if row["status"] != final:
                self.add(
                    "RR-328", self.t, [*path, "status"], "status is not final_verdict", item=item_id
                )
            if row["verified"] != VERIFIED_OF[final]:
                self.add(
                    "RR-329",
                    self.t,
                    [*path, "verified"],
                    f"verified {row['verified']} is not {VERIFIED_OF[final]}",
                    item=item_id,
                )
            judge = row.get("cross_model_verdict")
            if judge is not None:
                want = "agree" if judge == final else "diverges"
                if row["cross_model_status"] != want:
                    self.add(
                        "RR-330",
                        self.t,
                        [*path, "cross_model_status"],
                        f"cross_model_status is not {want}",
                        item=item_id,
                    )
            if not self.active and row.get("cross_model_status") in (
                "agree",
                "diverges",
                "unavailable",
            ):
                self.add(
                    "RR-397",
                    self.t,
                    [*path, "cross_model_status"],
                    f"cross_model_status {row['cross_model_status']} while cross-model "
                    "review is inactive",
                    item=item_id,
                )
        positions = {id(a): i for i, a in enumerate(self.tr["adjustments"])}
        by_item: dict[str, list[Record]] = {}
        for adj in self.tr["adjustments"]:
            by_item.setdefault(adj["item_id"], []).append(adj)
        for item_id, own in by_item.items():
            chain = self._chain(item_id, own, positions)
            if chain is not None:
                self.chains[item_id] = chain
            row = self.rows.get(item_id)
            if row is None:
                self.add(
                    "RR-338",
                    self.t,
                    ["adjustments", positions[id(own[0])]],
                    f"adjustments on {item_id}, which has no row",
                    item=item_id,
                )
                continue
            if chain is None:
                continue
            row_at: list[str | int] = ["rows", self.at[id(row)]]
            for prev, nxt in pairwise(chain):
                if nxt["from_verdict"] != prev["to_verdict"]:
                    self.add(
                        "RR-332",
                        self.t,
                        ["adjustments", positions[id(nxt)]],
                        f"from_verdict is not {prev['adjustment_id']}'s to_verdict",
                        item=item_id,
                    )
            if row.get("adjustment_id") != chain[-1]["adjustment_id"]:
                self.add(
                    "RR-333",
                    self.t,
                    row_at,
                    f"adjustment_id is not the chain's last {chain[-1]['adjustment_id']}",
                    item=item_id,
                )
            if chain[0]["from_verdict"] != row["phase2a_verdict"]:
                self.add(
                    "RR-334",
                    self.t,
                    ["adjustments", positions[id(chain[0])]],
                    "the chain's first from_verdict is not the row's phase2a_verdict",
                    item=item_id,
                )
            if chain[-1]["to_verdict"] != row["final_verdict"]:
                self.add(
                    "RR-335",
                    self.t,
                    ["adjustments", positions[id(chain[-1])]],
                    "the chain's last to_verdict is not the row's final_verdict",
                    item=item_id,
                )
        for i, row in enumerate(self.tr["rows"]):
            item_id = row["item_id"]
            if "adjustment_id" in row and item_id not in by_item:
                self.add(
                    "RR-336",
                    self.t,
                    ["rows", i, "adjustment_id"],
                    "adjustment_id on an item with no adjustments",
                    item=item_id,
                )
            if item_id in by_item and item_id not in self.chains:
                continue
            last = self.chains.get(item_id, [None])[-1]
            rebutted = (
                last is not None
                and last["basis"] == "valid_rebuttal"
                and last["to_verdict"] == "FULLY_ADDRESSED"
            )
            if row.get("addressed_by_rebuttal", False) != rebutted:
                self.add(
                    "RR-337",
                    self.t,
                    ["rows", i],
                    "addressed_by_rebuttal is set exactly when the chain ends in a "
                    "valid_rebuttal to FULLY_ADDRESSED",
                    item=item_id,
                )
        for i, intent in enumerate(self.tr["resolution_intents"]):
            if intent["answered_by"] == "system" and not self.evaluated(intent["item_id"]):
                self.add(
                    "RR-339",
                    self.t,
                    ["resolution_intents", i],
                    "a system intent on a row that is not an evaluated P1 row",
                    item=intent["item_id"],
                )

    def _chain(
        self, item_id: str, own: list[Record], positions: Mapping[int, int]
    ) -> list[Record] | None:
        """The item's chain from head to last, or ``None`` after reporting RR-331."""
        ids = {a["adjustment_id"]: a for a in own}
        problems = []
        successors: dict[str, Record] = {}
        for adj in own:
            prev = adj.get("supersedes_adjustment_id")
            if prev is None:
                continue
            if prev not in ids:
                other = self.adjustments.get(prev)
                problems.append(
                    (
                        adj,
                        f"predecessor {prev} is "
                        f"{'on ' + other['item_id'] if other else 'no adjustment'}",
                    )
                )
            elif prev in successors:
                problems.append((adj, f"{prev} is superseded twice"))
            else:
                successors[prev] = adj
        heads = [a for a in own if a.get("supersedes_adjustment_id") is None]
        if not problems and len(heads) != 1:
            problems.append((own[0], f"{len(heads)} heads (one chain has exactly one)"))
        chain: list[Record] = []
        if not problems:
            chain = [heads[0]]
            while (nxt := successors.get(chain[-1]["adjustment_id"])) is not None:
                if len(chain) > len(own):
                    break
                chain.append(nxt)
            if len(chain) != len(own):
                problems.append((own[0], "a cycle of supersessions"))
        for adj, text in problems:
            self.add(
                "RR-331",
                self.t,
                ["adjustments", positions[id(adj)]],
                f"adjustment chain of {item_id}: {text}",
                item=item_id,
            )
        return None if problems else chain

    # --- RR-340 … RR-379 ------------------------------------------------------------------

    def bound_tripped(self) -> bool:
        dissents = self.vr["dissents"]
        must = any(self.priority.get(d["item_id"]) == "must_fix" for d in dissents)
        return must or len(dissents) > -(-len(self.items) // 3)

    def deferral(self) -> None:
        tripped = self.bound_tripped()
        for i, adj in enumerate(self.tr["dissent_adjudications"]):
            path: list[str | int] = ["dissent_adjudications", i]
            dis = self.dissents.get(adj["dissent_id"])
            if dis is None:
                self.add(
                    "RR-340",
                    self.t,
                    path,
                    f"{adj['dissent_id']} is no dissent",
                    ref=adj["dissent_id"],
                )
            if adj["adjudicator"] == "cross_model" and not self.active:
                self.add(
                    "RR-341",
                    self.t,
                    [*path, "adjudicator"],
                    "a cross_model adjudicator while cross-model review is inactive",
                )
            if not tripped:
                self.add(
                    "RR-342",
                    self.t,
                    path,
                    "an adjudication although no dissent bound tripped",
                    ref=adj["dissent_id"],
                )
            if (
                dis is not None
                and adj["adjudicator"] == "cross_model"
                and self.priority.get(dis["item_id"]) != "must_fix"
            ):
                self.add(
                    "RR-343",
                    self.t,
                    [*path, "adjudicator"],
                    "a cross_model adjudicator on a dissent that is not on a must_fix item",
                    item=dis["item_id"],
                )
        self._reapplications()
        self._resolutions()
        self._acceptances()

    def _reapplications(self) -> None:
        reaps = self.tr["reapplications"]
        succ_count = Counter(
            r["supersedes_reapplication_id"] for r in reaps if "supersedes_reapplication_id" in r
        )
        for i, reap in enumerate(reaps):
            path: list[str | int] = ["reapplications", i]
            item_id = reap["item_id"]
            rid = reap["reapplication_id"]
            prev = reap.get("supersedes_reapplication_id")
            if prev is not None:
                target = self.reaps.get(prev)
                if target is None or target["item_id"] != item_id:
                    self.add(
                        "RR-344",
                        self.t,
                        [*path, "supersedes_reapplication_id"],
                        f"{prev} is {'on another item' if target else 'no reapplication'}",
                        item=item_id,
                    )
                elif succ_count[prev] > 1:
                    self.add(
                        "RR-344",
                        self.t,
                        [*path, "supersedes_reapplication_id"],
                        f"{prev} is superseded twice",
                        item=item_id,
                    )
                elif self._reap_cycle(reap):
                    self.add(
                        "RR-344",
                        self.t,
                        [*path, "supersedes_reapplication_id"],
                        "a cycle of supersessions",
                        item=item_id,
                    )
            adjudication_refs = False
            intent_only = True
            system_intent = False
            for j, ref in enumerate(reap["answer_refs"]):
                at = [*path, "answer_refs", j]
                kind, _, target_id = ref.partition(":")
                if kind == "adjudication":
                    intent_only = False
                    adjudication_refs = True
                    adj = self.adjudications.get(target_id)
                    dis = self.dissents.get(target_id)
                    if adj is None or dis is None:
                        self.add("RR-345", self.t, at, f"{ref} does not resolve", item=item_id)
                        continue
                    if adj["outcome"] != "original_upheld":
                        self.add(
                            "RR-346",
                            self.t,
                            at,
                            f"{ref} is {adj['outcome']}, not original_upheld",
                            item=item_id,
                        )
                    if dis["item_id"] != item_id:
                        self.add(
                            "RR-347", self.t, at, f"{ref} is on {dis['item_id']}", item=item_id
                        )
                else:
                    intent = self.intents.get(target_id)
                    if intent is None:
                        self.add("RR-345", self.t, at, f"{ref} does not resolve", item=item_id)
                        continue
                    if intent["item_id"] != item_id:
                        self.add(
                            "RR-347", self.t, at, f"{ref} is on {intent['item_id']}", item=item_id
                        )
                    system_intent = system_intent or intent["answered_by"] == "system"
            want = f"phase1:{item_id}"
            if not adjudication_refs and item_id in self.approved_replacement:
                want = f"dissent:{self.approved_replacement[item_id]}"
            if reap["criterion_ref"] != want:
                self.add(
                    "RR-348",
                    self.t,
                    [*path, "criterion_ref"],
                    f"criterion_ref {reap['criterion_ref']} is not the effective criterion {want}",
                    item=item_id,
                    expected=want,
                    emitted=reap["criterion_ref"],
                )
            if intent_only:
                row = self.rows.get(item_id)
                if not self.evaluated(item_id):
                    self.add(
                        "RR-349",
                        self.t,
                        path,
                        "a divergence-only reapplication on a row that is not an evaluated P1 row",
                        item=item_id,
                    )
                elif (
                    row is not None
                    and row["cross_model_verdict"] == reap["pre_reapplication_verdict"]
                ):
                    self.add(
                        "RR-350",
                        self.t,
                        path,
                        "the judge verdict equals the pre_reapplication_verdict: nothing diverges",
                        item=item_id,
                    )
                if not system_intent:
                    self.add(
                        "RR-351",
                        self.t,
                        path,
                        "a divergence-only reapplication with no system intent among its refs",
                        item=item_id,
                    )
            derived = self.by_source.get(f"reapplication:{rid}", [])
            self._derived(path, reap, derived)
            if reap["reapplied_verdict"] != "CANNOT_VERIFY" and any(
                a.get("anchor_artifact") == "letter" for a in reap.get("evidence_anchor", ())
            ):
                chain = self.chains.get(item_id, [])
                stop = next(
                    (
                        n
                        for n, a in enumerate(chain)
                        if a.get("source_ref") == f"reapplication:{rid}"
                    ),
                    len(chain),
                )
                if not any(a["basis"] == "valid_rebuttal" for a in chain[:stop]):
                    self.add(
                        "RR-352",
                        self.t,
                        [*path, "evidence_anchor"],
                        "a letter-tagged anchor with no earlier valid_rebuttal in the item's chain",
                        item=item_id,
                    )
            if rid in self.superseded_reaps:
                if reap["reapplied_verdict"] != "CANNOT_VERIFY":
                    self.add(
                        "RR-377",
                        self.t,
                        path,
                        "a superseded reapplication that is not CANNOT_VERIFY",
                        item=item_id,
                    )
                successor = self.successors[rid][0]
                if (
                    successor is not None
                    and successor["pre_reapplication_verdict"] != reap["pre_reapplication_verdict"]
                ):
                    self.add(
                        "RR-378",
                        self.t,
                        path,
                        "its pre_reapplication_verdict is not its successor's",
                        item=item_id,
                    )
            else:
                want_pre = self._expected_pre(reap, [a for _, a in derived])
                if want_pre is not None and reap["pre_reapplication_verdict"] != want_pre:
                    self.add(
                        "RR-379",
                        self.t,
                        [*path, "pre_reapplication_verdict"],
                        f"pre_reapplication_verdict is not {want_pre}",
                        item=item_id,
                        expected=want_pre,
                        emitted=reap["pre_reapplication_verdict"],
                    )
        for dissent_id, adj in self.adjudications.items():
            if adj["outcome"] != "original_upheld":
                continue
            holders = self.answered.get(f"adjudication:{dissent_id}", [])
            if len(holders) != 1:
                self.add(
                    "RR-359",
                    self.t,
                    ["dissent_adjudications", self.at[id(adj)]],
                    f"original_upheld {dissent_id} is in {len(holders)} current "
                    "reapplications (exactly one)",
                    ref=dissent_id,
                )
        for i, intent in enumerate(self.tr["resolution_intents"]):
            holders = self.answered.get(f"intent:{intent['intent_id']}", [])
            if len(holders) != 1:
                self.add(
                    "RR-360",
                    self.t,
                    ["resolution_intents", i],
                    f"{intent['intent_id']} is in {len(holders)} current reapplications "
                    "(exactly one)",
                    item=intent["item_id"],
                )

    def _reap_cycle(self, reap: Record) -> bool:
        return reap["reapplication_id"] in self._cyclic()

    def _cyclic(self) -> set[str]:
        """The reapplication ids on a cycle of supersessions (each names at most one
        predecessor: a walk from every node, each node walked once)."""
        if self._cycle_ids is not None:
            return self._cycle_ids
        found: set[str] = set()
        done: set[str] = set()
        for start in self.reaps:
            trail: list[str] = []
            on_trail: set[str] = set()
            at: str | None = start
            while at is not None and at not in done and at not in on_trail:
                trail.append(at)
                on_trail.add(at)
                rec = self.reaps.get(at)
                at = rec.get("supersedes_reapplication_id") if rec is not None else None
            if at is not None and at in on_trail:
                found.update(trail[trail.index(at) :])
            done.update(trail)
        self._cycle_ids = found
        return found

    def _derived(
        self, path: list[str | int], reap: Record, derived: list[tuple[int, Record]]
    ) -> None:
        item_id = reap["item_id"]
        pre, after = reap["pre_reapplication_verdict"], reap["reapplied_verdict"]
        if after == "CANNOT_VERIFY":
            for k, _ in derived:
                self.add(
                    "RR-353",
                    self.t,
                    ["adjustments", k],
                    "a derived adjustment for a CANNOT_VERIFY reapplication",
                    item=item_id,
                )
            return
        if after == pre:
            for k, _ in derived:
                self.add(
                    "RR-358",
                    self.t,
                    ["adjustments", k],
                    "a derived adjustment for a reapplication that left the verdict unchanged",
                    item=item_id,
                )
            return
        if len(derived) != 1:
            self.add(
                "RR-354",
                self.t,
                path,
                f"{len(derived)} derived adjustments (exactly one when the verdict changed)",
                item=item_id,
            )
            return
        k, adj = derived[0]
        at: list[str | int] = ["adjustments", k]
        if adj["basis"] != "cross_model_adjudication" or adj["item_id"] != item_id:
            self.add(
                "RR-355",
                self.t,
                at,
                "the derived adjustment is not a "
                "cross_model_adjudication on the reapplication's item",
                item=item_id,
            )
        if adj["from_verdict"] != pre or adj["to_verdict"] != after:
            self.add(
                "RR-356",
                self.t,
                at,
                f"the derived adjustment moves "
                f"{adj['from_verdict']} → {adj['to_verdict']}, not {pre} → {after}",
                item=item_id,
            )
        for name in ("rationale", "residual_gap", "evidence_anchor"):
            if adj.get(name) != reap.get(name):
                self.add(
                    "RR-357",
                    self.t,
                    [*at, name],
                    f"{name} is not the reapplication's",
                    item=item_id,
                    field=name,
                )

    def _expected_pre(self, reap: Record, derived: list[Record]) -> str | None:
        if len(derived) == 1:
            return str(derived[0]["from_verdict"])
        for acc in self.accepted_by.get(reap["reapplication_id"], []):
            for _, adj in self.by_source.get(f"acceptance:{acc}", []):
                return str(adj["from_verdict"])
        chain = self.chains.get(reap["item_id"])
        if chain:
            return str(chain[-1]["to_verdict"])
        row = self.rows.get(reap["item_id"])
        if row is not None:
            return str(row["phase2a_verdict"])
        verdict = self.verdicts.get(reap["item_id"])
        return None if verdict is None else str(verdict["verdict"])

    def _resolutions(self) -> None:
        named = Counter(r["reapplication_id"] for r in self.tr["cross_model_resolutions"])
        for i, res in enumerate(self.tr["cross_model_resolutions"]):
            path: list[str | int] = ["cross_model_resolutions", i]
            item_id = res["item_id"]
            if named[res["reapplication_id"]] > 1:
                self.add(
                    "RR-361",
                    self.t,
                    [*path, "reapplication_id"],
                    f"{res['reapplication_id']} is named by {named[res['reapplication_id']]}"
                    " resolutions",
                    item=item_id,
                )
            intent = self.intents.get(res["intent_id"])
            if intent is None or intent["item_id"] != item_id:
                self.add(
                    "RR-363",
                    self.t,
                    [*path, "intent_id"],
                    f"{res['intent_id']} is {'on another item' if intent else 'no intent'}",
                    item=item_id,
                )
            reap = self.reaps.get(res["reapplication_id"])
            if reap is None or reap["item_id"] != item_id:
                self.add(
                    "RR-364",
                    self.t,
                    [*path, "reapplication_id"],
                    f"{res['reapplication_id']} is "
                    f"{'on another item' if reap else 'no reapplication'}",
                    item=item_id,
                )
                continue
            if f"intent:{res['intent_id']}" not in reap["answer_refs"]:
                self.add(
                    "RR-365",
                    self.t,
                    path,
                    f"{res['reapplication_id']} does not list intent:{res['intent_id']}",
                    item=item_id,
                )
            cannot = reap["reapplied_verdict"] == "CANNOT_VERIFY"
            if res["resolved_by"] == "system":
                if cannot:
                    self.add(
                        "RR-366",
                        self.t,
                        path,
                        "a system resolution on a CANNOT_VERIFY reapplication",
                        item=item_id,
                    )
                else:
                    upheld = reap["reapplied_verdict"] == reap["pre_reapplication_verdict"]
                    want = "primary_upheld" if upheld else "primary_revised"
                    if res["state"] != want:
                        self.add(
                            "RR-367",
                            self.t,
                            [*path, "state"],
                            f"state is not {want}",
                            item=item_id,
                            expected=want,
                            emitted=res["state"],
                        )
            elif not cannot:
                self.add(
                    "RR-368",
                    self.t,
                    path,
                    "a user resolution on a reapplication that is not CANNOT_VERIFY",
                    item=item_id,
                )
        system = {
            r["reapplication_id"]
            for r in self.tr["cross_model_resolutions"]
            if r["resolved_by"] == "system"
        }
        for reap in self.current:
            intent_ref = any(ref.startswith("intent:") for ref in reap["answer_refs"])
            if (
                intent_ref
                and reap["reapplied_verdict"] != "CANNOT_VERIFY"
                and reap["reapplication_id"] not in system
            ):
                at = self.at[id(reap)]
                self.add(
                    "RR-362",
                    self.t,
                    ["reapplications", at],
                    "a current reapplication with an intent ref and a verdict but no "
                    "system resolution",
                    item=reap["item_id"],
                )

    def _acceptances(self) -> None:
        for i, acc in enumerate(self.tr["g2d_acceptances"]):
            path: list[str | int] = ["g2d_acceptances", i]
            item_id = acc["item_id"]
            reap = self.reaps.get(acc["reapplication_id"])
            if reap is None or reap["item_id"] != item_id:
                self.add(
                    "RR-369",
                    self.t,
                    [*path, "reapplication_id"],
                    f"{acc['reapplication_id']} is "
                    f"{'on another item' if reap else 'no reapplication'}",
                    item=item_id,
                )
            else:
                if reap["reapplied_verdict"] != "CANNOT_VERIFY":
                    self.add(
                        "RR-370",
                        self.t,
                        path,
                        "the accepted reapplication is not CANNOT_VERIFY",
                        item=item_id,
                    )
                if reap["reapplication_id"] in self.superseded_reaps:
                    self.add(
                        "RR-371",
                        self.t,
                        path,
                        "the accepted reapplication is superseded",
                        item=item_id,
                    )
            row = self.rows.get(item_id)
            if row is not None and row["final_verdict"] != "CANNOT_VERIFY":
                self.add(
                    "RR-372",
                    self.t,
                    path,
                    "the item's final verdict is not CANNOT_VERIFY",
                    item=item_id,
                )
            backing = [
                a
                for _, a in self.by_source.get(f"acceptance:{acc['acceptance_id']}", [])
                if a["basis"] == "user_accepted_fail_closed"
            ]
            if len(backing) != 1:
                self.add(
                    "RR-373",
                    self.t,
                    path,
                    f"{len(backing)} user_accepted_fail_closed adjustments back it (exactly one)",
                    item=item_id,
                )
        for k, adj in enumerate(self.tr["adjustments"]):
            at: list[str | int] = ["adjustments", k]
            source = adj.get("source_ref", "")
            if adj["basis"] == "user_accepted_fail_closed":
                acc = self.acceptances.get(source.partition(":")[2])
                if acc is None or acc["item_id"] != adj["item_id"]:
                    self.add(
                        "RR-374",
                        self.t,
                        [*at, "source_ref"],
                        f"{source} is {'on another item' if acc else 'no acceptance'}",
                        item=adj["item_id"],
                    )
                    continue
                reap = self.reaps.get(acc["reapplication_id"])
                if reap is not None and adj.get("cannot_verify_reason") != reap.get(
                    "cannot_verify_reason"
                ):
                    self.add(
                        "RR-375",
                        self.t,
                        [*at, "cannot_verify_reason"],
                        "cannot_verify_reason is not the reapplication's",
                        item=adj["item_id"],
                    )
            elif (
                adj["basis"] == "cross_model_adjudication"
                and source.partition(":")[2] not in self.reaps
            ):
                self.add(
                    "RR-376",
                    self.t,
                    [*at, "source_ref"],
                    f"{source} names no reapplication",
                    item=adj["item_id"],
                )

    # --- RR-380 … RR-396, RR-398 ----------------------------------------------------------

    def rebuttals_and_rest(self) -> None:
        if not self.active:
            for i, reb in enumerate(self.tr["rebuttal_adjudications"]):
                self.add(
                    "RR-380",
                    self.t,
                    ["rebuttal_adjudications", i],
                    "a rebuttal adjudication while cross-model review is inactive",
                    item=reb["item_id"],
                )
        booked: Counter[str] = Counter()
        dispositions: dict[str, str] = {}
        for proposal in self.tr["pending_rebuttal_upgrades"]:
            kind, _, target = proposal["disposition"].partition(":")
            if kind.startswith("booked"):
                booked[target] += 1
                dispositions[target] = kind
        for k, adj in enumerate(self.tr["adjustments"]):
            at: list[str | int] = ["adjustments", k]
            item_id = adj["item_id"]
            critical = self.roadmap.get(item_id, {}).get("severity") == "critical"
            rebuttal = adj["basis"] == "valid_rebuttal"
            check = adj.get("critical_rebuttal_check")
            if (check is not None) != (rebuttal and critical):
                self.add(
                    "RR-381",
                    self.t,
                    at,
                    "critical_rebuttal_check goes exactly on a valid_rebuttal of a critical item",
                    item=item_id,
                )
            if check is not None and check.startswith("adjudicated:"):
                reb = self.rebuttals.get(check.partition(":")[2])
                if reb is None or reb["item_id"] != item_id or reb["verdict"] != "upheld":
                    self.add(
                        "RR-382",
                        self.t,
                        [*at, "critical_rebuttal_check"],
                        f"{check} is not an upheld adjudication on {item_id}",
                        item=item_id,
                    )
            if check == "single_family_disclosed" and self.active:
                self.add(
                    "RR-383",
                    self.t,
                    [*at, "critical_rebuttal_check"],
                    "single_family_disclosed while cross-model review is active",
                    item=item_id,
                )
            if rebuttal and critical and booked[adj["adjustment_id"]] == 0:
                self.add(
                    "RR-394",
                    self.t,
                    at,
                    "a critical valid_rebuttal booked by no proposal",
                    item=item_id,
                )
        bodies: dict[tuple[str, str], int] = {}
        challenged: set[tuple[str, str]] = set()
        for i, proposal in enumerate(self.tr["pending_rebuttal_upgrades"]):
            path: list[str | int] = ["pending_rebuttal_upgrades", i]
            item_id = proposal["item_id"]
            drafted = proposal["drafted_adjustment"]
            if drafted["item_id"] != item_id:
                self.add(
                    "RR-384",
                    self.t,
                    [*path, "drafted_adjustment", "item_id"],
                    "the drafted adjustment is on another item",
                    item=item_id,
                )
            body = _body(drafted)
            if (item_id, body) in bodies:
                self.add(
                    "RR-385",
                    self.t,
                    path,
                    "two proposals with equal drafted bodies on one item",
                    item=item_id,
                )
            bodies[(item_id, body)] = i
            kind, _, target = proposal["disposition"].partition(":")
            at = [*path, "disposition"]
            if kind == "challenged":
                challenged.add((item_id, body))
                reb = self.rebuttals.get(target)
                if reb is None or reb["item_id"] != item_id:
                    self.add(
                        "RR-386",
                        self.t,
                        at,
                        f"{target} is {'on another item' if reb else 'no rebuttal adjudication'}",
                        item=item_id,
                    )
                elif reb["verdict"] != "challenged":
                    self.add(
                        "RR-387",
                        self.t,
                        at,
                        f"{target} is {reb['verdict']}, not challenged",
                        item=item_id,
                    )
                continue
            adj = self.adjustments.get(target)
            if adj is None or adj["item_id"] != item_id or adj["basis"] != "valid_rebuttal":
                self.add(
                    "RR-388",
                    self.t,
                    at,
                    f"{target} is not a valid_rebuttal adjustment on {item_id}",
                    item=item_id,
                )
                continue
            if booked[target] > 1:
                self.add(
                    "RR-389", self.t, at, f"{target} is booked {booked[target]} times", item=item_id
                )
            if _body(adj) != body:
                self.add(
                    "RR-390", self.t, at, f"{target}'s body is not the drafted one", item=item_id
                )
            check = adj.get("critical_rebuttal_check")
            if kind == "booked":
                reb = self.rebuttals.get(str(check).partition(":")[2]) if check else None
                if not (
                    isinstance(check, str)
                    and check.startswith("adjudicated:")
                    and reb is not None
                    and reb["verdict"] == "upheld"
                ):
                    self.add(
                        "RR-391",
                        self.t,
                        at,
                        "booked needs an upheld adjudicated: check",
                        item=item_id,
                    )
            elif kind == "booked_disclosed":
                if check != "pass_unavailable_disclosed" or not self.active:
                    self.add(
                        "RR-392",
                        self.t,
                        at,
                        "booked_disclosed needs pass_unavailable_disclosed while active",
                        item=item_id,
                    )
            elif kind == "booked_single_family" and (
                check != "single_family_disclosed" or self.active
            ):
                self.add(
                    "RR-393",
                    self.t,
                    at,
                    "booked_single_family needs single_family_disclosed while inactive",
                    item=item_id,
                )
        for k, adj in enumerate(self.tr["adjustments"]):
            if adj["basis"] == "valid_rebuttal" and (adj["item_id"], _body(adj)) in challenged:
                self.add(
                    "RR-395",
                    self.t,
                    ["adjustments", k],
                    "a valid_rebuttal equal to a challenged draft",
                    item=adj["item_id"],
                )
        exceptions = {e["exception_id"] for e in self.vr["escalation_exceptions"]}
        for i, approval in enumerate(self.tr["escalation_approvals"]):
            if approval["exception_id"] not in exceptions:
                self.add(
                    "RR-396",
                    self.t,
                    ["escalation_approvals", i],
                    f"{approval['exception_id']} is no escalation exception",
                    ref=approval["exception_id"],
                )
        road = self.bundle.roadmap
        for i, item in enumerate(self.items):
            if (
                item["priority"] == "must_fix"
                and item.get("severity") is None
                and item.get("source_kind") is None
                and any(item.get(name) is not None for name in _TRANSPORTED)
            ):
                self.add(
                    "RR-398",
                    road,
                    ["items", i],
                    "a P1 item without severity carries a transported field and no source_kind",
                    item=item["id"],
                )


def cross_document(out: Findings, bundle: ReReviewBundle, items: Sequence[Record]) -> None:
    """RR-301 … RR-398 and the notes RR-902 … RR-904."""
    cross = _Cross(out, bundle, items)
    cross.identity()
    cross.inheritance()
    cross.phase2a()
    cross.rows_and_chains()
    cross.deferral()
    cross.rebuttals_and_rest()


_INPUT_CODES: Final = (
    ("per_item", "RR-399"),
    ("verdict_counts", "RR-401"),
    ("residual_magnitude_counts", "RR-402"),
    ("p2_addressed_rate", "RR-403"),
    ("regressions", "RR-404"),
    ("non_regression_new_issue_ids", "RR-405"),
    ("escalations", "RR-406"),
    ("apply_chain_witness", "RR-407"),
)
_PAST_L7: Final = ("manifest_incomplete", "manifest_hash_mismatch", "synthesis_mismatch")


def emission(
    out: Findings,
    bundle: ReReviewBundle,
    decision: ReReviewDecision,
    witness: str,
    records_ok: bool,
) -> None:
    """``decision_inputs`` against the recomputation (RR-399 … RR-407) and the emitted outcome
    against §5.5 (RR-410 … RR-421)."""
    doc = bundle.traceability
    tr = doc.value
    items = bundle.roadmap.value["items"]
    vr = bundle.verdict_record.value
    try:
        found = gates(items, vr, tr)
        raw = derive(operands(items, vr, tr))
        want_inputs = decision_inputs(items, vr, tr, witness)
    except (KeyError, TypeError, ValueError, ReReviewError):
        if records_ok:
            raise
        return  # the record errors already reported say why nothing can be recomputed
    state = tr.get("decision_state")
    inputs = tr.get("decision_inputs")
    flag_given = isinstance(inputs, dict) and "reject_recommended" in inputs
    if inputs is None:
        if state != "aborted":
            out.add("RR-399", doc, [], "decision_inputs is missing")
    else:
        for member, code in _INPUT_CODES:
            if inputs[member] != want_inputs[member]:
                out.add(
                    code,
                    doc,
                    ["decision_inputs", member],
                    f"{member} is not the recomputed value",
                    field=member,
                    expected=want_inputs[member],
                    emitted=inputs[member],
                )
    if state is None:
        out.add("RR-417", doc, [], "decision_state is missing", expected=decision.decision_state)
        return
    if state == "aborted":
        reason = tr.get("abort_reason")
        if flag_given:
            out.add(
                "RR-410",
                doc,
                ["decision_inputs", "reject_recommended"],
                "reject_recommended on an aborted emission",
            )
        if reason in _PAST_L7:
            out.add(
                "RR-411",
                doc,
                ["abort_reason"],
                f"abort_reason {reason}: the check got past that layer",
                emitted=reason,
            )
        if found.g1 and reason != "criteria_drift":
            out.add(
                "RR-412",
                doc,
                ["abort_reason"],
                f"G1 holds on {', '.join(found.g1)}: the reason is criteria_drift",
                expected="criteria_drift",
                emitted=reason,
                item=found.g1[0],
            )
        if reason == "criteria_drift" and not found.g1:
            out.add(
                "RR-413",
                doc,
                ["abort_reason"],
                "criteria_drift but G1 does not hold",
                emitted=reason,
            )
        return
    if found.g1:
        out.add(
            "RR-414",
            doc,
            ["decision_state"],
            f"G1 holds on {', '.join(found.g1)} (a final verdict changed with no "
            f"adjustment): the emission must be aborted, criteria_drift; it is {state}",
            expected="aborted",
            emitted=state,
            item=found.g1[0],
        )
        return
    if found.pending:
        pending = [{"kind": kind, "subject": subject} for kind, subject in found.pending]
        if state != "user_review_required":
            out.add(
                "RR-415",
                doc,
                ["decision_state"],
                f"G2 is pending ({', '.join(f'{k}: {s}' for k, s in found.pending)}): the "
                f"emission must be user_review_required; it is {state}",
                expected="user_review_required",
                emitted=state,
                pending=pending,
            )
        if flag_given:
            out.add(
                "RR-410",
                doc,
                ["decision_inputs", "reject_recommended"],
                "reject_recommended on a deferred emission",
            )
        return
    if state == "user_review_required":
        out.add(
            "RR-416",
            doc,
            ["decision_state"],
            "user_review_required but nothing is pending",
            expected=raw.decision_state,
            emitted=state,
        )
        return
    if state != raw.decision_state:
        out.add(
            "RR-417",
            doc,
            ["decision_state"],
            f"decision_state {state} is not the recomputed {raw.decision_state} ({raw.base_rule})",
            expected=raw.decision_state,
            emitted=state,
            rule=raw.base_rule,
        )
    stated: ReReviewDecision | None = None
    if isinstance(inputs, dict):
        try:
            stated = derive(Operands.from_decision_inputs(inputs))
        except ReReviewError as exc:
            out.add(
                "RR-418",
                doc,
                ["decision_inputs"],
                f"no decision follows from decision_inputs: {exc.message}",
            )
        if stated is not None and state != stated.decision_state:
            out.add(
                "RR-418",
                doc,
                ["decision_state"],
                f"decision_state {state} is not {stated.decision_state}, the decision "
                "decision_inputs state",
                expected=stated.decision_state,
                emitted=state,
            )
    if not flag_given:
        out.add(
            "RR-419",
            doc,
            ["decision_inputs"],
            "reject_recommended is missing",
            expected=raw.reject_recommended,
        )
        return
    assert isinstance(inputs, dict)
    flag = inputs["reject_recommended"]
    if flag != raw.reject_recommended:
        out.add(
            "RR-420",
            doc,
            ["decision_inputs", "reject_recommended"],
            f"reject_recommended is {flag}, the records give {raw.reject_recommended}",
            expected=raw.reject_recommended,
            emitted=flag,
        )
    elif stated is not None and flag != stated.reject_recommended:
        out.add(
            "RR-421",
            doc,
            ["decision_inputs", "reject_recommended"],
            f"reject_recommended is {flag}, decision_inputs give {stated.reject_recommended}",
            expected=stated.reject_recommended,
            emitted=flag,
        )
