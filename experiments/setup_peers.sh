#!/usr/bin/env bash
# Create (idempotently) the isolated virtualenv that holds the peer Smatch tools.
#
# PyPI's `smatchpp` package collides with this repo's import name, so the peers
# live in their own venv and are only ever run as subprocesses
# (see experiments/peers.py, smatchpp/audit/smatch104_driver.py, peer_smatchpp18.py).
#
#   VENV=${SMATCHPP_PEERS_VENV:-$HOME/.cache/smatchpp-peers/venv}
#   Pinned: smatch==1.0.4 smatchpp==1.8.0 mip==1.13.0
#
# mip 1.13.0 only requires an unpinned `cffi` and ships CBC as a bundled
# shared library (mip/libraries/cbc-c-linux-x86-64.so), loaded via cffi's
# FFI.dlopen.  On this machine (CPython 3.11, x86-64) that works out of the box
# (cffi 2.x wheel).  We still verify CBC by solving a tiny MIP; if that fails
# (e.g. no cffi wheel for the interpreter), we reinstall cffi from a wheel.
set -euo pipefail
VENV="$(realpath -m "${SMATCHPP_PEERS_VENV:-$HOME/.cache/smatchpp-peers/venv}")"
cd /  # `python -m`/`-c` put the cwd on sys.path: from the repo root our own
      # `smatchpp` package would shadow the peer's in the checks below
unset PYTHONPATH
PY="${PYTHON:-python3}"
PINS=(smatch==1.0.4 smatchpp==1.8.0 mip==1.13.0)

cbc_ok() {
  # Solve a 1-variable MIP with CBC; fails loudly if the shared lib or cffi is broken.
  "$VENV/bin/python" - <<'PY' >/dev/null 2>&1
import mip
m = mip.Model(solver_name=mip.CBC)
m.verbose = 0
x = m.add_var(var_type=mip.BINARY)
m.objective = mip.maximize(x)
assert m.optimize() == mip.OptimizationStatus.OPTIMAL and round(x.x) == 1
PY
}

if [[ ! -x "$VENV/bin/python" ]]; then
  mkdir -p "$(dirname "$VENV")"
  "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
fi

# Install the pins (a no-op when already satisfied).
"$VENV/bin/python" -m pip install -q "${PINS[@]}"

if ! cbc_ok; then
  echo "setup_peers: CBC not usable, installing a working cffi" >&2
  "$VENV/bin/python" -m pip install -q --force-reinstall --only-binary=:all: cffi
  cbc_ok || { echo "setup_peers: mip CBC still broken" >&2; exit 1; }
fi

"$VENV/bin/python" -m smatchpp -h >/dev/null
"$VENV/bin/python" -c 'import smatch, amr, smatchpp, mip; print("peers ok:", smatch.__file__, smatchpp.__file__, "mip", mip.__version__)'
echo "$VENV"
