"""Small front-door checks: the plain command's output and default, helpful import errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import bleusuite
from bleusuite import cli

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120, check=False)


def test_plain_command_says_the_sentence_count_once(capsys):
    assert cli.main([]) == 0
    out = capsys.readouterr().out
    assert out.count("100 sentences") == 1 and out.count("sentences, tokens: whitespace)") == 1
    assert "smooth=exp" in out.splitlines()[1]


def test_plain_command_default_is_sacrebleus_corpus_bleu(capsys):
    """Default smoothing of both commands: exp, so they print sacrebleu's corpus BLEU."""
    sacrebleu = pytest.importorskip("sacrebleu")
    assert cli.main(["--format", "json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    from bleusuite.cli.parser import build_parser
    from bleusuite.cli.plain import sample_corpus

    corpus = sample_corpus()
    hyps = [" ".join(h) for h in corpus.hypotheses]
    refs = [" ".join(r[0]) for r in corpus.references]
    expected = sacrebleu.corpus_bleu(hyps, [refs], tokenize="none").score
    assert abs(report["bleu"]["score"] - expected) <= 1e-10
    assert report["bleu"]["smooth"] == "exp"
    assert build_parser().parse_args(["score", "r.txt"]).smooth_method == "exp"


@pytest.mark.parametrize(("module", "missing", "extra"), [
    ("bleusuite.metrics", "torch", "bleusuite[ignite]"),
    ("bleusuite.metrics", "ignite", "bleusuite[ignite]"),
    ("bleusuite.losses", "torch", "bleusuite[torch]"),
])
def test_optional_modules_say_which_extra_to_install(tmp_path, module, missing, extra):
    shadow = tmp_path / missing
    shadow.mkdir()
    (shadow / "__init__.py").write_text(f"raise ImportError('No module named {missing}')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    result = _run("-c", f"import {module}", env=env)
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith("ImportError:") and f"pip install '{extra}'" in last_line
    # the core does not need them
    assert _run("-c", "import bleusuite, numpy as np; "
                "print(bleusuite.sentence_bleu(np.array([[1]]), np.array([[1]]), max_order=1))",
                env=env).returncode == 0


def test_gitignore_covers_the_venv_file_tox_leaves():
    lines = (ROOT / ".gitignore").read_text().splitlines()
    assert ".venv" in lines  # a file (tox's "package = editable" marker), not only a folder


def test_public_names():
    for name in ("corpus_bleu_result", "corpus_gleu_result", "BleuResult", "GleuResult"):
        assert name in bleusuite.__all__ and hasattr(bleusuite, name)
