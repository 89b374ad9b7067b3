"""Every printed signature replays: one :class:`~smatchpp.core.signature.Signature` for every metric.

For every registered metric (``smatch`` with each ``--match`` and each preset, ``aspect``
with each aspect of each set) a signature printed by the command line is given back with
``--signature``: the run is re-created, its output is the same, and the signature printed
again is the same.  A file parameter is signed by its identity; replaying needs the file
(of that content), except word vectors, which the cache finds by their identity.  The
round trip ``Signature.parse(str(sig)) == sig`` and ``from_signature(sig) == metric`` holds
for random parameter values of every registered metric (a hypothesis property).

In process (``smatchpp.cli.main``): the process is not what these tests are about.
"""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clirun import GOLD, PRED
from smatchpp import __version__
from smatchpp.cli import main
from smatchpp.alignment.config import Config
from smatchpp.alignment.matchers import MATCHERS
from smatchpp.metrics import METRICS, Metric, get_metric
from smatchpp.presets import get_preset, preset_names
from smatchpp.core.signature import Signature, SignatureError, format_value, read_value
from tinyvectors import VECTORS

WEIGHTS = ":ARG0\t2\n*\t0.5\n"
VERBATLAS = {"want-01": {"label": "WANT"}, "like-01": {"label": "WANT"}}
CLF = {"t.clf": 'b1 REF x1\nb1 hound "n.01" x1\n\nb1 REF x1\nb1 cat "n.01" x1\n',
       "g.clf": 'b1 REF x1\nb1 dog "n.01" x1\n\nb1 REF x1\nb1 Name x1 "Tom"\nb1 cat "n.01" x1\n',
       "sig.yaml": "bx:\n  DRS:\n    - REF\nbtc:\n  CRO:\n    - Name\n",
       "wn.json": json.dumps({"hound.n.01": "dog.n.01"}), "spar.clf": 'b1 REF x1\nb1 entity "n.01" x1\n'}


