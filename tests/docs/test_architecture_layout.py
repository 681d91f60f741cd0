"""docs/architecture.md's table of layers names the files that are there (issue 42, item 6:
"docs/architecture.md true"): every module a row lists exists in its folder, and a row that
lists its folder's modules (without "...") lists all of them, so a file that is added, renamed
or removed without the page fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "bleusuite"


def _rows() -> list[tuple[str, list[str], bool]]:
    """The table's rows: the folder, the names in its "modules" cell, and whether the cell
    ends with "..." (a row that names some of its modules only)."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = page.split("## The layers", 1)[1].split("\n\n", 2)[1]
    rows = []
    for line in table.splitlines()[2:]:
        folder, modules = (cell.strip() for cell in line.strip("|").split("|")[:2])
        names = re.findall(r"`([^`]+)`", modules)
        if folder == "(top level)":
            rows.append(("", names, False))
        elif re.fullmatch(r"`[a-z_]+/`", folder):
            rows.append((folder.strip("`"), names, modules.endswith("...")))
    return rows


def test_the_table_has_the_folders_rows():
    folders = {folder for folder, _, _ in _rows()}
    assert {"", "csrc/", "backends/", "text/", "inputs/", "counting/", "scores/"} <= folders


@pytest.mark.parametrize("folder, names, some_only", _rows(), ids=lambda v: str(v)[:20])
def test_each_row_names_the_files_of_its_folder(folder, names, some_only):
    where = PACKAGE / folder
    for name in names:
        assert (where / name).exists(), f"architecture.md names {folder}{name}, not there"
    if some_only:
        return
    if folder == "":
        present = {p.name for p in where.glob("*.py")} - {"__init__.py", "__main__.py"}
        # the top-level modules with rows or lines of their own elsewhere on the page
        present -= {"sacrebleu.py", "jiwer.py"}
    elif folder == "csrc/":
        present = {p.name for p in where.iterdir() if p.suffix in (".c", ".h")}
    elif folder == "scores/":
        present = {p.name for p in where.glob("*.py")} - {"__init__.py"}
        present |= {p.name + "/" for p in where.iterdir() if (p / "__init__.py").exists()}
    else:
        present = {p.name for p in where.glob("*.py")} - {"__init__.py", "__main__.py"}
    assert set(names) >= present, f"architecture.md's {folder or 'top level'} row lacks " \
        f"{sorted(present - set(names))}"
