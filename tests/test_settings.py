"""Settings take effect or are refused; settings files and inputs fail cleanly (issue 22: 4, 13, 15, 19).

Command-line behaviour runs through ``clirun.run``: a refusal is exit 2 with a
message naming the file and line, no traceback, and nothing on stdout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

from clirun import GOLD, PRED, child_env, run
from smatchpp.alignment.config import Config, SignatureError, highs_version
from smatchpp.core.exceptions import SmatchppError
from smatchpp.alignment.matchers.embeddings import load_vectors
from smatchpp.alignment.matchers.levels import read_role_weights
from smatchpp.alignment.matchers.s2match import S2MatchSimilarity

#: HiGHS's and CBC's largest iteration or node limit (a C int)
INT_MAX = 2 ** 31 - 1
#: the most bootstrap resamples or randomization trials
MAX_RESAMPLES = 1_000_000


def refused(done, *fragments: str) -> None:
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr
    assert done.stdout == ""
    for fragment in fragments:
        assert fragment in done.stderr, (fragment, done.stderr)


def _json(done) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _signature(tmp_path, *options) -> str:
    return _json(run("score", PRED, GOLD, "--format", "json", "--quiet", *options,
                     cwd=tmp_path))["signature"]


# --- item 4: a setting takes effect, or the run is refused --------------------------------------

@pytest.mark.parametrize("options, needs", [
    (("--vectors", "{vectors}"), "--match s2match"),
    (("--cutoff", "0.5"), "--match s2match"),  # the default value, given: refused as well
    (("--diffsense", "0.4"), "--match s2match"),
    (("--match", "wsmatch", "--cutoff", "0.6"), "--match s2match"),
    (("--focus-weight", "3"), "--match concept-focus or structure-focus"),
    (("--match", "s2match", "--vectors", "{vectors}", "--focus-weight", "2"), "--match concept-focus"),
    (("--tolerance", "1e-4"), "non-integer coefficients"),
    (("--keep-wiki",), "a preset that drops :wiki triples (--preset amr)"),
    (("--preset", "generic", "--keep-wiki"), "a preset that drops :wiki triples (--preset amr)"),
])
def test_options_that_do_nothing_are_refused(tmp_path, options, needs):
    vectors = tmp_path / "v.txt"
    vectors.write_text("dog 1 0\ncat 0.9 0.1\n")
    options = [o.format(vectors=vectors) for o in options]
    option = next(o for o in reversed(options) if o.startswith("--") and o != "--match")
    done = run("score", PRED, GOLD, "--quiet", *options, cwd=tmp_path)
    refused(done, f"{option} does nothing without {needs}")


def test_options_that_take_effect_are_accepted(tmp_path):
    for options in (("--preset", "amr", "--keep-wiki"), ("--match", "wsmatch", "--tolerance", "1e-4"),
                    ("--match", "concept-focus", "--focus-weight", "2")):
        assert run("score", PRED, GOLD, "--quiet", *options, cwd=tmp_path).returncode == 0


def test_python_settings_that_do_nothing_are_refused():
    with pytest.raises(ValueError, match="cutoff=0.2 does nothing without --match s2match"):
        Config(cutoff=0.2)
    with pytest.raises(ValueError, match="vectors='v.txt' does nothing"):
        Config(match="wsmatch", vectors="v.txt")
    with pytest.raises(ValueError, match="keep_wiki=True does nothing"):
        Config(keep_wiki=True)
    assert Config(match="s2match", cutoff=0.2).cutoff == 0.2


SIG = Config().signature()


@pytest.mark.parametrize("signature, fragment", [
    (SIG.replace("|dup:multiset|", "|dup:set|"), "unknown duplicates 'set'; choose from multiset, product"),
    (SIG.replace(f"|highs:{highs_version()}|", "|highs:1.2.0|"), "made with HiGHS 1.2.0"),
    (SIG + "|seed:7", "signature key 'seed' is given twice (seed:1, seed:7)"),
    (SIG.replace("|deterministic:yes", "|deterministic:no"), "deterministic:no contradicts"),
    (Config(time_limit=5).signature().replace("|deterministic:no", "|deterministic:yes"),
     "deterministic:yes contradicts"),
    (SIG + "|cutoff:0.5", "cutoff:0.5 does nothing without --match s2match"),
    (SIG + "|roles:/etc/passwd", "names a file by its identity"),
    (SIG.replace("|match:exact|", "|match:s2match|") + "|vectors:/etc/passwd", "names a file by its identity"),
])
def test_signatures_that_would_not_be_reproduced_are_refused(signature, fragment):
    with pytest.raises(SignatureError) as caught:
        Config.from_signature(signature)
    assert fragment in str(caught.value)
    assert "root:" not in str(caught.value)


def test_cli_signature_refusals(tmp_path):
    sig = _signature(tmp_path)
    refused(run("score", PRED, GOLD, "--quiet", "--signature", sig.replace("|dup:multiset|", "|dup:set|"),
                cwd=tmp_path), "unknown duplicates 'set'")
    other = sig.replace(f"|highs:{highs_version()}|", "|highs:1.2.0|")
    refused(run("score", PRED, GOLD, "--quiet", "--signature", other, cwd=tmp_path),
            "HiGHS 1.2.0", f"this is HiGHS {highs_version()}", "install highspy==1.2.0",
            "remove highs:1.2.0")
    refused(run("score", PRED, GOLD, "--quiet", "--signature", sig + "|seed:3", cwd=tmp_path),
            "given twice")


def test_a_signature_without_its_highs_token_accepts_this_highs(tmp_path):
    first = _json(run("score", PRED, GOLD, "--format", "json", "--quiet", cwd=tmp_path))
    sig = first["signature"].replace(f"|highs:{highs_version()}|", "|")
    again = _json(run("score", PRED, GOLD, "--format", "json", "--quiet", "--signature", sig,
                      cwd=tmp_path))
    assert again == first


@pytest.mark.parametrize("signed, options, fragment", [
    (("--preset", "amr"), ("--preset", "smatch"), "--signature sets preset:amr but the options give --preset smatch"),
    (("--solver", "highs"), ("--solver", "exact"), "--signature sets solver:highs but the options give --solver exact"),
    ((), ("--seed", "1", "--solver", "highs"), "--signature sets solver:exact but the options give --solver highs"),
    ((), ("--keep-wiki",), "--signature sets keep-wiki:no but the options give --keep-wiki"),
    ((), ("--cutoff", "0.5"), "--cutoff does nothing without --match s2match"),
])
def test_options_beside_a_signature_must_agree_even_at_their_default(tmp_path, signed, options, fragment):
    sig = _signature(tmp_path, *signed)
    refused(run("score", PRED, GOLD, "--quiet", "--signature", sig, *options, cwd=tmp_path), fragment)


def test_options_that_agree_with_a_signature_are_accepted(tmp_path):
    first = _json(run("score", PRED, GOLD, "--format", "json", "--quiet", "--preset", "amr", cwd=tmp_path))
    again = _json(run("score", PRED, GOLD, "--format", "json", "--quiet", "--signature",
                      first["signature"], "--preset", "amr", "--seed", "1", "--solver", "exact",
                      cwd=tmp_path))
    assert again == first


def test_gap_refuses_a_solver_it_does_not_use(tmp_path):
    refused(run("gap", PRED, GOLD, "--quiet", "--solver", "highs", cwd=tmp_path),
            "--solver highs does nothing here: this command uses --solver exact")
    sig = _signature(tmp_path, "--solver", "hillclimber")
    refused(run("gap", PRED, GOLD, "--quiet", "--signature", sig, cwd=tmp_path),
            "--signature sets solver:hillclimber")


def test_gap_labels_the_signatures_seed_and_restarts(tmp_path):
    sig = _signature(tmp_path, "--seed", "5", "--restarts", "2")
    done = run("gap", PRED, GOLD, "--quiet", "--signature", sig, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "hillclimber (ours, 2 restarts, seed 5)" in done.stdout


def test_a_signature_with_role_weights_reruns_with_the_file(tmp_path):
    roles = tmp_path / "roles.tsv"
    roles.write_text("ARG0\t2\n")
    first = _json(run("score", PRED, GOLD, "--format", "json", "--quiet", "--role-weights", roles,
                      cwd=tmp_path))
    assert "|roles:roles.tsv@" in first["signature"]
    again = _json(run("score", PRED, GOLD, "--format", "json", "--quiet", "--signature",
                      first["signature"], "--role-weights", roles, cwd=tmp_path))
    assert again == first
    other = tmp_path / "other.tsv"
    other.write_text("ARG0\t3\n")
    refused(run("score", PRED, GOLD, "--quiet", "--signature", first["signature"], "--role-weights",
                other, cwd=tmp_path), "--signature sets roles:roles.tsv@", f"--role-weights {other}")
    refused(run("score", PRED, GOLD, "--quiet", "--signature", first["signature"], cwd=tmp_path),
            "pass --role-weights FILE")


def test_a_signature_with_vectors_reruns_with_the_file(tmp_path):
    vectors = tmp_path / "v.txt"
    vectors.write_text(VECTORS)
    env = {"SMATCHPP_CACHE": str(tmp_path / "cache")}
    first = _json(_run_env(env, "score", A_FILE(tmp_path), B_FILE(tmp_path), "--format", "json",
                           "--match", "s2match", "--vectors", vectors, cwd=tmp_path))
    again = _json(_run_env(env, "score", A_FILE(tmp_path), B_FILE(tmp_path), "--format", "json",
                           "--signature", first["signature"], "--vectors", vectors, cwd=tmp_path))
    assert again == first


# --- item 13: role-weights files ------------------------------------------------------------------

#: file content -> (line named, what the message says); every bad line carries a marker that
#: must not be echoed
ROLE_FILES = [
    (b"ARG0\t2\nARG1\t-1\n", 2, "negative"),
    (b"ARG1\tnan\n", 1, "not a decimal number"),
    (b"ARG1\tinf\n", 1, "not a decimal number"),
    (b"ARG1\t1e400\n", 1, "too large"),
    (b"ARG1\tabc\n", 1, "not a decimal number"),
    (b"ARG1\t0x10\n", 1, "not a decimal number"),
    (b"# comment\nSECRET\n", 2, "1 tab-separated column, expected 2"),
    (b"ARG1\t1\tSECRET\n", 1, "3 tab-separated columns, expected 2"),
    (b"ARG0\t1\n:arg0\t2\n", 2, "listed already, on line 1"),
    (b'"ARG0\t1\nARG1\t2\n', 1, "a quote character"),
    (b'ARG0\t"1\n', 1, "a quote character"),
    (b"\t1\n", 1, "the role (column 1) is empty"),
    ("ARG0\t1\n".encode("utf-16"), None, "UTF-16"),
    ("ARG0\t1\n".encode("utf-16-le"), 1, "a NUL byte"),
    (b"ARG0\t1\n\x00\x9f\x92SECRET\n", 2, "a NUL byte"),
    (b"ARG0\t1\nSECRET\xe9\t1\n", 2, "not UTF-8"),
]


@pytest.mark.parametrize("content, line, message", ROLE_FILES, ids=[m for _, _, m in ROLE_FILES])
def test_bad_role_weights_files(tmp_path, content, line, message):
    path = tmp_path / "roles.tsv"
    path.write_bytes(content)
    with pytest.raises(SmatchppError) as caught:
        read_role_weights(path)
    where = f"{path}:{line}:" if line else f"{path}:"
    assert where in str(caught.value) and message in str(caught.value)
    assert "SECRET" not in str(caught.value)
    done = run("score", PRED, GOLD, "--quiet", "--role-weights", path, cwd=tmp_path)
    refused(done, where, message)
    assert "SECRET" not in done.stderr


def test_role_weights_that_are_not_a_file(tmp_path):
    refused(run("score", PRED, GOLD, "--quiet", "--role-weights", "/dev/zero", cwd=tmp_path),
            "role weights /dev/zero: not a regular file")
    refused(run("score", PRED, GOLD, "--quiet", "--role-weights", tmp_path, cwd=tmp_path),
            f"role weights {tmp_path}: cannot read it: Is a directory")


def test_role_weights_from_a_signature_are_never_read_from_a_path(tmp_path):
    sig = _signature(tmp_path).replace("|match:exact|", "|match:exact|roles:/etc/passwd|")
    done = run("score", PRED, GOLD, "--quiet", "--signature", sig, cwd=tmp_path)
    refused(done, "names a file by its identity")
    assert "root" not in done.stderr


def test_good_role_weights_files_still_read(tmp_path):
    path = tmp_path / "roles.tsv"
    path.write_bytes(b"\xef\xbb\xbf# weights\r\n:ARG0\t2\r\n\r\n*\t0.5\r\nwiki\t0\r\nmod\t1e-3\r\n")
    assert read_role_weights(path) == {"arg0": 2.0, "*": 0.5, "wiki": 0.0, "mod": 0.001}


# --- item 15: vectors files --------------------------------------------------------------------------

VECTORS = "puppy 0.8 0.6 0\ndog 1 0 0\ncat 0 1 0\n"


def A_FILE(tmp_path):
    path = tmp_path / "a.amr"
    path.write_text("(p / puppy :ARG0-of (c / cat))\n")
    return path


def B_FILE(tmp_path):
    path = tmp_path / "b.amr"
    path.write_text("(d / dog :ARG0-of (c / cat))\n")
    return path


def _run_env(env, *args, cwd):
    with pytest.MonkeyPatch.context() as patch:  # read when the command runs, not at start-up
        for name, value in env.items():
            patch.setenv(name, value)
        return run(*args, "--quiet", cwd=cwd)


@pytest.mark.parametrize("content, line, message", [
    (b"dog 1 0 0\npuppy abc 0.1 0\n", 2, "the value in column 2 is not a number"),
    (b"dog 1 0 0\npuppy 0.1 0x10 0\n", 2, "the value in column 3 is not a number"),
    (b"dog 1 0 0\npuppy nan 0 0\n", 2, "not finite"),
    (b"dog 1 0 0\npuppy 1 -inf 0\n", 2, "not finite"),
    (b"dog 1 0 0\npuppy 1e400 0 0\n", 2, "not finite"),
    (bytes(np.random.default_rng(0).integers(0, 256, 3000, dtype=np.uint8)), None, "is not a number"),
], ids=["abc", "0x10", "nan", "inf", "1e400", "random bytes"])
def test_bad_vectors_files(tmp_path, content, line, message):
    path = tmp_path / "v.txt"
    path.write_bytes(content)
    done = _run_env({"SMATCHPP_CACHE": str(tmp_path / "cache")}, "score", A_FILE(tmp_path),
                    B_FILE(tmp_path), "--match", "s2match", "--vectors", path, cwd=tmp_path)
    refused(done, f"vectors {path}:{line}: " if line else f"vectors {path}:", message)


def test_vectors_that_are_not_a_file(tmp_path):
    done = run("score", A_FILE(tmp_path), B_FILE(tmp_path), "--quiet", "--match", "s2match",
               "--vectors", "/dev/zero", cwd=tmp_path)
    refused(done, "vectors /dev/zero: not a regular file")


def test_lines_of_another_dimension_are_counted_in_a_warning(tmp_path):
    clean, path = tmp_path / "clean.txt", tmp_path / "v.txt"
    clean.write_text(VECTORS)
    path.write_text("3 3\n" + VECTORS + "fox 1 0\nemu 1 2 3 4\n\nowl 1\n" + "".join(
        f"w{k} 1 2\n" for k in range(5)))
    env = {"SMATCHPP_CACHE": str(tmp_path / "cache")}
    args = ("score", A_FILE(tmp_path), B_FILE(tmp_path), "--match", "s2match", "--format", "json")
    expected = _json(_run_env(env, *args, "--vectors", clean, cwd=tmp_path))
    signed = expected.pop("signature")
    warning = (f"smatchpp: warning: vectors {path}: 8 lines with another number of values than "
               "the first line's 3 left out (lines 5, 6, 8, 9, 10, ...)\n")
    for _ in range(2):  # converted, then from the cache: the same warning
        done = _run_env(env, *args, "--vectors", path, cwd=tmp_path)
        assert done.returncode == 0 and done.stderr == warning, done.stderr
        got = json.loads(done.stdout)
        assert got.pop("signature").split("@")[0] == signed.split("@")[0].replace("clean.txt", "v.txt")
        assert got == expected


def test_huge_vectors_do_not_overflow(tmp_path, monkeypatch):
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    path = tmp_path / "big.txt"
    # the same directions as VECTORS, near the largest float; run + runs also sums two of them
    path.write_text("puppy 8e307 6e307 0\ndog 1e308 0 0\ncat 0 1e308 0\nrun 1e308 1e308 0\n"
                    "runs 1e308 1e308 0\nsprint 1 1 0\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow RuntimeWarning
        sim = S2MatchSimilarity(load_vectors(path))
        assert sim.similarity("dog", "dog-x") == 1.0  # dog + x: dog's direction
        assert sim.similarity("puppy", "dog") == pytest.approx(0.8)
        assert sim.similarity("run-01", "sprint") == pytest.approx(0.5)  # 1.0 times diffsense


def test_scaling_leaves_every_similarity_as_it_was(tmp_path, monkeypatch):
    """Powers of two move exponents only: the cosines equal the unscaled formula's bit for bit."""
    monkeypatch.setenv("SMATCHPP_CACHE", str(tmp_path / "cache"))
    rng = np.random.default_rng(7)
    words = [f"w{k}" for k in range(40)]
    rows = rng.normal(size=(40, 6)) * rng.choice([1e-3, 1, 37.5], size=(40, 1))
    path = tmp_path / "v.txt"
    path.write_text("".join(f"{w} {' '.join(repr(float(x)) for x in r)}\n" for w, r in zip(words, rows)))
    sim = S2MatchSimilarity(load_vectors(path), cutoff=-1.0)
    for i in range(0, 40, 3):
        for j in range(1, 40, 5):
            u, v = rows[i], rows[j]
            expected = 1.0 - min(1.0, float(np.clip(1.0 - (u * v).sum() / np.sqrt((u * u).sum() * (v * v).sum()),
                                                    0.0, 2.0)))
            if expected > -1.0 and words[i] != words[j]:
                assert sim.similarity(words[i], words[j]) == expected


