"""Three 2-d word vectors written to a file, for the WWLK and tune tests.

dog and cat are orthogonal; big is at 60 degrees from dog.  The ``vectors``
fixture writes them to a file and points the cache at the test's folder.
"""

from __future__ import annotations

import pytest

from smatchpp.read import read_text

VECTORS = "dog 1 0\ncat 0 1\nbig 0.5 0.8660254037844386\n"


@pytest.fixture
def vectors(tmp_path, monkeypatch):
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "tiny.txt"
    path.write_text(VECTORS)
    return str(path)


def graphs(text):
    return [e.graph for e in read_text(text)]
