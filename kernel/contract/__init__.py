"""Contracts: the Schema 13 validator on plain dicts (seed §4.2), structural invariants, the SC
warnings, shipped templates, baseline immutability and the typed :class:`Contract`.

``kernel.contract`` keeps the seed validator's names (``validate``,
``check_structural_invariants``, ``warn_suspicious``); they are loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kernel._lazy import lazy_exports

__all__ = [
    "Condition",
    "Contract",
    "Dimension",
    "baseline_digest",
    "check_structural_invariants",
    "inject",
    "load_contract",
    "shipped_template",
    "validate",
    "warn_suspicious",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "validate": "kernel.contract.dialects",
        "check_structural_invariants": "kernel.contract.dialects",
        "warn_suspicious": "kernel.contract.warnings",
        "Condition": "kernel.contract.model",
        "Contract": "kernel.contract.model",
        "Dimension": "kernel.contract.model",
        "load_contract": "kernel.contract.model",
        "shipped_template": "kernel.contract.templates",
        "baseline_digest": "kernel.contract.baseline",
        "inject": "kernel.contract.baseline",
    },
)

if TYPE_CHECKING:
    from kernel.contract.baseline import baseline_digest, inject
    from kernel.contract.dialects import check_structural_invariants, validate
    from kernel.contract.model import Condition, Contract, Dimension, load_contract
    from kernel.contract.templates import shipped_template
    from kernel.contract.warnings import warn_suspicious
