"""The import graph of the package: no circle, and nothing imports up the house
(docs/architecture.md, "Architecture").

Every ``import`` and ``from ... import`` of every module is read from its source (those
inside functions and ``if TYPE_CHECKING:`` too). The layers, from the bottom: the top-level
helpers, ``backends``, ``text``, ``inputs``, ``counting``, ``scores``, ``significance``, the
front ends and adapters (which may use each other), and the command and ``bleusuite bench``
(with the package's ``__init__``). A module imports only from its own layer or below; no
set of modules imports each other in a circle (a package's loading of its own submodules
inside a function, as ``backends._load`` loads an array library's backend, aside).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "bleusuite"
LAYERS = [
    {"version", "array_types", "checks", "environment", "native", "threads"},
    {"backends"},
    {"text"},
    {"inputs"},
    {"counting"},
    {"scores"},
    {"significance"},
    {"metrics", "losses", "rewards", "torchmetrics", "sacrebleu", "evaluate", "ray",
     "jiwer", "pycocoevalcap"},
    {"bench", "cli", "__main__", ""},
]

#: evaluate's module scripts (``bleusuite/evaluate/NAME/NAME.py``), which evaluate loads from
#: their files as a user's script: they may use the public API (``import bleusuite``)
EVALUATE_SCRIPTS = "bleusuite.evaluate."


def _modules() -> dict[str, Path]:
    modules = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    return modules


MODULES = _modules()


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The package modules an import statement of ``module`` imports."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".")
            if MODULES[module].name != "__init__.py":
                package = package[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join(package + ([node.module] if node.module else []))
        names = [f"{base}.{alias.name}" for alias in node.names]
    found = []
    for name in names:
        while name not in MODULES and "." in name:
            name = name.rsplit(".", 1)[0]
        if name in MODULES and name != module:
            found.append(name)
    return found


def _graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(every import, the imports at module level) of each module."""
    every: dict[str, set[str]] = defaultdict(set)
    top: dict[str, set[str]] = defaultdict(set)
    for module, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                every[module].update(_targets(module, node))
        for statement in tree.body:
            inner = [statement]
            if isinstance(statement, ast.If | ast.Try):
                inner = statement.body + getattr(statement, "orelse", [])
            for node in inner:
                if isinstance(node, ast.Import | ast.ImportFrom):
                    top[module].update(_targets(module, node))
    return every, top


def _layer(module: str) -> int:
    part = module.split(".")[1] if "." in module else ""
    for index, names in enumerate(LAYERS):
        if part in names:
            return index
    raise AssertionError(f"{module}: in no layer of tests/test_import_graph.py (add it)")


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return circles


def test_no_module_imports_up_the_house() -> None:
    every, _ = _graph()
    up = sorted(f"{module} -> {target}" for module, targets in every.items()
                for target in targets if _layer(target) > _layer(module)
                and not (target == "bleusuite" and module.startswith(EVALUATE_SCRIPTS)))
    assert up == []


def test_no_import_circle() -> None:
    every, top = _graph()
    assert _circles(top) == []
    # inside functions too, but for a package loading its own submodules lazily
    lazy = {module: {target for target in targets
                     if not (target.startswith(module + ".") and target not in top[module])}
            for module, targets in every.items()}
    assert _circles(lazy) == []


def test_the_check_finds_a_circle_and_an_import_up() -> None:
    """The checks themselves: a circle and an upward import they must report."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _layer("bleusuite.scores.bleu.entry") < _layer("bleusuite.cli.options")
