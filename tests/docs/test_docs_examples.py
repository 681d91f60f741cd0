"""Every code example in README.md and docs/*.md runs as copied, on its own.

Sphinx's doctest builder gives its examples a hidden global setup (``import numpy as np``,
``from bleusuite import *``, ``torch``...). A reader copying an example has none of that,
so here each block runs in a fresh namespace: ```` ```python ```` blocks are executed,
```` ```{doctest} ```` blocks are checked by doctest (Sphinx's default option flags). A
block that needs an optional library (torch, ignite, sacrebleu, ...) is skipped where that
library is not installed, and a block preceded by ``<!-- skip: REASON -->`` (for example
``<!-- skip: needs CUDA -->``) is skipped with that reason. A python block's top-level
expression whose value is not None (``bleu.compute(...)`` with its output in a comment)
fails: a copied script would print nothing; the block must print it.
"""

from __future__ import annotations

import ast
import doctest
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OPTIONAL = {"torch", "ignite", "cupy", "sacrebleu", "nltk", "trl", "transformers", "datasets",
            "matplotlib", "tqdm", "jax", "tabulate", "lightning", "evaluate", "torchmetrics",
            "ray", "pyarrow", "pandas", "verl", "rouge_score"}
FENCE = re.compile(r"^```(?P<kind>python|\{doctest\})[ \t]*\n(?P<body>.*?)^```[ \t]*$",
                   re.MULTILINE | re.DOTALL)
SKIP = re.compile(r"<!--\s*skip:\s*(?P<reason>.*?)\s*-->\s*$")
IMPORT = re.compile(r"^(?:>>> |\.\.\. )?\s*(?:import|from)\s+(?P<module>[A-Za-z_][\w.]*)",
                    re.MULTILINE)
# bleusuite's modules that need optional libraries
NEEDS = {"bleusuite.metrics": ("torch", "ignite"), "bleusuite.losses": ("torch",),
         "bleusuite.torchmetrics": ("torch", "torchmetrics"), "bleusuite.ray": ("ray",),
         "bleusuite.evaluate": ("evaluate",)}
# Sphinx's doctest_default_flags
FLAGS = doctest.ELLIPSIS | doctest.IGNORE_EXCEPTION_DETAIL | doctest.DONT_ACCEPT_TRUE_FOR_1


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    kind: str
    code: str
    skip: str | None

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def _blocks() -> list[Block]:
    blocks = []
    for path in DOCUMENTS:
        source = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(source):
            line = source.count("\n", 0, match.start()) + 1
            before = source[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            skip = SKIP.search(before)
            body = match.group("body")
            if match.group("kind") == "{doctest}":  # drop the directive's :options:
                body = re.sub(r"\A(?:[ \t]*:[\w-]+:.*\n)+", "", body)
            blocks.append(Block(path, line, match.group("kind"), body,
                                skip.group("reason") if skip else None))
    return blocks


BLOCKS = _blocks()


def test_the_documents_have_examples():
    assert len(BLOCKS) >= 20
    kinds = {block.kind for block in BLOCKS}
    assert kinds == {"python", "{doctest}"}


#: the name of the check a python block's top-level expressions go through
_DROPPED = "__dropped_value__"


def _dropped_values_checked(code: str) -> ast.Module:
    """``code`` with each top-level expression statement (``bleu.compute(...)``) passed to
    the check of :func:`_refuse_dropped`: as a script it would print nothing, whatever the
    comment beside it shows."""
    tree = ast.parse(code)
    for statement in tree.body:
        if isinstance(statement, ast.Expr) and not isinstance(statement.value, ast.Constant):
            statement.value = ast.Call(ast.Name(_DROPPED, ast.Load()),
                                       [statement.value, ast.Constant(statement.lineno)], [])
    return ast.fix_missing_locations(tree)


def _refuse_dropped(block: Block) -> Any:
    def check(value: object, line: int) -> None:
        if value is not None:
            raise AssertionError(
                f"{block.name}: line {line} of the block is an expression whose value "
                f"({type(value).__name__}) a copied script drops without a word: print it"
            )

    return check


def test_a_block_that_drops_a_value_fails():
    """The check above, on a block like docs/rouge.md's first (issue 46 item 10)."""
    block = Block(ROOT / "docs" / "rouge.md", 1, "python",
                  "x = [1]\nx.append(2)\nlen(x)  # 2\n", None)
    namespace: dict[str, object] = {_DROPPED: _refuse_dropped(block)}
    with pytest.raises(AssertionError, match=r"line 3 .* print it"):
        exec(compile(_dropped_values_checked(block.code), block.name, "exec"), namespace)
    assert namespace["x"] == [1, 2]  # a call for its effect (None) passes


def _shows_a_dropped_value(code: str) -> bool:
    """Whether a block ends in an expression (not a ``print``) followed by comments only:
    the comments show an output a copied script does not print."""
    body = ast.parse(code).body
    if not body or not isinstance(body[-1], ast.Expr):
        return False
    value = body[-1].value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
            value.func.id == "print":
        return False
    after = code.splitlines()[body[-1].end_lineno or 0:]
    return any(line.strip().startswith("#") for line in after)


def test_no_block_ends_in_a_value_that_only_a_comment_shows():
    """Every python block, the skipped ones too (they run where their library is):
    ``rouge.compute(...)`` then ``# {'rouge1': 1.0, ...}`` printed nothing (issue 46 item
    10)."""
    assert _shows_a_dropped_value("r = {}\nr.get(1)\n# None\n")
    assert not _shows_a_dropped_value("r = {}\nprint(r.get(1))\n# None\n")
    wrong = [block.name for block in BLOCKS
             if block.kind == "python" and _shows_a_dropped_value(block.code)]
    assert not wrong, wrong


@pytest.mark.parametrize("block", BLOCKS, ids=lambda block: block.name)
def test_example_runs_on_its_own(block, tmp_path, monkeypatch):
    if block.skip is not None:
        pytest.skip(block.skip)
    needed = set()
    for module in IMPORT.findall(block.code):
        needed.update(NEEDS.get(module, ()))
        needed.add(module.split(".")[0])
    for module in sorted(needed & OPTIONAL):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"needs {module}, not installed here")
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    namespace: dict[str, object] = {"__name__": "__main__"}  # as a copied script
    if block.kind == "python":
        namespace[_DROPPED] = _refuse_dropped(block)
        exec(compile(_dropped_values_checked(block.code), block.name, "exec"), namespace)
        return
    test = doctest.DocTestParser().get_doctest(block.code, namespace, block.name,
                                               str(block.path), block.line)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
