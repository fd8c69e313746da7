"""Consensus protocol rules (companions §B, seed 003): parsing, quorum, consensus, stop, prompts.

Pure functions over frozen values; ``python -m kernel.consensus`` is the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel._lazy import lazy_exports

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

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Attempt": "kernel.consensus.parsing",
        "ParseResult": "kernel.consensus.parsing",
        "parse_response": "kernel.consensus.parsing",
        "Prompt": "kernel.consensus.prompts",
        "critique_prompt": "kernel.consensus.prompts",
        "participant_prompt": "kernel.consensus.prompts",
        "synthesis_prompt": "kernel.consensus.prompts",
        "system_instruction": "kernel.consensus.prompts",
        "update_prompt": "kernel.consensus.prompts",
        "to_fraction": "kernel.consensus.ratios",
        "KINDS": "kernel.consensus.responses",
        "SCHEMAS": "kernel.consensus.responses",
        "CritiqueResponse": "kernel.consensus.responses",
        "ParticipantResponse": "kernel.consensus.responses",
        "SynthesisResponse": "kernel.consensus.responses",
        "UpdateResponse": "kernel.consensus.responses",
        "RoundConfig": "kernel.consensus.round",
        "RoundDecision": "kernel.consensus.round",
        "RoundError": "kernel.consensus.round",
        "RoundInput": "kernel.consensus.round",
        "evaluate_round": "kernel.consensus.round",
        "round_from_mapping": "kernel.consensus.round",
        "DEFAULT_APPROVAL_RATIO": "kernel.consensus.rules",
        "DEFAULT_CHANGE_THRESHOLD": "kernel.consensus.rules",
        "DEFAULT_MAX_ROUNDS": "kernel.consensus.rules",
        "DEFAULT_QUORUM_RATIO": "kernel.consensus.rules",
        "Disagreement": "kernel.consensus.rules",
        "QuorumError": "kernel.consensus.rules",
        "StopCheck": "kernel.consensus.rules",
        "check_quorum": "kernel.consensus.rules",
        "consensus_reached": "kernel.consensus.rules",
        "disagreement": "kernel.consensus.rules",
        "quorum": "kernel.consensus.rules",
        "required_approvals": "kernel.consensus.rules",
        "Change": "kernel.consensus.tokens",
        "EditBudgetError": "kernel.consensus.tokens",
        "change_ratio": "kernel.consensus.tokens",
        "levenshtein": "kernel.consensus.tokens",
        "measure_change": "kernel.consensus.tokens",
        "tokens": "kernel.consensus.tokens",
    },
)

if TYPE_CHECKING:
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
