"""The aspect sets' settings: which aspects are scored beside the main score, and how.

Declared here, below :mod:`smatchpp.alignment.config`, rather than in :mod:`smatchpp.aspects.core`:
the aspects import the compiler, which building the parser and the metrics must not
load (:data:`smatchpp.aspects.core.MODES` and :data:`smatchpp.aspects.core.SETS` are read from here).

>>> AspectSettings(aspects="separate", aspect_set="thesis").aspect_set
'thesis'
"""

from __future__ import annotations

from dataclasses import dataclass

from .settings import Settings, file_or_identity, name_in, setting, signed_file

__all__ = ["AspectSettings", "ASPECT_MODES", "ASPECT_SETS"]

#: how aspects are scored: ``none``, ``separate`` (each aspect aligned on its own) or
#: ``joint`` (every aspect under the full graphs' alignment)
ASPECT_MODES = ("none", "separate", "joint")
#: the sets of aspects
ASPECT_SETS = ("damonte", "smatchpp18", "thesis")


@dataclass(frozen=True)
class AspectSettings(Settings):
    """``aspects``: the mode (``none``: no aspects); ``aspect_set``: Damonte et al.'s,
    smatchpp 1.8's or the thesis' set; ``propbank_frames``: the PropBank frame file whose role
    descriptions rename core roles for the ``smatchpp18`` aspects, signed by its identity."""

    aspects: str = setting("none", "aspects", check=name_in(lambda: ASPECT_MODES, "aspects mode"),
                           flag="--aspects-mode", show=lambda s: s.aspects != "none")
    aspect_set: str = setting("damonte", "aspect-set", check=name_in(lambda: ASPECT_SETS, "aspect set"),
                              flag="--aspects", show=lambda s: s.aspects != "none" and s.aspect_set != "damonte")
    propbank_frames: str | None = setting(None, "frames", kind=str, check=file_or_identity,
                                          identity=signed_file,
                                          show=lambda s: s.propbank_frames is not None)
