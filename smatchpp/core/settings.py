"""Settings owned by their components: one declaration form for every component and metric.

A component (a matcher, the solvers, the run policy, a preset, a metric) declares
the settings it reads as the fields of a frozen dataclass, each made by
:func:`setting`: its default, signature key, value type, validity check and, for a
file, how the signature names it.  :func:`signed` turns such a class into the
:class:`~smatchpp.core.signature.Setting` tuple the signature writes and reads, and the
class validates its values on construction (:class:`Settings`).

:class:`~smatchpp.alignment.config.Config` composes the components: each of its fields is a
component's field taken with :func:`take`, which adds what only the composition
knows (a matcher's parameter does nothing under another matcher: ``show`` and
``needs``); :meth:`Settings.of` hands a component its own settings back.  A metric's
:func:`~smatchpp.metrics.base.param` is :func:`setting` with a description.  How a
setting appears on the command line (help text, group, value parser) is the command
line's business (:mod:`smatchpp.cli.options`), not the component's.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Limits(Settings):
...     seconds: float = setting(10.0, "secs", check=lambda v: None if v > 0 else "must be > 0")
>>> Limits(seconds=2), [s.key for s in signed(Limits)]
(Limits(seconds=2.0), ['secs'])
>>> Limits(seconds=0)
Traceback (most recent call last):
...
ValueError: seconds must be > 0
"""

from __future__ import annotations

import math
import re
from dataclasses import MISSING, Field, dataclass, field, fields
from typing import Any, Callable, Iterable, TypeVar

from .paths import file_identity
from .signature import Setting

__all__ = ["setting", "take", "signed", "Settings", "Check", "name_in", "positive_or_none", "int_at_least",
           "fraction", "non_negative", "open_unit", "boolean", "file_or_identity", "signed_file"]

#: a validity check: ``None`` if the value is valid, else what is wrong ("must be ...")
Check = Callable[[Any], "str | None"]
S = TypeVar("S", bound="Settings")


def setting(default: Any, key: str | None, *, kind: type | None = None, check: Check | None = None,
            identity: Callable[[Any], str] | None = None, resolves: bool = False,
            pattern: re.Pattern | None = None, flag: str | None = None,
            show: Callable[[Any], bool] | None = None,
            needs: tuple[Callable[[Any], bool], str] | None = None, **extra: Any) -> Any:
    """A component's setting: a dataclass field carrying its signature declaration.

    ``key``: the signature key (``None``: the owner names it, as a metric does,
    ``METRIC-FIELD``); ``kind``: the value type (default: the default's, ``str`` for
    ``None``); ``check``: the validity check; ``identity``: for a file, how the signature
    names it (``name@sha1-prefix``, ``None`` included), ``pattern`` what such a name looks
    like and ``resolves`` whether the component finds the file by it alone; ``flag``: the
    command-line option, when it is not ``--field-name`` (error messages name it);
    ``show(owner)``: whether the signature holds the setting (default: always), from the
    owner's own settings (a composition adds its conditions with :func:`take`);
    ``needs``: ``(condition(owner), what)``, for a setting that does nothing unless
    ``condition`` (``what`` says, in the options' words, what it needs): setting it anyway
    is refused (:func:`smatchpp.core.signature.idle`).  ``extra``: further metadata (a metric parameter's description and choices).
    """
    kind = kind or (type(default) if default is not None else str)
    return field(default=default, metadata={"sig": key, "kind": kind, "check": check, "display": identity,
                                            "resolves": resolves, "pattern": pattern, "flag": flag,
                                            "show": show, "needs": needs, **extra})


def take(component: type, name: str, *, show: Callable[[Any], bool] | None = None,
         needs: tuple[Callable[[Any], bool], str] | None = None) -> Any:
    """The setting ``name`` of ``component``, as a field of a composition (the Config), with
    the conditions only the composition knows (a matcher's parameter does nothing under
    another matcher): ``show`` and ``needs`` (as :func:`setting`'s) replace the component's.
    """
    source = _field(component, name)
    metadata = dict(source.metadata)
    if show is not None:
        metadata["show"] = show
    if needs is not None:
        metadata["needs"] = needs
    return field(default=source.default, metadata=metadata)


def _field(component: type, name: str) -> Field:
    for f in fields(component):
        if f.name == name:
            if f.default is MISSING or "sig" not in f.metadata:
                raise TypeError(f"{component.__name__}.{name} is not a declared setting")
            return f
    raise AttributeError(f"{component.__name__} has no setting {name!r}")


