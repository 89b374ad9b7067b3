"""The experiments' peer registry (``experiments/peer_registry.py``) and shared helpers
(``experiments/experiment.py``): every entry names a driver that exists and a setup that is a script
of the repository or a pinned reference; the commands keep the order the drivers were called with
before the registry; ``compare_peer.py`` runs a registry peer end to end when it is set up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = ROOT / "experiments"
sys.path.insert(0, str(EXPERIMENTS))

import experiment  # noqa: E402
import peer_registry  # noqa: E402
from peer_registry import PEERS, Reference  # noqa: E402

GRAPHS_A = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))\n\n(d / dog)\n"
GRAPHS_B = "(w / want-01 :ARG0 (g / girl) :ARG1 (g2 / go-02 :ARG0 g))\n\n(c / cat)\n"


def test_every_entry_has_a_driver_and_a_setup():
    assert len(PEERS) == len({p.name for p in PEERS.values()})
    for peer in PEERS.values():
        assert peer.driver.is_file(), peer.name
        if isinstance(peer.setup, Reference):
            assert len(peer.setup.commit.split()[0]) >= 7 and peer.setup.env.endswith("_MIRROR")
        elif peer.setup.startswith("bash "):
            assert (ROOT / peer.setup.split()[1]).is_file(), peer.name
        assert str(ROOT) not in str(peer.home), f"{peer.name} lives inside the repository"
        for user in peer.used_by:
            if not user.startswith("tests/"):
                assert (EXPERIMENTS / f"{user}.py").is_file(), (peer.name, user)


def test_commands_keep_the_drivers_argument_order(tmp_path):
    wlk = PEERS["wlk"]
    argv = wlk.argv([], "-k", "2") + ["a1", "b1", "a2", "b2"]
    assert argv[1:] == [str(wlk.driver), "wlk", str(peer_registry.WLK_REF.directory), "-k", "2",
                        "a1", "b1", "a2", "b2"]
    sembleu = PEERS["sembleu"]
    assert sembleu.argv([], "--ref", "R", "--ks", "3")[1:] == [str(sembleu.driver), "sembleu", "--ref", "R",
                                                               "--ks", "3"]
    reader = PEERS["reader:amr-suite"]
    assert reader.argv(["f"])[2:] == ["--peer-src", str(peer_registry.READERS_HOME / "amr-suite"),
                                      "--module", "amr_py3", "f"]


def test_a_peer_that_is_not_set_up_is_an_error_not_a_crash(tmp_path):
    peer = PEERS["s2match"]
    missing = type(peer)(**{**peer.__dict__, "python": tmp_path / "no" / "python"})
    run = missing.run(tmp_path / "a", tmp_path / "b")
    assert run.status == "error" and "compare_s2match.py" in run.stderr_tail


def test_experiment_tasks_and_arguments():
    assert experiment.TASKS[:3] == ("sts/main", "sick/main", "para/main") and len(experiment.TASKS) == 12
    assert set(experiment.TASKS) == set(experiment.TASKS_BY_DATASET)
    assert experiment.tasks_arg("sts/syno") == ("sts/syno",)
    import argparse

    parser = argparse.ArgumentParser()
    experiment.add_data(parser)
    experiment.add_workers(parser, 2)
    experiment.add_json(parser)
    args = parser.parse_args(["--json", "x.json"])
    assert args.data == experiment.BAMBOO and args.workers == 2 and args.json == Path("x.json")


def test_compare_readers_takes_its_readers_from_the_registry():
    import compare_readers

    for name, (python, src, module, strip, presets) in compare_readers.READERS.items():
        peer = PEERS[f"reader:{name}"]
        assert (python, src, module) == (peer.python, *peer.lead[1::2]) and presets


@pytest.mark.skipif(not PEERS["smatch-1.0.4"].ready(), reason="peer venv not set up (experiments/setup_peers.sh)")
def test_compare_peer_runs_a_registry_peer(tmp_path):
    a, b = tmp_path / "a.amr", tmp_path / "b.amr"
    a.write_text(GRAPHS_A)
    b.write_text(GRAPHS_B)
    out = tmp_path / "out.json"
    run = subprocess.run([sys.executable, str(EXPERIMENTS / "compare_peer.py"), "smatch-1.0.4", str(a), str(b),
                          "--json", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "| files | pairs | F1 ours | F1 peer |" in run.stdout and "machine:" in run.stdout
    (row,) = json.loads(out.read_text()).values()
    assert row["pairs"] == 2 and row["totals_equal"] == 2 and row["matched_equal"] == 2
    assert row["f1_ours"] == pytest.approx(row["f1_peer"])


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_signal_to_the_experiment_ends_the_peer_it_started(tmp_path, signame):
    """``run_peer`` starts a peer in a session of its own; a SIGTERM (``timeout``) or SIGHUP sent
    to the experiment must not leave that peer running (it did: the peer was orphaned)."""
    import os
    import signal
    import time

    pidfile = tmp_path / "peer.pid"
    peer = tmp_path / "peer.py"
    peer.write_text("import os, sys, time\n"
                    f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
                    "time.sleep(60)\n")
    script = (f"import sys; sys.path.insert(0, {str(EXPERIMENTS)!r})\n"
              "from pathlib import Path\nimport peers\n"
              f"peers.run_peer('sleeper', [{str(peer)!r}], python=Path(sys.executable))\n")
    proc = subprocess.Popen([sys.executable, "-c", script])
    for _ in range(200):
        if pidfile.exists() and pidfile.read_text():
            break
        time.sleep(0.05)
    peer_pid = int(pidfile.read_text())
    proc.send_signal(getattr(signal, signame))
    assert proc.wait(timeout=20) != 0
    for _ in range(100):  # the peer is killed, not left for a minute
        try:
            os.kill(peer_pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(peer_pid, signal.SIGKILL)
        pytest.fail(f"the peer {peer_pid} outlived the experiment")
