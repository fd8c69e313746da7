"""Hypothesis profiles: ``dev`` (default), ``ci`` (bounded, used by .ci/run), ``heavy`` (on demand),
``mutation`` (``ci`` without shrinking: scripts/mutation.py needs to know only *that* a test
fails, not its smallest example).

Select with ``HYPOTHESIS_PROFILE=ci|dev|heavy|mutation``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, Phase, settings

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "mutation",
    settings.get_profile("ci"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    print_blob=False,
)
settings.register_profile("dev", max_examples=150, deadline=None, print_blob=True)
settings.register_profile(
    "heavy", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
