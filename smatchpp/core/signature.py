"""One signature type for every metric and for the alignment family's :class:`~smatchpp.alignment.config.Config`.

A signature is one line of ``KEY:VALUE`` tokens joined by ``|`` that pins down a
score (sacreBLEU's idea): ``smatchpp:VERSION`` first, then, for a metric other
than the alignment family, ``metric:NAME``, then every setting that changes a
number, the run's settings (``errors``, ``bootstrap``, ``bootstrap-seed``,
``ar-trials``) and ``deterministic``.  :class:`Signature` is that line as an
object: :meth:`Signature.parse` reads the text, ``str()`` writes it back
unchanged, and :meth:`Signature.write` and :meth:`Signature.read` turn a
component's settings (each a :class:`Setting`) into tokens and back.  The
components declare their settings once (:class:`~smatchpp.alignment.config.Config`'s
fields, a metric's :func:`~smatchpp.metrics.base.param` fields); their
``signature()`` and ``from_signature()`` are thin calls to this module.

>>> sig = Signature.parse(f"smatchpp:{__version__}|metric:wlk|wlk-iterations:3|errors:raise|deterministic:yes")
>>> sig.metric, sig["wlk-iterations"], sig.run()
('wlk', '3', {'errors': 'raise'})
>>> Signature.parse(str(sig)) == sig
True

Values are written as :func:`format_value` does (``none``, ``yes``/``no``, ``0.5``,
``3``, a sequence as ``a,b``) and read back by :func:`read_value`.

Files.  A setting that names a file is signed by the file's identity (by default
``name@sha1-prefix``, :func:`smatchpp.core.paths.file_identity`), never by its path.  To
replay such a signature the file must be given again (``files``: the option on the
command line) and have that identity; a file of another content is refused.  Word
vectors are the one exception: a setting that ``resolves`` its identity (the packaged
GloVe, or a vectors file converted here before and kept in the cache) needs no file.

Refusals.  :meth:`Signature.read` is the one place that refuses what a signature
cannot hold: another smatchpp version (:meth:`check_version`), an unknown or
repeated key (a metric's parameter under another metric included), a value that
cannot be read, a file named by a path, a file not given or of other content, and
a setting that would do nothing under the others (``cutoff`` without
``match:s2match``, :func:`idle`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .version import __version__

__all__ = ["Signature", "Setting", "SignatureError", "format_value", "read_value", "idle", "RUN_KEYS",
           "IDENTITY"]


class SignatureError(ValueError):
    """A signature that cannot be read, or not turned back into what wrote it."""


#: the signature keys of a run (how errors are handled, the resamples), in their order
RUN_KEYS = ("errors", "bootstrap", "bootstrap-seed", "ar-trials")
#: how a signature names a file: ``name@sha1-prefix`` (or ``package@version``), never a path
IDENTITY = re.compile(r"[^/\\@|]+@[^/\\@|]+")


def format_value(value: Any) -> str:
    """A setting's value as a signature (and ``--help``) writes it: ``none``, ``yes``, ``0.5``,
    ``3``, a sequence as ``a,b``.

    >>> [format_value(v) for v in (None, True, 0.5, 30.0, 1e-06, 1234567.0, (1, 2))]
    ['none', 'yes', '0.5', '30', '1e-06', '1234567.0', '1,2']
    """
    if isinstance(value, (tuple, list)):
        return ",".join(format_value(v) for v in value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value) or abs(value) >= 1e15:
            return repr(value)
        short = f"{value:g}"  # 30 for 30.0; %g keeps six digits: 1234567.0 needs repr
        return short if float(short) == value else repr(value)
    return str(value)


def read_value(text: str, kind: type, default: Any = None, key: str = "") -> Any:
    """:func:`format_value`'s inverse for a setting of type ``kind``: ``none`` is ``None``
    unless the setting's default is text (a compression may be called ``none``).

    >>> read_value("none", float), read_value("none", str, "exact"), read_value("yes", bool)
    (None, 'none', True)
    """
    if text == "none" and not isinstance(default, str):
        return None
    if kind is str:
        return text
    try:
        if kind is bool:
            return {"yes": True, "no": False}[text]
        return kind(text)
    except (ValueError, KeyError, TypeError):
        raise SignatureError(f"cannot read {key + ':' if key else ''}{text} as {kind.__name__}") from None


@dataclass(frozen=True)
class Setting:
    """One signed setting of a component (a :class:`~smatchpp.alignment.config.Config` field, a metric's
    parameter): how the signature writes it and reads it back.

    ``show(owner)``: whether the signature holds it (default: always); a setting left out
    reads back as its default.  ``needs``: ``(condition(owner), what)`` for a setting that does
    nothing unless ``condition``; :func:`idle` names it.  ``identity``: for a file, how the
    signature names it (``None`` included); ``pattern``: what such a name looks like (a path
    does not); ``resolves``: the component finds the file from its identity alone (word
    vectors), else the file must be given to replay.  ``flag``: the command-line option,
    for messages.
    """

    name: str
    key: str
    kind: type
    default: Any
    show: Callable[[Any], bool] | None = None
    needs: tuple[Callable[[Any], bool], str] | None = None
    identity: Callable[[Any], str] | None = None
    pattern: re.Pattern = IDENTITY
    resolves: bool = False
    flag: str | None = None

    def text(self, owner: Any) -> str:
        """The setting's value in ``owner`` as the signature writes it."""
        value = getattr(owner, self.name)
        return self.identity(value) if self.identity is not None else format_value(value)

    @property
    def option(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")


def idle(settings: Iterable[Setting], owner: Any, names: Iterable[str]) -> list[tuple[str, str]]:
    """Those of the settings ``names`` that do nothing in ``owner``, each with what it needs:
    the one rule by which a setting takes effect or is refused (a signature's token, an option
    given, a value other than the default)."""
    names = set(names)
    return [(s.name, s.needs[1]) for s in settings
            if s.name in names and s.needs is not None and not s.needs[0](owner)]


@dataclass(frozen=True)
class Signature:
    """A signature's tokens, ``(key, value text)`` in order, ``smatchpp:VERSION`` first.

    >>> s = Signature.parse("smatchpp:0.0.1|seed:7")
    >>> str(s), s.version, s.metric, "seed" in s
    ('smatchpp:0.0.1|seed:7', '0.0.1', None, True)
    >>> Signature.parse("smatchpp:0.0.1|seed:7|seed:8")
    Traceback (most recent call last):
    ...
    smatchpp.core.signature.SignatureError: signature key 'seed' is given twice (seed:7, seed:8)
    """

    tokens: tuple[tuple[str, str], ...]

    # --- text ---------------------------------------------------------------------

    @classmethod
    def parse(cls, text: "str | Signature") -> "Signature":
        """The signature ``text``; refuses a token without ``:``, a repeated key and a line
        that does not start with ``smatchpp:VERSION`` (the version is checked by :meth:`read`)."""
        if isinstance(text, Signature):
            return text
        tokens: dict[str, str] = {}
        for token in text.strip().split("|"):
            key, sep, value = token.partition(":")
            if not sep:
                raise SignatureError(f"not a smatchpp signature: token {token!r} has no ':'")
            if key in tokens:
                raise SignatureError(f"signature key {key!r} is given twice "
                                     f"({key}:{tokens[key]}, {key}:{value})")
            tokens[key] = value
        if "smatchpp" not in tokens:
            raise SignatureError("not a smatchpp signature: it does not start with smatchpp:VERSION")
        return cls(tuple(tokens.items()))

    def __str__(self) -> str:
        return "|".join(f"{k}:{v}" for k, v in self.tokens)

    # --- reading tokens -----------------------------------------------------------

    def __getitem__(self, key: str) -> str:
        for k, v in self.tokens:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key: str, default: str | None = None) -> str | None:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return any(k == key for k, _ in self.tokens)

    def keys(self) -> Iterator[str]:
        return (k for k, _ in self.tokens)

    @property
    def version(self) -> str | None:
        return self.get("smatchpp")

    @property
    def metric(self) -> str | None:
        """The ``metric:`` token (``None``: the alignment family's Config, ``smatch``)."""
        return self.get("metric")

    def run(self) -> dict[str, str]:
        """The run's tokens (:data:`RUN_KEYS`) as text."""
        return {k: v for k, v in self.tokens if k in RUN_KEYS}

    def without(self, *keys: str) -> "Signature":
        """The signature without the tokens ``keys``."""
        return Signature(tuple((k, v) for k, v in self.tokens if k not in keys))

    def check_version(self) -> None:
        """Refuse a signature of another smatchpp version."""
        if self.version != __version__:
            raise SignatureError(f"this signature was made by smatchpp {self.version}, this is smatchpp "
                                 f"{__version__}: install smatchpp=={self.version} to reproduce it")

    # --- components ---------------------------------------------------------------

    @classmethod
    def write(cls, settings: Sequence[Setting], owner: Any, head: Sequence[tuple[str, str]] = (),
              tail: Sequence[tuple[str, str]] = ()) -> "Signature":
        """``smatchpp:VERSION``, ``head``, every shown setting of ``owner``, ``tail``."""
        tokens = [("smatchpp", __version__), *head]
        tokens += [(s.key, s.text(owner)) for s in settings if s.show is None or s.show(owner)]
        return cls(tuple(tokens + list(tail)))

    def read(self, settings: Sequence[Setting], *, ignore: Iterable[str] = (),
             files: Mapping[str, str] | None = None, what: str = "",
             build: Callable[[dict[str, Any]], Any] | None = None) -> dict[str, Any]:
        """``{setting name: value}`` of the tokens of ``settings`` (keys left out are left out);
        the tokens ``ignore`` and ``smatchpp`` are skipped, any other key is refused.

        ``files``: ``{setting name: path}`` of the files given to replay the signature; each
        must have the identity the signature names (see the module's rules).  ``build``: makes
        the component from values (without the conditional ones), to refuse a setting that
        would do nothing under the others (:func:`idle`).
        """
        self.check_version()
        files = dict(files or {})
        by_key = {s.key: s for s in settings}
        skip = set(ignore) | {"smatchpp"}
        values: dict[str, Any] = {}
        for key, text in self.tokens:
            if key in skip:
                continue
            s = by_key.get(key)
            if s is None:
                raise SignatureError(f"unknown signature key {key!r} for {what or 'smatchpp ' + __version__}")
            if s.identity is not None and text != "none":
                values[s.name] = _file(s, text, files.pop(s.name, None))
            else:
                values[s.name] = read_value(text, s.kind, s.default, key)
        for name, path in files.items():  # a file given that the signature does not name
            s = next((s for s in settings if s.name == name), None)
            if s is not None and path is not None:
                raise SignatureError(f"{s.option} {path} is given, but the signature has "
                                     f"{s.key}:{self.get(s.key, format_value(s.default))}: drop the option")
        if build is not None:
            conditional = {s.name for s in settings if s.needs is not None}
            probe = build({k: v for k, v in values.items() if k not in conditional})
            found = idle(settings, probe, values)
            if found:
                name, need = found[0]
                s = next(s for s in settings if s.name == name)
                raise SignatureError(f"{s.key}:{self[s.key]} does nothing without {need}: a "
                                     f"signature of smatchpp {__version__} never holds it")
        return values


def _file(setting: Setting, text: str, given: str | None) -> str:
    """The file of a signature's token ``text``: the file ``given`` if it has that identity,
    else the identity (when the component finds the file by it); refused otherwise."""
    if not setting.pattern.fullmatch(text):
        raise SignatureError(f"{setting.key} in a signature names a file by its identity, "
                             "name@sha1-prefix (as smatchpp writes it), not by a path: pass "
                             f"the file as {setting.option} FILE")
    if given is not None:
        found = setting.identity(given)
        if found != text:
            raise SignatureError(f"--signature sets {setting.key}:{text} but the options give "
                                 f"{setting.option} {given}, which is {found}: give the file the "
                                 "signature names")
        return given
    if setting.resolves:
        return text
    raise SignatureError(f"{setting.key}:{text} names a file by its identity: pass {setting.option} "
                         f"FILE (the file of identity {text}) to replay the signature")
