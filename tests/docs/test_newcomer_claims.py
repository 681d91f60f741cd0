"""What a newcomer reads first stays true (issue 35, items 11-13): the three BLEUs of the
sample corpus and why they differ, what the test command costs and how to get torch's CPU
build for it and beside every extra that pulls torch, the package's description, which
tokenizers need the ``cli`` extra, and the Ray examples without Ray's deprecated argument.
"""

from __future__ import annotations

import configparser
import io
import json
import re
import subprocess
import sys
from contextlib import redirect_stdout
from importlib import resources
from pathlib import Path

import pytest

import bleusuite
from bleusuite import cli

ROOT = Path(__file__).resolve().parents[2]
#: PyTorch's index of CPU builds, the advice beside every extra that pulls torch
CPU_INDEX = "https://download.pytorch.org/whl/cpu"


def _text(name: str) -> str:
    """A document's words on one line (line breaks as spaces)."""
    return " ".join((ROOT / name).read_text(encoding="utf-8").split())


def _printed(*argv: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli.main(list(argv)) == 0
    return out.getvalue()


def test_the_three_bleus_of_the_sample_are_printed_and_explained_in_the_readme():
    """``bleusuite`` prints 23.17 (whitespace tokens), ``corpus_bleu_result(tokenize="13a")``
    23.18 and ``bleusuite score`` 23.2 (the same score, one decimal): the README says so
    where it shows the first."""
    data = resources.files("bleusuite") / "data"
    hyp = (data / "sample-hyp.txt").read_text(encoding="utf-8").splitlines()
    ref = (data / "sample-ref.txt").read_text(encoding="utf-8").splitlines()
    assert "BLEU = 23.17 " in _printed()
    result = bleusuite.corpus_bleu_result(hyp, [[r] for r in ref], tokenize="13a", smooth="exp")
    assert result.format(signature=False).startswith("BLEU = 23.18 ")
    score = json.loads(_printed("score", str(data / "sample-ref.txt"), "-i",
                                str(data / "sample-hyp.txt")))
    assert score["score"] == 23.2
    two = json.loads(_printed("score", str(data / "sample-ref.txt"), "-i",
                              str(data / "sample-hyp.txt"), "-w", "2"))
    assert two["score"] == 23.18
    readme = _text("README.md")
    quick_start = readme.split("## Quick start", 1)[1].split("## Tests", 1)[0]
    for said in ("23.17", "23.18", "23.2", "whitespace", "13a", "one decimal", "-w 2"):
        assert said in quick_start, said


def test_the_readme_shows_exactly_what_bleusuite_prints():
    """Issue 46 item 9: the quick start showed ``BLEU = 23.17, 53.8/...`` (a comma the
    command does not print); its block is now the command's output, line for line."""
    source = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = source.split("## Quick start", 1)[1].split("## Tests", 1)[0]
    shown = quick_start.split("```text\n", 1)[1].split("```", 1)[0]
    assert shown == _printed()


def test_the_readmes_exactness_claim_holds_for_every_name_it_lists():
    """Issue 46 item 9: ignite's ``no_smooth`` sentence scores divide in float32 (1e-7 off,
    docs/ignite.md), so the README's 1e-12 claim lists it only with ``average="micro"`` and
    names the exception."""
    intro = _text("README.md").split("## Quick start", 1)[0]
    claim = intro.split("1e-12", 1)[1].split("GLEU is", 1)[0]
    assert "`no_smooth`" not in claim.replace('`no_smooth` with `average="micro"`', "")
    assert "float32" in intro and "docs/ignite.md" in intro


def test_the_docs_state_the_smoothing_default_of_text_that_the_code_takes():
    """Issue 46 item 8: docs/text.md and docs/smoothing.md said text keeps ``no_smooth``;
    the code smooths text as sacrebleu does (``exp``, the effective order for sentence
    scores), which docs/text.md's doctest pins by a call without ``smooth=``."""
    from bleusuite.scores.bleu.settings import BleuSettings

    corpus, sentence = BleuSettings.of(tokenize="13a"), BleuSettings.of(tokenize="13a",
                                                                          sentence=True)
    assert (corpus.smooth, corpus.effective_order) == ("exp", False)
    assert (sentence.smooth, sentence.effective_order) == ("exp", True)
    text, smoothing = _text("docs/text.md"), _text("docs/smoothing.md")
    assert 'without `smooth=`, a call with `tokenize=` smooths as sacrebleu does, ' \
        '`smooth="exp"`' in text
    assert "tokenize=\"13a\").round(6) # no smooth=: exp" in text  # the doctest
    assert "`exp`; sentence scores with the effective order" in smoothing
    for wrong in ('keep their one default, `smooth="no_smooth"`, for text too',
                  "Text input keeps it too"):
        assert wrong not in text and wrong not in smoothing


def test_the_readme_says_what_the_test_command_costs_and_how_to_get_cpu_torch():
    readme = _text("README.md")
    tests = readme.split("## Tests", 1)[1].split("## Use", 1)[0]
    assert "tox" in tests and "minutes" in tests and "GB of disk" in tests
    assert f"PIP_EXTRA_INDEX_URL={CPU_INDEX} tox" in tests
    quick_start = readme.split("## Quick start", 1)[1].split("## Tests", 1)[0]
    assert "tox" not in quick_start  # the whole suite is no quick start
    # the test environments say it where torch is pinned (tox passes PIP_* on to pip)
    for name in ("tox.ini", "requirements/test.txt"):
        assert f"PIP_EXTRA_INDEX_URL={CPU_INDEX}" in _text(name), name


def _torch_extras() -> set[str]:
    parser = configparser.ConfigParser()
    parser.read(ROOT / "setup.cfg", encoding="utf-8")
    extras = parser["options.extras_require"]
    return {name for name, value in extras.items()
            if any(re.match(r"torch\b(?!metrics)", line.strip()) for line in value.splitlines())}


def test_every_page_that_installs_an_extra_with_torch_says_how_to_get_its_cpu_build():
    torch_extras = _torch_extras()
    assert {"torch", "ignite", "torchmetrics", "lightning", "rl", "bench"} <= torch_extras
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    checked = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        named = {extra for match in re.finditer(r'pip install "?\.\[([^\]]+)\]', text)
                 for extra in match.group(1).split(",")}
        if named & torch_extras:
            checked.append(page.name)
            assert CPU_INDEX in text, f"{page.name} installs {sorted(named & torch_extras)}"
    assert {"README.md", "quickstart.md", "integrations.md", "ignite.md", "losses.md",
            "rl-reward.md"} <= set(checked)


def test_the_package_description_names_every_metric_and_backend():
    parser = configparser.ConfigParser()
    parser.read(ROOT / "setup.cfg", encoding="utf-8")
    description = parser["metadata"]["description"]
    for word in ("BLEU", "GLEU", "chrF", "NumPy", "PyTorch", "CuPy", "JAX"):
        assert word in description, word


def test_quickstart_says_which_tokenizers_need_the_cli_extra():
    """13a, none and char are bleusuite's own: text works without sacrebleu."""
    quickstart = _text("docs/quickstart.md")
    assert "needs the `cli` extra)" not in quickstart
    assert "`13a`, `none` and `char` are bleusuite's own and need nothing more" in quickstart
    code = ("import sys; sys.modules['sacrebleu'] = None\n"
            "import bleusuite\n"
            "r = bleusuite.corpus_bleu_result(['The cat sat.'], [['The cat sat.']],"
            " tokenize='13a', smooth='exp')\n"
            "print(round(r.score, 4))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "100.0"


def test_score_help_names_chrf():
    from bleusuite.cli.parser import build_parser

    parser = build_parser(with_bench=False)
    commands = next(action for action in parser._actions if action.dest == "command")
    score = commands.choices["score"]  # type: ignore[attr-defined]
    assert "chrF" in score.description  # the first words of --help, not only a flag group


def test_the_ray_examples_use_no_deprecated_argument_and_print_only_their_results():
    scale = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
    assert "concurrency=" not in scale and '"concurrency"' not in scale
    examples = re.findall(r"```python\n(.*?)```", scale, re.DOTALL)
    runnable = [code for code in examples if "ray.data.read_parquet" in code]
    assert len(runnable) == 2
    for code in runnable:
        assert 'ray.init(logging_level="warning")' in code
        assert 'logging.getLogger("ray.data").setLevel(logging.WARNING)' in code


@pytest.mark.parametrize("path", ["bleusuite/ray/sentences.py", "bleusuite/ray/corpus.py",
                                  "benchmarks/bench_ray.py"])
def test_the_ray_code_uses_no_deprecated_concurrency_argument(path):
    assert "concurrency=" not in (ROOT / path).read_text(encoding="utf-8")
