"""The command line in a fresh process: what a user's shell sees."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_json_output_is_only_json():
    # HiGHS 1.16 prints a banner to stdout when its first instance is made;
    # --format json must still be one JSON document
    run = subprocess.run([sys.executable, "-m", "smatchpp", "score", str(EXAMPLES / "pred.amr"),
                          str(EXAMPLES / "gold.amr"), "--format", "json", "--quiet"],
                         capture_output=True, text=True, check=True)
    summary = json.loads(run.stdout)
    assert summary["signature"].startswith("smatchpp:")
    assert 0.0 <= summary["micro"]["f1"] <= 1.0
