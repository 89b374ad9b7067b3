"""Where smatchpp keeps files, and how a signature names a file.

A leaf module (it imports nothing of smatchpp): the kernels (:mod:`smatchpp.alignment.jit`), the word
vectors (:mod:`smatchpp.alignment.matchers.embeddings`) and the settings (:mod:`smatchpp.alignment.config`) use it.

>>> file_identity("glove.6B.100d.txt@0123456789")  # no such file: an identity already
'glove.6B.100d.txt@0123456789'
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["cache_root", "file_sha1", "file_identity"]


def cache_root() -> Path:
    """smatchpp's cache directory: ``$SMATCHPP_CACHE``, else ``$XDG_CACHE_HOME/smatchpp``,
    else ``~/.cache/smatchpp`` (converted word vectors, the built kernels)."""
    if os.environ.get("SMATCHPP_CACHE"):
        return Path(os.environ["SMATCHPP_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "smatchpp"


def file_sha1(path: str | os.PathLike) -> str:
    """The sha1 of a file's bytes (hex), read in blocks of 1 MiB."""
    h = hashlib.sha1()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def file_identity(path: str | os.PathLike) -> str:
    """``name@sha1-prefix`` of a file, for signatures; a string that is no file is taken as
    an identity already (from a signature) and returned as it is."""
    if not Path(path).is_file():
        return str(path)
    return f"{Path(path).name}@{file_sha1(path)[:10]}"
