"""smatchpp: exact, certified Smatch for AMR graphs.

The pipeline, one module per step::

    read -> standardize -> compile -> compression -> solvers -> score

in folders that show the layers: ``core`` (types, settings, signature), ``graphs`` (reading,
triples), ``presets``, ``alignment`` (problem, compile, matchers, compression, solvers, the
aligner), ``aspects``, ``metrics``, ``statistics``, ``running`` (executor, Dask), ``api``,
``reporting``, ``explain``, ``cli``

>>> import smatchpp
>>> smatchpp.score_pair("(d / dog :ARG0-of (b / bark-01))", "(b / dog :ARG0-of (d / bark-01))").f1
1.0

The names of the Smatch API (``Scorer``, ``score_pair``, ``Problem``, ...) are imported on first
use (PEP 562), so that ``import smatchpp`` and the metrics without an alignment do not load the
solvers; the light modules (reading, standardizing, scores, errors) are imported at once.
"""

from __future__ import annotations

import importlib
import sys

from .core.version import __version__
from .core.exceptions import InputMismatchError, ReadError, SmatchppError
from .graphs.read import read_file, read_text
from .alignment.score import PRF, CorpusScore, PairScore
from .graphs.triples import TripleGraph
from .presets import standardize  # noqa: E402
from .core import moved

# the module that holds TripleGraph and the smatch preset was ``smatchpp.standardize``, a name
# the function ``smatchpp.standardize`` hid; it is ``smatchpp.graphs.triples`` now, and the old import
# path still finds it (``from smatchpp.standardize import TripleGraph``) without replacing the
# function: a module already in sys.modules is not set as its package's attribute again
sys.modules.setdefault(f"{__name__}.standardize", sys.modules[f"{__name__}.graphs.triples"])

# the modules moved into layer folders (smatchpp.read -> smatchpp.graphs.read, ...): their old
# import paths still find them (smatchpp/core/moved.py)
moved.install(__name__)

__all__ = ["__version__", "Config", "Scorer", "score_pair", "score_corpus", "score_files",
           "parse_graph", "compile_strings", "ReadError", "InputMismatchError", "SmatchppError",
           "Problem", "read_file", "read_text", "CorpusScore", "PairScore", "PRF", "TripleGraph",
           "standardize"]

#: name -> the module that defines it, imported when the name is first used
_LAZY = {"Config": "api", "Scorer": "api", "compile_strings": "api", "parse_graph": "api",
         "score_corpus": "api", "score_files": "api", "score_pair": "api", "Problem": "alignment.problem"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'smatchpp' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