@pytest.fixture
def files(tmp_path, monkeypatch):
    """The examples' graphs, a vectors file (the cache beside it), a weights file and a
    VerbAtlas map, in the test's folder (the current directory)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    (tmp_path / "t.amr").write_text(PRED.read_text())
    (tmp_path / "g.amr").write_text(GOLD.read_text())
    (tmp_path / "v.txt").write_text(VECTORS + "boy 0.2 0.9\ngirl 0.3 0.8\nwant 0.9 0.1\n")
    (tmp_path / "w.tsv").write_text(WEIGHTS)
    (tmp_path / "va.json").write_text(json.dumps(VERBATLAS))
    for name, text in CLF.items():  # the counter metric's DRSs and files
        (tmp_path / name).write_text(text)
    return tmp_path


def cli(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def score(capsys, *argv: object) -> dict:
    inputs = ("t.clf", "g.clf") if any("counter" in str(a) for a in argv) else ("t.amr", "g.amr")
    code, out, err = cli(capsys, "score", *inputs, "--quiet", "--format", "json", *argv)
    assert code == 0, err
    return json.loads(out)


def replayed(capsys, first: dict, *files: object) -> None:
    """``--signature`` of ``first`` (with ``files``, the options naming its files) gives
    the same output."""
    again = score(capsys, "--signature", first["signature"], *files)
    assert again == first


#: options of each registered metric: every parameter takes another value in one of them
METRIC_CASES = {
    "jaccard": [()],
    "wlk": [(), ("--wlk-iterations", 3, "--wlk-label-keyed", "yes")],
    "rematch": [(), ("--rematch-verbatlas", "va.json")],
    "sembleu": [(), ("--sembleu-k", 2, "--sembleu-inverse", "keep", "--sembleu-weights", "0.25,0.75")],
    "sema": [(), ("--sema-reference-counting", "9a4911c"), ("--sema-reference-counting", "0ede9e0")],
    "wwlk": [("--wwlk-vectors", "v.txt"),
             ("--wwlk-vectors", "v.txt", "--wwlk-iterations", 1, "--wwlk-relation-init", "random_uniform",
              "--wwlk-edge-to-node", "yes", "--wwlk-stability-level", 1, "--wwlk-seed", 7,
              "--wwlk-label-keyed", "yes", "--wwlk-edge-weights", "w.tsv"),
             ("--wwlk-vectors", "v.txt", "--wwlk-preset", "k3e2n")],
    # the alignment family: each matcher, each preset (below)
    "smatch": [()],
    # Damonte's aspects through the command line (each name, below), another set by its name
    # (--aspect-set), the thesis' by the API
    "aspect": [("--aspect-name", "srl"), ("--aspect-set", "smatchpp18", "--aspect-name", "AGENT")],
    "counter": [(), ("--counter-include-ref", "yes", "--counter-default-sense", "yes", "--counter-default-role", "yes",
                     "--counter-signature-file", "sig.yaml", "--counter-wordnet", "wn.json", "--counter-ill", "spar",
                     "--counter-spar", "spar.clf", "--counter-version", "2019", "--counter-time-limit", 30),
                ("--counter-default-concept", "yes", "--counter-referee", "none", "--counter-ill", "dummy"),
                ("--counter-aspects", "counter", "--counter-referee", "2019"),
                ("--counter-solver", "highs", "--counter-compression", "none")],
}
#: the options that name a file (given again to replay)
FILE_OPTIONS = {"--wwlk-vectors", "--wwlk-edge-weights", "--rematch-verbatlas", "--vectors",
                "--counter-signature-file", "--counter-wordnet", "--counter-spar"}


def _file_options(options: tuple) -> list:
    return [x for k, v in zip(options[::2], options[1::2]) if k in FILE_OPTIONS for x in (k, v)]


def test_every_registered_metric_has_cases():
    assert set(METRIC_CASES) == set(METRICS)
    for name, cases in METRIC_CASES.items():  # every parameter is set in a case
        flags = {str(x) for case in cases for x in case if str(x).startswith("--")}
        keys = {f"--{key}" for _, key, _ in METRICS[name].params()}
        assert keys - {"--wwlk-vectors"} <= flags | {"--aspect-name"}, name


@pytest.mark.parametrize("name, options", [(n, c) for n, cases in METRIC_CASES.items() for c in cases])
def test_a_printed_signature_replays(capsys, files, name, options):
    first = score(capsys, "--metric", name, *options)
    replayed(capsys, first, *_file_options(options))


def test_a_signature_with_edge_weights_needs_the_file_and_its_content(capsys, files):
    """issue 33, 9: a WWLK signature with --wwlk-edge-weights could not be replayed at all."""
    first = score(capsys, "--metric", "wwlk", "--wwlk-vectors", "v.txt", "--wwlk-edge-weights", "w.tsv")
    assert "|wwlk-edge-weights:w.tsv@" in first["signature"]
    replayed(capsys, first, "--wwlk-edge-weights", "w.tsv")  # vectors: found by their identity
    code, _, err = cli(capsys, "score", "t.amr", "g.amr", "--signature", first["signature"])
    assert code == 2 and "pass --wwlk-edge-weights FILE" in err and "Traceback" not in err
    (files / "w.tsv").write_text(":ARG0\t3\n")
    code, _, err = cli(capsys, "score", "t.amr", "g.amr", "--signature", first["signature"],
                       "--wwlk-edge-weights", "w.tsv")
    assert code == 2 and "--signature sets wwlk-edge-weights:w.tsv@" in err and "Traceback" not in err


@pytest.mark.parametrize("aspect", ["smatch", "unlabeled", "no_wsd", "concepts", "named_ent", "negations",
                                    "wikification", "reentrancies", "srl"])
def test_an_aspect_signature_replays(capsys, files, aspect):
    """issue 33, 9: ``--metric aspect`` signatures were refused ("unknown key 'highs'")."""
    first = score(capsys, "--metric", "aspect", "--aspect-name", aspect, "--bootstrap", 20)
    assert f"|metric:aspect|aspect-name:{aspect}|highs:" in first["signature"]
    replayed(capsys, first)


def _aspect_names(aspect_set: str) -> list[str]:
    from smatchpp.aspects.registry import aspect_list

    return [a.name for a in aspect_list(aspect_set, None, None, "v.txt" if aspect_set == "thesis" else None)]


@pytest.mark.parametrize("aspect_set", ["smatchpp18", "thesis"])
def test_the_other_aspect_sets_signatures_replay(capsys, files, aspect_set):
    """The command line scores Damonte's set under ``--metric aspect``; a signature of the
    other sets (written by the API) replays through it, each aspect of the set."""
    vectors = {"vectors": "v.txt"} if aspect_set == "thesis" else {}
    for name in _aspect_names(aspect_set):
        metric = get_metric("aspect", aspect=name, config=Config(aspects="separate", aspect_set=aspect_set,
                                                                  **vectors))
        signature = metric.signature()
        got = score(capsys, "--signature", signature, *(("--vectors", "v.txt") if vectors else ()))
        assert got["signature"] == signature
        corpus = metric.score_graphs(*_graphs())
        assert got["totals"] == pytest.approx(dict(zip(metric.stat_names, corpus.stats.sum(axis=0))))


def test_an_aspect_signature_with_frames_needs_the_file(capsys, files):
    (files / "frames.txt").write_text("want-01  ARG0: wanter  ARG1: thing wanted\n")
    metric = get_metric("aspect", aspect="AGENT", config=Config(aspects="separate", aspect_set="smatchpp18",
                                                                 propbank_frames="frames.txt"))
    sig = metric.signature()
    assert "|frames:frames.txt@" in sig
    code, _, err = cli(capsys, "score", "t.amr", "g.amr", "--signature", sig)
    assert code == 2 and "pass --propbank-frames FILE" in err and "Traceback" not in err
    assert score(capsys, "--signature", sig, "--propbank-frames", "frames.txt")["signature"] == sig


def _graphs():
    from smatchpp.graphs.read import read_file

    return ([e.graph for e in read_file("t.amr")], [e.graph for e in read_file("g.amr")])


@pytest.mark.parametrize("match", sorted(MATCHERS))
def test_each_matcher_signature_replays(capsys, files, match):
    options = ("--match", match) + (("--vectors", "v.txt") if match == "s2match" else ())
    first = score(capsys, *options)
    replayed(capsys, first, *_file_options(options))
    if match == "s2match":  # the vectors converted once: found again by their identity
        replayed(capsys, first)


@pytest.mark.parametrize("preset", list(preset_names()))
def test_each_preset_signature_replays(capsys, files, preset):
    options = ("--preset", preset) + (("--keep-wiki",) if "keep_wiki" in get_preset(preset).options else ())
    replayed(capsys, score(capsys, *options))


def test_a_compare_signature_replays(capsys, files):
    """compare's signature names its trials (formerly a text replace): it replays."""
    argv = ("compare", "t.amr", "g.amr", "g.amr", "--metric", "wlk", "--bootstrap", 50, "--ar-trials", 40,
            "--format", "json")
    code, out, err = cli(capsys, *argv)
    assert code == 0, err
    first = json.loads(out)
    assert first["signature"].endswith("|bootstrap:50|bootstrap-seed:12345|ar-trials:40|deterministic:yes")
    code, out, err = cli(capsys, *argv[:4], "--signature", first["signature"], "--format", "json")
    assert code == 0, err
    assert json.loads(out) == first


