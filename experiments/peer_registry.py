"""One registry of the peers: every reference tool the experiments compare with, as one entry.

An entry says where the tool's environment lives (outside the repository, under ``~/.cache``),
how it is set up (a command or a pinned checkout; both idempotent), which driver runs it
and with which interpreter, how it is called on files, and what the driver prints.  Scripts
run a peer through its entry::

    from peer_registry import PEERS
    run = PEERS["smatch-1.0.4"].run(test, gold, seed=1)        # a measured PeerRun (peers.py)
    argv = PEERS["wlk"].argv([a1, b1, a2, b2], "-k", "2")      # or the command, to run yourself

List them, and whether each is set up::

    python3 experiments/peer_registry.py
    python3 experiments/peer_registry.py setup wlk [--mirror GITDIR]

A new peer is one ``Peer(...)`` entry here (and, when the tool needs one, a driver script
beside it); see DEVELOPERS.md, "Benchmarks".
"""
from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence, Union

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from experiment import CACHE  # noqa: E402
from peers import DEFAULT_VENV, PeerRun, run_peer  # noqa: E402

PEERS_VENV = Path(os.environ.get("SMATCHPP_PEERS_VENV") or DEFAULT_VENV)
WSMATCH_HOME = Path(os.environ.get("WSMATCH_PEER", CACHE / "wsmatch-peer"))
READERS_HOME = Path(os.environ.get("READERS_ROOT", CACHE / "reference-readers"))
S2MATCH_HOME = CACHE / "s2match-peer"
OUR_PYTHON = Path(sys.executable)


@dataclass(frozen=True)
class Reference:
    """A reference pinned at a commit, extracted from a local git mirror (``--mirror`` or
    ``$env``) into ``~/.cache/ref-NAME``, with its own venv ``~/.cache/ref-NAME-venv`` holding
    ``packages`` (no packages: it runs with our interpreter)."""

    name: str
    repository: str
    commit: str
    env: str  # the environment variable naming the mirror
    packages: tuple[str, ...]

    @property
    def directory(self) -> Path:
        return CACHE / f"ref-{self.name}"

    @property
    def python(self) -> Path:
        return CACHE / f"ref-{self.name}-venv" / "bin" / "python"


def mirror_path(given: Optional[str], env: str) -> Path:
    """The git directory of a reference's mirror, from ``--mirror`` or ``$env``."""
    path = given or os.environ.get(env)
    if not path:
        raise SystemExit(f"give the reference's git mirror with --mirror or ${env} "
                         "(a bare clone of the reference's GitHub repository)")
    return Path(path)


def extract(mirror: Union[str, Path], commit: str, dest: Path) -> None:
    """``git archive COMMIT`` of ``mirror`` unpacked into ``dest``."""
    data = subprocess.run(["git", f"--git-dir={mirror}", "archive", commit],
                          check=True, capture_output=True).stdout
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest)


def checkout(mirror: Path, commit: str, name: str) -> Path:
    """The reference at ``commit``, extracted once into ``~/.cache/ref-NAME-COMMIT`` (for
    references that keep several commits side by side and run with our interpreter)."""
    dest = CACHE / f"ref-{name}-{commit}"
    if not (dest / ".complete").is_file():
        extract(mirror, commit, dest)
        (dest / ".complete").write_text(commit + "\n")
    return dest


def setup(ref: Reference, mirror: Optional[str]) -> None:
    """Extract ``ref`` at its pinned commit and create its venv, unless already done."""
    stamp = ref.directory / ".commit"
    if not (stamp.exists() and stamp.read_text().strip() == ref.commit):
        mirror = mirror or os.environ.get(ref.env)
        if not mirror:
            raise SystemExit(f"give --mirror or set {ref.env} to a git mirror of {ref.repository}")
        extract(mirror, ref.commit, ref.directory)
        stamp.write_text(ref.commit + "\n")
    if not ref.python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(ref.python.parent.parent)], check=True)
        subprocess.run([str(ref.python), "-m", "pip", "install", "-q", *ref.packages], check=True)


