"""The condition vocabulary (R4): grammar, immutable AST, parser, predicate compiler and the
bitmask code generator used by the decision engine. Imports nothing from above it."""
