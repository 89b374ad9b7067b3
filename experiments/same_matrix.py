"""Check that two ``smatchpp matrix`` outputs (.npz) hold identical arrays (exit 1 if not).

Used to show that a speed change leaves every result as it was: run ``matrix`` once from a
checkout of the old commit and once from the new one on the same graphs, then

    python3 experiments/same_matrix.py OLD.npz NEW.npz

>>> import tempfile, os
>>> d = tempfile.mkdtemp()
>>> np.savez(os.path.join(d, "a.npz"), f1=np.eye(2)); np.savez(os.path.join(d, "b.npz"), f1=np.eye(2))
>>> differences(os.path.join(d, "a.npz"), os.path.join(d, "b.npz"))
[]
"""

from __future__ import annotations

import sys

import numpy as np


def differences(old: str, new: str) -> list[str]:
    """Names of the arrays that differ (or exist in one file only), with the count of differing cells."""
    a, b = np.load(old), np.load(new)
    out = [f"{k}: only in one file" for k in sorted(set(a.files) ^ set(b.files))]
    for k in sorted(set(a.files) & set(b.files)):
        x, y = a[k], b[k]
        if x.shape != y.shape:
            out.append(f"{k}: shapes {x.shape} and {y.shape}")
        elif not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            out.append(f"{k}: {int(np.sum(x != y))} cells differ")
    return out


if __name__ == "__main__":
    found = differences(*sys.argv[1:3])
    print("\n".join(found) if found else f"identical: every array of {sys.argv[1]} equals {sys.argv[2]}'s")
    sys.exit(1 if found else 0)