@dataclass(frozen=True)
class Peer:
    """One reference tool: ``python DRIVER *lead *files *options [--out PAIRS.jsonl]``."""

    name: str
    tool: str  # what runs, with its pinned version or commit
    home: Path  # where its environment lives (outside the repository)
    python: Path  # the interpreter that runs the driver
    driver: Path
    setup: Union[str, Reference]  # an idempotent setup command ("bash ..."), its steps in words, or a checkout
    prints: str  # what the driver prints
    lead: tuple[str, ...] = ()  # driver arguments before the files
    out_flag: Optional[str] = "--out"  # per-pair JSONL file (None: everything on stdout)
    used_by: tuple[str, ...] = field(default=())
    #: for ``compare_peer.py``: the options of ``smatchpp score`` that compute what this peer
    #: computes (None: not comparable that way), and the peer's per-pair keys of the two totals
    ours: Optional[tuple[str, ...]] = None
    totals: tuple[str, str] = ("test_triples", "gold_triples")

    def ready(self) -> bool:
        """Is it set up (its home and its interpreter exist)?"""
        return self.home.exists() and (self.python.exists() or shutil.which(str(self.python)) is not None)

    def argv(self, files: Sequence[Union[str, Path]], *options: str) -> list[str]:
        """The whole command on ``files`` (for a driver that takes pairs: A1 B1 A2 B2 ...)."""
        return [str(self.python), str(self.driver), *self.lead, *map(str, files), *options]

    def run(self, a: Union[str, Path], b: Union[str, Path], *options: str, timeout: Optional[float] = None,
            mem_limit_mb: Optional[int] = None, tool: Optional[str] = None) -> PeerRun:
        """A measured run on one pair of files (``peers.run_peer``: wall time, peak RSS, caps)."""
        if not self.python.exists():
            return PeerRun(tool or self.tool, "error", stderr_tail=f"peer venv missing: {self.setup_hint}")
        argv = self.argv([a, b], *options)[1:]
        return run_peer(tool or self.tool, argv, timeout, mem_limit_mb, python=self.python,
                        out_flag=self.out_flag or "--out")

    @property
    def setup_hint(self) -> str:
        """How to set it up, in words."""
        if isinstance(self.setup, Reference):
            return f"--mirror or ${self.setup.env} ({self.setup.repository})"
        return "run " + self.setup.removeprefix("bash ") if self.setup.startswith("bash ") else self.setup

    def install(self, mirror: Optional[str] = None) -> None:
        """Set it up unless it already is."""
        if isinstance(self.setup, Reference) and not self.setup.packages:  # several commits, our python
            for commit in self.setup.commit.split():
                if not (CACHE / f"ref-{self.setup.name}-{commit}" / ".complete").is_file():
                    checkout(mirror_path(mirror, self.setup.env), commit, self.setup.name)
        elif isinstance(self.setup, Reference):
            setup(self.setup, mirror)
        elif not self.ready():
            if not self.setup.startswith("bash "):
                raise SystemExit(f"{self.name}: {self.setup}")
            subprocess.run(self.setup.split(), check=True, cwd=HERE.parent)


SETUP_PEERS = "bash experiments/setup_peers.sh"
SETUP_READERS = "bash experiments/setup_readers.sh"
SMATCH104_DRIVER = HERE.parent / "smatchpp" / "audit" / "smatch104_driver.py"
PAIRS_JSONL = "per-pair JSONL (--out), a JSON summary on stdout: f1, seconds, errors"

WLK_REF = Reference("wlk", "flipz357/weisfeiler-leman-amr-metrics",
                    "51624e2e3742d638db083d8d7f30eedfe7e0e122", "WLK_MIRROR",
                    ("smatchpp==1.5.1", "networkx", "numpy", "scipy"))
WWLK_REF = Reference("wwlk", WLK_REF.repository, WLK_REF.commit, "WLK_MIRROR", WLK_REF.packages + ("pyemd",))
REMATCH_REF = Reference("rematch", "osome-iu/Rematch-RARE",
                        "41e1834b7749a08188aec368361bebd51adce299", "REMATCH_MIRROR",
                        ("numpy", "pandas", "networkx"))
#: SemBleu and SEMA run with our interpreter at each of their commits (``checkout``)
SEMBLEU_REF = Reference("sembleu", "freesunshine0316/sembleu", "530bc05 69ff2d4", "SEMBLEU_MIRROR", ())
SEMA_REF = Reference("sema", "rafaelanchieta/sema", "9a4911c 0ede9e0", "SEMA_MIRROR", ())
#: Counter (RikVN/DRS_parsing evaluation/counter.py): one checkout per PMB release it reads,
#: release -> (commit, our counter metric's version, referee); setup_counter_peer.sh.  The tag
#: v.3.0.0 (14d807d) has 6def45b's SY1/SY2 operators (its counter.py is 190838f's): version 2021
COUNTER_HOME = Path(os.environ.get("COUNTER_PEER", CACHE / "counter-peer"))
COUNTER_VERSIONS = {"2.2.0": ("ec4eb07a914a30783542a06124145aa177364380", "2019", "2019"),
                    "3.0.0": ("14d807d447b956b2b109303de2d5517e679faff8", "2021", "2021"),
                    "4.0.0": ("190838f9adea2af616eb76156d2e66c8565a6c6e", "2021", "2021")}


