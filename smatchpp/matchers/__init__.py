"""Matchers: which triples match, with what weight, and the precision/recall denominators.

A matcher turns two standardized graphs into the coefficients of the
alignment problem (``unary_terms``, ``binary_terms``), bounds them
(``label_bound``) and says what precision and recall divide by (``total``).
Every variant is the same optimization problem with other coefficients, so it
gets the same exact solvers, bounds, compression and certificates.

:data:`MATCHERS` maps a name to a factory taking the settings (a
:class:`~smatchpp.api.Config` or anything with its attributes):

* ``exact``: Smatch (:class:`~smatchpp.matchers.exact.ExactMatcher`);
* ``s2match``: S2Match's soft concept matching (:mod:`.s2match`), needs word
  vectors (:mod:`.embeddings`);
* ``wsmatch``: Cai & Lam's level-weighted Smatch (:mod:`.levels`);
* ``concept-focus`` / ``structure-focus``: instance triples (or all others)
  weigh ``focus_weight``.

``role_weights`` (a TSV file, :func:`~.levels.read_role_weights`) multiplies
every triple's weight by its role's weight, under any matcher.

>>> m = build_matcher(match="wsmatch")
>>> m.name, m.weighted
('wsmatch', True)
>>> sorted(MATCHERS)
['concept-focus', 'exact', 's2match', 'structure-focus', 'wsmatch']
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable

from ..exceptions import SmatchppError
from .exact import ExactMatcher, TripleMatcher
from .general import WeightedMatcher, unit_weights
from .levels import focus_weights, level_weight, level_weights, read_role_weights

__all__ = ["MATCHERS", "build_matcher", "ExactMatcher", "TripleMatcher", "WeightedMatcher", "DEFAULT_FOCUS_WEIGHT"]

#: ``--focus-weight`` default (thesis §8.4.3)
DEFAULT_FOCUS_WEIGHT = 3.0


def _roles(settings: Any) -> dict[str, float] | None:
    path = getattr(settings, "role_weights", None)
    if not path:
        return None
    if not Path(path).exists():
        raise SmatchppError(f"role weights file {path!r} not found"
                            + (" (a signature names the file by its sha1: pass --role-weights FILE)"
                               if "@" in str(path) else ""))
    return read_role_weights(path)


def _exact(settings: Any):
    roles = _roles(settings)
    if roles is not None:  # exact labels, weighted by role
        return WeightedMatcher("exact", unit_weights, role_weights=roles)
    return ExactMatcher(getattr(settings, "duplicates", "multiset"))


def _s2match(settings: Any):
    from .embeddings import load_vectors
    from .s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE, S2MatchSimilarity

    vectors = load_vectors(getattr(settings, "vectors", None))
    similarity = S2MatchSimilarity(vectors, getattr(settings, "cutoff", DEFAULT_CUTOFF),
                                   getattr(settings, "diffsense", DEFAULT_DIFFSENSE))
    return WeightedMatcher("s2match", unit_weights, similarity, _roles(settings))


def _wsmatch(settings: Any):
    return WeightedMatcher("wsmatch", level_weights, role_weights=_roles(settings),
                           largest=float(level_weight(0)))


def _focus(concepts: bool) -> Callable[[Any], WeightedMatcher]:
    def make(settings: Any) -> WeightedMatcher:
        weight = getattr(settings, "focus_weight", DEFAULT_FOCUS_WEIGHT)
        name = "concept-focus" if concepts else "structure-focus"
        return WeightedMatcher(name, focus_weights(weight, concepts), role_weights=_roles(settings),
                               largest=max(float(weight), 1.0))

    return make


MATCHERS: dict[str, Callable[[Any], Any]] = {
    "exact": _exact,
    "s2match": _s2match,
    "wsmatch": _wsmatch,
    "concept-focus": _focus(True),
    "structure-focus": _focus(False),
}


def build_matcher(settings: Any = None, **overrides: Any):
    """The matcher named by ``settings.match`` (or ``match=...``), built from the settings (a
    :class:`~smatchpp.config.Config`, or any object or keywords with its matcher parameters):
    the one way to build a matcher."""
    if settings is not None and not overrides and hasattr(settings, "match"):
        if settings.match not in MATCHERS:
            raise ValueError(f"unknown matcher {settings.match!r}; choose from {', '.join(MATCHERS)}")
        return MATCHERS[settings.match](settings)
    values = dict(vars(settings)) if settings is not None and hasattr(settings, "__dict__") else {}
    if settings is not None and not values:  # a frozen dataclass with slots, or similar
        values = {k: getattr(settings, k) for k in dir(settings) if not k.startswith("_")}
    values.update(overrides)
    name = values.get("match", "exact")
    if name not in MATCHERS:
        raise ValueError(f"unknown matcher {name!r}; choose from {', '.join(MATCHERS)}")
    return MATCHERS[name](SimpleNamespace(**values))
