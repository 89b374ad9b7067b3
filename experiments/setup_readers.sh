#!/usr/bin/env bash
# Set up (idempotently) the reference tools' readers, outside the repository, for
# experiments/compare_readers.py.  Nothing of them enters this repo.
#
#   ROOT=${READERS_ROOT:-$HOME/.cache/reference-readers}
#   $ROOT/amr-suite/        flipz357/amr-metric-suite 711a231, py3-Smatch-and-S2match/smatch/
#                           {amr_py3,helpers,smatch}.py          (module amr_py3)
#   $ROOT/amr-evaluation/   mdtux89/amr-evaluation 8bc6b2e, smatch/{amr,smatch}.py (module amr)
#   $ROOT/smatch-1.0.1/venv, $ROOT/smatch-1.0.3.2/venv   PyPI smatch releases (module amr)
# jcyk/AMR-parser's reader (the WSMATCH tool) is the copy experiments/setup_peers.sh
# patches for python3 into ${WSMATCH_PEER:-$HOME/.cache/wsmatch-peer}/src (module amr).
#
# The repositories are read from bare git mirrors given by AMR_SUITE_GIT and AMR_EVALUATION_GIT;
# without them, they are cloned from GitHub (`git clone --mirror`) into $ROOT/mirrors once.
# These readers need only the standard library: they run with any python3 >= 3.6.
set -euo pipefail
ROOT="$(realpath -m "${READERS_ROOT:-$HOME/.cache/reference-readers}")"
PY="${PYTHON:-python3}"
SUITE_GIT="${AMR_SUITE_GIT:-$ROOT/mirrors/amr-metric-suite.git}"
EVAL_GIT="${AMR_EVALUATION_GIT:-$ROOT/mirrors/amr-evaluation.git}"
SUITE_COMMIT=711a231d3600139662fe048460e10d773ff8e214
EVAL_COMMIT=8bc6b2e9e4170412f91c33281410163441f97cba
cd /
unset PYTHONPATH

mirror() {  # git dir, GitHub repository: clone it when the git dir is missing
  if [[ ! -d "$1" ]]; then
    mkdir -p "$(dirname "$1")" && git clone -q --mirror "https://github.com/$2" "$1" \
      || echo "setup_readers: could not clone $2 into $1" >&2
  fi
}
mirror "$SUITE_GIT" flipz357/amr-metric-suite
mirror "$EVAL_GIT" mdtux89/amr-evaluation

extract() {  # git dir, commit, folder in the repo, destination, files...
  local git="$1" commit="$2" folder="$3" dest="$4"; shift 4
  if [[ "$(cat "$dest/COMMIT" 2>/dev/null)" == "$commit" ]]; then return; fi
  if ! git --git-dir="$git" cat-file -e "$commit" 2>/dev/null; then
    echo "setup_readers: no mirror with $commit at $git: skipped" >&2; return
  fi
  rm -rf "$dest" && mkdir -p "$dest"
  for f in "$@"; do git --git-dir="$git" show "$commit:$folder/$f" > "$dest/$f"; done
  echo "$commit" > "$dest/COMMIT"
}

extract "$SUITE_GIT" "$SUITE_COMMIT" py3-Smatch-and-S2match/smatch "$ROOT/amr-suite" \
  amr_py3.py helpers.py smatch.py
extract "$EVAL_GIT" "$EVAL_COMMIT" smatch "$ROOT/amr-evaluation" amr.py smatch.py

for version in 1.0.1 1.0.3.2; do
  venv="$ROOT/smatch-$version/venv"
  [[ -x "$venv/bin/python" ]] || "$PY" -m venv "$venv"
  "$venv/bin/python" -m pip install -q "smatch==$version"
done
echo "$ROOT"
