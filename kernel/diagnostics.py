"""One diagnostic model: the :class:`Diagnostic` value and the registry of every code.

Every check, lint and conformance run reports :class:`Diagnostic` values; each code is listed
once in :data:`REGISTRY` with its default severity, a one-line summary and the rule it
enforces. A :class:`Diagnostic` with an unregistered code cannot be built, and
``docs/codes.md`` is generated from the registry (``sprint-kernel codes --write
docs/codes.md``; a test fails when it is stale).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any, Final, Literal, get_args

import attrs

from kernel.errors import (
    AnalysisTooLarge,
    ContractError,
    ExpressionUnrecognised,
    InputError,
    KernelError,
    MatrixError,
    MigrationError,
    PanelShrunk,
)

__all__ = [
    "CODES_URL",
    "GROUPS",
    "HOME_URL",
    "REGISTRY",
    "SEVERITIES",
    "Code",
    "Diagnostic",
    "Explanation",
    "Severity",
    "codes_markdown",
    "docs_url",
    "explanation",
    "from_error",
    "rule_page",
    "sort_key",
]

#: Kept for old imports: no page of the project is published at a known address, so there
#: is no home page to link to. Links come from :func:`docs_url`.
HOME_URL: Final[str | None] = None
CODES_URL: Final[str | None] = None
#: The distribution whose metadata may name a ``Documentation`` URL.
DISTRIBUTION: Final = "sprint-contract-kernel"


@functools.cache
def _metadata_docs_url() -> str | None:
    """The ``Documentation`` project URL of the installed distribution, if it names one."""
    try:
        from importlib.metadata import metadata

        urls = metadata(DISTRIBUTION).get_all("Project-URL") or []
    except Exception:  # not installed, or unreadable metadata: no link
        return None
    for entry in urls:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() == "documentation" and url.strip().startswith("https://"):
            return url.strip()
    return None


def docs_url(configured: str | None = None) -> str | None:
    """Where the docs folder (holding ``codes.md``) is published: the configuration's
    ``docs-url``, else the package metadata's ``Documentation`` URL, else ``None`` (then
    every link is left out)."""
    return configured or _metadata_docs_url()


Severity = Literal["error", "warning", "info"]
SEVERITIES: Final[tuple[Severity, ...]] = get_args(Severity)


@attrs.frozen
class Code:
    """A registered diagnostic code."""

    id: str
    severity: Severity
    summary: str
    #: The rule it enforces, as the docs name it (``R7``, ``Phase 2 check 3``, …).
    rule: str
    #: The heading of ``docs/codes.md`` it is listed under.
    group: str

    @property
    def anchor(self) -> str:
        """Its anchor in ``docs/codes.md``: the code in lower case."""
        return self.id.lower()

    def link(self, docs: str | None) -> str | None:
        """Its anchor on ``codes.md`` under the docs URL ``docs`` (``None`` without one)."""
        return None if not docs else f"{docs.rstrip('/')}/codes.md#{self.anchor}"

    @property
    def url(self) -> str | None:
        """Where the code is documented (:func:`docs_url`), or ``None`` when that is not
        known."""
        return self.link(docs_url())


#: ``docs/codes.md`` sections, in order: (group, heading, one-line introduction).
GROUPS: Final = (
    ("E", "Input and contract errors", "Unreadable input and invalid contracts or matrices."),
    ("SC", "Contract warnings and expression errors", "The validator's soft checks (and SC-12)."),
    ("P1", "Phase 1 lint", "The reviewer's Phase 1 document (contract paraphrase, plan)."),
    ("P2", "Phase 2 lint", "The reviewer's Phase 2 document (scores, checks, decision)."),
    ("AN", "Analyzer", "What a contract can decide over every scoring matrix."),
    ("ARENA", "Arena protocol", "Verdict parsing and the conformance checks of an audit trail."),
    ("CN", "Consensus protocol", "Model responses and consensus rounds."),
    (
        "PANEL",
        "Review panel",
        "Votes documents, injection scans, guardrails, challenge "
        "routing, delta mode and session logs.",
    ),
    (
        "MG",
        "Migration",
        "Migrating a Schema 13 contract to 13.2: the choices made and the decisions that change.",
    ),
    ("SY", "Synthesis check", "A written editorial synthesis held against the decision (R17)."),
    (
        "RR",
        "Re-review",
        "ARS round 2: the input manifest, the three phase documents, their hash chain and the "
        "emitted decision (layers L1-L8; RR-9xx are notes).",
    ),
)

_E, _SC, _P1, _P2, _AN, _ARENA, _CN, _PANEL, _MG, _SY, _RR = (g[0] for g in GROUPS)

_ROWS: tuple[tuple[str, Severity, str, str, str], ...] = (
    # --- input and contract errors -------------------------------------------------------
    ("E-READ", "error", "file cannot be read: missing, or no permission", "R13", _E),
    ("E-NOT-FILE", "error", "not a regular file (a directory, a FIFO, a device), or standard "
     "input named twice: refused at once, never read", "R13", _E),
    ("E-SIZE", "error", "input is over the size limit (1 MiB unless --max-bytes says "
     "otherwise)", "R13", _E),
    ("E-UTF8", "error", "input is not valid UTF-8", "R13", _E),
    ("E-JSON", "error", "not strict JSON: syntax error, duplicate key, NaN/Infinity, "
     "trailing data or nested too deeply", "R10", _E),
    ("E-SCHEMA", "error", "the contract does not match the schema of its dialect (Schema 13 "
     "or Schema 13.2)", "R10, R14, 13.2 §A", _E),
    ("E-STRUCT", "error", "duplicate dimension id, dimension name or condition id",
     "contract structural invariants", _E),
    ("E-ROLE-SET", "error", "13.2: a reviewer mode with no role set (reviewer_calibration, "
     "reviewer_guided)", "13.2 §B3", _E),
    ("E-OWNER", "error", "13.2: a dimension's owner_role is not one of its eligible_roles",
     "13.2 §B4", _E),
    ("E-ROLE-SCOPE", "error", "13.2: a dimension's eligible_roles go outside the mode's role "
     "set", "13.2 §B5", _E),
    ("E-ROLE-UNUSED", "error", "13.2: a role of the mode's role set is eligible on no "
     "dimension", "13.2 §B6", _E),
    ("E-FATAL-SCOPE", "error", "13.2: a fatal-block atom targets a dimension that is not "
     "mandatory", "13.2 §B7", _E),
    ("E-ROLE-FIELDS", "error", "13.2: a writer or evaluator dimension carries eligible_roles "
     "or owner_role", "13.2 §B8", _E),
    ("E-INELIGIBLE", "error", "a reviewer panel contract decide refuses on every matrix (13.2: "
     "a panel_size other than the mode's)", "13.2 §D7", _E),
    ("E-VERSION", "error", "a version is not of the form vX.Y.Z with readable numbers",
     "SC-1", _E),
    ("E-CONTRACT", "error", "the contract a command was given is invalid", "R7, R10", _E),
    ("E-MATRIX", "error", "a scoring matrix does not fit the contract", "R9", _E),
    ("E-PANEL-SHRUNK", "error", "fewer usable reviewers than panel_size: the round aborts",
     "R9", _E),
    ("E-NO-DECISION", "error", "nothing fired and the contract has no accept-grade fallback",
     "R5", _E),
    ("E-TOO-LARGE", "error", "the analysis is too large to compute", "analyzer limits", _E),
    ("E-MIGRATE", "error", "a Schema 13 contract cannot be migrated as asked: a condition, "
     "field or option needs the caller's choice", "migration rules", _E),
    ("E-CONFIG", "error", "the configuration (a config file's key or value, or --select/--ignore) "
     "is unusable", "configuration", _E),
    ("E-INPUT", "error", "input the command cannot use (a value of the wrong type or range)",
     "fail closed", _E),
    # --- contract warnings (seed §4.2, R7, R15) --------------------------------------------
    ("SC-1", "warning", "baseline_version lags the current ARS version by a major or more "
     "than two minor versions", "SC-1", _SC),
    ("SC-2", "warning", "single-dimension contract", "SC-2", _SC),
    ("SC-3", "warning", "no mandatory-priority dimension", "SC-3", _SC),
    ("SC-4", "warning", "an expression names a D<n> token that is not a dimension id",
     "SC-4, R7", _SC),
    ("SC-5", "warning", "reviewer_must_output_before_paper lacks contract_paraphrase or "
     "scoring_plan", "SC-5", _SC),
    ("SC-6", "warning", "agent_amendments carries a baseline field name", "SC-6, R11", _SC),
    ("SC-7", "warning", "two conditions share a severity but map to different actions",
     "SC-7, R6", _SC),
    ("SC-9", "warning", "paraphrase_minimum_dimensions exceeds the number of dimensions",
     "SC-9", _SC),
    ("SC-10", "warning", "a mandatory or high dimension is read by no compiled expression",
     "SC-10, R7", _SC),
    ("SC-11", "warning", "panel_size is 1, or inconsistent with the mode", "SC-11, R1", _SC),
    ("SC-12", "error", "an expression does not compile: outside the vocabulary, or names a "
     "dimension the contract lacks", "R4, R7", _SC),
    ("SC-13", "warning", "no condition has action editorial_decision=accept: no R5 fallback",
     "R5, R7", _SC),
    ("SC-14", "warning", "an atom names a priority the contract has no dimension of (13 "
     "only; under 13.2 it is SC-12)", "R15", _SC),
    ("SC-15", "info", "13.2: a mandatory dimension has one eligible role (a single-judge "
     "gate; upstream warns of it as SC-12); information, which --strict does not count",
     "13.2 §J4", _SC),
    ("SC-16", "warning", "13.2: a writer or evaluator condition is outside the vocabulary; "
     "nothing can decide it", "13.2 §J4", _SC),
    # --- Phase 1 lint ------------------------------------------------------------------
    ("P1-001", "error", "a Phase 1 section is missing", "Phase 1 check 1", _P1),
    ("P1-002", "error", "a Phase 1 section appears twice", "Phase 1 check 1", _P1),
    ("P1-003", "error", "'## Scoring Plan' comes before '## Contract Paraphrase'",
     "Phase 1 check 1", _P1),
    ("P1-004", "error", "an unexpected section or heading", "Phase 1 check 1", _P1),
    ("P1-005", "error", "text before the first section", "Phase 1 check 1", _P1),
    ("P1-006", "error", "[CONTRACT-ACKNOWLEDGED] is not alone on the last non-blank line, or is "
     "in code, HTML or a quote", "Phase 1 check 1", _P1),
    ("P1-007", "error", "the paraphrase covers too few distinct dimensions",
     "Phase 1 check 2", _P1),
    ("P1-008", "error", "a dimension has no '### <Dn>: <name>' scoring-plan subsection",
     "Phase 1 check 3", _P1),
    ("P1-009", "error", "a scoring-plan subsection appears twice", "Phase 1 check 3", _P1),
    ("P1-010", "error", "a scoring-plan subsection names no contract dimension",
     "Phase 1 check 3", _P1),
    ("P1-011", "error", "a required scoring-plan field is missing or empty",
     "Phase 1 check 4", _P1),
    ("P1-012", "error", "dimension_id differs from the subsection's dimension",
     "Phase 1 check 4", _P1),
    ("P1-013", "error", "a Phase 2 section in a Phase 1 document", "Phase 1 check 5", _P1),
    ("P1-014", "error", "a scoring-plan field is written more than once",
     "Phase 1 check 4", _P1),
    ("P1-015", "error", "the document is over the work bound and was not parsed",
     "Reviewer documents: work bounds", _P1),
    ("P1-090", "warning", "advisory: instruction-override or forged-delimiter text",
     "Phase 1 check 6", _P1),
    # --- Phase 1 lint, dialect 13.2 (a seat with a role) ---------------------------------
    ("P1-101", "error", "[PHASE1-GRAMMAR]: not exactly one '## Scoring Plan' or "
     "'## Contract Paraphrase'", "13.2 §E1", _P1),
    ("P1-102", "error", "[PHASE1-GRAMMAR]: the last non-blank line is not "
     "[CONTRACT-ACKNOWLEDGED] in a paragraph of its own", "13.2 §E2", _P1),
    ("P1-103", "error", "[PHASE1-GRAMMAR]: the '##' sections are not exactly Contract "
     "Paraphrase then Scoring Plan", "13.2 §E3", _P1),
    ("P1-104", "error", "[PHASE1-GRAMMAR]: the paraphrase has fewer paragraphs than required",
     "13.2 §E4", _P1),
    ("P1-105", "error", "[PHASE1-GRAMMAR]: a scoring-plan subsection is ill-formed, repeated "
     "or misnamed", "13.2 §E5", _P1),
    ("P1-106", "error", "[PHASE1-OUT-OF-ROLE]: the role planned a dimension it is not "
     "eligible for", "13.2 §E5", _P1),
    ("P1-107", "error", "[PHASE1-SCOPE]: the planned dimensions are not the role's eligible "
     "set", "13.2 §E5", _P1),
    ("P1-108", "error", "[PHASE1-GRAMMAR]: a plan field is missing, repeated, forbidden or "
     "names another dimension", "13.2 §E6", _P1),
    ("P1-109", "error", "[PHASE1-GRAMMAR]: a plan field line is bulleted, decorated or "
     "indented", "13.2 §E0 (kernel reading)", _P1),
    ("P1-110", "error", "[PHASE1-TRIGGER-COLLISION]: two trigger commitments of a dimension "
     "are the same text", "13.2 §E7", _P1),
    ("P1-111", "warning", "[PHASE1-TRIGGER-SHORT]: a trigger commitment has fewer than 8 "
     "words", "13.2 §E8", _P1),
    ("P1-112", "error", "[PHASE1-MANUSCRIPT-LEAK]: a 12-word manuscript shingle appears in "
     "Phase 1", "13.2 §E9", _P1),
    ("P1-115", "error", "the document is over the work bound and was not parsed (13.2)",
     "Reviewer documents: work bounds", _P1),
    ("P1-116", "error", "[PHASE1-GRAMMAR]: the block and line readings disagree on a heading "
     "or a plan field line", "R20", _P1),
    ("P1-117", "error", "[PHASE1-GRAMMAR]: a plan field line outside a scoring-plan "
     "subsection", "R20", _P1),
    ("P1-120", "error", "13.2: no seat for a Phase 1 document (its NAME is no role of the "
     "mode and no Phase 2 report beside it declares one)", "13.2 §G6 (kernel reading)", _P1),
    ("P1-121", "error", "13.2: two Phase 1 documents for one seat", "13.2 §G6", _P1),
    # --- Phase 2 lint ------------------------------------------------------------------
    ("P2-001", "error", "a Phase 2 section is missing", "Phase 2 check 1", _P2),
    ("P2-002", "error", "a Phase 2 section appears twice", "Phase 2 check 1", _P2),
    ("P2-003", "error", "the dissent section comes after '## Dimension Scores'",
     "Phase 2 check 1", _P2),
    ("P2-004", "error", "an unexpected section or heading", "Phase 2 check 1", _P2),
    ("P2-005", "error", "text before the first section", "Phase 2 check 1", _P2),
    ("P2-006", "error", "the document is over the work bound and was not parsed",
     "Reviewer documents: work bounds", _P2),
    ("P2-010", "error", "a dimension has no '### <Dn>: <name>' score subsection",
     "Phase 2 check 2", _P2),
    ("P2-011", "error", "a score subsection appears twice", "Phase 2 check 2", _P2),
    ("P2-012", "error", "a score subsection names no contract dimension", "Phase 2 check 2",
     _P2),
    ("P2-013", "error", "a score subsection does not hold exactly one 'score:' line",
     "Phase 2 check 2", _P2),
    ("P2-014", "error", "a score is not block, warn or pass", "Phase 2 check 2", _P2),
    ("P2-020", "error", "a condition has no '### <Fn>' subsection", "Phase 2 check 3", _P2),
    ("P2-021", "error", "a condition subsection appears twice", "Phase 2 check 3", _P2),
    ("P2-022", "error", "a condition subsection names no condition of the contract",
     "Phase 2 check 3", _P2),
    ("P2-023", "error", "a condition subsection does not hold exactly one 'fired:' line",
     "Phase 2 check 3", _P2),
    ("P2-024", "error", "a fired value is not true or false", "Phase 2 check 3", _P2),
    ("P2-025", "error", "a fired flag differs from the predicate on the reviewer's own scores",
     "Phase 2 check 3, R12", _P2),
    ("P2-030", "error", "the dissent section names no contract dimension", "Phase 2 check 4",
     _P2),
    ("P2-031", "error", "multi-dissent: the dissent names two or more dimensions",
     "Phase 2 check 4", _P2),
    ("P2-032", "error", "a dissent entry names no contract dimension", "Phase 2 check 4", _P2),
    ("P2-040", "error", "a block/warn score cites none of the words of its Phase 1 trigger",
     "Phase 2 check 5", _P2),
    ("P2-041", "error", "a Phase 1 trigger has no token after stop words: it cannot be met",
     "Phase 2 check 5", _P2),
    ("P2-042", "error", "the Phase 1 plan for a scored dimension is missing or broken",
     "Phase 2 check 5", _P2),
    ("P2-043", "warning", "consistency with Phase 1 was not checked: no Phase 1 document",
     "Phase 2 check 7", _P2),
    ("P2-045", "error", "the Review Body's prose is over the inline-markup bound",
     "Reviewer documents: work bounds", _P2),
    ("P2-050", "error", "'## Editorial Decision' does not hold exactly one "
     "editorial_decision=<action> line", "Phase 2 check 6", _P2),
    ("P2-051", "error", "the action is not an action of the contract", "Phase 2 check 6", _P2),
    ("P2-052", "error", "the action does not follow from the fired flags",
     "Phase 2 check 6, R5, R6", _P2),
    ("P2-053", "error", "nothing is marked fired and the contract has no accept-grade fallback",
     "Phase 2 check 6, R5", _P2),
    ("P2-090", "warning", "advisory: instruction-override or forged-delimiter text",
     "Phase 1 check 6 (also in Phase 2)", _P2),
    ("P2-060", "error", "a score, fired or decision statement outside its own place",
     "Phase 2 check 8", _P2),
    # --- Phase 2 lint, dialect 13.2 (a seat with a role) ---------------------------------
    ("P2-101", "error", "[V1-GRAMMAR-RETIRED]: a v3.6.2 per-seat section", "13.2 §F1", _P2),
    ("P2-102", "error", "[V1-GRAMMAR-RETIRED]: a bare editorial_decision= line", "13.2 §F1",
     _P2),
    ("P2-103", "error", "[REPORT-PARSE]: '## Dimension Scores' missing or repeated",
     "13.2 §F2", _P2),
    ("P2-104", "error", "[REPORT-PARSE]: not exactly one contract_role: line", "13.2 §F3",
     _P2),
    ("P2-105", "error", "[REPORT-ROLE]: the declared role is not a role of the mode",
     "13.2 §F3", _P2),
    ("P2-106", "error", "[ROLE-BINDING]: the declared role is not the dispatched one",
     "13.2 §E0.5", _P2),
    ("P2-107", "error", "[REPORT-PARSE]: a score subsection is unknown, misnamed, repeated or "
     "missing", "13.2 §F4", _P2),
    ("P2-108", "error", "[REPORT-PARSE]: a score subsection's field counts are wrong",
     "13.2 §F5", _P2),
    ("P2-109", "error", "[REPORT-PARSE]: a field line is bulleted, decorated or indented",
     "13.2 §E0 (kernel reading)", _P2),
    ("P2-110", "error", "[ABSTENTION-INVALID]: an abstention without reason, or a reason "
     "where none belongs", "13.2 §F6", _P2),
    ("P2-111", "error", "[OUT-OF-ROLE-SCORE]: a score on a dimension the role is not "
     "eligible for", "13.2 §F6", _P2),
    ("P2-112", "error", "[BLOCK-CLASS-INVALID]: block_class present iff an eligible mandatory "
     "block fails", "13.2 §F7", _P2),
    ("P2-113", "error", "[TRIGGER-GRAMMAR]: trigger present iff an eligible block or warn "
     "fails", "13.2 §F8", _P2),
    ("P2-114", "error", "[TRIGGER-DRIFT]: the trigger is not in the seat's Phase 1 "
     "commitment", "13.2 §F9", _P2),
    ("P2-115", "error", "[TRIGGER-AMBIGUOUS]: the trigger is in more than one commitment",
     "13.2 §F9", _P2),
    ("P2-116", "error", "[PROTOCOL-VIOLATION: multi_dissent=true]: two or more dissent "
     "dimensions", "13.2 §F9", _P2),
    ("P2-117", "error", "[DISSENT-GRAMMAR]: the dissent section is malformed", "13.2 §F10",
     _P2),
    ("P2-118", "error", "[DISSENT-FATALITY]: a dissented dimension scores a fatal block",
     "13.2 §F9", _P2),
    ("P2-119", "warning", "[DISSENT-EMPTY-SECTION]: a dissent section with no dissent field",
     "13.2 §F10.4", _P2),
    ("P2-120", "error", "[REVIEW-BODY-MISSING]: not exactly one '## Review Body'",
     "13.2 §F11.1", _P2),
    ("P2-121", "error", "[FINDING-GRAMMAR]: a Review Body finding is malformed",
     "13.2 §F11.1", _P2),
    ("P2-122", "error", "[ANCHOR-MISSING]: a finding or DA row has no evidence anchor",
     "13.2 §F11.2", _P2),
    ("P2-123", "error", "[ANCHOR-INVALID]: an evidence anchor is malformed", "13.2 §F11.2",
     _P2),
    ("P2-125", "error", "trigger binding not checked: the seat's Phase 1 fails its lint",
     "13.2 §F9", _P2),
    ("P2-126", "error", "the document is over the work bound and was not parsed (13.2)",
     "Reviewer documents: work bounds", _P2),
    ("P2-127", "warning", "trigger binding not checked: no Phase 1 document", "13.2 §F9",
     _P2),
    ("P2-128", "error", "the Phase 1 document read from beside a Phase 2 is not tracked by "
     "git (a clone has no Phase 1 for it)", "pre-commit (kernel reading)", _P2),
    ("P2-130", "error", "[DA-TABLE-PARSE]: the DA report's tables or surfaces are malformed",
     "13.2 §F11.3", _P2),
    ("P2-131", "error", "[DA-FINDING-GRAMMAR]: a Severity declaration in a DA report",
     "13.2 §F11.3", _P2),
    ("P2-132", "error", "[DA-CRITICAL-PARSE]: the CRITICAL table is malformed",
     "13.2 §F11.4", _P2),
    ("P2-133", "error", "[DA-MAJOR-PARSE]: the MAJOR table is malformed", "13.2 §F11.4", _P2),
    ("P2-134", "error", "[DA-CRITICAL-ID]: CRITICAL IDs are not C1..Cn in order",
     "13.2 §F11.7", _P2),
    ("P2-135", "error", "[REPORT-PARSE]: the block and line readings disagree on a heading or "
     "a field line", "R20", _P2),
    ("P2-136", "error", "[REPORT-PARSE]: a score or dissent field line outside its own place",
     "R20", _P2),
    ("P2-140", "error", "[PANEL-CARDINALITY]: two Phase 2 reports declare one "
     "contract_role", "13.2 §G6", _P2),
    ("P2-141", "error", "[RECEIPT-MISSING]: a methodology card has no '## Arithmetic "
     "Receipts' (ars main)", "ars main §4.3", _P2),
    ("P2-142", "error", "[RECEIPT-GRAMMAR]: the '## Arithmetic Receipts' section is malformed "
     "(ars main)", "ars main §4.4-§4.6", _P2),
    ("P2-143", "error", "[RECEIPT-TAILS]: an unstated tail convention without both tails shown "
     "(ars main)", "ars main §4.7", _P2),
    ("P2-144", "error", "[RECEIPT-LINKAGE]: a mismatch receipt and its finding do not name "
     "each other (ars main)", "ars main §4.8", _P2),
    ("P2-145", "error", "[RECEIPT-SECTION-FORBIDDEN]: receipts on a seat other than "
     "methodology (ars main)", "ars main §4.1", _P2),
    ("P2-146", "warning", "[RECEIPT-ATTESTATION]: the receipts section only attests that "
     "nothing is recomputable (ars main)", "ars main §4.5", _P2),
    ("P2-147", "warning", "[SEVERITY-SUPERSEDED]: a finding restates its Severity upwards; the "
     "last value counts (ARS main)", "ars-main §3", _P2),
    ("P2-148", "error", "[DISSENT-HIDDEN]: a dissent field hidden by an HTML comment (ARS main)",
     "ars-main §5.2", _P2),
    ("P2-149", "error", "[DISSENT-RAW-HTML]: raw HTML in the Scoring Plan Dissent section "
     "(ARS main)", "ars-main §5.3", _P2),
    # --- analyzer ----------------------------------------------------------------------
    ("AN-1", "warning", "some matrices fire no condition and fall back to the accept action",
     "R5", _AN),
    ("AN-2", "error", "a condition can never decide (unreachable)", "R6", _AN),
    ("AN-3", "error", "not monotone: a worse score can give a milder action", "R6", _AN),
    ("AN-4", "error", "some matrices get no decision at all (no fallback)", "R5", _AN),
    # --- migration -----------------------------------------------------------------------
    ("MG-1", "info", "a choice the migration made: a field defaulted, renamed or added, or "
     "set by an option", "migration rules", _MG),
    ("MG-2", "warning", "the migrated contract decides some matrices differently from the old "
     "one", "migration rules", _MG),
    # --- arena -------------------------------------------------------------------------
    ("ARENA-VERDICT", "info", "the verdict read from a reviewer output", "Arena §7.3", _ARENA),
    ("PARSER_WARNING_MULTIPLE_VERDICTS", "warning", "several verdict lines; the last counts",
     "Arena §7.3", _ARENA),
    ("PARSER_ERROR_MISSING_VERDICT", "error", "no line matches VERDICT: APPROVED|REVISE",
     "Arena §7.3", _ARENA),
    *(
        (f"ARENA-C{n:02d}", "error", f"conformance check {n}: {title}", f"Arena §12 check {n}",
         _ARENA)
        for n, title in enumerate(
            (
                "ProtocolConfig satisfies Section 4.1 constraints",
                "all states are in the allowed ProtocolState enum",
                "all transitions follow Section 5.1",
                "reviewer mode is enforced as read-only",
                "verdict parsing follows Section 7.3 exactly",
                "missing verdict handling uses exactly one retry",
                "max_rounds cap is enforced",
                "session resume is enforced when required",
                "notebook hooks execute for enabled phases",
                "after-hook includes mandatory drift-check query",
                "studio_create is optional, not mandatory",
                "audit trail contains all required events and records",
                "no prohibited excess content in protocol artifacts",
            ),
            start=1,
        )
    ),
    # --- consensus ---------------------------------------------------------------------
    ("CN-OK", "info", "a valid response, and the parse stage that found it", "Consensus B",
     _CN),
    ("CN-ABSENT", "error", "a parse stage found no candidate JSON", "Consensus B", _CN),
    ("CN-MALFORMED", "error", "a candidate is not strict JSON", "Consensus B", _CN),
    ("CN-NOT-OBJECT", "error", "a candidate is JSON but not an object", "Consensus B", _CN),
    ("CN-SCHEMA", "error", "a candidate breaks the response schema", "Consensus B", _CN),
    ("CN-UNKNOWN-FIELD", "info", "a response carries a field its schema does not name",
     "Consensus B", _CN),
    ("CN-PARSE-FAILED", "error", "no parse stage produced a valid response", "Consensus B",
     _CN),
    ("CN-ROUND-INVALID", "error", "the round document breaks its schema", "Consensus B", _CN),
    ("CN-NO-QUORUM", "error", "fewer successful responses than the quorum", "Consensus B",
     _CN),
    ("CN-CONSENSUS", "info", "consensus reached", "Consensus B", _CN),
    ("CN-NO-CONSENSUS", "warning", "no consensus this round", "Consensus B", _CN),
    ("CN-CONTINUE", "info", "no stop rule applies: run another round", "Consensus B", _CN),
    ("CN-STOP-MAX-ROUNDS", "error", "stop: the round cap is reached", "Consensus B", _CN),
    ("CN-STOP-SMALL-CHANGE", "error", "stop: the candidate changed less than the threshold",
     "Consensus B", _CN),
    ("CN-STOP-NO-EDITS", "error", "stop: no critique proposes a change", "Consensus B", _CN),
    ("CN-OBJECTION", "info", "an objection raised by one or more critiques", "Consensus B",
     _CN),
    ("CN-MISSING", "info", "something a critique says is missing", "Consensus B", _CN),
    # --- panel -------------------------------------------------------------------------
    ("PANEL-INPUT", "error", "the votes document breaks its schema or names unknown "
     "specialists", "Panel C", _PANEL),
    ("PANEL-RESOLVED", "info", "a finding's resolution (outcome and label)", "Panel C",
     _PANEL),
    ("PANEL-AGREEMENT", "info", "the panel's agreement level", "Panel C", _PANEL),
    ("PANEL-VERDICT", "info", "the panel verdict after severity escalation", "Panel C",
     _PANEL),
    ("INJECTION-INSTRUCTION-OVERRIDE", "error", "text that tries to override instructions",
     "Panel C injection scan", _PANEL),
    ("INJECTION-ROLE-REASSIGNMENT", "error", "text that tries to reassign the agent's role",
     "Panel C injection scan", _PANEL),
    ("INJECTION-FORGED-DELIMITER", "error", "a forged data delimiter tag",
     "Panel C injection scan", _PANEL),
    ("INJECTION-FORGED-PROVENANCE", "error", "forged provenance (a claimed source or author)",
     "Panel C injection scan", _PANEL),
    ("INJECTION-DANGEROUS-COMMAND", "error", "a destructive shell command",
     "Panel C injection scan", _PANEL),
    ("EVIDENCE_THRESHOLD", "warning", "a finding's evidence is too short: severity lowered",
     "Panel C guardrails", _PANEL),
    ("OUT_OF_SCOPE", "warning", "a finding lies outside the review scope", "Panel C guardrails",
     _PANEL),
    ("DESTRUCTIVE_FIX", "warning", "a finding's fix holds a destructive command",
     "Panel C guardrails", _PANEL),
    ("SEVERITY_INFLATION", "warning", "more than half of an agent's findings are Critical",
     "Panel C guardrails", _PANEL),
    ("PANEL-LIFECYCLE", "error", "a finding's lifecycle event is out of order (names the "
     "finding and both states)", "Panel C2 audit log", _PANEL),
    ("PANEL-ROUTE", "info", "one specialist's challenge queue, by band", "Panel C2 routing",
     _PANEL),
    ("PANEL-ROUTE-BANDS", "info", "(finding, specialist) pairs per band: primary, adjacent, "
     "rest", "Panel C2 routing", _PANEL),
    ("PANEL-UNLISTED-DOMAIN", "warning", "a finding's domain is listed by no specialist of the "
     "profile (routed to the rest)", "Panel C2 routing", _PANEL),
    ("PANEL-DELTA-TARGET", "info", "a changed path to review", "Panel C2 delta mode", _PANEL),
    ("PANEL-DELTA-KEPT", "info", "a finding on an unchanged path, kept", "Panel C2 delta mode",
     _PANEL),
    ("PANEL-DELTA-DROPPED", "info", "a finding on a changed path, dropped for re-review",
     "Panel C2 delta mode", _PANEL),
    ("PANEL-DELTA", "info", "delta-mode totals", "Panel C2 delta mode", _PANEL),
    ("PANEL-SESSION", "info", "the review parameters of a session log", "Panel C2 audit log",
     _PANEL),
    ("PANEL-PHASE", "info", "a phase's timestamps and tokens", "Panel C2 audit log", _PANEL),
    ("PANEL-FINDING", "info", "a finding's lifecycle and final state", "Panel C2 audit log",
     _PANEL),
    ("PANEL-SCRIPT", "info", "a script's exit status", "Panel C2 audit log", _PANEL),
    ("PANEL-AUDIT", "info", "session-log totals", "Panel C2 audit log", _PANEL),
    # --- synthesis check (R17) -------------------------------------------------------------
    ("SY-001", "error", "no fired_conditions line", "R17", _SY),
    ("SY-002", "error", "more than one fired_conditions line", "R17", _SY),
    ("SY-003", "error", "fired_conditions line is not '[id, …]' or holds a non-id", "R17", _SY),
    ("SY-004", "error", "fired_conditions names a condition the contract does not have", "R17",
     _SY),
    ("SY-005", "error", "fired_conditions names a condition twice", "R17", _SY),
    ("SY-006", "error", "conditions that fired are missing from fired_conditions", "R17", _SY),
    ("SY-007", "error", "fired_conditions names conditions that did not fire", "R17", _SY),
    ("SY-008", "error", "no editorial_decision= line", "R17", _SY),
    ("SY-009", "error", "more than one editorial_decision= line or token", "R17", _SY),
    ("SY-010", "error", "the written action differs from the decision's action", "R17", _SY),
    ("SY-101", "error", "[SYNTHESIS-PARSE]: a 13.2 synthesis line is missing, repeated or "
     "malformed", "13.2 §G2, §G3", _SY),
    ("SY-102", "error", "[PANEL-SYNTHESIS-MISMATCH]: the stated fired list, verdicts or "
     "decision differ from the recomputation", "13.2 §G4", _SY),
    ("SY-103", "error", "[DA-CRITICAL-ADJUDICATION-MISMATCH]: the adjudicated ids are not the "
     "DA's CRITICAL ids", "13.2 §G5", _SY),
    ("SY-104", "error", "[DA-CRITICAL-RATIONALE-MISSING]: a REJECTED critical issue has no "
     "rationale", "13.2 §G5", _SY),
    ("SY-105", "error", "[DA-CRITICAL-VS-ACCEPT-MARKER]: the accept-over-critical marker is "
     "missing, wrong or forbidden", "13.2 §G5", _SY),
    # --- re-review (ARS round 2) ---------------------------------------------------------
    ("RR-001", "error", "manifest shape: exactly round_id, cross_model_active and artifacts with "
     "its nine keys, each entry present-discriminated", "re-review §2.2, L1", _RR),
    ("RR-002", "error", "an absent artifact carries a member besides present",
     "re-review §2.2, L1", _RR),
    ("RR-003", "error", "an artifact ref is not tagged passport: or path:",
     "re-review §2.2, L1", _RR),
    ("RR-004", "error", "a path: ref is empty, absolute, has a drive letter or a '..' segment",
     "re-review §2.2, L1", _RR),
    ("RR-005", "error", "an artifact sha256 is not 64 lowercase hex", "re-review §2.2, L1", _RR),
    ("RR-006", "error", "a freshness member (version_label, origin_date) is missing or neither "
     "text nor null", "re-review §2.2, L1", _RR),
    ("RR-007", "error", "a null freshness member on a passport: ref", "re-review §2.2, L1", _RR),
    ("RR-008", "error", "an array artifact's items are missing, empty or not fully populated",
     "re-review §2.2, L1", _RR),
    ("RR-009", "error", "the revised manuscript or the revision roadmap is absent",
     "re-review §2.2, L1", _RR),
    ("RR-010", "error", "apply reports without revision patches", "re-review §2.2, L1", _RR),
    ("RR-011", "error", "apply reports and revision patches differ in length",
     "re-review §2.2, L1", _RR),
    ("RR-012", "error", "the roadmap's origin_date sorts before the letter's "
     "(manifest_hash_mismatch)", "re-review §2.2, L1", _RR),
    ("RR-013", "error", "a file's bytes do not hash to its manifest sha256 "
     "(manifest_hash_mismatch)", "re-review §3, L2", _RR),
    ("RR-014", "error", "the roadmap is not in its machine form (items with id, priority, "
     "verification_criteria, reviewer)", "re-review §2.3, L2", _RR),
    ("RR-015", "error", "the letter is declared present but not supplied", "re-review §4, L2", _RR),
    ("RR-016", "error", "a letter is supplied but the manifest declares it absent",
     "re-review §4, L2", _RR),
    ("RR-017", "error", "the number of apply reports differs from the manifest's",
     "re-review §4, L2", _RR),
    ("RR-018", "error", "an apply report is not an object with report_format_version, "
     "base_draft_hash and output_draft_hash as text", "re-review §2.3, L3", _RR),
    ("RR-019", "error", "an apply report's report_format_version is not a dotted number",
     "re-review §2.3, L3", _RR),
    ("RR-020", "error", "an apply report's draft hash is not 12 lowercase hex",
     "re-review §2.3, L3", _RR),
    ("RR-021", "error", "an apply report of version 1.2 or later lacks a 64-hex patch_digest",
     "re-review §2.3, L3", _RR),
    ("RR-022", "error", "an apply report's patch_digest differs from its paired patch's sha256 "
     "(manifest_hash_mismatch)", "re-review §3, L3", _RR),
    ("RR-023", "error", "apply chain: the first report's base_draft_hash is not the original "
     "manuscript's short hash (manifest_hash_mismatch)", "re-review §3, L3", _RR),
    ("RR-024", "error", "apply chain: a report's base_draft_hash is not the previous report's "
     "output_draft_hash (manifest_hash_mismatch)", "re-review §3, L3", _RR),
    ("RR-025", "error", "apply chain: the last report's output_draft_hash is not the revised "
     "manuscript's short hash (manifest_hash_mismatch)", "re-review §3, L3", _RR),
    ("RR-101", "error", "Phase 1 precommitment does not match its schema (phase1_lint_failed)",
     "re-review §2.4, L4", _RR),
    ("RR-102", "error", "precommitment: letter_text without letter_item_ref or the reverse",
     "re-review §2.4, L4", _RR),
    ("RR-103", "error", "precommitment: letter fields on a should_fix record",
     "re-review §2.4, L4", _RR),
    ("RR-104", "error", "precommitment: a must_fix record lacks partially_addressed or "
     "made_worse_discriminator", "re-review §2.4, L4", _RR),
    ("RR-105", "error", "precommitment: a should_fix record has partially_addressed or "
     "made_worse_discriminator", "re-review §2.4, L4", _RR),
    ("RR-121", "error", "Phase 2A verdict record does not match its schema (phase2a_lint_failed)",
     "re-review §2.5, L5", _RR),
    ("RR-122", "error", "verdict record: evidence anchors present exactly when the verdict is not "
     "CANNOT_VERIFY (and cannot_verify_reason exactly when it is)", "re-review §2.5, L5", _RR),
    ("RR-123", "error", "verdict record: residual_gap present exactly when the verdict is "
     "PARTIALLY_ADDRESSED", "re-review §2.5, L5", _RR),
    ("RR-124", "error", "verdict record: applied_criterion is not precommitted, not_precommitted "
     "or dissented:DIS-n", "re-review §2.5, L5", _RR),
    ("RR-141", "error", "Phase 2B traceability sidecar does not match its schema "
     "(phase2b_lint_failed)", "re-review §2.6, L6", _RR),
    ("RR-142", "error", "traceability: supersedes_hash present exactly when revision is 2 or more",
     "re-review §2.6, L6", _RR),
    ("RR-143", "error", "traceability: abort_reason present exactly when decision_state is "
     "aborted", "re-review §2.6, L6", _RR),
    ("RR-144", "error", "traceability: a MUST_FIX row lacks cross_model_status",
     "re-review §2.6, L6", _RR),
    ("RR-145", "error", "traceability: a row that is not MUST_FIX has a cross-model member",
     "re-review §2.6, L6", _RR),
    ("RR-146", "error", "traceability: cross_model_verdict present exactly with agree or diverges",
     "re-review §2.6, L6", _RR),
    ("RR-147", "error", "adjustment: cannot_verify_reason and anchors do not follow the "
     "CANNOT_VERIFY target", "re-review §2.6, L6", _RR),
    ("RR-148", "error", "adjustment: a CANNOT_VERIFY target exactly when the basis is "
     "user_accepted_fail_closed", "re-review §2.6, L6", _RR),
    ("RR-149", "error", "adjustment: a letter-tagged anchor on a manuscript-only basis",
     "re-review §2.6, L6", _RR),
    ("RR-150", "error", "adjustment: residual_gap present exactly when the target is "
     "PARTIALLY_ADDRESSED", "re-review §2.6, L6", _RR),
    ("RR-151", "error", "adjustment: a valid_rebuttal that is not a move from a non-FULLY verdict "
     "to FULLY_ADDRESSED", "re-review §2.6, L6", _RR),
    ("RR-152", "error", "adjustment: an author_pointer_located_evidence that is not a strict "
     "upgrade to PARTIALLY or FULLY", "re-review §2.6, L6", _RR),
    ("RR-153", "error", "adjustment: source_ref missing, forbidden or of the wrong kind for its "
     "basis", "re-review §2.6, L6", _RR),
    ("RR-154", "error", "adjustment: critical_rebuttal_check off a valid_rebuttal, or not a known "
     "value", "re-review §2.6, L6", _RR),
    ("RR-155", "error", "resolution intent: guidance_note on a system intent",
     "re-review §2.6, L6", _RR),
    ("RR-156", "error", "cross-model resolution: a user resolution with primary_revised",
     "re-review §2.6, L6", _RR),
    ("RR-201", "error", "hash chain: input_manifest_hash is not the canonical sha256 of the "
     "manifest (manifest_hash_mismatch)", "re-review §3, L7", _RR),
    ("RR-202", "error", "hash chain: precommitment_hash is not the canonical sha256 of the "
     "precommitment (manifest_hash_mismatch)", "re-review §3, L7", _RR),
    ("RR-203", "error", "hash chain: verdict_record_hash is not the canonical sha256 of the "
     "verdict record (manifest_hash_mismatch)", "re-review §3, L7", _RR),
    ("RR-301", "error", "a phase document's round_id differs from the manifest's",
     "re-review §4, L8", _RR),
    ("RR-302", "error", "two records for one item, or a repeated record id",
     "re-review §4, L8", _RR),
    ("RR-303", "error", "coverage: precommitment records are not the P1+P2 items, or verdict "
     "records or rows are not every roadmap item", "re-review §4, L8", _RR),
    ("RR-304", "error", "precommitment priority differs from the roadmap's",
     "re-review §4, L8", _RR),
    ("RR-305", "error", "precommitment roadmap_text differs from the roadmap's "
     "verification_criteria", "re-review §4, L8", _RR),
    ("RR-306", "error", "precommitment source_reviewer differs from the roadmap's reviewer",
     "re-review §4, L8", _RR),
    ("RR-307", "error", "precommitment source_reviewer_labels differ from the normalization of "
     "source_reviewer", "re-review §2.4, L8", _RR),
    ("RR-308", "error", "a must_fix record lacks letter fields though the sound letter has a "
     "criterion at its ordinal", "re-review §2.3, L8", _RR),
    ("RR-309", "error", "letter_item_ref differs from the item's ordinal Rn",
     "re-review §2.3, L8", _RR),
    ("RR-310", "error", "letter_text differs from the letter block's acceptance criterion",
     "re-review §2.3, L8", _RR),
    ("RR-311", "error", "letter fields on an item without a letter criterion",
     "re-review §2.3, L8", _RR),
    ("RR-312", "error", "letter fields on an item the roadmap does not mark must_fix",
     "re-review §2.3, L8", _RR),
    ("RR-313", "error", "a dissent on an item without a precommitment record",
     "re-review §2.5, L8", _RR),
    ("RR-314", "error", "a dissent's criterion_hash is not the canonical sha256 of its item's "
     "precommitment record", "re-review §3, L8", _RR),
    ("RR-315", "error", "a dissent whose item's verdict record does not say dissented:<its id>",
     "re-review §2.5, L8", _RR),
    ("RR-316", "error", "a P3 verdict record whose applied_criterion is not not_precommitted",
     "re-review §2.5, L8", _RR),
    ("RR-317", "error", "a P1/P2 verdict record with applied_criterion not_precommitted",
     "re-review §2.5, L8", _RR),
    ("RR-318", "error", "applied_criterion dissented: names no dissent on the item",
     "re-review §2.5, L8", _RR),
    ("RR-319", "error", "an escalation exception while the original manuscript is absent",
     "re-review §2.5, L8", _RR),
    ("RR-320", "error", "an escalation's new_standard_ref names no new standard",
     "re-review §2.5, L8", _RR),
    ("RR-321", "error", "an escalation's new standard is not classified escalation_requested",
     "re-review §2.5, L8", _RR),
    ("RR-322", "error", "traceability new_issues differ from the verdict record's",
     "re-review §2.6, L8", _RR),
    ("RR-323", "error", "a new issue's nearest_roadmap_item names no roadmap item",
     "re-review §2.5, L8", _RR),
    ("RR-324", "error", "a new issue's attribution is not indeterminate while the original "
     "manuscript is absent", "re-review §2.5, L8", _RR),
    ("RR-325", "error", "a row's priority differs from the roadmap's", "re-review §2.6, L8", _RR),
    ("RR-326", "error", "a row's phase2a_verdict differs from the verdict record",
     "re-review §2.6, L8", _RR),
    ("RR-327", "error", "a row's verified_by differs from the verdict record",
     "re-review §2.6, L8", _RR),
    ("RR-328", "error", "a row's status is not its final_verdict", "re-review §2.6, L8", _RR),
    ("RR-329", "error", "a row's verified is not derived from its final_verdict",
     "re-review §2.6, L8", _RR),
    ("RR-330", "error", "a row's cross_model_status is not derived from its judge verdict",
     "re-review §2.6, L8", _RR),
    ("RR-331", "error", "adjustment chain grammar: unresolvable or other-item predecessor, "
     "superseded twice, not one head, or a cycle", "re-review §2.6, L8", _RR),
    ("RR-332", "error", "adjustment chain: a record's from_verdict is not its predecessor's "
     "to_verdict", "re-review §2.6, L8", _RR),
    ("RR-333", "error", "a row's adjustment_id is not its chain's last record",
     "re-review §2.6, L8", _RR),
    ("RR-334", "error", "an adjustment chain's first from_verdict is not the row's "
     "phase2a_verdict", "re-review §2.6, L8", _RR),
    ("RR-335", "error", "an adjustment chain's last to_verdict is not the row's final_verdict",
     "re-review §2.6, L8", _RR),
    ("RR-336", "error", "a row names an adjustment_id but its item has no chain",
     "re-review §2.6, L8", _RR),
    ("RR-337", "error", "addressed_by_rebuttal differs from (the last record is a valid_rebuttal "
     "to FULLY_ADDRESSED)", "re-review §2.6, L8", _RR),
    ("RR-338", "error", "an adjustment chain on an item without a row", "re-review §2.6, L8", _RR),
    ("RR-339", "error", "a system intent on a row that is not an evaluated P1 row",
     "re-review §2.6, L8", _RR),
    ("RR-340", "error", "a dissent adjudication of an unknown dissent", "re-review §2.6, L8", _RR),
    ("RR-341", "error", "a cross_model adjudicator while cross-model review is inactive",
     "re-review §2.6, L8", _RR),
    ("RR-342", "error", "a dissent adjudication although no dissent bound tripped",
     "re-review §2.6, L8", _RR),
    ("RR-343", "error", "a cross_model adjudicator on a dissent whose item is not must_fix",
     "re-review §2.6, L8", _RR),
    ("RR-344", "error", "reapplication supersession: unresolvable or other-item predecessor, "
     "superseded twice, or a cycle", "re-review §2.6, L8", _RR),
    ("RR-345", "error", "a reapplication answer ref does not resolve", "re-review §2.6, L8", _RR),
    ("RR-346", "error", "a reapplication's adjudication ref is not original_upheld",
     "re-review §2.6, L8", _RR),
    ("RR-347", "error", "a reapplication answer ref is on another item", "re-review §2.6, L8", _RR),
    ("RR-348", "error", "a reapplication's criterion_ref is not the effective criterion",
     "re-review §2.6, L8", _RR),
    ("RR-349", "error", "a divergence-only reapplication on a row that is not an evaluated P1 row",
     "re-review §2.6, L8", _RR),
    ("RR-350", "error", "a divergence-only reapplication whose judge verdict equals its "
     "pre_reapplication_verdict", "re-review §2.6, L8", _RR),
    ("RR-351", "error", "a divergence-only reapplication with no system intent among its refs",
     "re-review §2.6, L8", _RR),
    ("RR-352", "error", "a letter-tagged anchor on a reapplication with no earlier valid_rebuttal "
     "in its item's chain", "re-review §2.6, L8", _RR),
    ("RR-353", "error", "a derived adjustment for a CANNOT_VERIFY reapplication",
     "re-review §2.6, L8", _RR),
    ("RR-354", "error", "a reapplication that changed the verdict has not exactly one derived "
     "adjustment", "re-review §2.6, L8", _RR),
    ("RR-355", "error", "a derived adjustment is not a cross_model_adjudication on the "
     "reapplication's item", "re-review §2.6, L8", _RR),
    ("RR-356", "error", "a derived adjustment's from/to differ from the reapplication's "
     "pre/reapplied verdicts", "re-review §2.6, L8", _RR),
    ("RR-357", "error", "a derived adjustment's rationale, residual_gap or anchors differ from "
     "the reapplication's", "re-review §2.6, L8", _RR),
    ("RR-358", "error", "a derived adjustment for a reapplication that left the verdict unchanged",
     "re-review §2.6, L8", _RR),
    ("RR-359", "error", "an original_upheld adjudication is not in exactly one current "
     "reapplication", "re-review §2.6, L8", _RR),
    ("RR-360", "error", "a resolution intent is not in exactly one current reapplication",
     "re-review §2.6, L8", _RR),
    ("RR-361", "error", "a reapplication named by two resolutions", "re-review §2.6, L8", _RR),
    ("RR-362", "error", "a current reapplication with an intent ref and a verdict but no system "
     "resolution", "re-review §2.6, L8", _RR),
    ("RR-363", "error", "a resolution's intent is unresolved or on another item",
     "re-review §2.6, L8", _RR),
    ("RR-364", "error", "a resolution's reapplication is unresolved or on another item",
     "re-review §2.6, L8", _RR),
    ("RR-365", "error", "a resolution's reapplication does not list intent:<its intent>",
     "re-review §2.6, L8", _RR),
    ("RR-366", "error", "a system resolution on a CANNOT_VERIFY reapplication",
     "re-review §2.6, L8", _RR),
    ("RR-367", "error", "a system resolution's state is not primary_upheld exactly when the "
     "verdict is unchanged", "re-review §2.6, L8", _RR),
    ("RR-368", "error", "a user resolution on a reapplication that is not CANNOT_VERIFY",
     "re-review §2.6, L8", _RR),
    ("RR-369", "error", "a G2(d) acceptance's reapplication is unresolved or on another item",
     "re-review §2.6, L8", _RR),
    ("RR-370", "error", "a G2(d) acceptance of a reapplication that is not CANNOT_VERIFY",
     "re-review §2.6, L8", _RR),
    ("RR-371", "error", "a G2(d) acceptance of a superseded reapplication",
     "re-review §2.6, L8", _RR),
    ("RR-372", "error", "a G2(d) acceptance on an item whose final verdict is not CANNOT_VERIFY",
     "re-review §2.6, L8", _RR),
    ("RR-373", "error", "a G2(d) acceptance not backed by exactly one user_accepted_fail_closed "
     "adjustment", "re-review §2.6, L8", _RR),
    ("RR-374", "error", "a fail-closed adjustment's acceptance is unresolved or on another item",
     "re-review §2.6, L8", _RR),
    ("RR-375", "error", "a fail-closed adjustment's reason differs from its reapplication's",
     "re-review §2.6, L8", _RR),
    ("RR-376", "error", "a cross_model_adjudication adjustment names no reapplication",
     "re-review §2.6, L8", _RR),
    ("RR-377", "error", "a superseded reapplication that is not CANNOT_VERIFY",
     "re-review §2.6, L8", _RR),
    ("RR-378", "error", "a superseded reapplication's pre differs from its successor's",
     "re-review §2.6, L8", _RR),
    ("RR-379", "error", "a current reapplication's pre_reapplication_verdict is not the expected "
     "one", "re-review §2.6, L8", _RR),
    ("RR-380", "error", "a rebuttal adjudication while cross-model review is inactive",
     "re-review §2.6, L8", _RR),
    ("RR-381", "error", "critical_rebuttal_check present other than exactly on a valid_rebuttal "
     "of a critical item", "re-review §2.6, L8", _RR),
    ("RR-382", "error", "critical_rebuttal_check adjudicated: names no upheld adjudication on the "
     "item", "re-review §2.6, L8", _RR),
    ("RR-383", "error", "critical_rebuttal_check single_family_disclosed while cross-model review "
     "is active", "re-review §2.6, L8", _RR),
    ("RR-384", "error", "a pending rebuttal upgrade's item differs from its drafted adjustment's",
     "re-review §2.6, L8", _RR),
    ("RR-385", "error", "two pending rebuttal upgrades with equal drafted bodies on one item",
     "re-review §2.6, L8", _RR),
    ("RR-386", "error", "a challenged proposal's adjudication is unresolved or on another item",
     "re-review §2.6, L8", _RR),
    ("RR-387", "error", "a challenged proposal's adjudication is not challenged",
     "re-review §2.6, L8", _RR),
    ("RR-388", "error", "a booked proposal names no valid_rebuttal adjustment on its item",
     "re-review §2.6, L8", _RR),
    ("RR-389", "error", "an adjustment booked by two proposals", "re-review §2.6, L8", _RR),
    ("RR-390", "error", "a booked adjustment's body differs from the drafted one",
     "re-review §2.6, L8", _RR),
    ("RR-391", "error", "booked needs an upheld adjudicated: critical_rebuttal_check",
     "re-review §2.6, L8", _RR),
    ("RR-392", "error", "booked_disclosed needs pass_unavailable_disclosed while cross-model "
     "review is active", "re-review §2.6, L8", _RR),
    ("RR-393", "error", "booked_single_family needs single_family_disclosed while cross-model "
     "review is inactive", "re-review §2.6, L8", _RR),
    ("RR-394", "error", "a critical valid_rebuttal booked by no proposal",
     "re-review §2.6, L8", _RR),
    ("RR-395", "error", "a valid_rebuttal equal to a challenged draft on its item",
     "re-review §2.6, L8", _RR),
    ("RR-396", "error", "an escalation approval of an unknown exception",
     "re-review §2.6, L8", _RR),
    ("RR-397", "error", "cross_model_status agree, diverges or unavailable while cross-model "
     "review is inactive", "re-review §2.6, L8", _RR),
    ("RR-398", "error", "a P1 item without severity but with a transported field, and no "
     "source_kind", "re-review §2.3, L8", _RR),
    ("RR-399", "error", "decision_inputs.per_item differs from the recomputation",
     "re-review §5.1, L8", _RR),
    ("RR-401", "error", "decision_inputs.verdict_counts differ from the recomputation",
     "re-review §5.1, L8", _RR),
    ("RR-402", "error", "decision_inputs.residual_magnitude_counts differ from the recomputation",
     "re-review §5.1, L8", _RR),
    ("RR-403", "error", "decision_inputs.p2_addressed_rate differs from the recomputation",
     "re-review §5.1, L8", _RR),
    ("RR-404", "error", "decision_inputs.regressions differ from the recomputation",
     "re-review §5.1, L8", _RR),
    ("RR-405", "error", "decision_inputs.non_regression_new_issue_ids differ from the "
     "recomputation", "re-review §5.1, L8", _RR),
    ("RR-406", "error", "decision_inputs.escalations differ from the recomputation",
     "re-review §5.1, L8", _RR),
    ("RR-407", "error", "decision_inputs.apply_chain_witness differs from the witness",
     "re-review §5.1, L8", _RR),
    ("RR-410", "error", "reject_recommended on an aborted or deferred emission",
     "re-review §5.5, L8", _RR),
    ("RR-411", "error", "an aborted emission names a reason the check got past (manifest or "
     "synthesis)", "re-review §5.5, L8", _RR),
    ("RR-412", "error", "gate G1 holds but the aborted emission's reason is not criteria_drift",
     "re-review §5.5, L8", _RR),
    ("RR-413", "error", "criteria_drift emitted but gate G1 does not hold",
     "re-review §5.5, L8", _RR),
    ("RR-414", "error", "gate G1 holds (a silent verdict change) but the emission is not aborted",
     "re-review §5.5, L8", _RR),
    ("RR-415", "error", "gate G2 is pending but the emission is not user_review_required",
     "re-review §5.5, L8", _RR),
    ("RR-416", "error", "user_review_required emitted but nothing is pending",
     "re-review §5.5, L8", _RR),
    ("RR-417", "error", "decision_state differs from the decision recomputed from the records",
     "re-review §5.5, L8", _RR),
    ("RR-418", "error", "decision_state differs from the decision recomputed from decision_inputs",
     "re-review §5.5, L8", _RR),
    ("RR-419", "error", "reject_recommended is missing on a decided emission",
     "re-review §5.5, L8", _RR),
    ("RR-420", "error", "reject_recommended differs from the recomputed flag",
     "re-review §5.5, L8", _RR),
    ("RR-421", "error", "reject_recommended differs from the flag recomputed from decision_inputs",
     "re-review §5.5, L8", _RR),
    ("RR-901", "info", "[PATCH-BINDING-ABSENT: report format < 1.2]: an apply report older than "
     "1.2 has no patch digest", "re-review §2.3, note", _RR),
    ("RR-902", "info", "[CRITERIA-LAYER-ABSENT: letter/roadmap ordinal mismatch]: the letter's "
     "blocks are not R1 … Rk", "re-review §2.3, note", _RR),
    ("RR-903", "info", "the letter is present and sound but has no required-item block",
     "re-review §2.3, note", _RR),
    ("RR-904", "info", "a regression names a nearest_roadmap_item (review it for overlap)",
     "re-review §4, note", _RR),
)  # fmt: skip

#: Every code the kernel emits → its :class:`Code`.
REGISTRY: Final[Mapping[str, Code]] = MappingProxyType({row[0]: Code(*row) for row in _ROWS})
assert len(REGISTRY) == len(_ROWS), "a code is registered twice"


def _registered(_: object, __: object, code: str) -> None:
    if code not in REGISTRY:
        raise ValueError(f"diagnostic code {code!r} is not registered in kernel.diagnostics")


def _severity(_: object, __: object, severity: str) -> None:
    if severity not in SEVERITIES:
        raise ValueError(f"severity must be one of {', '.join(SEVERITIES)}, got {severity!r}")


def _frozen_data(data: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(data))


def _default_severity(self: Diagnostic) -> Severity:
    known = REGISTRY.get(self.code)
    return "error" if known is None else known.severity  # an unknown code fails validation


@attrs.frozen
class Diagnostic:
    """One finding of any check: what (``code``, ``severity``, ``message``) and where
    (``file``, 1-based ``line``/``column`` and the end position, each ``None`` when unknown;
    ``json_path`` in a JSON input).

    ``severity`` defaults to the code's registered severity.
    """

    code: str = attrs.field(validator=_registered)
    message: str
    severity: Severity = attrs.field(
        default=attrs.Factory(_default_severity, takes_self=True),
        validator=_severity,
        kw_only=True,
    )
    file: str | None = attrs.field(default=None, kw_only=True)
    line: int | None = attrs.field(default=None, kw_only=True)
    column: int | None = attrs.field(default=None, kw_only=True)
    end_line: int | None = attrs.field(default=None, kw_only=True)
    end_column: int | None = attrs.field(default=None, kw_only=True)
    #: For a JSON input: the JSONPath of the value concerned (the message starts with it too).
    json_path: str | None = attrs.field(default=None, kw_only=True)
    #: The ids and values the message names (``item``, ``expected``, …), as JSON values.
    data: Mapping[str, Any] = attrs.field(
        factory=dict, converter=_frozen_data, kw_only=True, hash=False
    )

    def at(self, file: str) -> Diagnostic:
        """The same diagnostic in ``file``."""
        return attrs.evolve(self, file=file)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            **({"data": dict(self.data)} if self.data else {}),
        }

    def __str__(self) -> str:
        """``file:line:col: CODE message`` (the parts that are unknown are left out)."""
        where = [p for p in (self.file, self.line, self.column if self.line else None) if p]
        prefix = ":".join(map(str, where))
        return f"{prefix}: {self.code} {self.message}" if prefix else f"{self.code} {self.message}"


def sort_key(d: Diagnostic) -> tuple[str, int, int]:
    """Sort by file, line, column; diagnostics without a position come first in their file."""
    return (d.file or "", d.line or 0, d.column or 0)


def from_error(error: KernelError, file: str | None = None) -> Diagnostic:
    """The diagnostic for an error that stopped a command."""
    line = column = None
    if isinstance(error, InputError):
        code, line, column = error.code, error.line, error.column
    elif isinstance(error, ExpressionUnrecognised):
        code = "SC-12"
    elif isinstance(error, ContractError):
        code = "E-CONTRACT"
    elif isinstance(error, PanelShrunk):
        code = "E-PANEL-SHRUNK"
    elif isinstance(error, MatrixError):
        code = "E-MATRIX"
    elif isinstance(error, AnalysisTooLarge):
        code = "E-TOO-LARGE"
    elif isinstance(error, MigrationError):
        code = "E-MIGRATE"
    else:
        code = "E-INPUT"
    message = error.message
    if file:  # the file (and position) goes in the diagnostic's own fields
        message = re.sub(rf"\A{re.escape(file)}(?::[0-9]+)*: ", "", message)
    return Diagnostic(code, message, file=file, line=line, column=column)


@attrs.frozen
class Explanation:
    """A code's page (``sprint-kernel rule CODE``): why the rule exists, a failing and a
    passing example, and how to fix a finding. ``base`` names the file the examples are
    cut from (``failing`` replaces ``passing`` in it), when they can be run."""

    code: Code
    why: str
    fix: str
    failing: str
    passing: str
    base: str | None = None
    command: str | None = None


#: Where the pages live (one TOML table per code; a group's ``why`` is its codes' default).
RULES_FILE: Final = "data/rules.toml"


@functools.cache
def _pages() -> dict[str, Any]:
    import tomllib
    from importlib.resources import files

    data: dict[str, Any] = tomllib.loads(files("kernel").joinpath(RULES_FILE).read_text("utf-8"))
    return data


def explanation(code: str) -> Explanation | None:
    """The page of a registered code, or ``None`` when it has none (a test keeps every code
    covered)."""
    known = REGISTRY[code]
    data = _pages()
    entry = data.get("codes", {}).get(code)
    if entry is None:
        return None
    why = entry.get("why") or data.get("groups", {}).get(known.group, {}).get("why", "")
    check = entry.get("check", {})
    return Explanation(
        known,
        why,
        entry.get("fix", ""),
        entry.get("fail", ""),
        entry.get("pass", ""),
        check.get("base"),
        check.get("command"),
    )


def rule_page(code: str, docs: str | None = None) -> str:
    """``sprint-kernel rule CODE``: the code's page as plain text."""
    c = REGISTRY[code]
    page = explanation(code)
    out = [f"{c.id} ({c.severity}): {c.summary}", f"Rule: {c.rule}", ""]
    if page is not None:
        where = f" (in {page.base})" if page.base else ""
        failing, passing, fix = _labels(c)
        out += [
            "Why",
            *_indented(page.why),
            "",
            f"{failing}{where}",
            *_indented(page.failing),
            "",
            passing,
            *_indented(page.passing),
            "",
            fix,
            *_indented(page.fix),
        ]
    link = c.link(docs_url(docs))
    if link is not None:
        out += ["", f"Docs: {link}"]
    return "\n".join(out).rstrip() + "\n"


