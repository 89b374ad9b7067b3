"""``--dask ADDRESS`` (issue 22, item 12): an address that is not a scheduler's, or a
scheduler that does not answer, ends the command with exit 2 and a message, within
``--dask-timeout`` seconds; nothing hangs, and no traceback.

Only loopback addresses are used: listeners that the test starts on 127.0.0.1 (a socket
that accepts and never answers, a tiny HTTP server), a port just closed, and a real
scheduler for the working case.
"""

from __future__ import annotations

import http.server
import socket
import threading

import pytest

from clirun import PRED, GOLD, run

#: a functional hang check: before the fix these waited minutes (or for ever)
HANG = 120


def _silent_listener():
    """A socket on 127.0.0.1 that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted = []

    def accept():
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return
    threading.Thread(target=accept, daemon=True).start()
    return server, server.getsockname()[1]


class _Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"hello")


@pytest.fixture
def silent_port():
    server, port = _silent_listener()
    yield port
    server.close()


@pytest.fixture
def http_port():
    server = http.server.HTTPServer(("127.0.0.1", 0), _Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def _command(name: str, tmp_path) -> list:
    return {"score": ["score", PRED, GOLD],
            "search": ["search", PRED, GOLD, "--top", "1"],
            "matrix": ["matrix", PRED, "-o", tmp_path / "m.npz"],
            "compare": ["compare", PRED, GOLD, GOLD]}[name]


@pytest.mark.parametrize("address, problem", [
    ("garbage", "expected HOST:PORT with a port from 1 to 65535"),
    ("inproc://x", "the protocol must be one of tcp, tls, ws, wss"),
    ("http://127.0.0.1:80", "the protocol must be one of tcp, tls, ws, wss"),
    ("127.0.0.1:0", "expected HOST:PORT with a port from 1 to 65535"),
    ("tcp://127.0.0.1:99999", "expected HOST:PORT with a port from 1 to 65535"),
])
def test_not_a_scheduler_address_is_refused_before_any_work(tmp_path, address, problem):
    done = run(*_command("score", tmp_path), "--quiet", "--dask", address, cwd=tmp_path, timeout=HANG)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr.strip().endswith(
        f"error: argument --dask: {address!r}: not a scheduler address: {problem} "
        "(e.g. tcp://HOST:8786, or HOST:8786)"), done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["score", "search", "matrix", "compare"])
def test_a_listener_that_never_answers_ends_within_the_timeout(tmp_path, silent_port, command):
    done = run(*_command(command, tmp_path), "--quiet", "--dask", f"127.0.0.1:{silent_port}",
               "--dask-timeout", "2", cwd=tmp_path, timeout=HANG)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"smatchpp: error: --dask tcp://127.0.0.1:{silent_port}: something listens "
                           "there, but no Dask scheduler answered within 2 s (--dask-timeout)\n")


def test_an_http_server_is_not_a_scheduler(tmp_path, http_port):
    done = run(*_command("score", tmp_path), "--quiet", "--dask", f"tcp://127.0.0.1:{http_port}",
               "--dask-timeout", "3", cwd=tmp_path, timeout=HANG)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"smatchpp: error: --dask tcp://127.0.0.1:{http_port}: "), done.stderr
    assert ("no Dask scheduler answered within 3 s (--dask-timeout)" in done.stderr
            or "what answered there is not a Dask scheduler" in done.stderr), done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr


def test_a_closed_port_fails_at_once(tmp_path):
    port = _closed_port()
    done = run(*_command("score", tmp_path), "--quiet", "--dask", f"127.0.0.1:{port}",
               cwd=tmp_path, timeout=HANG)
    assert done.returncode == 2, done.stderr
    assert done.stderr == f"smatchpp: error: --dask tcp://127.0.0.1:{port}: cannot connect: Connection refused\n"


def test_a_running_scheduler_at_an_address_scores_as_without_dask(tmp_path):
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                       protocol="tcp://", host="127.0.0.1", dashboard_address=None)
    try:
        address = cluster.scheduler_address
        assert address.startswith("tcp://127.0.0.1:")
        remote = run("score", PRED, GOLD, "--quiet", "--dask", address.removeprefix("tcp://"),
                     cwd=tmp_path, timeout=HANG)
    finally:
        cluster.close()
    local = run("score", PRED, GOLD, "--quiet", "--workers", "1", cwd=tmp_path)
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout == local.stdout
