"""Config: validation of every setting, and the signature round trip."""

from __future__ import annotations

import math
import argparse
from dataclasses import fields
from pathlib import Path

import pytest

from clirun import run
from smatchpp import __version__
from smatchpp.api import Scorer, score_corpus
from smatchpp.alignment.config import Config, SignatureError

#: a value other than the default for every signed field (extend when a field is added)
OTHER = {"preset": None, "match": None, "solver": "highs", "compression": "none", "time_limit": 2.5,
         "total_time_limit": 3600.0,
         "work_limit": 700, "seed": 7, "restarts": 0, "on_error": "skip", "aspects": "joint",
         "bootstrap": 200, "bootstrap_seed": 99, "ar_trials": 500, "cutoff": 0.75,
         "diffsense": 0.25, "vectors": "glove.6B.100d.txt@0123456789", "focus_weight": 2.0,
         "role_weights": "roles.tsv@0123456789", "tolerance": 1e-4, "aspect_set": "smatchpp18",
         "propbank_frames": "frames.txt@0123456789"}
#: settings under which a field matters (it is in the signature only then)
CONTEXT = {"cutoff": {"match": "s2match"}, "diffsense": {"match": "s2match"},
           "vectors": {"match": "s2match"}, "focus_weight": {"match": "concept-focus"},
           "tolerance": {"match": "wsmatch"}, "keep_wiki": {"preset": "amr"},
           "aspect_set": {"aspects": "separate"},
           "propbank_frames": {"aspects": "separate", "aspect_set": "smatchpp18"}}


def _other(f):
    if f.name in OTHER and OTHER[f.name] is not None:
        return OTHER[f.name]
    check = f.metadata["check"]
    kind = f.metadata["kind"]
    # any registered name other than the default, else the default
    for candidate in ("generic", "amr", "smatch-legacy", "s2match", "wsmatch"):
        if kind is str and check(candidate) is None and candidate != f.default:
            return candidate
    if kind is bool:
        return not f.default
    if kind is float:
        return 0.25 if f.default is None else f.default / 2 + 0.125
    if kind is int:
        return 3 if f.default is None else f.default + 3
    return f.default


def test_every_field_is_signed_and_checked():
    for f in fields(Config):
        assert "sig" in f.metadata, f.name
        assert f.metadata["check"](f.default) is None, f.name


#: the fields that name a file the signature cannot find by itself: replaying needs the file
FILES = ("role_weights", "propbank_frames")


def _files(tmp_path, values):
    """Real files for the file fields of ``values`` (their identities are signed); ``{field: path}``."""
    files = {}
    for name in FILES:
        if values.get(name) is not None:
            path = tmp_path / values[name].partition("@")[0]
            path.write_text("ARG0\t2\n" if name == "role_weights" else "give-01  ARG0: giver\n")
            values[name] = files[name] = str(path)
    return files


@pytest.mark.parametrize("name", [f.name for f in fields(Config)])
def test_signature_round_trip_per_field(name, tmp_path):
    f = next(f for f in fields(Config) if f.name == name)
    values = {name: _other(f), **CONTEXT.get(name, {})}
    files = _files(tmp_path, values)
    config = Config(**values)
    back = Config.from_signature(config.signature(), files=files)
    assert back == config
    if files:  # without its file the signature is not replayed
        with pytest.raises(SignatureError, match="names a file by its identity: pass --"):
            Config.from_signature(config.signature())


def test_signature_round_trip_all_fields_at_once(tmp_path):
    values = {f.name: _other(f) for f in fields(Config)}
    values["focus_weight"] = 3.0  # not shown under s2match: it reads back as the default
    values["preset"] = "amr"  # a pair-rewriting preset is for unweighted exact matching only,
    # and keep_wiki needs a preset that drops the wiki
    values["aspects"] = "none"  # aspects count Smatch triples: exact matching only
    values["propbank_frames"] = None  # read by the smatchpp18 aspects only
    values["aspect_set"] = "damonte"  # not shown without aspects: it reads back as the default
    files = _files(tmp_path, values)
    config = Config(**values)
    assert config.match == "s2match"
    assert Config.from_signature(config.signature(), files=files) == config


def test_matcher_parameters_are_signed_only_where_they_matter():
    assert "cutoff" not in Config().signature()
    assert "cutoff:0.2|diffsense:0.5" in Config(match="s2match", cutoff=0.2).signature()
    assert "focus:2" in Config(match="structure-focus", focus_weight=2).signature()
    assert "tol:" not in Config().signature() and "tol:1e-06" in Config(match="wsmatch").signature()


def test_files_are_signed_by_their_content(tmp_path):
    roles = tmp_path / "roles.tsv"
    roles.write_text("ARG0\t2\n")
    first = Config(role_weights=str(roles)).signature()
    assert "|roles:roles.tsv@" in first
    roles.write_text("ARG0\t3\n")
    assert Config(role_weights=str(roles)).signature() != first


