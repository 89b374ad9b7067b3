"""Run the peer Smatch tools (smatch 1.0.4, PyPI smatchpp 1.8.0) as measured subprocesses.

Stdlib only; runs with OUR python.  The peers live in a separate venv made by
``experiments/setup_peers.sh`` (PyPI's ``smatchpp`` collides with our import
name) and are driven by ``smatchpp/audit/smatch104_driver.py`` / ``peer_smatchpp18.py``; their entries (interpreter,
driver, setup) are in ``peer_registry.py``.

Measurement: the child is started in its own session/process group; the parent
reaps it with ``os.wait4`` so ``ru_maxrss`` is that child's own peak RSS (not
the max over all children ever, as ``RUSAGE_CHILDREN`` would be).  A timeout
SIGKILLs the whole process group.  ``mem_limit_mb`` sets ``RLIMIT_AS`` (address
space, not RSS) in the child; running out shows up as MemoryError / bad_alloc /
an abort and is reported as status ``"memory"``; a cap below the peer's import
footprint (~250 MB address space for smatchpp 1.8) fails at import and is also
"memory".  Always pair a memory cap with a timeout as a backstop.
``PYTHONPATH`` is dropped from the child's environment so this repo's
``smatchpp`` cannot shadow the peer's.

CLI:  python experiments/peers.py {smatch104,smatchpp18} A B [--solver S]
          [--compression] [--timeout T] [--mem MB]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # peer_registry, beside this file
DEFAULT_VENV = Path.home() / ".cache" / "smatchpp-peers" / "venv"
# numpy/scipy's OpenBLAS reserves per-thread buffers at import; under RLIMIT_AS its
# multi-threaded init spins forever on failed mmap.  Single-threaded BLAS fails cleanly
# (ImportError) instead; BLAS is not on the peers' hot path, so timing is unaffected.
PEER_THREAD_ENV = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
MEMORY_MARKERS = ("MemoryError", "bad_alloc", "cannot allocate memory", "failed to map segment")


@dataclass
class PeerRun:
    """Result of one peer invocation on a pair of files."""

    tool: str
    status: str  # "ok" | "timeout" | "memory" | "error"
    pairs: list[dict[str, Any]] = field(default_factory=list)  # per-pair records (partial unless ok)
    f1: Optional[float] = None  # corpus (micro) F1 in [0, 1]
    wall_seconds: float = 0.0  # around the subprocess, incl. interpreter start and imports
    score_seconds: Optional[float] = None  # the driver's own timing of the scoring loop
    peak_rss_mb: Optional[float] = None  # child's ru_maxrss from wait4
    returncode: Optional[int] = None
    summary: dict[str, Any] = field(default_factory=dict)
    stderr_tail: str = ""
    cpu_seconds: Optional[float] = None  # child's user + system CPU from wait4 (with its reaped children)


def peer_python() -> Optional[Path]:
    """Path of the peer venv's python (``$SMATCHPP_PEERS_VENV`` or the default), or None."""
    venv = Path(os.environ.get("SMATCHPP_PEERS_VENV") or DEFAULT_VENV)
    py = venv / "bin" / "python"
    return py if py.exists() else None


def _classify(rc: int, timed_out: bool, stderr: str, mem_limit_mb: Optional[int], ok: bool) -> str:
    """Map a finished child to a PeerRun status."""
    if timed_out:
        return "timeout"
    if rc == 0 and ok:
        return "ok"
    low = stderr.lower()
    if rc == 3 or any(m.lower() in low for m in MEMORY_MARKERS):
        return "memory"
    if mem_limit_mb is not None and rc in (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGBUS):
        return "memory"
    return "error"


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Per-pair records; tolerates a truncated last line from a killed child."""
    recs: list[dict[str, Any]] = []
    if path.exists():
        for line in path.read_text(errors="replace").splitlines():
            try:
                recs.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return recs


_LEAVE_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def _leave(signum, frame) -> None:
    raise SystemExit(128 + signum)


def _leave_on_signals() -> dict:
    """Make SIGTERM and SIGHUP raise ``SystemExit`` (main thread only; elsewhere signals cannot
    be handled); the handlers before, for :func:`_restore_signals`."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {s: signal.signal(s, _leave) for s in _LEAVE_SIGNALS}


