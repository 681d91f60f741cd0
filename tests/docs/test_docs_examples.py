"""Every code example in README.md and docs/*.md runs as copied, on its own.

Sphinx's doctest builder gives its examples a hidden global setup (``import numpy as np``,
``from bleusuite import *``, ``torch``...). A reader copying an example has none of that,
so here each block runs in a fresh namespace: ```` ```python ```` blocks are executed,
```` ```{doctest} ```` blocks are checked by doctest (Sphinx's default option flags). A
block that needs an optional library (torch, ignite, sacrebleu, ...) is skipped where that
library is not installed, and a block preceded by ``<!-- skip: REASON -->`` (for example
``<!-- skip: needs CUDA -->``) is skipped with that reason.
"""

from __future__ import annotations

import doctest
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path

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
        exec(compile(block.code, block.name, "exec"), namespace)
        return
    test = doctest.DocTestParser().get_doctest(block.code, namespace, block.name,
                                               str(block.path), block.line)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    output: list[str] = []
    runner.run(test, out=output.append)
    assert runner.failures == 0, "".join(output)