def test_signature_names_versions_and_determinism():
    sig = Config().signature()
    assert sig.startswith(f"smatchpp:{__version__}|highs:")
    assert sig.endswith("|deterministic:yes")
    assert Config(time_limit=3).signature().endswith("|deterministic:no")
    assert Config(work_limit=3).signature().endswith("|deterministic:yes")


def test_signature_of_another_version_is_refused():
    sig = Config().signature().replace(f"smatchpp:{__version__}", "smatchpp:0.0.1")
    with pytest.raises(SignatureError, match="smatchpp 0.0.1"):
        Config.from_signature(sig)


@pytest.mark.parametrize("sig", ["nonsense", "preset:smatch", f"smatchpp:{__version__}|colour:blue",
                                 f"smatchpp:{__version__}|timeout:soon"])
def test_bad_signatures_are_refused(sig):
    with pytest.raises(SignatureError):
        Config.from_signature(sig)


@pytest.mark.parametrize("kwargs, message", [
    ({"time_limit": 0}, "time_limit"), ({"time_limit": -1}, "time_limit"),
    ({"time_limit": math.nan}, "time_limit"), ({"time_limit": math.inf}, "time_limit"),
    ({"work_limit": 0}, "work_limit"), ({"work_limit": 2.5}, "work_limit"),
    ({"restarts": -1}, "restarts"), ({"seed": -1}, "seed"), ({"seed": True}, "seed"),
    ({"solver": "gurobi"}, "solver"), ({"preset": "nope"}, "preset"), ({"match": "nope"}, "matcher"),
    ({"on_error": "ignore"}, "on_error"), ({"compression": "zip"}, "compression"),
    ({"aspects": "both"}, "aspects mode"), ({"aspects": "joint", "preset": "smatchpp18-lossy"}, "aspects"),
    ({"bootstrap": 0}, "bootstrap"), ({"bootstrap": 2.5}, "bootstrap"),
    ({"bootstrap_seed": -1}, "bootstrap_seed"), ({"ar_trials": 0}, "ar_trials"),
    ({"cutoff": 1.5}, "cutoff"), ({"diffsense": -0.1}, "diffsense"), ({"focus_weight": -1}, "focus"),
    ({"tolerance": 0}, "tolerance"), ({"vectors": "a|b"}, "vectors"),
    ({"match": "wsmatch", "preset": "smatchpp18-lossy"}, "exact matching only"),
])
def test_nonsense_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Config(**kwargs)


def test_an_int_time_limit_signs_like_a_float():
    assert Config(time_limit=30) == Config(time_limit=30.0)
    assert Config(time_limit=30).signature() == Config(time_limit=30.0).signature()


PAIRS = (["(a / and :op1 (b / dog :ARG0-of (c / bark-01 :ARG1 (d / cat))) :op2 (e / dog :mod (f / big)))"] * 3,
         ["(x / and :op1 (y / dog :ARG0-of (z / bark-01 :ARG1 (w / dog))) :op2 (v / cat :mod (u / big)))"] * 3)


def test_work_limit_is_deterministic_and_bounded():
    # a tiny budget: the LP is cut short, the pair reports an interval, the same one every time
    runs = [score_corpus(*PAIRS, workers=w, work_limit=1) for w in (1, 2, 1)]
    key = [[(p.matched, p.upper, p.status) for p in r.pairs] for r in runs]
    assert key[0] == key[1] == key[2]
    unlimited = score_corpus(*PAIRS)
    for limited, exact in zip(runs[0].pairs, unlimited.pairs):
        assert limited.matched <= exact.matched <= limited.upper
        assert limited.status in ("optimal", "work_limit")


def test_work_limit_budget_is_shared_by_the_stages():
    from smatchpp.api import compile_strings
    from smatchpp.alignment.solvers.base import Budget
    from smatchpp.alignment.solvers.highs import solve_lp

    p = compile_strings(PAIRS[0][0], PAIRS[1][0])
    budget = Budget(10_000)
    solve_lp(p, budget=budget)
    assert 0 < budget.used <= 10_000
    spent = budget.used
    solve_lp(p, budget=budget)
    assert budget.used == 2 * spent  # the same LP costs the same, deterministically


def test_scorer_signature_is_the_configs():
    assert Scorer(Config(seed=5)).signature == Config(seed=5).signature()


def test_resampling_settings_are_signed_only_when_used():
    plain = Config().signature()
    assert "bootstrap" not in plain and "ar-trials" not in plain
    sig = Config(bootstrap=500, ar_trials=2000).signature()
    assert "|bootstrap:500|bootstrap-seed:12345|ar-trials:2000|" in sig
    assert "|bootstrap-seed:7|" in Config(bootstrap_seed=7).signature()  # not the default: shown
    assert Config.from_signature(sig) == Config(bootstrap=500, ar_trials=2000)


