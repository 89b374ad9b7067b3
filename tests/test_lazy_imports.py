"""Lazy imports: a metric without an alignment never loads the Smatch API, and nothing is lost.

``smatchpp score A B --metric X`` imports its command's module only, and that module imports
the solvers, the compiler and HiGHS only for the alignment family; ``import smatchpp`` resolves
the API names on first use (PEP 562).
"""

from __future__ import annotations

import json

import pytest

import smatchpp
from clirun import GOLD, PRED, run, run_python

#: modules that only the alignment family needs
HEAVY = ("smatchpp.api", "smatchpp.alignment.compile", "smatchpp.alignment.solvers.", "smatchpp.alignment.jit", "smatchpp.aspects.core",
         "smatchpp.cli.compare", "smatchpp.cli.explain", "smatchpp.explain", "numba", "scipy", "highspy",
         "pulp")

_MAIN = ("import json, sys\n"
         "from smatchpp.cli import main\n"
         "code = main(sys.argv[1:])\n"
         "print(json.dumps([code, sorted(sys.modules)]))\n")


def _loaded(*args, cwd) -> tuple[str, list[str]]:
    """``smatchpp ARGS`` run through ``cli.main`` in a fresh process: its output and the modules
    it had loaded at the end."""
    proc = run_python(_MAIN, *args, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    out, _, last = proc.stdout.rstrip("\n").rpartition("\n")
    code, modules = json.loads(last)
    assert code == 0
    return out, modules


@pytest.mark.parametrize("metric", ["rematch", "wlk", "jaccard"])
def test_metric_run_does_not_load_the_smatch_api(tmp_path, metric):
    out, modules = _loaded("score", PRED, GOLD, "--metric", metric, cwd=tmp_path)
    assert [m for m in modules if m.startswith(HEAVY) or m in ("smatchpp.alignment.solvers.base",)] == []
    # and it prints what the command line prints
    assert out + "\n" == run("score", PRED, GOLD, "--metric", metric, cwd=tmp_path).stdout


def test_smatch_run_still_loads_what_it_needs(tmp_path):
    out, modules = _loaded("score", PRED, GOLD, cwd=tmp_path)
    assert "smatchpp.api" in modules and "smatchpp.alignment.solvers.portfolio" in modules
    assert out + "\n" == run("score", PRED, GOLD, cwd=tmp_path).stdout


def test_import_smatchpp_is_light_and_every_public_name_works(tmp_path):
    proc = run_python("import json, sys, smatchpp\n"
                      "before = sorted(m for m in sys.modules if m.startswith('smatchpp'))\n"
                      "names = {n: type(getattr(smatchpp, n)).__name__ for n in smatchpp.__all__}\n"
                      "print(json.dumps([before, names, sorted(dir(smatchpp))]))\n", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    before, names, listed = json.loads(proc.stdout)
    assert "smatchpp.api" not in before and "smatchpp.alignment.problem" not in before
    assert set(names) == set(smatchpp.__all__) and set(smatchpp.__all__) <= set(listed)
    assert names["standardize"] == "function" and names["Scorer"] == "type" and names["__version__"] == "str"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        smatchpp.nope  # noqa: B018


def test_standardize_stays_the_function_after_its_module_is_imported():
    import smatchpp.standardize  # noqa: F401 - the submodule's old name, imported by name
    from smatchpp.standardize import TripleGraph
    from smatchpp.graphs.triples import TripleGraph as Triples

    assert callable(smatchpp.standardize) and smatchpp.standardize.__name__ == "standardize"
    assert TripleGraph is Triples  # the old import path finds the module, now smatchpp.graphs.triples


def test_solvers_package_resolves_its_classes_on_use():
    from smatchpp.alignment import solvers
    from smatchpp.alignment.solvers.portfolio import Portfolio

    assert solvers.Portfolio is Portfolio and isinstance(solvers.get_solver("exact"), Portfolio)
    assert set(solvers.__all__) <= set(dir(solvers)) | set(solvers._LAZY)
    with pytest.raises(AttributeError):
        solvers.Nope  # noqa: B018


def test_aspect_modes_of_the_parser_are_the_aspects_modes():
    from smatchpp.aspects.core import MODES
    from smatchpp.cli.score import ASPECT_MODES

    assert ASPECT_MODES == ("none",) + MODES


@pytest.mark.parametrize("name", ["score", "gap", "matrix", "search", "compare", "explain"])
def test_one_command_parser_is_the_same_as_in_the_whole_parser(name):
    from smatchpp.cli import build_parser

    def help_of(parser):
        sub = next(a for a in parser._actions if a.choices and name in a.choices)
        return sub.choices[name].format_help()

    assert help_of(build_parser(name)) == help_of(build_parser())


def test_top_level_help_and_errors_list_every_command(tmp_path):
    helped = run("--help", cwd=tmp_path)
    wrong = run("scor", "a", "b", cwd=tmp_path)
    for name in ("score", "gap", "matrix", "search", "compare", "explain"):
        assert name in helped.stdout and name in wrong.stderr
    assert wrong.returncode == 2
