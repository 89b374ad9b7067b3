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
    "smatchpp", derandomize=True, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("smatchpp")


def pytest_configure(config):
    # PuLP 3.x warns on every CBC solve that PULP_CBC_CMD / LpVariable(...) go away in PuLP 4.0;
    # thousands of identical lines would bury real warnings.
    config.addinivalue_line("filterwarnings", "ignore:.*PuLP 4.0.*:DeprecationWarning")
    config.addinivalue_line("filterwarnings", "ignore:PULP_CBC_CMD is deprecated:DeprecationWarning")
