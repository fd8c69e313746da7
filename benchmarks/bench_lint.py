"""lint_phase2 on a ~10 KB Phase 2 document against markdown-it-py parsing both documents.

Run: python benchmarks/bench_lint.py  (prints the ratio; the target is <= 2.0).
"""

from __future__ import annotations

import timeit

from markdown_it import MarkdownIt

from kernel.lint import lint_phase2
from kernel.model import load_contract
from kernel.render import default_plan, render_phase1, render_phase2


def main() -> None:
    contract = load_contract("reviewer/full")
    plan = default_plan(contract)
    scores = {"D1": "block", "D2": "warn", "D3": "pass", "D4": "pass", "D5": "warn"}
    filler = "\n\n".join(
        f"Paragraph {i}: the sample size, the *baselines* and the [figures](#f{i}) are "
        "discussed here in some detail, with `code` and emphasis."
        for i in range(70)
    )
    body = render_phase2(contract, scores, plan=plan).split("## Review Body\n\n")[1]
    body = body.split("\n\n## Editorial Decision")[0] + "\n\n" + filler
    phase1 = render_phase1(contract, plan)
    phase2 = render_phase2(contract, scores, plan=plan, body=body)
    assert lint_phase2(phase2, contract, phase1).ok
    md = MarkdownIt("commonmark")
    n = 200
    parse = min(timeit.repeat(lambda: (md.parse(phase1), md.parse(phase2)), number=n, repeat=5))
    lint = min(timeit.repeat(lambda: lint_phase2(phase2, contract, phase1), number=n, repeat=5))
    print(f"phase2 {len(phase2.encode())} B, phase1 {len(phase1.encode())} B")
    print(f"markdown-it parse of both: {parse / n * 1e3:.3f} ms")
    print(f"lint_phase2:               {lint / n * 1e3:.3f} ms")
    print(f"ratio: {lint / parse:.2f}")


if __name__ == "__main__":
    main()
