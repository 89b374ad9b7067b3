"""``smatchpp.smatch``: smatch 1.0.4's Python API, solved exactly.

Against smatch 1.0.4 itself (its public API run by ``experiments/smatch_api_peer.py`` in the
peers' venv, a subprocess; skipped without it): equal triple counts for every pair and every
``just*`` mode, a match count never below 1.0.4's, the same yields of ``score_amr_pairs`` with
``single_score`` True and False.  In-process: the generator's semantics, the inputs 1.0.4
takes, the module flags, and the clear errors.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from smatchpp import smatch
from smatchpp.core.exceptions import ReadError

ROOT = Path(__file__).resolve().parent.parent
PEER_PYTHON = Path.home() / ".cache" / "smatchpp-peers" / "venv" / "bin" / "python"
PEER_SCRIPT = ROOT / "experiments" / "smatch_api_peer.py"
EXAMPLES = (ROOT / "examples" / "pred.amr", ROOT / "examples" / "gold.amr")
PARSEVAL = Path(__file__).resolve().parents[3] / "shared" / "data" / "parseval-lp"
if not PARSEVAL.exists():
    PARSEVAL = Path("/work/shared/data/parseval-lp")
MODES = ("all", "justinstance", "justattribute", "justrelation")
#: pairs with repeated triples, where 1.0.4 counts a match c_A * c_B times
REPEATED = ("(a / x :ARG0 (b / y) :ARG0 b :op1 \"q\" :op1 \"q\")\n\n(a / x :ARG1 (b / y))\n",
            "(a / x :ARG0 (b / y) :ARG0 b :op1 \"q\")\n\n(a / x :ARG1 (b / y) :ARG1 b)\n")


@pytest.fixture(autouse=True)
def _flags(monkeypatch):
    """Each test starts from 1.0.4's defaults and leaves them as they were."""
    for name, value in (("single_score", True), ("verbose", False), ("veryVerbose", False),
                        ("pr_flag", False), ("duplicates", "product"), ("iteration_num", 5),
                        ("ERROR_LOG", sys.stderr), ("DEBUG_LOG", sys.stderr)):
        monkeypatch.setattr(smatch, name, value)


def peer(test: Path, gold: Path, limit: int | None = None) -> dict:
    if not PEER_PYTHON.exists():
        pytest.skip("smatch 1.0.4's venv (experiments/setup_peers.sh) is not here")
    command = [str(PEER_PYTHON), str(PEER_SCRIPT), str(test), str(gold)]
    if limit is not None:
        command += ["--limit", str(limit)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600,
                          env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home())})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def first_lines(path: Path, limit: int | None) -> list[str]:
    """What the peer script reads (the same slicing)."""
    text = path.read_text()
    if limit is None:
        return text.splitlines(keepends=True)
    blocks = [b for b in text.split("\n\n") if b.strip()][:limit]
    return "\n\n".join(blocks).splitlines(keepends=True) + ["\n"]


def check_against_peer(test: Path, gold: Path, limit: int | None = None) -> None:
    theirs = peer(test, gold, limit)
    a, b = first_lines(test, limit), first_lines(gold, limit)
    lines = list(smatch.generate_amr_lines(iter(a), iter(b)))
    assert len(lines) == len(theirs["pairs"]) > 0
    above = 0
    for k, ((one, two), row) in enumerate(zip(lines, theirs["pairs"]), start=1):
        for mode in MODES:
            flags = {mode: True} if mode != "all" else {}
            match, test_n, gold_n = smatch.get_amr_match(one, two, sent_num=k, **flags)
            their_match, their_test, their_gold = row[mode]
            assert (test_n, gold_n) == (their_test, their_gold), (k, mode)
            assert match >= their_match, (k, mode, match, their_match)
            above += match > their_match
    single = next(smatch.score_amr_pairs(io.StringIO("".join(a)), io.StringIO("".join(b))))
    assert single[2] >= theirs["single"][2] - 1e-12
    smatch.single_score = False
    multi = list(smatch.score_amr_pairs(iter(a), iter(b)))
    assert len(multi) == len(theirs["multi"])
    for ours, their in zip(multi, theirs["multi"]):
        assert ours[2] >= their[2] - 1e-12


def test_examples_against_smatch_104():
    check_against_peer(*EXAMPLES)


def test_repeated_triples_against_smatch_104(tmp_path):
    test, gold = tmp_path / "test.amr", tmp_path / "gold.amr"
    test.write_text(REPEATED[0])
    gold.write_text(REPEATED[1])
    check_against_peer(test, gold)


@pytest.mark.skipif(not PARSEVAL.exists(), reason="../shared/data/parseval-lp is not here")
def test_little_prince_parses_against_smatch_104():
    check_against_peer(PARSEVAL / "src.test.amr", PARSEVAL / "tgt.test.amr", limit=80)


def test_score_amr_pairs_yields_once_with_single_score():
    gen = smatch.score_amr_pairs(open(EXAMPLES[0]), open(EXAMPLES[1]))
    yields = list(gen)
    assert len(yields) == 1 and len(yields[0]) == 3
    # 6 + 6 + 17 + 14 of 7 + 7 + 18 + 16 (examples/README's optimum)
    assert yields[0][2] == pytest.approx(43 / 48)


def test_score_amr_pairs_yields_per_pair_without_single_score():
    smatch.single_score = False
    yields = list(smatch.score_amr_pairs(open(EXAMPLES[0]), open(EXAMPLES[1])))
    assert [round(f, 6) for _, _, f in yields] == [round(x, 6) for x in (6 / 7, 6 / 7, 17 / 18, 14 / 16)]