def _entry(*args, **kw) -> tuple[str, Peer]:
    p = Peer(*args, **kw)
    return p.name, p


PEERS: dict[str, Peer] = dict([
    _entry("smatch-1.0.4", "smatch 1.0.4 (PyPI), 4 restarts", PEERS_VENV, PEERS_VENV / "bin" / "python",
           SMATCH104_DRIVER, SETUP_PEERS, PAIRS_JSONL, ours=(),
           used_by=("compare_smatch", "bench_speed", "bench_matrix", "bench_documents")),
    _entry("smatchpp-1.8", "smatchpp 1.8.0 (PyPI) with mip 1.13.0", PEERS_VENV, PEERS_VENV / "bin" / "python",
           HERE / "peer_smatchpp18.py", SETUP_PEERS, PAIRS_JSONL, ours=(),
           used_by=("compare_smatch", "bench_speed", "bench_documents")),
    _entry("smatchpp-1.8-aspects", "smatchpp 1.8.0's -score_dimension all-multialign / all-onealign",
           PEERS_VENV, PEERS_VENV / "bin" / "python", HERE / "peer_smatchpp18_aspects.py", SETUP_PEERS,
           "per-pair JSONL (--out): index, aspects {NAME: [match_a, match_b, size_a, size_b, lower, upper, f1]}",
           used_by=("compare_aspects18", "bench_aspects18_scale")),
    _entry("smatch-1.0.4-api", "smatch 1.0.4's Python API (get_amr_match, score_amr_pairs)", PEERS_VENV,
           PEERS_VENV / "bin" / "python", HERE / "smatch_api_peer.py", SETUP_PEERS,
           "one JSON object on stdout: pairs per mode, single, multi, seconds", out_flag=None,
           used_by=("smatch_api_counts", "tests/test_smatch_api.py")),
    _entry("wsmatch", "jcyk/AMR-parser e412798 weighted smatch.py (patched for python3)", WSMATCH_HOME,
           WSMATCH_HOME / "venv" / "bin" / "python", HERE / "wsmatch_peer_driver.py", SETUP_PEERS,
           PAIRS_JSONL + " (weighted triples per pair)", lead=("--peer-src", str(WSMATCH_HOME / "src")),
           ours=("--preset", "amr-suite", "--match", "wsmatch"), totals=("test_weight", "gold_weight"),
           used_by=("compare_wsmatch", "compare_matched")),
    _entry("s2match", "flipz357/amr-metric-suite 711a231 s2match.py", S2MATCH_HOME,
           S2MATCH_HOME / "venv" / "bin" / "python", HERE / "s2match_peer_driver.py",
           "see experiments/compare_s2match.py's docstring", PAIRS_JSONL + " (soft matches, triples)",
           lead=("--peer-src", str(S2MATCH_HOME / "src")), used_by=("compare_s2match", "compare_matched")),
    _entry("amr-evaluation", "mdtux89/amr-evaluation (Damonte et al. 2017), per-pair aspects",
           CACHE / "amr-eval-peer", OUR_PYTHON, HERE / "amr_eval_driver.py",
           "fetch mdtux89/amr-evaluation into ~/.cache/amr-eval-peer", "one JSON line per pair on stdout",
           lead=("--peer", str(CACHE / "amr-eval-peer")), out_flag=None, used_by=("compare_aspects",)),
    _entry("sembleu", "freesunshine0316/sembleu 530bc05 (keep) / 69ff2d4 (flip)", CACHE / "ref-sembleu-530bc05",
           OUR_PYTHON,
           HERE / "sembleu_sema_peer_driver.py", SEMBLEU_REF, "one JSON document on stdout",
           lead=("sembleu",), out_flag=None, used_by=("compare_sembleu", "bench_sembleu_sema")),
    _entry("sema", "rafaelanchieta/sema 9a4911c / 0ede9e0", CACHE / "ref-sema-9a4911c", OUR_PYTHON,
           HERE / "sembleu_sema_peer_driver.py", SEMA_REF, "one JSON document on stdout",
           lead=("sema",), out_flag=None, used_by=("compare_sema", "bench_sembleu_sema")),
    _entry("wlk", f"{WLK_REF.repository} {WLK_REF.commit[:7]} WLK", WLK_REF.directory, WLK_REF.python,
           HERE / "wlk_rematch_peer_driver.py", WLK_REF, "one JSON line per file pair on stdout",
           lead=("wlk", str(WLK_REF.directory)), out_flag=None, used_by=("compare_wlk", "bench_wlk_rematch")),
    _entry("rematch", f"{REMATCH_REF.repository} {REMATCH_REF.commit[:7]}", REMATCH_REF.directory,
           REMATCH_REF.python, HERE / "wlk_rematch_peer_driver.py", REMATCH_REF,
           "one JSON line per file pair on stdout", lead=("rematch", str(REMATCH_REF.directory)), out_flag=None,
           used_by=("compare_rematch", "bench_wlk_rematch")),
    _entry("wwlk", f"{WWLK_REF.repository} {WWLK_REF.commit[:7]} WWLK (pyemd)", WWLK_REF.directory,
           WWLK_REF.python, HERE / "wwlk_peer_driver.py", WWLK_REF, "one JSON line per file pair on stdout",
           lead=(str(WWLK_REF.directory),), out_flag=None, used_by=("compare_wwlk", "bench_wwlk")),
    _entry("counter", "RikVN/DRS_parsing evaluation/counter.py (v.2.2.0 ec4eb07, v.3.0.0 14d807d, 190838f)",
           COUNTER_HOME, COUNTER_HOME / "venv" / "bin" / "python", HERE / "counter_peer_driver.py",
           "bash experiments/setup_counter_peer.sh", PAIRS_JSONL + " (clauses per pair)",
           lead=("--peer-src", str(COUNTER_HOME / COUNTER_VERSIONS["4.0.0"][0] / "evaluation")),
           totals=("test_clauses", "gold_clauses"), used_by=("compare_counter",)),
] + [
    _entry(f"reader:{name}", what, home, python, HERE / "reader_peer_driver.py", setup_cmd,
           "one JSON line per graph on stdout: instances, attributes, relations (or error)",
           lead=("--peer-src", src, "--module", module), out_flag=None, used_by=("compare_readers",))
    for name, what, home, python, src, module, setup_cmd in (
        ("amr-suite", "flipz357/amr-metric-suite 711a231 amr_py3.py", READERS_HOME / "amr-suite",
         Path("python3"), str(READERS_HOME / "amr-suite"), "amr_py3", SETUP_READERS),
        ("wsmatch", "jcyk/AMR-parser e412798 amr.py", WSMATCH_HOME / "src", Path("python3"),
         str(WSMATCH_HOME / "src"), "amr", SETUP_PEERS),
        ("amr-evaluation", "mdtux89/amr-evaluation 8bc6b2e smatch/amr.py", READERS_HOME / "amr-evaluation",
         Path("python3"), str(READERS_HOME / "amr-evaluation"), "amr", SETUP_READERS),
        ("smatch-1.0.1", "smatch 1.0.1 (PyPI)", READERS_HOME / "smatch-1.0.1",
         READERS_HOME / "smatch-1.0.1" / "venv" / "bin" / "python", "site", "amr", SETUP_READERS),
        ("smatch-1.0.3.2", "smatch 1.0.3.2 (PyPI)", READERS_HOME / "smatch-1.0.3.2",
         READERS_HOME / "smatch-1.0.3.2" / "venv" / "bin" / "python", "site", "amr", SETUP_READERS),
        ("smatch-1.0.4", "smatch 1.0.4 (PyPI)", PEERS_VENV, PEERS_VENV / "bin" / "python", "site", "amr",
         SETUP_PEERS),
    )
])