def declared(owner: Any) -> tuple[Field, ...]:
    """The fields of ``owner`` (a class or instance) made by :func:`setting`, in order."""
    cls = owner if isinstance(owner, type) else type(owner)
    found = _DECLARED.get(cls)
    if found is None:
        found = _DECLARED[cls] = tuple(f for f in fields(cls) if "sig" in f.metadata)
    return found


#: :func:`declared` of each class (a dataclass's fields do not change once it is made)
_DECLARED: dict[type, tuple[Field, ...]] = {}


def signed(owner: Any, key: Callable[[str], str] | None = None,
           flag: Callable[[str], str] | None = None) -> tuple[Setting, ...]:
    """Every declared setting of ``owner`` as a :class:`~smatchpp.core.signature.Setting`, in
    declaration order.  ``key(name)``/``flag(key)``: the signature key and option of a setting
    declared without one (a metric's ``METRIC-FIELD``, ``--METRIC-FIELD``)."""
    out = []
    for f in declared(owner):
        m = f.metadata
        sig = m["sig"] if m["sig"] is not None else key(f.name)
        option = m["flag"] or (flag(sig) if flag is not None else None)
        extra = {} if m["pattern"] is None else {"pattern": m["pattern"]}
        out.append(Setting(f.name, sig, m["kind"], f.default, show=m["show"], needs=m["needs"],
                           identity=m["display"], resolves=m["resolves"],
                           flag=option or "--" + f.name.replace("_", "-"), **extra))
    return tuple(out)


@dataclass(frozen=True)
class Settings:
    """A component's settings: a frozen dataclass of :func:`setting` fields, checked when made
    (a ``float`` setting given an ``int`` keeps a ``float``: 30 and 30.0 sign the same)."""

    def __post_init__(self) -> None:
        for f in declared(self):
            check = f.metadata["check"]
            value = getattr(self, f.name)
            if check is not None:
                problem = check(value)
                if problem:
                    raise ValueError(problem if problem.startswith("unknown") else f"{f.name} {problem}")
            if f.metadata["kind"] is float and isinstance(value, int) and not isinstance(value, bool):
                object.__setattr__(self, f.name, float(value))

    @classmethod
    def of(cls: type[S], owner: Any) -> S:
        """This component's settings, read from ``owner`` (a composition such as the Config,
        or anything with these attributes; one missing takes its default)."""
        values = {f.name: getattr(owner, f.name, MISSING) for f in declared(cls)}
        return cls(**{k: v for k, v in values.items() if v is not MISSING})

    @classmethod
    def pick(cls: type[S], values: dict[str, Any]) -> S:
        """This component's settings from ``values``, ignoring the names it does not declare."""
        names = {f.name for f in declared(cls)}
        return cls(**{k: v for k, v in values.items() if k in names})


# --- checks shared by the components -----------------------------------------------

def name_in(registry: Callable[[], Iterable[str]], what: str) -> Check:
    """A name in ``registry()`` (read when checked: a registry can grow)."""
    def check(value: Any) -> str | None:
        names = list(registry())
        if value not in names:
            return f"unknown {what} {value!r}; choose from {', '.join(names)}"
        return None
    return check


def positive_or_none(unit: str) -> Check:
    def check(value: Any) -> str | None:
        if value is None:
            return None
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or value <= 0):
            return f"must be a positive number of {unit} (or None), got {value!r}"
        return None
    return check


def int_at_least(low: int, optional: bool = False, most: int | None = None) -> Check:
    def check(value: Any) -> str | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            return f"must be an integer >= {low}{' (or None)' if optional else ''}, got {value!r}"
        if most is not None and value > most:
            return f"must be at most {most:,}, got {value:,}"
        return None
    return check


def fraction(value: Any) -> str | None:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or not 0 <= value <= 1):
        return f"must be a number in [0, 1], got {value!r}"
    return None


def non_negative(value: Any) -> str | None:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or value < 0):
        return f"must be a finite number >= 0, got {value!r}"
    return None


def open_unit(value: Any) -> str | None:
    """A number in (0, 1) (a tolerance)."""
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or not 0 < value < 1):
        return f"must be a number in (0, 1), got {value!r}"
    return None


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be True or False, got {value!r}"


def file_or_identity(value: Any) -> str | None:
    """A path (or a signature's ``name@sha1`` identity); ``None`` for the default."""
    if value is None:
        return None
    if not isinstance(value, str) or not value or "|" in value:
        return f"must be a file name without '|', got {value!r}"
    return None


def signed_file(value: str | None) -> str:
    """How a signature names a file setting: its identity ``name@sha1-prefix`` (``none``)."""
    return "none" if value is None else file_identity(value)
