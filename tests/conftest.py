"""Hypothesis profiles: ``dev`` (default), ``ci`` (bounded, used by .ci/run), ``heavy`` (on demand).

Select with ``HYPOTHESIS_PROFILE=ci|dev|heavy``.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=150, deadline=None, print_blob=True)
settings.register_profile(
    "heavy", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
