"""Running the command line as a user's shell does: in this process, or in a fresh one.

:func:`run` runs ``smatchpp ARGS`` and returns a :class:`subprocess.CompletedProcess`
(``returncode``, ``stdout``, ``stderr`` as text).  By default it calls
:func:`smatchpp.cli.main` in the test's own process, with what a fresh process would
have: the working directory ``cwd``, standard output and error captured (at the level
of file descriptors 1 and 2 as well, so output of C code and of forked workers is
caught), standard input ``input`` (else empty), Python's default warning filters, and
``SystemExit`` (argparse's ``--help``, ``--version`` and usage errors) turned into the
exit code.  Everything is put back afterwards: the working directory, the standard
streams, the warning filters and every signal handler.

A fresh process (``fresh=True``, and always when ``stdout``, ``stderr``, ``stdin``,
``env`` or ``preexec_fn`` is given) is for tests whose subject is the process itself:
exit codes on signals, a closed standard output, environment variables read at
start-up, what gets imported.  It imports the same ``smatchpp`` as the tests (the
source tree during development, the installed package under ``.ci/run``): its folder
goes first on ``PYTHONPATH`` and the child runs in ``cwd``, a scratch folder, so
that no ``smatchpp`` folder in the working directory can shadow it.
"""

from __future__ import annotations

import io
import locale
import os
import signal
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import smatchpp

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PRED, GOLD = EXAMPLES / "pred.amr", EXAMPLES / "gold.amr"
#: the folder that holds the ``smatchpp`` package the tests import
PACKAGE_ROOT = Path(smatchpp.__file__).resolve().parents[1]

#: keyword arguments that only a fresh process can honour
_PROCESS_ONLY = {"stdout", "stderr", "stdin", "env", "preexec_fn", "capture_output", "text"}


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.update(extra)
    return env


def smatchpp_argv(*args: object) -> list[str]:
    return [sys.executable, "-m", "smatchpp", *map(str, args)]


def run(*args: object, cwd: Path, timeout: float = 600, fresh: bool = False,
        **kwargs) -> subprocess.CompletedProcess:
    """``smatchpp ARGS``; never raises on a non-zero exit code.

    In this process unless ``fresh`` or a keyword only a process can honour is given
    (``input`` and ``timeout`` work in both: a command still running after ``timeout``
    seconds raises :class:`subprocess.TimeoutExpired`, so a hang fails the test).
    """
    if fresh or _PROCESS_ONLY & kwargs.keys():
        if "stdout" not in kwargs and "stderr" not in kwargs:
            kwargs["capture_output"] = True
        kwargs.setdefault("env", child_env())
        return subprocess.run(smatchpp_argv(*args), cwd=cwd, text=True, timeout=timeout, **kwargs)
    from smatchpp import cli

    argv = [str(a) for a in args]
    return in_process(lambda: cli.main(argv), argv, cwd=cwd, timeout=timeout, **kwargs)


def run_python(code: str, *args: object, cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess:
    """``python -c CODE ARGS`` in a fresh process (to patch something, then call ``cli.main``)."""
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], cwd=cwd, env=child_env(),
                          capture_output=True, text=True, timeout=timeout)


def _decoded(data: bytes) -> str:
    # as subprocess.run(text=True) decodes a child's output: the locale's encoding,
    # universal newlines
    text = data.decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _stream_errors(stream, default: str) -> tuple[str, str]:
    """The encoding and error handler a fresh interpreter gives a piped standard stream."""
    encoding = getattr(stream, "encoding", None) or locale.getpreferredencoding(False)
    return encoding, getattr(stream, "errors", None) or default


class _Hang(BaseException):
    """Raised in a command that outlived its timeout (by SIGALRM)."""


def in_process(call, argv: list[str], cwd: Path, input: str | bytes | None = None,
               timeout: float | None = None) -> subprocess.CompletedProcess:
    """``call()`` (which returns an exit code) as a process would run it; see the module doc."""
    saved_cwd = os.getcwd()
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    saved_signals = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE,
                                                      signal.SIGALRM)}
    hung = []

    def alarm(signum, frame):
        hung.append(True)
        raise _Hang(f"still running after {timeout} s")

    saved_fds = os.dup(1), os.dup(2)
    data = input.encode(locale.getpreferredencoding(False)) if isinstance(input, str) else (input or b"")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.TemporaryFile() as stdin, warnings.catch_warnings():
        stdin.write(data)
        stdin.seek(0)
        # Python's default filters, and warnings printed on stderr (not pytest's record)
        warnings.resetwarnings()
        for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
            warnings.simplefilter("ignore", category)
        warnings.filterwarnings("default", category=DeprecationWarning, module="__main__")
        warnings.showwarning = _print_warning
        code: object = None
        try:
            for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
                try:
                    if stream is not None:
                        stream.flush()
                except (OSError, ValueError):
                    pass
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            enc, errors = _stream_errors(sys.__stdout__, "strict")
            sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding=enc, errors=errors)
            sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), encoding=enc,
                                          errors="backslashreplace", line_buffering=True)
            sys.stdin = io.TextIOWrapper(open(stdin.fileno(), "rb", closefd=False), encoding=enc)
            os.chdir(cwd)
            if timeout is not None:
                signal.signal(signal.SIGALRM, alarm)
                signal.setitimer(signal.ITIMER_REAL, timeout)
            try:
                code = call()
            except _Hang:
                pass
            except SystemExit as exc:  # argparse: --help, --version, usage errors
                code = exc.code
                if code is not None and not isinstance(code, int):
                    print(code, file=sys.stderr)
                    code = 1
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):  # closed or pointed at a closed pipe by the command
                    pass
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            os.chdir(saved_cwd)
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            os.dup2(saved_fds[0], 1)
            os.dup2(saved_fds[1], 2)
            for fd in saved_fds:
                os.close(fd)
            for number, handler in saved_signals.items():
                if handler is not None:
                    signal.signal(number, handler)
        out.seek(0)
        err.seek(0)
        if hung:
            raise subprocess.TimeoutExpired(["smatchpp", *argv], timeout, out.read(), err.read())
        return subprocess.CompletedProcess(["smatchpp", *argv], 0 if code is None else code,
                                           _decoded(out.read()), _decoded(err.read()))


def _print_warning(message, category, filename, lineno, file=None, line=None):
    """Python's own way of showing a warning, on the (redirected) standard error."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))
