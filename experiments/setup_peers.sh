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

# --- The WSMATCH reference (Cai & Lam 2019, weighted Smatch): jcyk/AMR-parser's
# amr-evaluation-tool-enhanced/smatch/{smatch,amr,AMRGraph}.py (Python 2, stdlib only).
# Extracted from a read-only mirror of that repository (the `fetch` tool's copy) into
# $WSMATCH_PEER/src, patched there to run under python3, with a stdlib-only venv beside it.
# Nothing of it enters this repo; experiments/wsmatch_peer_driver.py drives it.
# The patch (applied to the cache copy only) changes no computation:
#   1. amr.py has one tab-indented line among space-indented ones (`if len(node_value_list)
#      == 0 : print (line)`): Python 3 rejects it (TabError); the tab becomes 8 spaces,
#      the indentation Python 2 gave it;
#   2. lib2to3 (`python3 -m lib2to3 -w -n`, CPython <= 3.12): `print >>f, x` statements
#      become print(x, file=f), `for k, v in d.items()` becomes `list(d.items())`;
#   3. smatch.py's `__main__` refuses Python 3 (`sys.version_info[0] != 2`): now `< 2`,
#      so its CLI runs too (`python src/smatch.py --pr -f A B --weighted`).
# What Python 3 does differently: dicts iterate in insertion order (Python 2: hash order),
# so the triples come in another order and the hill-climber's tie-breaks and search path
# differ; its restarts are unseeded (random.seed()) anyway.  str.lower() also lower-cases
# non-ASCII letters (Python 2 read bytes).  The triples and their weights are unchanged.
WSMATCH_PEER="$(realpath -m "${WSMATCH_PEER:-$HOME/.cache/wsmatch-peer}")"
WSMATCH_MIRROR="${WSMATCH_MIRROR:-/work/.mirror/jcyk+AMR-parser/repo/.git}"
WSMATCH_COMMIT=e41279833c30028997be75c6d9cf6aa8b3b3de2f  # jcyk/AMR-parser HEAD, 2019-11
if [[ "$(cat "$WSMATCH_PEER/COMMIT" 2>/dev/null)" != "$WSMATCH_COMMIT" ]]; then
  if git --git-dir="$WSMATCH_MIRROR" cat-file -e "$WSMATCH_COMMIT" 2>/dev/null; then
    rm -rf "$WSMATCH_PEER/src" && mkdir -p "$WSMATCH_PEER/src"
    for f in smatch.py amr.py AMRGraph.py; do
      git --git-dir="$WSMATCH_MIRROR" show \
        "$WSMATCH_COMMIT:amr-evaluation-tool-enhanced/smatch/$f" > "$WSMATCH_PEER/src/$f"
    done
    sed -i 's/^\t/        /' "$WSMATCH_PEER/src/amr.py"
    "$PY" -W ignore -m lib2to3 -w -n "$WSMATCH_PEER/src" >/dev/null 2>&1 \
      || { echo "setup_peers: lib2to3 failed (needs CPython <= 3.12)" >&2; exit 1; }
    sed -i 's/sys.version_info\[0\] != 2/sys.version_info[0] < 2/' "$WSMATCH_PEER/src/smatch.py"
    [[ -x "$WSMATCH_PEER/venv/bin/python" ]] || "$PY" -m venv "$WSMATCH_PEER/venv"
    echo "$WSMATCH_COMMIT" > "$WSMATCH_PEER/COMMIT"
  else
    echo "setup_peers: no jcyk/AMR-parser mirror at $WSMATCH_MIRROR: WSMATCH reference skipped" >&2
  fi
fi
if [[ -f "$WSMATCH_PEER/COMMIT" ]]; then
  (cd "$WSMATCH_PEER/src" && "$WSMATCH_PEER/venv/bin/python" -c 'import smatch, amr, AMRGraph') \
    && echo "wsmatch peer ok: $WSMATCH_PEER" >&2
fi

"$VENV/bin/python" -m smatchpp -h >/dev/null
"$VENV/bin/python" -c 'import smatch, amr, smatchpp, mip; print("peers ok:", smatch.__file__, smatchpp.__file__, "mip", mip.__version__)'
echo "$VENV"
