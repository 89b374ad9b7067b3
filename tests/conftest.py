"""Shared pytest setup: a deterministic Hypothesis profile and the tests/ helpers on sys.path."""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

# Deterministic CI: the same examples on every run, no deadlines (solvers may be slow
# on a loaded machine; nothing here asserts on time).
settings.register_profile(
    "smatchpp", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("smatchpp")
