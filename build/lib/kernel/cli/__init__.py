"""Command-line shells: each reads files, calls the pure core, prints, and sets an exit code."""
