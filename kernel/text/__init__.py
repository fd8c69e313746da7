"""Text safety shared by the sprint contract and the companions: confusable-aware skeletons,
collision-free delimiters and the injection scan."""

#: Delimiter names whose tags are always reported as forged in agent output (the injection
#: scan's default; here so that a command line can name it without loading the scan).
DEFAULT_DELIMITERS: tuple[str, ...] = ("phase1_output",)
