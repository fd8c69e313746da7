"""The package version (one place; ``kernel.__version__`` and the CLIs read it)."""

__version__ = "0.1.0"
