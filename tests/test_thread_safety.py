"""Objects that the threads of one process share (a Dask worker runs several threads)."""

from __future__ import annotations

import threading
import time

import numpy as np

from smatchpp.alignment.matchers.embeddings import Vectors


def test_vectors_loaded_by_one_thread_are_whole_for_another(tmp_path):
    """While one thread loads the vocabulary (slow: a file), another thread's lookup waits for
    it instead of finding the matrix without the vocabulary (it failed an assert before)."""
    path = tmp_path / "m.npy"
    np.save(path, np.array([[1.0, 0.0], [0.0, 1.0]]))
    started = threading.Event()

    def slow_vocabulary():
        started.set()
        time.sleep(0.3)
        return {"dog": 0, "cat": 1}

    vectors = Vectors("test", path, slow_vocabulary)
    results, errors = {}, []

    def look(name):
        try:
            results[name] = vectors.lookup(["cat", "cow"])
        except Exception as e:  # noqa: BLE001 - the test reports any failure
            errors.append(e)

    first = threading.Thread(target=look, args=("first",))
    first.start()
    started.wait(5)
    second = threading.Thread(target=look, args=("second",))
    second.start()
    first.join(5)
    second.join(5)
    assert errors == []
    for name in ("first", "second"):
        assert results[name][0].tolist() == [0.0, 1.0] and results[name][1] is None
    assert vectors.dim == 2


def test_the_quant_extractor_is_one_a_thread():
    """quantSim's extractor keeps a memo that is not safe to share: each thread gets its own,
    and a thread keeps its own across calls."""
    from smatchpp.aspects import thesis as aspects_thesis

    here = aspects_thesis._quant_extractor()
    assert aspects_thesis._quant_extractor() is here
    other = []
    t = threading.Thread(target=lambda: other.append(aspects_thesis._quant_extractor()))
    t.start()
    t.join(5)
    assert other and other[0] is not here
