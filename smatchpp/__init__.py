"""smatchpp: exact, certified Smatch for AMR graphs.

The pipeline, one module per step::

    read -> standardize -> compile -> compression -> solvers -> score

>>> import smatchpp
>>> smatchpp.score_pair("(d / dog :ARG0-of (b / bark-01))", "(b / dog :ARG0-of (d / bark-01))").f1
1.0
"""

from .version import __version__
from .api import Config, Scorer, compile_strings, parse_graph, score_corpus, score_files, score_pair  # noqa: E402
from .exceptions import InputMismatchError, ReadError, SmatchppError  # noqa: E402
from .problem import Problem  # noqa: E402
from .read import read_file, read_text  # noqa: E402
from .score import PRF, CorpusScore, PairScore  # noqa: E402
from .standardize import TripleGraph, standardize  # noqa: E402

__all__ = ["__version__", "Config", "Scorer", "score_pair", "score_corpus", "score_files",
           "parse_graph", "compile_strings", "ReadError", "InputMismatchError", "SmatchppError",
           "Problem", "read_file", "read_text", "CorpusScore", "PairScore", "PRF", "TripleGraph",
           "standardize"]
