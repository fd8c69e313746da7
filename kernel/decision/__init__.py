"""``decide(contract, matrix)``: quantifiers, precedence and fallback over a compiled contract,
with the generated per-contract fast path (:mod:`kernel.decision.engine`)."""

# Loaded with the package: the text of Decision.explain() (it registers itself, so that the
# decision value imports nothing above it).
from kernel.decision import explain as _explain  # noqa: F401
