"""Issue 33's faults whose behaviour is the command line's, each in a fresh process
(docs/faults/stress.md)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clirun import GOLD, PRED, run



# --- fault 5: an output option naming any input file ---------------------------------------

@pytest.mark.parametrize("link", ["same", "symlink", "hardlink"])
@pytest.mark.parametrize("options", [
    ("score", "--metric", "wwlk", "--wwlk-edge-weights", "IN", "--pairs-out", "OUT"),
    ("score", "--role-weights", "IN", "--pairs-out", "OUT"),
    ("score", "--match", "s2match", "--vectors", "IN", "--pairs-out", "OUT"),
    ("score", "--aspects", "smatchpp18", "--propbank-frames", "IN", "--pairs-out", "OUT"),
    ("search", "--metric", "wwlk", "--wwlk-edge-weights=IN", "--out", "OUT"),
], ids=["wwlk-edge-weights", "role-weights", "vectors", "propbank-frames", "search-out"])
def test_an_output_naming_any_input_file_is_refused(tmp_path: Path, options, link):
    source = tmp_path / "in.tsv"
    source.write_text(":ARG0\t2\n")
    out = tmp_path / "out.tsv"
    if link == "same":
        out = source
    elif link == "symlink":
        out.symlink_to(source)
    else:
        os.link(source, out)
    command, *rest = options
    rest = [x.replace("IN", str(source)).replace("OUT", str(out)) for x in rest]
    r = run(command, PRED, GOLD, *rest, "--quiet", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    i = next(i for i, x in enumerate(options) if x.endswith("IN"))
    flag = options[i].split("=")[0] if "=" in options[i] else options[i - 1]
    assert f"is the {flag} file {source}: refusing to overwrite it" in r.stderr
    assert source.read_text() == ":ARG0\t2\n"