# --- item 19: limits -----------------------------------------------------------------------------------

def test_a_work_limit_beyond_a_solvers_counter(tmp_path):
    for solver in ("highs", "cbc"):
        capped = run("score", PRED, GOLD, "--quiet", "--solver", solver, "--work-limit",
                     str(INT_MAX), "--format", "json", cwd=tmp_path)
        for limit in (INT_MAX + 1, 10 ** 30):
            done = run("score", PRED, GOLD, "--quiet", "--solver", solver, "--work-limit", str(limit),
                       "--format", "json", cwd=tmp_path)
            first, again = _json(capped), _json(done)
            assert f"|work:{limit}|" in again["signature"]  # the budget stays as given
            again["signature"] = first["signature"]
            first.pop("seconds", None), again.pop("seconds", None)
            assert again == first and again["optimal"] == 4


def test_solver_count_caps_only_what_the_solver_is_told():
    from smatchpp.alignment.config import MAX_RESAMPLES as configured
    from smatchpp.alignment.solvers.base import SOLVER_COUNT_MAX, solver_count

    assert solver_count(None) is None and solver_count(7) == 7
    assert solver_count(2 ** 31) == solver_count(10 ** 40) == SOLVER_COUNT_MAX == INT_MAX
    assert configured == MAX_RESAMPLES