def test_run_settings_a_command_does_not_take_are_refused(capsys, files):
    sig = get_metric("wlk").signature("raise", 50, 3, 40)
    code, _, err = cli(capsys, "score", "t.amr", "g.amr", "--signature", sig)
    assert code == 2 and "ar-trials:40, which this command does not take" in err


# --- the type ---------------------------------------------------------------------------------


def test_parse_and_print_are_inverse():
    text = f"smatchpp:{__version__}|metric:wlk|wlk-iterations:3|wlk-label-keyed:no|errors:skip|deterministic:yes"
    sig = Signature.parse(text)
    assert str(sig) == text and Signature.parse(str(sig)) == sig
    assert (sig.metric, sig.version, sig.run()) == ("wlk", __version__, {"errors": "skip"})
    assert Metric.from_signature(sig) == get_metric("wlk", iterations=3)


@pytest.mark.parametrize("text, fragment", [
    ("wlk-iterations:3", "does not start with smatchpp:VERSION"),
    (f"smatchpp:{__version__}|metric:wlk|nonsense", "has no ':'"),
    (f"smatchpp:{__version__}|metric:wlk|wlk-iterations:3|wlk-iterations:4", "given twice"),
    (f"smatchpp:0.0.1|metric:wlk", "made by smatchpp 0.0.1"),
    (f"smatchpp:{__version__}|metric:nope", "unknown metric 'nope'"),
    (f"smatchpp:{__version__}|metric:wlk|sembleu-k:2", "unknown signature key 'sembleu-k' for metric wlk"),
    (f"smatchpp:{__version__}|metric:wlk|wlk-iterations:many", "cannot read wlk-iterations:many"),
    (f"smatchpp:{__version__}|metric:wlk|deterministic:no", "deterministic:no contradicts"),
    (f"smatchpp:{__version__}|metric:wwlk|wwlk-edge-weights:/etc/passwd", "not by a path"),
    (f"smatchpp:{__version__}|metric:wwlk|wwlk-edge-weights:w.tsv@0123456789", "pass --wwlk-edge-weights FILE"),
    (f"smatchpp:{__version__}|metric:aspect|aspect-name:srl|cutoff:0.5", "cutoff:0.5 does nothing without"),
    (f"smatchpp:{__version__}|metric:aspect|preset:smatch", "no aspect-name"),
])
def test_what_a_signature_cannot_hold_is_refused(text, fragment):
    with pytest.raises(SignatureError) as caught:
        Metric.from_signature(text)
    assert fragment in str(caught.value)


