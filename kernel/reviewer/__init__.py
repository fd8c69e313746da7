"""Reviewer documents: CommonMark reading, the Phase 1/Phase 2 lints, renderers, the reviewer
cycle, phase inputs and ``decide_documents``."""