@pytest.mark.parametrize("args, fragment", [
    (("score", PRED, GOLD, "--bootstrap=100000000000"), "argument --bootstrap: must be between 1 and 1,000,000"),
    (("compare", PRED, PRED, GOLD, "--bootstrap", "1000001"), "argument --bootstrap: must be between 1 and 1,000,000"),
    (("compare", PRED, PRED, GOLD, "--ar-trials", "100000000000"), "argument --ar-trials: must be between 1 and 1,000,000"),
])
def test_resamples_are_capped_when_parsed(tmp_path, args, fragment):
    refused(run(*args, "--quiet", cwd=tmp_path), fragment)


def test_resamples_cap_in_python():
    assert Config(bootstrap=MAX_RESAMPLES).bootstrap == MAX_RESAMPLES
    with pytest.raises(ValueError, match="bootstrap must be at most 1,000,000"):
        Config(bootstrap=MAX_RESAMPLES + 1)
    with pytest.raises(ValueError, match="ar_trials must be at most"):
        Config(ar_trials=10 ** 11)


def test_a_device_as_input_is_refused(tmp_path):
    refused(run("score", "/dev/zero", GOLD, "--quiet", cwd=tmp_path),
            "/dev/zero: a character device, not a file of graphs")
    refused(run("matrix", "/dev/zero", "-o", tmp_path / "m.npz", "--quiet", cwd=tmp_path),
            "/dev/zero: a character device")
    assert not (tmp_path / "m.npz").exists()


