"""The configuration of a score, and its signature.

:class:`Config` holds every setting that can change a number.  It composes the
settings the components declare (:mod:`smatchpp.core.settings`): the preset's
(:class:`~smatchpp.presets.PresetSettings`), the matchers' (:class:`~smatchpp.alignment.matchers.Matching`,
:data:`~smatchpp.alignment.matchers.MATCHER_SETTINGS`), the certification tolerance
(:class:`~smatchpp.alignment.problem.Certification`), the solvers' (:class:`~smatchpp.alignment.solvers.SolverSettings`),
docSmatch's document settings (:class:`~smatchpp.alignment.sentences.DocumentSettings`), the run
policy (:class:`~smatchpp.core.policy.RunPolicy`: limits, errors, resampling) and the
aspect sets' (:class:`~smatchpp.core.aspect_settings.AspectSettings`).  Each field is one
component's setting, taken with :func:`~smatchpp.core.settings.take`, which adds what only the
composition knows: a field that matters only under others (a matcher's parameter) declares
what it ``needs``, and setting it anyway is an error.  :meth:`Config.part` hands a component
its settings back (``matchers.build_matcher`` gives a matcher its own).

:meth:`Config.signature` writes the fields in declaration order after the versions of
smatchpp and HiGHS, and :meth:`Config.from_signature` reads a signature back, so a reader
can re-run a paper's setting exactly (sacreBLEU's idea, with a round trip).  Adding a
setting means declaring it in its component (:func:`~smatchpp.core.settings.setting`: a
signature key and a ``check``), taking it here, and giving its option words in
:data:`smatchpp.cli.options.OPTIONS`; the round-trip test covers it without further work.

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

from dataclasses import dataclass, fields, replace
from typing import Any, Iterable, TypeVar

from ..core.aspect_settings import ASPECT_MODES, ASPECT_SETS, AspectSettings, drs_sets, readers, set_reads
from .matchers import MATCHER_SETTINGS, ExactSettings, FocusSettings, MatcherSettings, Matching, S2MatchSettings
from .matchers.embeddings import vectors_identity
from .matchers.exact import DUPLICATES
from ..core.policy import MAX_RESAMPLES, ON_ERROR, RunPolicy
from ..presets import PresetSettings, canonical, get_preset
from .problem import Certification
from .sentences import COREF_TIES, DocumentSettings
from ..core.settings import Settings, signed, take
from ..core.signature import Signature, SignatureError, format_value
from ..core.signature import idle as idle_settings
from ..statistics.significance import DEFAULT_RESAMPLES
from ..statistics.significance import DEFAULT_SEED as BOOTSTRAP_SEED
from .solvers import COMPRESSIONS, SolverSettings
from ..core.version import __version__

__all__ = ["Config", "SignatureError", "signature_tokens", "highs_version", "MAX_RESAMPLES", "CONDITIONAL_FIELDS",
           "BOOTSTRAP_SEED", "DEFAULT_RESAMPLES", "ON_ERROR", "ASPECT_MODES", "format_value", "SETTINGS", "PARTS",
           "ASPECT_SETS", "COMPRESSIONS", "DUPLICATES", "COREF_TIES"]


S = TypeVar("S", bound=Settings)


def highs_version() -> str:
    """The version of highspy, which pins the HiGHS library (read without starting HiGHS)."""
    from importlib.metadata import version

    return version("highspy")


# --- when a component's setting matters: what only the composition knows --------------

def _soft(config: "Config") -> bool:
    return config.match == "s2match"


def _focus(config: "Config") -> bool:
    return config.match in ("concept-focus", "structure-focus")


def _fractional(config: "Config") -> bool:
    """Whether coefficients can be non-integers (then the tolerance matters)."""
    return config.match != "exact" or config.role_weights is not None


def _uses_vectors(config: "Config") -> bool:
    """S2Match, or an aspect set that reads word vectors (the thesis' graph statistics:
    :func:`smatchpp.core.aspect_settings.set_reads`)."""
    return _soft(config) or (config.aspects != "none" and set_reads(config.aspect_set, "vectors"))


_SOFT = (_soft, "--match s2match")
_VECTORS = (_uses_vectors, f"--match s2match or --aspects {' or '.join(readers('vectors'))}")
_FOCUS = (_focus, "--match concept-focus or structure-focus")
_FRACTIONAL = (_fractional, "non-integer coefficients (a --match other than exact, or --role-weights)")


@dataclass(frozen=True)
class Config(Settings):
    """Every setting that can change a score; see the module docstring.

    Each field is a component's setting (:func:`~smatchpp.core.settings.take`), in the order
    the signature writes them; :meth:`part` hands a component its own settings.
    """

    #: the standardization: which triples are compared (:mod:`smatchpp.graphs.triples`)
    preset: str = take(PresetSettings, "preset")
    #: keep ``:wiki`` triples, which the ``amr`` preset drops (``--keep-wiki``)
    keep_wiki: bool = take(PresetSettings, "keep_wiki")
    #: how triples match and what they weigh (:data:`smatchpp.alignment.matchers.MATCHERS`)
    match: str = take(Matching, "match")
    #: how a repeated triple matches (exact matching only, :class:`~smatchpp.alignment.matchers.ExactSettings`)
    duplicates: str = take(ExactSettings, "duplicates")
    #: S2Match's parameters (:class:`~smatchpp.alignment.matchers.S2MatchSettings`)
    cutoff: float = take(S2MatchSettings, "cutoff", show=_soft, needs=_SOFT)
    diffsense: float = take(S2MatchSettings, "diffsense", show=_soft, needs=_SOFT)
    vectors: str | None = take(S2MatchSettings, "vectors", show=_uses_vectors, needs=_VECTORS)
    #: concept-focus/structure-focus: the weight of the focused triples
    focus_weight: float = take(FocusSettings, "focus_weight", show=_focus, needs=_FOCUS)
    #: a TSV ``role<TAB>weight`` file multiplying each triple's weight (any matcher)
    role_weights: str | None = take(MatcherSettings, "role_weights")
    #: a pair with non-integer coefficients is certified when its gap is below this
    tolerance: float = take(Certification, "tolerance", show=_fractional, needs=_FRACTIONAL)
    #: docSmatch's sentence-bucket restriction and coreference subscore
    #: (:class:`~smatchpp.alignment.sentences.DocumentSettings`)
    sentence_buckets: bool = take(DocumentSettings, "sentence_buckets")
    coref_subscore: bool = take(DocumentSettings, "coref_subscore")
    coref_ties: str = take(DocumentSettings, "coref_ties",
                           needs=(lambda config: config.coref_subscore, "--coref-subscore"))
    #: the solver and the compression (:class:`~smatchpp.alignment.solvers.SolverSettings`)
    solver: str = take(SolverSettings, "solver")
    compression: str = take(SolverSettings, "compression")
    #: the limits (:class:`~smatchpp.core.policy.RunPolicy`)
    time_limit: float | None = take(RunPolicy, "time_limit")
    total_time_limit: float | None = take(RunPolicy, "total_time_limit")
    work_limit: int | None = take(RunPolicy, "work_limit")
    #: the hill-climber's seed and restarts
    seed: int = take(SolverSettings, "seed")
    restarts: int = take(SolverSettings, "restarts")
    #: unreadable graphs: stop, score as empty, or skip the pair (the last two change micro F1)
    on_error: str = take(RunPolicy, "on_error")
    #: the aspect scores beside the main score (:class:`~smatchpp.core.aspect_settings.AspectSettings`)
    aspects: str = take(AspectSettings, "aspects")
    aspect_set: str = take(AspectSettings, "aspect_set")
    propbank_frames: str | None = take(AspectSettings, "propbank_frames")
    #: the resampling (:class:`~smatchpp.core.policy.RunPolicy`): it changes the intervals, never the scores
    bootstrap: int | None = take(RunPolicy, "bootstrap")
    bootstrap_seed: int = take(RunPolicy, "bootstrap_seed")
    ar_trials: int | None = take(RunPolicy, "ar_trials")

    def __post_init__(self) -> None:
        super().__post_init__()  # each setting's check; 30 and 30.0: one signature
        object.__setattr__(self, "preset", canonical(self.preset))  # an alias signs as its preset
        if self.aspects != "none" and self.aspect_set in drs_sets():
            raise ValueError(f"the {self.aspect_set} aspect set scores DRSs in clausal form: give --metric counter "
                             f"--aspects {self.aspect_set} (Counter's detailed scores), not AMR graphs")
        if self.aspects != "none":
            if self.match != "exact" or get_preset(self.preset).pair_rewrite is not None:
                raise ValueError(f"aspects count Smatch triples: they need match exact (got "
                                 f"{self.match}) and a preset without a pair rewrite (got {self.preset})")
        if self.propbank_frames is not None and not set_reads(self.aspect_set, "propbank_frames"):
            sets = readers("propbank_frames")
            raise ValueError(f"--propbank-frames (propbank_frames) is read by the {' and '.join(sets)} aspect "
                             f"set only (--aspects {' or '.join(sets)}), not by {self.aspect_set}")
        if self.vectors is not None and self.vectors == vectors_identity(None):
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
        if self.coref_ties != "first" and (_fractional(self) or self.solver == "hillclimber"):
            raise ValueError(f"coref_ties {self.coref_ties} breaks ties between certified optima of an integral "
                             "score: it needs match exact, no role weights and a solver that certifies "
                             f"(got match {self.match}, role weights {self.role_weights}, solver {self.solver})")
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
        return self.policy.deterministic

    def part(self, component: "type[S]") -> "S":
        """The settings of ``component`` (one of :data:`PARTS`, or a matcher's) in this config.

        >>> Config(match="s2match", cutoff=0.2).part(S2MatchSettings)
        S2MatchSettings(role_weights=None, cutoff=0.2, diffsense=0.5, vectors=None)
        """
        return component.of(self)

    @property
    def policy(self) -> RunPolicy:
        """The run policy: limits, unreadable graphs, resampling."""
        return RunPolicy.of(self)

    @property
    def matcher_settings(self) -> MatcherSettings:
        """The settings the chosen matcher reads (:data:`smatchpp.alignment.matchers.MATCHER_SETTINGS`)."""
        return MATCHER_SETTINGS[self.match].of(self)

    def replace(self, **changes: Any) -> "Config":
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)

    def signature(self, match: str | None = None) -> str:
        """A sacreBLEU-style string that pins down the score, e.g. for a paper
        (:class:`~smatchpp.core.signature.Signature`).

        ``match``: the name of the matcher that scored, when it is not a
        registered one (a :class:`~smatchpp.api.Scorer` given its own matcher).

        >>> Config().signature(match="my-matcher").split("|")[3]
        'match:my-matcher'
        """
        return str(self.sign(match))

    def sign(self, match: str | None = None) -> Signature:
        """The :class:`~smatchpp.core.signature.Signature` of :meth:`signature`: the versions of
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
        :meth:`Signature.read <smatchpp.core.signature.Signature.read>`): another smatchpp or
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
        smatchpp.core.signature.SignatureError: signature key 'seed' is given twice (seed:7, seed:8)
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
#: every field of :class:`Config` as a signed setting (:class:`~smatchpp.core.signature.Setting`), in order
SETTINGS = signed(Config)
#: the components whose settings :class:`Config` composes
PARTS = (PresetSettings, Matching, ExactSettings, S2MatchSettings, FocusSettings, MatcherSettings, Certification,
         DocumentSettings, SolverSettings, RunPolicy, AspectSettings)


def signature_tokens(signature: str) -> dict[str, str]:
    """``{key: value text}`` of a signature of this smatchpp version, without the version token
    (:class:`~smatchpp.core.signature.Signature`); refuses a token without ``:``, a repeated key and
    another smatchpp version (:class:`SignatureError`).

    >>> signature_tokens(f"smatchpp:{__version__}|metric:jaccard|errors:skip")
    {'metric': 'jaccard', 'errors': 'skip'}
    """
    sig = Signature.parse(signature)
    sig.check_version()
    return dict(sig.without("smatchpp").tokens)
