"""The import structure of smatchpp in any checkout: circles, imports against the layer
contract, and private names imported across modules.

usage: python3 experiments/import_structure.py [CHECKOUT] [--contract PYPROJECT]

CHECKOUT is a folder holding ``smatchpp/`` (default: this repository); its code is parsed,
never imported, so an old commit can be measured (``git worktree add ../before 786b2e6``,
then ``python3 experiments/import_structure.py ../before``).  The layer order is the
``layers`` contract of ``[tool.importlinter]`` in PYPROJECT (default: this repository's
``pyproject.toml``, so an old checkout is measured against today's contract).

Every import counts, at module level or inside a function, ``TYPE_CHECKING`` ones too (as
grimp and import-linter see them).  It prints:

* each import circle (a strongly connected component of more than one module);
* each import from a module to one in a higher layer, or to an independent sibling
  (``|`` in the contract), and the pairs of top-level modules such imports connect;
  imports listed in the contract's ``ignore_imports`` are counted apart;
* each private name (``_name``) imported from another module of the package;

then a summary line ``circles N (modules M), upward imports U (pairs of layers P, ignored I),
private imports Q``.  The root package (``smatchpp/__init__.py``) is the contract's container:
imports of it count in circles, not against the layers.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

PACKAGE = "smatchpp"
REPO = Path(__file__).resolve().parents[1]


def modules(root: Path) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` file under the package folder ``root``."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root.parent).with_suffix("")
        name = ".".join(rel.parts)
        found[name[: -len(".__init__")] if name.endswith(".__init__") else name] = path
    return found


def _imports(name: str, path: Path, mods: dict[str, Path]):
    """``(base, imported name or None)`` of every import statement in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = name.split(".")
                keep = len(parts) - node.level + (1 if path.name == "__init__.py" else 0)
                base = ".".join(parts[:keep] + ([base] if base else []))
            yield from ((base, alias.name) for alias in node.names)


def import_graph(root: Path) -> tuple[dict[str, set[str]], list[str]]:
    """The edges between the package's modules (importer -> imported modules; ``from pkg
    import sub`` is an import of the submodule), and the private names imported across
    modules (``"importer imports module._name"``)."""
    mods = modules(root)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    private = []
    for m, path in mods.items():
        for base, name in _imports(m, path, mods):
            if base != PACKAGE and not base.startswith(PACKAGE + "."):
                continue
            target = f"{base}.{name}" if name and f"{base}.{name}" in mods else base
            while target not in mods and "." in target:
                target = target.rsplit(".", 1)[0]
            if target not in mods or target == m:
                continue
            edges[m].add(target)
            if name and name.startswith("_") and not name.startswith("__") and target == base:
                private.append(f"{m} imports {base}.{name}")
    return edges, private


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def contract(pyproject: Path) -> tuple[list[list[str]], list[bool], set[tuple[str, str]]]:
    """The layers contract: each layer's top-level modules, whether its siblings are
    independent (``|``), and the ignored imports."""
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["type"] == "layers")
    groups, independent = [], []
    for layer in layers["layers"]:
        sep = "|" if "|" in layer else ":"
        groups.append([part.strip() for part in layer.split(sep)])
        independent.append(sep == "|")
    ignored = {tuple(x.strip() for x in line.split("->")) for line in layers.get("ignore_imports", [])}
    return groups, independent, ignored


def _top(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def upward(edges: dict[str, set[str]], groups: list[list[str]], independent: list[bool]
           ) -> tuple[list[tuple[str, str]], list[str]]:
    """Imports that break the layer order (to a higher layer, or to an independent sibling),
    and the top-level modules that the contract does not place."""
    layer_of = {name: k for k, group in enumerate(groups) for name in group}
    broken, unplaced = [], set()
    for importer, imported in sorted((a, b) for a, targets in edges.items() for b in targets):
        top_a, top_b = _top(importer), _top(imported)
        if top_a is None or top_b is None or top_a == top_b:
            continue  # the root package, or inside one top-level module
        for top in (top_a, top_b):
            if top not in layer_of:
                unplaced.add(top)
        if top_a not in layer_of or top_b not in layer_of:
            continue
        la, lb = layer_of[top_a], layer_of[top_b]
        if lb < la or (la == lb and independent[la]):  # layer 0 is the top
            broken.append((importer, imported))
    return broken, sorted(unplaced)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", nargs="?", type=Path, default=REPO)
    parser.add_argument("--contract", type=Path, default=REPO / "pyproject.toml")
    args = parser.parse_args(argv)
    root = args.checkout / PACKAGE
    if not root.is_dir():
        parser.error(f"{args.checkout} holds no {PACKAGE}/ folder")
    edges, private = import_graph(root)
    found = circles(edges)
    groups, independent, ignored = contract(args.contract)
    broken, unplaced = upward(edges, groups, independent)
    counted = [e for e in broken if e not in ignored]
    pairs = sorted({(_top(a), _top(b)) for a, b in counted})
    for component in found:
        print("circle:", ", ".join(component))
    for a, b in broken:
        print(f"upward: {a} -> {b}" + (" (ignored by the contract)" if (a, b) in ignored else ""))
    for a, b in pairs:
        print(f"broken pair: {a} -> {b}")
    for top in unplaced:
        print(f"not in the contract: {PACKAGE}.{top}")
    for line in private:
        print("private:", line)
    print(f"circles {len(found)} (modules {sum(map(len, found))}), upward imports {len(counted)} "
          f"(pairs of layers {len(pairs)}, ignored {len(broken) - len(counted)}), "
          f"private imports {len(private)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