def run_json_lines(peer: Peer, pairs: Sequence[tuple[Path, Path]], *options: str, hash_seed: int = 0,
                   cwd: Path = CACHE) -> list[dict]:
    """Run ``peer`` on file ``pairs`` at once (``PYTHONHASHSEED=hash_seed``); its JSON lines."""
    argv = peer.argv([], *options) + [str(f) for pair in pairs for f in pair]
    env = dict(os.environ, PYTHONHASHSEED=str(hash_seed))
    out = subprocess.run(argv, check=True, capture_output=True, text=True, env=env, cwd=str(cwd)).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """List the peers (name, set up or not, what, where, how to set up), or set one up."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", nargs="?", choices=("list", "setup"), default="list")
    ap.add_argument("name", nargs="?", choices=sorted(PEERS))
    ap.add_argument("--mirror", default=None, help="git mirror of a pinned reference (else its variable)")
    ap.add_argument("--json", action="store_true", help="the list as JSON")
    args = ap.parse_args(argv)
    if args.action == "setup":
        if not args.name:
            ap.error("setup needs a peer's name")
        PEERS[args.name].install(args.mirror)
        return 0
    rows = [{"name": p.name, "ready": p.ready(), "tool": p.tool, "home": str(p.home),
             "setup": p.setup_hint,
             "driver": p.driver.name, "prints": p.prints, "used_by": list(p.used_by)} for p in PEERS.values()]
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    from experiment import markdown_table

    print(markdown_table(["peer", "set up", "tool", "driver", "setup"],
                         [[r["name"], "yes" if r["ready"] else "no", r["tool"], r["driver"], r["setup"]] for r in rows]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
