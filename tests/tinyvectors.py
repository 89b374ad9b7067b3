"""Three 2-d word vectors written to a file, for the WWLK and tune tests.

dog and cat are orthogonal; big is at 60 degrees from dog.  The ``vectors``
fixture writes them to a file and points the cache at the test's folder.
"""

from __future__ import annotations

import pytest

from smatchpp.graphs.read import read_text

VECTORS = "dog 1 0\ncat 0 1\nbig 0.5 0.8660254037844386\n"


def vectors_file(tmp_path, monkeypatch, text: str = VECTORS, name: str = "tiny.txt") -> str:
    """Write ``text`` as a vectors file in the test's folder, the cache beside it; its path."""
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.fixture
def vectors(tmp_path, monkeypatch):
    return vectors_file(tmp_path, monkeypatch)


def graphs(text):
    return [e.graph for e in read_text(text)]
