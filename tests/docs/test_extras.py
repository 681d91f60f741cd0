"""The extras of setup.cfg and the ``pip install`` lines of README.md and docs/*.md: every
extra a line names exists, every package a line names is one the project declares (setup.cfg,
requirements/*.txt) or documents (:data:`DOCUMENTED`), every requirement parses, and the
install lines of README.md and docs/quickstart.md install bleusuite from the clone (it is
on no package index).
"""

from __future__ import annotations

import configparser
import re
import shlex
from pathlib import Path

import pytest
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]

#: packages the docs tell to install that no extra lists, and why
DOCUMENTED = {
    "tox": "the README's way to run the test suite",
    "cupy-cuda11x": "CuPy's wheel for CUDA 11 (docs/quickstart.md; the cupy extra is CUDA 12's)",
    "cupy-cuda13x": "CuPy's wheel for CUDA 13 (docs/quickstart.md)",
}
#: the files whose install lines must work from a clone as written
FROM_A_CLONE = ("README.md", "docs/quickstart.md")
#: lines known to be wrong, in files owned elsewhere: (file, requirement) -> why
KNOWN_WRONG: dict[tuple[str, str], str] = {}

#: options of ``pip install`` followed by a value that is no requirement
_OPTIONS_WITH_VALUE = {"--index-url", "-i", "--extra-index-url", "-c", "--constraint",
                       "-f", "--find-links", "-r", "--requirement"}


def extras() -> dict[str, list[str]]:
    """setup.cfg's ``[options.extras_require]``: extra -> requirement strings."""
    parser = configparser.ConfigParser()
    parser.read(ROOT / "setup.cfg", encoding="utf-8")
    return {name: [line.strip() for line in value.splitlines() if line.strip()]
            for name, value in parser["options.extras_require"].items()}


def declared() -> set[str]:
    """Every package setup.cfg or requirements/*.txt names, canonical."""
    parser = configparser.ConfigParser()
    parser.read(ROOT / "setup.cfg", encoding="utf-8")
    lines = parser["options"]["install_requires"].splitlines()
    lines += [line for requirements in extras().values() for line in requirements]
    for path in (ROOT / "requirements").glob("*.txt"):
        lines += path.read_text(encoding="utf-8").splitlines()
    names = set()
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            names.add(canonicalize_name(Requirement(line).name))
    return names


def install_lines() -> list[tuple[str, str]]:
    """``(file, arguments)`` of every ``pip install`` in README.md and docs/*.md: in code
    blocks and in inline code, up to the end of the span, a ``&&`` or a comment."""
    found = []
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(ROOT))
        for match in re.finditer(r"pip install ([^`\n]*)", text):
            arguments = re.split(r"&&|\s#", match.group(1))[0].strip()
            found.append((name, arguments))
    return found


def requirements_of(arguments: str) -> list[str]:
    """The requirement specifiers of one ``pip install``'s arguments (options dropped)."""
    words = shlex.split(arguments)
    specs, skip = [], False
    for word in words:
        if skip:
            skip = False
        elif word in _OPTIONS_WITH_VALUE:
            skip = True
        elif not word.startswith("-"):
            specs.append(word)
    return specs


def _project(spec: str) -> tuple[bool, list[str]]:
    """Whether ``spec`` installs bleusuite (from the clone, a URL or an index), and the
    extras it asks for."""
    path = re.fullmatch(r"\.(?:\[([^\]]*)\])?", spec)
    if path:
        return True, [e.strip() for e in (path.group(1) or "").split(",") if e.strip()]
    try:  # a direct reference's URL may be the docs' placeholder: only the name counts
        requirement = Requirement(spec.split(" @ ", 1)[0])
    except InvalidRequirement:
        return False, []
    if canonicalize_name(requirement.name) == "bleusuite":
        return True, sorted(requirement.extras)
    return False, []


CASES = [(name, spec) for name, arguments in install_lines()
         for spec in requirements_of(arguments)]


def _param(name: str, spec: str) -> object:
    why = KNOWN_WRONG.get((name, spec))
    marks = [pytest.mark.xfail(strict=True, reason=why)] if why else []
    return pytest.param(name, spec, id=f"{name}:{spec}", marks=marks)


def test_the_docs_have_install_lines_to_check():
    assert len(CASES) >= 15
    assert ("docs/quickstart.md", ".[torchmetrics]") in CASES


@pytest.mark.parametrize(("name", "spec"), [_param(n, s) for n, s in CASES])
def test_each_install_line_names_what_the_project_declares(name, spec):
    is_project, wanted = _project(spec)
    if is_project:
        missing = sorted(set(wanted) - set(extras()))
        assert not missing, f"{name}: pip install {spec}: no such extra {missing}"
        return
    requirement = Requirement(spec)  # raises for a malformed requirement
    package = canonicalize_name(requirement.name)
    assert package in declared() or package in DOCUMENTED, (
        f"{name}: pip install {spec}: {package} is neither declared nor documented")


@pytest.mark.parametrize(("name", "spec"),
                         [(n, s) for n, s in CASES if n in FROM_A_CLONE and _project(s)[0]])
def test_readme_and_quickstart_install_bleusuite_from_the_clone(name, spec):
    """bleusuite is on no package index: ``.`` / ``".[extra]"``, or a URL."""
    assert spec.startswith(".") or "@ git+" in spec, f"{name}: pip install {spec}"


def test_every_extra_parses_and_the_cupy_extra_is_a_binary_wheel():
    for requirements in extras().values():
        for line in requirements:
            Requirement(line)
    assert [Requirement(r).name for r in extras()["cupy"]] == ["cupy-cuda12x"]
    assert "tqdm" in {Requirement(r).name for r in extras()["ignite"]}
    for extra, needs in {"torchmetrics": {"torchmetrics", "torch"},
                         "lightning": {"lightning", "torchmetrics"},
                         "evaluate": {"evaluate", "datasets"},
                         "rl": {"torch", "trl", "transformers", "datasets"}}.items():
        assert needs <= {Requirement(r).name for r in extras()[extra]}, extra


def test_the_requirement_parser_sees_options_and_urls():
    assert requirements_of('-e ".[torch,cli]"') == [".[torch,cli]"]
    assert requirements_of("torch --index-url https://download.pytorch.org/whl/cpu") == [
        "torch"]
    assert _project("bleusuite[cli] @ git+https://example.org/b.git") == (True, ["cli"])
    assert _project("bleusuite[cli] @ git+<repository URL>") == (True, ["cli"])
    assert _project(".[a, b]") == (True, ["a", "b"])
    assert _project("sacrebleu[ja]") == (False, [])
