"""Detection and false-positive rates of the instruction-override scan on its labelled corpus.

Run: ``python benchmarks/injection_rates.py`` from the repository root. Rates use each row's
``truth`` (see ``tests/corpus/injection/README.md``); an attack counts as detected when the
scan reports ``instruction_override``, a benign sentence as a false positive when the scan
reports anything at all. The review documents of ``tests/corpus/review-prose`` are all
benign: a document counts as a false alarm when the scan reports anything in it (R19 allows
one in 40).
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from kernel.text.injection import INSTRUCTION_OVERRIDE, scan_injection

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "corpus" / "injection"
REVIEWS = CORPUS.parent / "review-prose"


def _rate(hits: int, total: int) -> str:
    return f"{hits}/{total} = {100 * hits / total:.1f} %" if total else "-"


def main() -> None:
    by: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # key -> [hits, total]
    for path in sorted(CORPUS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            categories = {f.category for f in scan_injection(row["text"])}
            if row["truth"] is None:
                keys = ["false positives", f"false positives, {path.name}"]
                hit = bool(categories)
            else:
                keys = [
                    "detection",
                    f"detection, {path.name}",
                    f"detection, family {row['family']}",
                    f"detection, obfuscation {row['obfuscation']}",
                ]
                hit = INSTRUCTION_OVERRIDE in categories
            for key in keys:
                by[key][0] += hit
                by[key][1] += 1
    for path in sorted(REVIEWS.glob("[0-9][0-9]-*.md")):
        by["false alarms, review documents"][0] += bool(scan_injection(path.read_text("utf-8")))
        by["false alarms, review documents"][1] += 1
    width = max(len(k) for k in by)
    for key in sorted(by, key=lambda k: (not k.startswith("detection"), k.count(","), k)):
        print(f"{key:<{width}}  {_rate(*by[key])}")


if __name__ == "__main__":
    main()
