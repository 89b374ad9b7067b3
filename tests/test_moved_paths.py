"""The modules moved into layer folders keep their old import paths (smatchpp/core/moved.py):
each old name gives the very module object of its new name, once, with its own spec."""

from __future__ import annotations

import importlib
import sys

import pytest

from smatchpp.core.moved import MOVED, new_name


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_gives_the_module_of_its_new_path(old):
    module = importlib.import_module(f"smatchpp.{old}")
    new = new_name(f"smatchpp.{old}")
    assert new != f"smatchpp.{old}"
    assert module is importlib.import_module(new)
    assert module.__name__ == new and module.__spec__.name == new


def test_a_module_of_a_moved_folder_is_loaded_once():
    import smatchpp.solvers.highs as old
    import smatchpp.alignment.solvers.highs as new

    assert old is new
    copies = [m for name, m in sys.modules.items() if name.endswith("solvers.highs")]
    assert all(m is new for m in copies)


def test_names_that_did_not_move_are_left_alone():
    assert new_name("smatchpp.api") == "smatchpp.api"
    assert new_name("smatchpp.metrics.wlk") == "smatchpp.metrics.wlk"
    assert new_name("smatchpp.solvers.highs") == "smatchpp.alignment.solvers.highs"
    assert new_name("other.read") == "other.read"
