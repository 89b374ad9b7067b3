"""Which smatchpp the tests import: under ``.ci/run``, the installed package, not the source tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import smatchpp

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not os.environ.get("SMATCHPP_TEST_INSTALLED"),
                    reason="only under .ci/run (SMATCHPP_TEST_INSTALLED=1)")
def test_the_installed_package_is_tested():
    package = Path(smatchpp.__file__).resolve().parent
    # (.ci/run's venv may sit inside the repository, so compare with the source folder itself)
    assert package != REPO / "smatchpp", f"testing the source tree at {package}"
    assert "site-packages" in package.parts, package
    assert (package / "cli" / "__init__.py").is_file()
