"""Consensus protocol rules (companions §B, seed 003): parsing, quorum, consensus, stop, prompts.

Pure functions over frozen values; ``python -m kernel.consensus`` is the command line.
"""

from __future__ import annotations

from kernel.consensus.parsing import Attempt, ParseResult, parse_response
from kernel.consensus.prompts import (
    Prompt,
    critique_prompt,
    participant_prompt,
    synthesis_prompt,
    system_instruction,
    update_prompt,
)
from kernel.consensus.ratios import to_fraction
from kernel.consensus.responses import (
    KINDS,
    SCHEMAS,
    CritiqueResponse,
    ParticipantResponse,
    SynthesisResponse,
    UpdateResponse,
)
from kernel.consensus.round import (
    RoundConfig,
    RoundDecision,
    RoundError,
    RoundInput,
    evaluate_round,
    round_from_mapping,
)
from kernel.consensus.rules import (
    DEFAULT_APPROVAL_RATIO,
    DEFAULT_CHANGE_THRESHOLD,
    DEFAULT_MAX_ROUNDS,
    DEFAULT_QUORUM_RATIO,
    Disagreement,
    QuorumError,
    StopCheck,
    check_quorum,
    consensus_reached,
    disagreement,
    quorum,
    required_approvals,
)
from kernel.consensus.tokens import (
    Change,
    EditBudgetError,
    change_ratio,
    levenshtein,
    measure_change,
    tokens,
)

__all__ = [
    "DEFAULT_APPROVAL_RATIO",
    "DEFAULT_CHANGE_THRESHOLD",
    "DEFAULT_MAX_ROUNDS",
    "DEFAULT_QUORUM_RATIO",
    "KINDS",
    "SCHEMAS",
    "Attempt",
    "Change",
    "CritiqueResponse",
    "Disagreement",
    "EditBudgetError",
    "ParseResult",
    "ParticipantResponse",
    "Prompt",
    "QuorumError",
    "RoundConfig",
    "RoundDecision",
    "RoundError",
    "RoundInput",
    "StopCheck",
    "SynthesisResponse",
    "UpdateResponse",
    "change_ratio",
    "check_quorum",
    "consensus_reached",
    "critique_prompt",
    "disagreement",
    "evaluate_round",
    "levenshtein",
    "measure_change",
    "parse_response",
    "participant_prompt",
    "quorum",
    "required_approvals",
    "round_from_mapping",
    "synthesis_prompt",
    "system_instruction",
    "to_fraction",
    "tokens",
    "update_prompt",
]
