"""Helpers shared by the tests: strategies, oracles and paths."""