def test_a_metric_class_refuses_another_metrics_signature():
    with pytest.raises(SignatureError, match="a signature of metric wlk, not of sema"):
        type(get_metric("sema")).from_signature(get_metric("wlk").signature())


@pytest.mark.parametrize("value", [0.1, 30.0, 1e-06, 1234567.0, 2.0 ** 60, 123456789.0])
def test_floats_read_back_exactly(value):
    assert read_value(format_value(value), float) == value


def test_a_verbatlas_map_replays_from_its_path_or_the_same_file(files):
    metric = get_metric("rematch", verbatlas="va.json")
    digest = hashlib.sha256((files / "va.json").read_bytes()).hexdigest()[:12]
    sig = metric.signature()
    assert f"|rematch-verbatlas:va.json@sha256={digest}|" in sig  # as before: path and content
    assert Metric.from_signature(sig).signature() == sig
    assert Metric.from_signature(sig, {"verbatlas": "va.json"}) == metric
    (files / "va.json").write_text(json.dumps({"want-01": {"label": "OTHER"}}))
    with pytest.raises(ValueError, match="not the one of the signature"):
        Metric.from_signature(sig)


# --- the round trip, for random parameter values of every registered metric -------------------

_configs = st.fixed_dictionaries({
    "preset": st.sampled_from(["smatch", "smatch-legacy", "amr", "generic"]),
    "match": st.sampled_from(sorted(MATCHERS)),
    "solver": st.sampled_from(["exact", "highs", "hillclimber"]),
    "compression": st.sampled_from(["exact", "none"]),
    # whole seconds too: %g wrote 1234567.0 as 1.23457e+06 (read back as 1234570.0)
    "time_limit": st.none() | st.floats(0.001, 1e9) | st.integers(10 ** 6, 10 ** 9).map(float),
    "work_limit": st.none() | st.integers(1, 10 ** 9),
    "seed": st.integers(0, 2 ** 40), "restarts": st.integers(0, 50),
    "on_error": st.sampled_from(["raise", "empty", "skip"]),
}, optional={"cutoff": st.floats(0, 1), "diffsense": st.floats(0, 1),
             "focus_weight": st.floats(0, 1e6), "tolerance": st.floats(1e-12, 0.5),
             "keep_wiki": st.booleans(), "duplicates": st.just("product")})


def _config(values: dict) -> Config | None:
    """A Config of ``values`` without the settings it would refuse (they would do nothing)."""
    try:
        probe = Config(**{k: v for k, v in values.items() if k in ("preset", "match")})
    except ValueError:
        return None
    keep = {k: v for k, v in values.items() if not probe.idle([k])}
    try:
        return Config(**keep)
    except ValueError:
        return None


_weights = st.integers(1, 8).flatmap(lambda k: st.tuples(st.just(k), st.one_of(
    st.just("uniform"), st.lists(st.floats(0.01, 1), min_size=k, max_size=k).map(
        lambda w: ",".join(format_value(x) for x in w)))))

