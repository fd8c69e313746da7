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
)

_E, _SC, _P1, _P2, _AN, _ARENA, _CN, _PANEL, _MG, _SY = (g[0] for g in GROUPS)

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