def test_standard_input_is_read_up_to_a_bound(tmp_path):
    code = ("import sys; import smatchpp.graphs.read as r; r.MAX_STREAM_BYTES = 1 << 20; "
            "from smatchpp.cli import main; sys.exit(main())")
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([sys.executable, "-c", code, "score", "-", str(GOLD), "--quiet"],
                              stdin=zero, cwd=tmp_path, env=child_env(), capture_output=True,
                              text=True, timeout=600)
    refused(done, "<stdin>: more than 1 MiB from a stream")
    with open(PRED, "rb") as pred:  # a corpus within the bound reads as before
        done = subprocess.run([sys.executable, "-c", code, "score", "-", str(GOLD), "--quiet",
                               "--format", "json"], stdin=pred, cwd=tmp_path, env=child_env(),
                              capture_output=True, text=True, timeout=600)
    assert _json(done)["micro"] == _json(run("score", PRED, GOLD, "--quiet", "--format", "json",
                                             cwd=tmp_path))["micro"]


def test_a_named_pipe_is_read(tmp_path):
    fifo = tmp_path / "pred.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: fifo.write_bytes(PRED.read_bytes()))
    writer.start()
    done = run("score", fifo, GOLD, "--quiet", "--format", "json", cwd=tmp_path)
    writer.join()
    assert _json(done)["micro"]["f1"] == pytest.approx(43 / 48)