# --- one declaration per setting: the options are made from the Config fields --------------------

def _subparsers():
    from smatchpp.cli import build_parser

    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sub.choices


#: the fields whose help does not state their default: a flag (keep-wiki), and values the
#: option words in its own terms (stop for raise; --aspects gives a set and --aspects-mode a
#: mode only when aspects are on)
_DEFAULT_IN_WORDS = {"keep_wiki", "on_error", "aspects", "aspect_set"}


def test_every_signed_field_has_exactly_one_option_with_its_default_in_help(tmp_path):
    from smatchpp.cli.common import option_flag, setting_help
    from smatchpp.cli.options import OPTIONS
    from smatchpp.alignment.config import format_value

    commands = _subparsers()
    # without white space: argparse wraps lines, also after a hyphen
    help_of = {name: "".join(run(name, "--help", cwd=tmp_path).stdout.split())
               for name in ("score", "compare")}
    for f in fields(Config):
        if "sig" not in f.metadata:
            continue
        flag = option_flag(f.name)
        # the option exists exactly once, under that flag, on score or compare, and nowhere under
        # another flag with the same destination
        actions = [a for p in commands.values() for a in p._actions if flag in a.option_strings]
        assert actions, f"{f.name} has no option {flag}"
        assert {tuple(a.option_strings) for a in actions} == {(flag,)}, f.name
        dests = {a.dest for a in actions}
        assert len(dests) == 1
        for p in commands.values():
            assert sum(a.dest in dests for a in p._actions) <= 1, (f.name, p.prog)
        # the help made from the declaration is what --help prints
        text = " ".join(setting_help(f.name).split()).replace("%%", "%")
        shown = [c for c, h in help_of.items() if flag in h]
        assert shown and (f.name == "aspect_set"  # its help names the command's verb
                          or any("".join(text.split()) in help_of[c] for c in shown)), f.name
        if f.default is not None and f.name not in _DEFAULT_IN_WORDS:
            declared = OPTIONS[f.name]["help"]
            assert "{default}" in (declared() if callable(declared) else declared), f.name
            assert f"default {format_value(f.default)}" in text or \
                f"{format_value(f.default)} (default" in text, (f.name, text)


def test_setting_defaults_are_declared_once():
    """Config's defaults are the constants of the modules that use them."""
    from smatchpp.alignment import matchers, problem
    from smatchpp.statistics import significance
    from smatchpp.alignment.matchers import s2match

    c = Config()
    assert (c.cutoff, c.diffsense) == (s2match.DEFAULT_CUTOFF, s2match.DEFAULT_DIFFSENSE)
    assert c.focus_weight == matchers.DEFAULT_FOCUS_WEIGHT
    assert c.tolerance == problem.CERTIFY_TOLERANCE
    assert c.bootstrap_seed == significance.DEFAULT_SEED
    package = Path(__file__).parents[1] / "smatchpp"
    # the settings' owners and the command line's words about them
    config_source = "\n".join((package / name).read_text() for name in ("alignment/config.py", "core/policy.py", "core/settings.py"))
    cli_source = "\n".join((package / "cli" / name).read_text() for name in ("common.py", "options.py"))
    for literal in ("12345", "1e-6", "const=1000", '"raise", "empty", "skip"'):
        assert (literal in config_source) + (literal in cli_source) <= 1, literal
    assert "default 0.5" not in cli_source and "default 1e-6" not in cli_source


def test_corpus_score_carries_its_config(tmp_path):
    """summary() reads the aspect mode from the Config, not from the signature string."""
    from smatchpp.graphs.read import read_file

    path = tmp_path / "g.amr"
    path.write_text("(w / want-01 :ARG0 (b / boy))\n")
    config = Config(aspects="joint", aspect_set="smatchpp18")
    corpus = Scorer(config).score_corpus(read_file(str(path)), read_file(str(path)), workers=1)
    assert corpus.config is config and corpus.signature == config.signature()
    aspects = corpus.summary()["aspects"]
    assert (aspects["mode"], aspects["set"]) == ("joint", "smatchpp18")


def test_a_scorers_own_matcher_is_named_by_the_signature_not_patched_in():
    from smatchpp.api import Scorer
    from smatchpp.alignment.matchers import ExactMatcher

    class Mine(ExactMatcher):
        name = "mine"

    scorer = Scorer(Config(seed=7), matcher=Mine())
    assert scorer.signature == Config(seed=7).signature(match="mine")
    assert "|match:mine|" in scorer.signature and "|seed:7|" in scorer.signature
    corpus = scorer.corpus([])
    assert corpus.signature == scorer.signature and corpus.config == Config(seed=7)
