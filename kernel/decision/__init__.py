"""``decide(contract, matrix)``: quantifiers, precedence and fallback over a compiled contract,
with the generated per-contract fast path (:mod:`kernel.decision.engine`)."""
