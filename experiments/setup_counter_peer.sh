#!/usr/bin/env bash
# Set up (idempotently) Counter, the DRS metric of RikVN/DRS_parsing, as a peer, outside the
# repository, for experiments/compare_counter.py.  Nothing of it enters this repo.
#
#   ROOT=${COUNTER_PEER:-$HOME/.cache/counter-peer}
#   $ROOT/<commit>/evaluation/   counter.py, hill_climbing.py, clf_referee.py, clf_signature.yaml, ...
#                                at each commit below, one per PMB release it reads
#   $ROOT/data/pmb-*/            the release files of data/ at HEAD (gold dev/test/eval, Boxer's
#                                outputs, the SPAR baseline DRS)
#   $ROOT/venv                   python3 with numpy, psutil and PyYAML 5.4.1
#
# Which Counter reads which release (each checked with its own Referee, -ill error):
#   PMB 2.2.0  tag v.2.2.0  ec4eb07  (its signature has the DRS operator of 2.2.0's gold; later
#                                     Referees reject 2-3% of 2.2.0's DRSs: "unknown clause || DRS")
#   PMB 3.0.0  tag v.3.0.0  14d807d
#   PMB 4.0.0  HEAD         190838f
# PyYAML 5.4.1: v.2.2.0 calls yaml.load without a Loader, which PyYAML 6 refuses; 5.4.1 builds
# only with Cython < 3 and without build isolation.
#
# evaluation/wordnet_dict_en.py (the generated WordNet map Counter imports) is not in the
# repository's stored copy: a stand-in is written that holds {} unless $COUNTER_WORDNET_MAP names
# a JSON file of the map (the same file smatchpp's --counter-wordnet reads).
#
# The repository is read from a bare git mirror given by DRS_PARSING_GIT; without it, it is
# cloned from GitHub (`git clone --mirror`) into $ROOT/mirror.git once.
set -euo pipefail
ROOT="$(realpath -m "${COUNTER_PEER:-$HOME/.cache/counter-peer}")"
PY="${PYTHON:-python3}"
GIT="${DRS_PARSING_GIT:-$ROOT/mirror.git}"
COMMITS="ec4eb07a914a30783542a06124145aa177364380 14d807d447b956b2b109303de2d5517e679faff8 190838f9adea2af616eb76156d2e66c8565a6c6e"
HEAD_COMMIT=190838f9adea2af616eb76156d2e66c8565a6c6e
cd /
unset PYTHONPATH
mkdir -p "$ROOT"

if [[ ! -d "$GIT" ]]; then
  git clone -q --mirror https://github.com/RikVN/DRS_parsing "$GIT"
fi

extract() {  # commit, path prefix, destination
  local commit="$1" prefix="$2" dest="$3" f
  git --git-dir="$GIT" ls-tree -r --name-only "$commit" -- "$prefix" | while read -r f; do
    if git --git-dir="$GIT" cat-file -e "$commit:$f" 2>/dev/null; then
      mkdir -p "$dest/$(dirname "$f")"
      git --git-dir="$GIT" show "$commit:$f" > "$dest/$f"
    else
      echo "setup_counter_peer: $f is not in the mirror at ${commit:0:7}: skipped" >&2
    fi
  done
}

for commit in $COMMITS; do
  dest="$ROOT/$commit"
  if [[ "$(cat "$dest/COMMIT" 2>/dev/null)" != "$commit" ]]; then
    rm -rf "$dest" && mkdir -p "$dest"
    extract "$commit" evaluation "$dest"
    echo "$commit" > "$dest/COMMIT"
  fi
  if [[ ! -s "$dest/evaluation/wordnet_dict_en.py" ]]; then
    cat > "$dest/evaluation/wordnet_dict_en.py" <<'EOF'
# stand-in written by smatchpp's experiments/setup_counter_peer.sh: the generated map is not in
# the stored repository; {} unless $COUNTER_WORDNET_MAP names a JSON file of it
import json, os
_path = os.environ.get("COUNTER_WORDNET_MAP")
en_sense_dict = json.load(open(_path)) if _path else {}
EOF
  fi
done

if [[ "$(cat "$ROOT/data/COMMIT" 2>/dev/null)" != "$HEAD_COMMIT" ]]; then
  rm -rf "$ROOT/data" && mkdir -p "$ROOT/data.tmp"
  for rel in pmb-2.2.0 pmb-3.0.0 pmb-4.0.0; do
    for f in gold/dev.txt gold/test.txt gold/eval.txt boxer_parse_dev.txt boxer_parse_test.txt baseline_drs.txt; do
      if git --git-dir="$GIT" cat-file -e "$HEAD_COMMIT:data/$rel/$f" 2>/dev/null; then
        mkdir -p "$ROOT/data.tmp/$rel/$(dirname "$f")"
        git --git-dir="$GIT" show "$HEAD_COMMIT:data/$rel/$f" > "$ROOT/data.tmp/$rel/$f"
      fi
    done
  done
  echo "$HEAD_COMMIT" > "$ROOT/data.tmp/COMMIT"
  mv "$ROOT/data.tmp" "$ROOT/data"
fi

VENV="$ROOT/venv"
[[ -x "$VENV/bin/python" ]] || "$PY" -m venv "$VENV"
if ! "$VENV/bin/python" -c 'import yaml, numpy, psutil; assert yaml.__version__ == "5.4.1"' 2>/dev/null; then
  "$VENV/bin/python" -m pip install -q numpy psutil "cython<3" wheel setuptools
  "$VENV/bin/python" -m pip install -q --no-build-isolation "pyyaml==5.4.1"
fi
echo "$ROOT"