def _restore_signals(before: dict) -> None:
    for s, handler in before.items():
        signal.signal(s, handler)


def run_peer(tool: str, argv: Sequence[str], timeout: Optional[float] = None,
             mem_limit_mb: Optional[int] = None, python: Optional[Path] = None,
             out_flag: str = "--out") -> PeerRun:
    """Run ``<python> <argv...> <out_flag> <tmp>``; collect per-pair JSONL and the JSON summary.

    ``python`` defaults to the peer venv's interpreter; the summary is the whole
    stdout if it is one JSON document, else its last line that is one.
    """
    py = python or peer_python()
    if py is None:
        return PeerRun(tool, "error", stderr_tail="peer venv missing: run experiments/setup_peers.sh")

    def limit() -> None:
        if mem_limit_mb is not None:
            nbytes = int(mem_limit_mb) * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (nbytes, nbytes))

    with tempfile.TemporaryDirectory(prefix="peerrun-") as tmp:
        out, so, se = Path(tmp, "pairs.jsonl"), Path(tmp, "stdout"), Path(tmp, "stderr")
        with open(so, "wb") as fo, open(se, "wb") as fe:
            t0 = time.perf_counter()
            env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
            env.update(PEER_THREAD_ENV)
            proc = subprocess.Popen([str(py), *argv, out_flag, str(out)], stdin=subprocess.DEVNULL,
                                    stdout=fo, stderr=fe, env=env, start_new_session=True,
                                    preexec_fn=limit)
            timed_out = threading.Event()

            def kill() -> None:
                timed_out.set()
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass

            timer = threading.Timer(timeout, kill) if timeout is not None else None
            if timer is not None:
                timer.start()
            # the peer runs in a session of its own (a timeout kills its whole group), so a
            # SIGTERM/SIGHUP sent to this script (e.g. by `timeout`) would not reach it: while we
            # wait, those signals raise here and the peer's group is killed before we leave
            before = _leave_on_signals()
            try:
                _, wstatus, ru = os.wait4(proc.pid, 0)
            except BaseException:  # e.g. KeyboardInterrupt, SIGTERM: do not leave the peer running
                kill()
                raise
            finally:
                _restore_signals(before)
            wall = time.perf_counter() - t0
            if timer is not None:
                timer.cancel()
            rc = os.waitstatus_to_exitcode(wstatus)
            proc.returncode = rc  # already reaped by wait4; keep Popen consistent
            if timed_out.is_set():  # reap anything left in the group
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        stdout, stderr = so.read_text(errors="replace"), se.read_text(errors="replace")
        pairs = _read_jsonl(out)
    summary: dict[str, Any] = {}
    try:
        whole = json.loads(stdout)
        summary = whole if isinstance(whole, dict) else {}
    except json.JSONDecodeError:
        pass
    for line in ([] if summary else reversed(stdout.splitlines())):
        if line.startswith("{"):
            try:
                summary = json.loads(line)
                break
            except json.JSONDecodeError:
                continue
    status = _classify(rc, timed_out.is_set(), stderr, mem_limit_mb, bool(summary))
    return PeerRun(tool, status, pairs, summary.get("f1"), wall, summary.get("seconds"),
                   ru.ru_maxrss / 1024.0, rc, summary, stderr[-2000:],
                   cpu_seconds=ru.ru_utime + ru.ru_stime)


def run_smatch104(a: os.PathLike | str, b: os.PathLike | str, timeout: Optional[float] = None,
                  mem_limit_mb: Optional[int] = None, restarts: int = 4,
                  seed: Optional[int] = None) -> PeerRun:
    """smatch 1.0.4 with its defaults (A = test, B = gold); ``seed`` makes it reproducible."""
    from peer_registry import PEERS

    options = ["--restarts", str(restarts)] + (["--seed", str(seed)] if seed is not None else [])
    return PEERS["smatch-1.0.4"].run(a, b, *options, timeout=timeout, mem_limit_mb=mem_limit_mb,
                                     tool="smatch-1.0.4")


