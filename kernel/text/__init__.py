"""Text safety shared by the sprint contract and the companions: confusable-aware skeletons,
collision-free delimiters and the injection scan."""