def _labels(code: Code) -> tuple[str, str, str]:
    """An info code reports a fact: its examples are what it is and is not reported for."""
    if code.severity == "info":
        return "Reported for", "Not reported for", "What to do"
    return "Fails", "Passes", "How to fix"


def _indented(text: str) -> list[str]:
    return ["    " + line if line else "" for line in text.rstrip("\n").split("\n")]


def _markdown_page(page: Explanation) -> list[str]:
    where = f" (in `{page.base}`)" if page.base else ""
    failing, passing, fix = _labels(page.code)
    return [
        "",
        f"### {page.code.id}",
        "",
        f"**{page.code.severity}**: {page.code.summary} ({page.code.rule}).",
        "",
        f"*Why.* {page.why}",
        "",
        f"*{failing}*{where}:",
        "",
        "```text",
        page.failing.rstrip("\n"),
        "```",
        "",
        f"*{passing}*:",
        "",
        "```text",
        page.passing.rstrip("\n"),
        "```",
        "",
        f"*{fix}.* {page.fix}",
    ]


def codes_markdown(codes: Iterable[Code] | None = None) -> str:
    """``docs/codes.md``: every registered code, grouped, as Markdown tables, then each
    code's page (:func:`explanation`)."""
    rows = list(REGISTRY.values() if codes is None else codes)
    out = [
        "# Diagnostic codes",
        "",
        "<!-- Generated from kernel/diagnostics.py by `sprint-kernel codes --write "
        "docs/codes.md`; do not edit. -->",
        "",
        "Every code the kernel reports, with its default severity and the rule it enforces, "
        "then, per group, each code's page: why, a failing and a passing example, and how to "
        "fix it. `sprint-kernel codes CODE` prints one entry; `sprint-kernel rule CODE` (or "
        "`codes CODE --explain`) prints its page.",
    ]
    for group, heading, intro in GROUPS:
        members = [c for c in rows if c.group == group]
        if not members:
            continue
        out += ["", f"## {heading}", "", intro, "", "| code | severity | meaning | rule |"]
        out.append("|---|---|---|---|")
        out += [
            f'| <a id="{c.anchor}"></a>`{c.id}` | {c.severity} | {_cell(c.summary)} | {c.rule} |'
            for c in members
        ]
        for c in members:
            page = explanation(c.id)
            if page is not None:
                out += _markdown_page(page)
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")