def test_the_generator_is_lazy():
    """Nothing is read before the first ``next`` (1.0.4's is a generator too)."""
    source = io.StringIO(EXAMPLES[0].read_text())
    gen = smatch.score_amr_pairs(source, open(EXAMPLES[1]))
    assert source.tell() == 0
    next(gen)
    with pytest.raises(StopIteration):
        next(gen)


@pytest.mark.parametrize("kind", ["file", "stringio", "list", "iterator", "generator"])
def test_inputs_1_0_4_takes(kind):
    texts = [p.read_text() for p in EXAMPLES]
    make = {"file": lambda i: open(EXAMPLES[i]),
            "stringio": lambda i: io.StringIO(texts[i]),
            "list": lambda i: texts[i].splitlines(keepends=True),
            "iterator": lambda i: iter(texts[i].splitlines()),
            "generator": lambda i: (line for line in texts[i].splitlines(keepends=True))}[kind]
    assert next(smatch.score_amr_pairs(make(0), make(1)))[2] == pytest.approx(43 / 48)


def test_a_string_is_refused_with_a_clear_error():
    with pytest.raises(TypeError, match="io.StringIO"):
        next(smatch.score_amr_pairs(EXAMPLES[0].read_text(), open(EXAMPLES[1])))


def test_unequal_files_report_on_error_log_and_score_the_common_pairs():
    log = io.StringIO()
    smatch.ERROR_LOG = log
    one = io.StringIO("(a / dog)\n\n(b / cat)\n")
    two = io.StringIO("(a / dog)\n")
    assert next(smatch.score_amr_pairs(one, two)) == (1.0, 1.0, 1.0)
    assert log.getvalue() == "Error: File 2 has less AMRs than file 1\nIgnoring remaining AMRs\n"


def test_an_unreadable_graph_names_the_pair_and_its_line(tmp_path):
    smatch.ERROR_LOG = io.StringIO()
    with pytest.raises(ReadError, match=r"^<AMR pair 2, AMR 2>:3: graph 1: AMR 2 of pair 2 "):
        list(smatch.score_amr_pairs(io.StringIO("(a / b)\n\n(c / d)\n"),
                                    io.StringIO("(a / b)\n\n(c / d :ARG0\n")))
    bad = tmp_path / "gold.amr"
    bad.write_text("# ::id 1\n(a / b)\n\n# ::id 2\n(c / d\n  :ARG0\n")
    with pytest.raises(ReadError, match=f"^{bad}:5: graph 1: AMR 2 of pair 2 "):
        list(smatch.score_amr_pairs(io.StringIO("(a / b)\n\n(c / d)\n"), open(bad)))


def test_just_flags_combine_as_in_1_0_4():
    a, b = "(a / dog :ARG0-of (b / bark-01))", "(x / bark-01 :ARG0 (y / dog))"
    assert smatch.get_amr_match(a, b) == (3, 4, 4)
    assert smatch.get_amr_match(a, b, justinstance=True) == (2, 2, 2)
    assert smatch.get_amr_match(a, b, justattribute=True) == (1, 1, 1)  # TOP on a and on x
    assert smatch.get_amr_match(a, b, justrelation=True) == (1, 1, 1)
    # 1.0.4: justinstance and justattribute together compare nothing, and count instances
    assert smatch.get_amr_match(a, b, justinstance=True, justattribute=True) == (0, 2, 2)


def test_repeated_triples_count_as_1_0_4_counts_them():
    one, two = (s.split("\n\n")[1].strip() for s in REPEATED)
    # 2 instances, TOP, and the ARG1 once in A and twice in B: 1 x 2 (1.0.4 says 5 too)
    assert smatch.get_amr_match(one, two) == (5, 4, 5)
    smatch.duplicates = "multiset"
    assert smatch.get_amr_match(one, two) == (4, 4, 5)
    assert "dup:multiset" in smatch.signature()


def test_verbose_prints_the_pair_to_debug_log():
    log = io.StringIO()
    smatch.verbose, smatch.DEBUG_LOG = True, log
    next(smatch.score_amr_pairs(io.StringIO("(a / dog)\n"), io.StringIO("(b / dog)\n")))
    text = log.getvalue()
    assert "AMR pair 1" in text and "Instance triples of AMR 1: 1" in text
    assert "best match number 2" in text and "Best node mapping alignment: a0(dog)-b0(dog)" in text
    assert "Total match number" in text


def test_results_do_not_depend_on_iteration_num_or_the_run():
    first = list(smatch.score_amr_pairs(open(EXAMPLES[0]), open(EXAMPLES[1])))
    smatch.iteration_num = 1
    assert list(smatch.score_amr_pairs(open(EXAMPLES[0]), open(EXAMPLES[1]))) == first


def test_compute_f_is_1_0_4s():
    assert smatch.compute_f(0, 0, 5) == (0.0, 0.0, 0.0)
    assert smatch.compute_f(0, 4, 5) == (0.0, 0.0, 0.0)
    assert smatch.compute_f(3, 4, 6) == (0.75, 0.5, 0.6)


def test_the_hill_climbers_internals_are_refused_by_name():
    with pytest.raises(AttributeError, match="get_best_match.*get_amr_match"):
        smatch.get_best_match
    assert not hasattr(smatch, "compute_pool")
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        smatch.nope


def test_main_prints_1_0_4s_lines(capsys):
    import argparse

    args = argparse.Namespace(f=[open(EXAMPLES[0]), open(EXAMPLES[1])], r=4, significant=4, v=False,
                              vv=False, ms=False, pr=True, justinstance=False, justattribute=False,
                              justrelation=False)
    smatch.main(args)
    assert capsys.readouterr().out == "Precision: 0.8958\nRecall: 0.8958\nF-score: 0.8958\n"
