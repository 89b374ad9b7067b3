"""Shared pytest setup: Hypothesis profiles, the tests/ helpers on sys.path, and CI checks.

Profiles: ``smatchpp`` (the default) replays the same examples on every run;
``ci-random`` (``--hypothesis-profile=ci-random``, run by ``.ci/run`` with a
printed ``--hypothesis-seed``) draws fresh ones, a bounded number per test.
Under CI (``CI`` set) the shared data beside the repository must be there:
its tests fail the run instead of skipping.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

#: ``../shared`` beside the repository (the tests that read it skip without it)
SHARED = HERE.parents[1] / "shared"

# Deterministic CI: the same examples on every run, no deadlines (solvers may be slow
# on a loaded machine; nothing here asserts on time).
settings.register_profile(
    "smatchpp", derandomize=True, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Fresh random examples (seeded by --hypothesis-seed), bounded so that CI stays short.
settings.register_profile(
    "ci-random", derandomize=False, deadline=None, database=None, max_examples=25,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("smatchpp")


def _under_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def pytest_configure(config):
    # PuLP 3.x warns on every CBC solve that PULP_CBC_CMD / LpVariable(...) go away in PuLP 4.0;
    # thousands of identical lines would bury real warnings.
    config.addinivalue_line("filterwarnings", "ignore:.*PuLP 4.0.*:DeprecationWarning")
    config.addinivalue_line("filterwarnings", "ignore:PULP_CBC_CMD is deprecated:DeprecationWarning")
    if _under_ci() and not (SHARED / "data").is_dir():
        raise pytest.UsageError(f"CI is set but the shared data is missing: {SHARED / 'data'} "
                                "(CI must test on it; without CI its tests are skipped)")


def pytest_report_header(config):
    import smatchpp

    return f"smatchpp {smatchpp.__version__} from {Path(smatchpp.__file__).parent}"