METRIC_PARAMS = {
    "jaccard": st.just({}),
    "counter": st.fixed_dictionaries({
        "include_ref": st.booleans(), "default_sense": st.booleans(), "default_role": st.booleans(),
        "default_concept": st.booleans(), "ill": st.sampled_from(["error", "dummy", "score"]),
        "referee": st.sampled_from(["2021", "2019", "none"]), "version": st.sampled_from(["2021", "2020", "2019"]),
        "aspects": st.sampled_from(["none", "counter"]),
        "time_limit": st.none() | st.floats(0.5, 1e4).map(lambda x: round(x, 3)),
        "solver": st.sampled_from(["exact", "highs", "cbc", "hillclimber"]),
        "compression": st.sampled_from(["exact", "none"])}),
    "wlk": st.fixed_dictionaries({"iterations": st.integers(0, 6), "label_keyed": st.booleans()}),
    "rematch": st.just({}),
    "sembleu": st.tuples(_weights, st.sampled_from(["flip", "keep"])).map(
        lambda t: {"k": t[0][0], "weights": t[0][1], "inverse": t[1]}),
    "sema": st.fixed_dictionaries({"reference_counting": st.sampled_from(["no", "9a4911c", "0ede9e0"])}),
    "wwlk": st.fixed_dictionaries({
        "iterations": st.integers(0, 5), "relation_init": st.sampled_from(["min_entropy", "random_uniform",
                                                                           "ones", "constant"]),
        "edge_to_node": st.booleans(), "stability_level": st.integers(0, 20), "seed": st.integers(0, 2 ** 32),
        "label_keyed": st.booleans(), "vectors": st.sampled_from([None, "glove.6B.100d.txt@0123456789"])}),
    "smatch": _configs.map(_config).filter(lambda c: c is not None).map(lambda c: {"config": c}),
    "aspect": st.tuples(st.sampled_from(["damonte", "smatchpp18"]), st.integers(0, 30),
                        st.sampled_from(["smatch", "amr", "generic"]), st.integers(0, 2 ** 20)).map(
        lambda t: {"aspect": _aspect_names(t[0])[t[1] % len(_aspect_names(t[0]))],
                   "config": Config(aspects="separate", aspect_set=t[0], preset=t[2], seed=t[3])}),
}
_runs = st.tuples(st.sampled_from(["raise", "empty", "skip"]), st.none() | st.integers(1, 10 ** 6),
                  st.integers(0, 2 ** 31), st.none() | st.integers(1, 10 ** 6))


def test_every_registered_metric_has_a_strategy():
    assert set(METRIC_PARAMS) == set(METRICS)


@pytest.mark.parametrize("name", sorted(METRIC_PARAMS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_round_trip_over_random_parameters(name, data):
    params = data.draw(METRIC_PARAMS[name])
    on_error, bootstrap, seed, trials = data.draw(_runs)
    if "config" in params:  # the alignment family's Config holds the error handling
        params["config"] = params["config"].replace(on_error=on_error)
    metric = get_metric(name, **params)
    sig = metric.sign(on_error, bootstrap, seed, trials if bootstrap else None)
    assert Signature.parse(str(sig)) == sig
    again = Metric.from_signature(str(sig))
    assert again == metric
    assert again.sign(on_error, bootstrap, seed, trials if bootstrap else None) == sig
    assert type(metric).from_signature(str(sig)) == metric


_keys = st.text(st.characters(blacklist_characters="|:", blacklist_categories=("Cs",)), min_size=1, max_size=12)
_texts = st.text(st.characters(blacklist_characters="|", blacklist_categories=("Cs",)), max_size=12).map(str.strip)


@settings(max_examples=200, deadline=None)
@given(tokens=st.dictionaries(_keys.filter(lambda k: k.strip() == k and k != "smatchpp"), _texts, max_size=8))
def test_printing_and_parsing_are_inverse_for_any_tokens(tokens):
    sig = Signature((("smatchpp", __version__), *tokens.items()))
    assert Signature.parse(str(sig)) == sig
    assert Signature.parse(str(sig)).tokens == sig.tokens
