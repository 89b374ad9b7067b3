"""`smatchpp compare` on AMRParseEval's Little Prince data: BART vs T5 against the references.

``../shared/data/parseval-lp/src.test.amr`` interleaves the two parsers (even
graphs: BART, odd: T5); ``tgt.test.amr`` holds each reference twice.  This
script splits them into three parallel files in a temporary folder (the shared
data is never copied into the repository; ``SMATCHPP_SHARED`` overrides where
``../shared`` is), runs the ``compare`` command twice
in fresh processes, checks that both outputs are identical, and prints the
result as a Markdown table with the text output below it.

    python3 experiments/compare_parseval.py [--bootstrap 1000] [--ar-trials 10000] [--seed 12345]
        [--aspects separate|joint]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "experiments"))
from experiment import PARSEVAL as DATA  # noqa: E402  (SMATCHPP_SHARED overrides ../shared)


def graphs(path: Path) -> list[str]:
    """The graph blocks of a PENMAN file (metadata lines kept), separated by blank lines."""
    blocks, current = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            current.append(line)
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


def split(folder: Path) -> tuple[Path, Path, Path]:
    src, tgt = graphs(DATA / "src.test.amr"), graphs(DATA / "tgt.test.amr")
    assert len(src) == len(tgt) and len(src) % 2 == 0, (len(src), len(tgt))
    assert all(tgt[i] == tgt[i + 1] for i in range(0, len(tgt), 2)), "references not doubled"
    files = {"bart.amr": src[0::2], "t5.amr": src[1::2], "gold.amr": tgt[0::2]}
    for name, blocks in files.items():
        (folder / name).write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return folder / "bart.amr", folder / "t5.amr", folder / "gold.amr"


def run(args: list[str]) -> tuple[str, float]:
    began = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "smatchpp", "compare", *args, "--quiet"],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return out.stdout, time.perf_counter() - began


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--ar-trials", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--aspects", choices=("separate", "joint"), default=None,
                    help="also compare the aspects (their rows follow in the text output)")
    args = ap.parse_args()
    if not DATA.is_dir():
        sys.exit(f"shared data not found at {DATA}")
    with tempfile.TemporaryDirectory() as tmp:
        bart, t5, gold = split(Path(tmp))
        options = [str(bart), str(t5), str(gold), "--bootstrap", str(args.bootstrap),
                   "--ar-trials", str(args.ar_trials), "--bootstrap-seed", str(args.seed)]
        if args.aspects:
            options += ["--aspects", args.aspects]
        first, seconds1 = run(options + ["--format", "json"])
        second, seconds2 = run(options + ["--format", "json"])
        text, _ = run(options)
    result = json.loads(first)
    c = result["comparisons"][0]
    print(f"pairs: {result['pairs']}, certified optimal: {result['certified_optimal']}")
    print()
    print("| F1 BART | F1 T5 | delta F1 (BART - T5) | 95% interval of delta | p paired bootstrap "
          "| p approximate randomization | identical over two runs | wall s (each run) |")
    print("|---|---|---|---|---|---|---|---|")
    print(f"| {100 * c['f1_sys1']:.2f} [{100 * c['sys1_interval'][0]:.2f}, "
          f"{100 * c['sys1_interval'][1]:.2f}] | {100 * c['f1_sys2']:.2f} "
          f"[{100 * c['sys2_interval'][0]:.2f}, {100 * c['sys2_interval'][1]:.2f}] "
          f"| {100 * c['delta_f1']:+.3f} | [{100 * c['delta_interval'][0]:+.2f}, "
          f"{100 * c['delta_interval'][1]:+.2f}] | {c['p_value_bootstrap']:.4f} "
          f"| {c['p_value_randomization']:.4f} | {first == second} | {seconds1:.1f}, {seconds2:.1f} |")
    print()
    print("Signature: `" + result["signature"] + "`")
    print()
    print("Text output (temporary paths shortened):")
    print()
    print("```")
    print(text.replace(str(bart.parent) + "/", "").rstrip())
    print("```")
    if first != second:
        sys.exit("the two runs differ")


if __name__ == "__main__":
    main()