def run_smatchpp18(a: os.PathLike | str, b: os.PathLike | str, solver: str = "ilp",
                   timeout: Optional[float] = None, mem_limit_mb: Optional[int] = None,
                   compression: bool = False, graph_type: str = "generic",
                   max_seconds: Optional[int] = None, seed: Optional[int] = None) -> PeerRun:
    """PyPI smatchpp 1.8.0 (``-solver`` ilp/hillclimber/..., ``--lossless_graph_compression``)."""
    from peer_registry import PEERS

    options = ["--solver", solver, "--graph-type", graph_type]
    if compression:
        options.append("--lossless-graph-compression")
    if max_seconds is not None:
        options += ["--max-seconds", str(max_seconds)]
    if seed is not None:
        options += ["--seed", str(seed)]
    tool = "smatchpp-1.8.0/%s%s" % (solver, "+compression" if compression else "")
    return PEERS["smatchpp-1.8"].run(a, b, *options, timeout=timeout, mem_limit_mb=mem_limit_mb, tool=tool)


# runs our CLI in-process, then reports the peak RSS of the main process and of
# its (finished) worker processes on stderr, so worker memory is measured too
_OURS = (
    "import json, resource, runpy, sys\n"
    "sys.argv = ['smatchpp'] + sys.argv[1:]\n"
    "try:\n"
    "    runpy.run_module('smatchpp', run_name='__main__')\n"
    "except SystemExit as exc:\n"
    "    code = exc.code\n"
    "me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
    "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
    "print('SMATCHPP-RSS ' + json.dumps({'main': me, 'workers': kids}), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def run_ours(a: os.PathLike | str, b: os.PathLike | str, *options: str,
             timeout: Optional[float] = None, mem_limit_mb: Optional[int] = None,
             tool: str = "smatchpp (ours)") -> PeerRun:
    """Our CLI as a measured subprocess: ``smatchpp score A B --format json ...``.

    ``peak_rss_mb`` is the larger of the main process's and any worker's peak.
    """
    argv = ["-c", _OURS, "score", str(a), str(b), "--format", "json", "--quiet", *options]
    run = run_peer(tool, argv, timeout, mem_limit_mb, python=Path(sys.executable),
                   out_flag="--pairs-out")
    if run.summary:
        run.f1 = run.summary["micro"]["f1"]
    for line in run.stderr_tail.splitlines():
        if line.startswith("SMATCHPP-RSS "):
            rss = json.loads(line.split(" ", 1)[1])
            run.peak_rss_mb = max(rss["main"], rss["workers"])
    return run


def main() -> None:
    """Tiny CLI: run one peer and print its measurements as JSON."""
    ap = argparse.ArgumentParser(description="run a peer Smatch tool")
    ap.add_argument("tool", choices=["smatch104", "smatchpp18"])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--solver", default="ilp")
    ap.add_argument("--graph-type", default="generic")
    ap.add_argument("--compression", action="store_true")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--timeout", type=float, default=None)
    ap.add_argument("--mem", type=int, default=None, help="RLIMIT_AS in MB")
    args = ap.parse_args()
    if args.tool == "smatch104":
        run = run_smatch104(args.a, args.b, args.timeout, args.mem, seed=args.seed)
    else:
        run = run_smatchpp18(args.a, args.b, args.solver, args.timeout, args.mem, args.compression,
                             args.graph_type, seed=args.seed)
    print(json.dumps({"tool": run.tool, "status": run.status, "f1": run.f1, "pairs": len(run.pairs),
                      "wall_seconds": round(run.wall_seconds, 3), "score_seconds": run.score_seconds,
                      "peak_rss_mb": run.peak_rss_mb, "returncode": run.returncode,
                      "errors": run.summary.get("errors")}))
    if run.status != "ok":
        print(run.stderr_tail[-800:])


if __name__ == "__main__":
    main()
