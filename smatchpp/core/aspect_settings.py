"""The aspect sets' settings: which aspects are scored beside the main score, and how.

Declared here, below :mod:`smatchpp.alignment.config`, rather than in :mod:`smatchpp.aspects`:
the aspects import the compiler, which building the parser and the metrics must not
load (:data:`smatchpp.aspects.core.MODES` and :mod:`smatchpp.aspects.registry` read from here).

>>> AspectSettings(aspects="separate", aspect_set="thesis").aspect_set
'thesis'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import entry_points

from .plugins import GROUPS
from .settings import Settings, file_or_identity, name_in, setting, signed_file

__all__ = ["AspectSettings", "ASPECT_MODES", "ASPECT_SETS", "ASPECT_SET_MODULES", "SetEntry",
           "aspect_set_names", "set_reads", "readers", "drs_sets"]

#: how aspects are scored: ``none``, ``separate`` (each aspect aligned on its own) or
#: ``joint`` (every aspect under the full graphs' alignment)
ASPECT_MODES = ("none", "separate", "joint")


@dataclass(frozen=True)
class SetEntry:
    """A built-in aspect set's line in the registry: ``value``, where its
    :class:`~smatchpp.aspects.base.AspectSet` is (``module:ASPECT_SET``, the form of an
    entry point's value), and ``reads``, the file settings it reads (``propbank_frames``,
    ``vectors``): the settings refuse them for a set that does not read them, and sign them
    for one that does, without loading the set.  ``drs``: the set scores DRSs in clausal
    form (the ``counter`` metric's ``aspects``), not AMR graphs: the alignment family refuses it."""

    value: str
    reads: tuple[str, ...] = ()
    drs: bool = False


#: the registry of the built-in aspect sets, one line a set, in print order;
#: :mod:`smatchpp.aspects.registry` loads a set on the first look-up of its name.  The lines
#: are here, below the settings that check the names, so that a check loads no set.
#: Another package adds a set through the entry-point group ``smatchpp.aspects``
#: (:func:`aspect_set_names`; such a set reads no file setting).
ASPECT_SET_MODULES = {
    "damonte": SetEntry("smatchpp.aspects.damonte:ASPECT_SET"),  # Damonte et al. (2017)
    "smatchpp18": SetEntry("smatchpp.aspects.smatchpp18:ASPECT_SET", ("propbank_frames",)),  # smatchpp 1.8
    "thesis": SetEntry("smatchpp.aspects.thesis:ASPECT_SET", ("vectors",)),  # Opitz's thesis, 9.5.2
    "counter": SetEntry("smatchpp.aspects.counter:ASPECT_SET", drs=True),  # Counter's detailed scores (DRSs)
}
#: the built-in sets' names
ASPECT_SETS = tuple(ASPECT_SET_MODULES)


def set_reads(aspect_set: str, setting: str) -> bool:
    """Whether the set ``aspect_set`` reads the file setting ``setting``.

    >>> set_reads("thesis", "vectors"), set_reads("damonte", "vectors")
    (True, False)
    """
    entry = ASPECT_SET_MODULES.get(aspect_set)
    return entry is not None and setting in entry.reads


def drs_sets() -> list[str]:
    """The built-in sets that score DRSs (the ``counter`` metric's), not AMR graphs.

    >>> drs_sets()
    ['counter']
    """
    return [name for name, entry in ASPECT_SET_MODULES.items() if entry.drs]


def readers(setting: str) -> list[str]:
    """The sets that read the file setting ``setting``."""
    return [name for name in ASPECT_SETS if set_reads(name, setting)]


@lru_cache(maxsize=1)
def _installed() -> tuple[str, ...]:
    return tuple(sorted({ep.name for ep in entry_points(group=GROUPS["aspects"])} - set(ASPECT_SETS)))


def aspect_set_names() -> tuple[str, ...]:
    """Every aspect set's name: the built-in ones, then the names of the installed packages'
    ``smatchpp.aspects`` entry points (read from their metadata, once a process; nothing is
    imported: a name that fails to load is an error when the set is built)."""
    return ASPECT_SETS + _installed()


def _aspect_set_check(value: str) -> str | None:
    return None if value in ASPECT_SETS else name_in(aspect_set_names, "aspect set")(value)


@dataclass(frozen=True)
class AspectSettings(Settings):
    """``aspects``: the mode (``none``: no aspects); ``aspect_set``: Damonte et al.'s,
    smatchpp 1.8's, the thesis' set or an installed package's (:func:`aspect_set_names`);
    ``propbank_frames``: the PropBank frame file whose role descriptions rename core roles
    for the ``smatchpp18`` aspects, signed by its identity."""

    aspects: str = setting("none", "aspects", check=name_in(lambda: ASPECT_MODES, "aspects mode"),
                           flag="--aspects-mode", show=lambda s: s.aspects != "none")
    aspect_set: str = setting("damonte", "aspect-set", check=_aspect_set_check,
                              flag="--aspects", show=lambda s: s.aspects != "none" and s.aspect_set != "damonte")
    propbank_frames: str | None = setting(None, "frames", kind=str, check=file_or_identity,
                                          identity=signed_file,
                                          show=lambda s: s.propbank_frames is not None)
