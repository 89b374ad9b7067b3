"""Matchers: which triples match, with what weight, and the precision/recall denominators.

A matcher turns two standardized graphs into the coefficients of the
alignment problem (``unary_terms``, ``binary_terms``), bounds them
(``label_bound``) and says what precision and recall divide by (``total``).
Every variant is the same optimization problem with other coefficients, so it
gets the same exact solvers, bounds, compression and certificates.

:data:`MATCHERS` maps a name to a factory taking the matcher's own settings
(:data:`MATCHER_SETTINGS`: a :class:`~smatchpp.core.settings.Settings` class each, which
declares the parameters the matcher reads; :func:`matcher_settings` reads them from a
:class:`~smatchpp.alignment.config.Config` or anything with its attributes):

* ``exact``: Smatch (:class:`~smatchpp.alignment.matchers.exact.ExactMatcher`);
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

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ...core.exceptions import SmatchppError
from ...core.settings import Settings, name_in, setting
from .exact import ExactMatcher, ExactSettings, TripleMatcher
from .general import WeightedMatcher, unit_weights
from .levels import (DEFAULT_FOCUS_WEIGHT, FocusSettings, MatcherSettings, focus_weights, level_weight,
                     level_weights, read_role_weights)
from .s2match import S2MatchSettings

__all__ = ["MATCHERS", "MATCHER_SETTINGS", "Matching", "matcher_settings", "build_matcher", "ExactMatcher",
           "TripleMatcher", "WeightedMatcher", "DEFAULT_FOCUS_WEIGHT", "MatcherSettings", "ExactSettings",
           "S2MatchSettings", "FocusSettings"]


def _roles(settings: MatcherSettings) -> dict[str, float] | None:
    path = settings.role_weights
    if not path:
        return None
    if not Path(path).exists():
        raise SmatchppError(f"role weights file {path!r} not found"
                            + (" (a signature names the file by its sha1: pass --role-weights FILE)"
                               if "@" in str(path) else ""))
    return read_role_weights(path)


def _exact(settings: ExactSettings):
    roles = _roles(settings)
    if roles is not None:  # exact labels, weighted by role
        return WeightedMatcher("exact", unit_weights, role_weights=roles)
    return ExactMatcher(settings.duplicates)


def _s2match(settings: S2MatchSettings):
    from .embeddings import load_vectors
    from .s2match import S2MatchSimilarity

    similarity = S2MatchSimilarity(load_vectors(settings.vectors), settings.cutoff, settings.diffsense)
    return WeightedMatcher("s2match", unit_weights, similarity, _roles(settings))


def _wsmatch(settings: MatcherSettings):
    return WeightedMatcher("wsmatch", level_weights, role_weights=_roles(settings),
                           largest=float(level_weight(0)))


def _focus(concepts: bool) -> Callable[[FocusSettings], WeightedMatcher]:
    def make(settings: FocusSettings) -> WeightedMatcher:
        weight = settings.focus_weight
        name = "concept-focus" if concepts else "structure-focus"
        return WeightedMatcher(name, focus_weights(weight, concepts), role_weights=_roles(settings),
                               largest=max(float(weight), 1.0))

    return make


#: matcher name -> factory taking the matcher's own settings (an instance of its
#: :data:`MATCHER_SETTINGS` class)
MATCHERS: dict[str, Callable[[Any], Any]] = {
    "exact": _exact,
    "s2match": _s2match,
    "wsmatch": _wsmatch,
    "concept-focus": _focus(True),
    "structure-focus": _focus(False),
}
#: matcher name -> the :class:`~smatchpp.core.settings.Settings` class of what it reads
MATCHER_SETTINGS: dict[str, type[MatcherSettings]] = {
    "exact": ExactSettings,
    "s2match": S2MatchSettings,
    "wsmatch": MatcherSettings,
    "concept-focus": FocusSettings,
    "structure-focus": FocusSettings,
}


@dataclass(frozen=True)
class Matching(Settings):
    """Which matcher scores the triples (:data:`MATCHERS`)."""

    match: str = setting("exact", "match", check=name_in(lambda: MATCHERS, "matcher"))


def matcher_settings(name: str, owner: Any) -> MatcherSettings:
    """The settings the matcher ``name`` reads, taken from ``owner`` (a Config, or anything
    with those attributes; one it lacks takes its default).

    >>> matcher_settings("s2match", Matching())
    S2MatchSettings(role_weights=None, cutoff=0.5, diffsense=0.5, vectors=None)
    """
    return MATCHER_SETTINGS[name].of(owner)


def build_matcher(settings: Any = None, **overrides: Any):
    """The matcher named by ``settings.match`` (or ``match=...``), built from the settings (a
    :class:`~smatchpp.alignment.config.Config`, or any object or keywords with its matcher parameters):
    the one way to build a matcher."""
    if settings is not None and not overrides and hasattr(settings, "match"):
        if settings.match not in MATCHERS:
            raise ValueError(f"unknown matcher {settings.match!r}; choose from {', '.join(MATCHERS)}")
        return MATCHERS[settings.match](matcher_settings(settings.match, settings))
    values = dict(vars(settings)) if settings is not None and hasattr(settings, "__dict__") else {}
    if settings is not None and not values:  # a frozen dataclass with slots, or similar
        values = {k: getattr(settings, k) for k in dir(settings) if not k.startswith("_")}
    values.update(overrides)
    name = values.get("match", "exact")
    if name not in MATCHERS:
        raise ValueError(f"unknown matcher {name!r}; choose from {', '.join(MATCHERS)}")
    return MATCHERS[name](MATCHER_SETTINGS[name].pick(values))
