"""Screenshots of an explain report, taken by the headless browser the tests use.

    python3 experiments/screenshot_report.py REPORT.html OUT.png [--pair N] [--width 1400] [--height 900]
                                             [--sort F1] [--time]

Loads the report from disk in Chromium (through Playwright, ``executable_path``
= the distribution's browser), optionally opens pair N (``#pair-N``) or sorts
the index by a column, and saves a PNG of the viewport.  Fails if the page
logs a console error.  ``--time`` prints how long the page took to load and,
with ``--pair``, to open the pair.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from test_explain_browser import CHROMIUM_ARGS, chromium_path  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("report")
    ap.add_argument("out")
    ap.add_argument("--pair", type=int)
    ap.add_argument("--sort", help="click this index column header first (e.g. F1)")
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--height", type=int, default=900)
    ap.add_argument("--time", action="store_true")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        print("no chromium found", file=sys.stderr)
        return 2
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        began = time.perf_counter()
        page.goto(Path(args.report).resolve().as_uri(), wait_until="load")
        loaded = time.perf_counter()
        if args.sort:
            page.click(f"#idx th:text-is('{args.sort}')")
        if args.pair is not None:
            page.click(f'#idx tbody tr[data-i="{args.pair}"]')
            page.wait_for_selector("#view section")
        opened = time.perf_counter()
        page.screenshot(path=args.out)
        browser.close()
    if args.time:
        print(f"load {loaded - began:.2f} s" + (f", open pair {opened - loaded:.2f} s" if args.pair is not None else ""))
    if errors:
        print("console errors:", *errors, sep="\n  ", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
