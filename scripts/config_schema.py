"""Write the code lists of ``kernel/data/config.schema.json`` from the registry:
``python scripts/config_schema.py`` (tests/cli/test_config_schema.py fails when they are stale).

``select`` takes every code and every prefix of whole ``-``-separated parts; ``ignore`` and
``per-file-ignores`` take those that cover at least one warning or info code.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kernel.cli.config import selectors  # noqa: E402

SCHEMA = ROOT / "kernel" / "data" / "config.schema.json"


def main() -> None:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    schema["$defs"]["select"]["items"]["enum"] = list(selectors(ignoring=False))
    schema["$defs"]["ignore"]["items"]["enum"] = list(selectors(ignoring=True))
    SCHEMA.write_text(json.dumps(schema, indent=2, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    main()
