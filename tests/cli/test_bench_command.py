"""``bleusuite bench`` (bleusuite/bench/): a smoke test on a tiny batch.

Timings are never checked (they are noise at this size): only that the command runs, checks
the scores, prints its table, lists missing peers as skipped, and reports disagreements.
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bleusuite import backends, bench
from bleusuite.bench import command

# torchmetrics' import warns about torch.jit deprecations: not ours to fix
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TINY = ["--batch", "3", "--length", "12", "--repeat", "1", "--no-progress"]


def run_main(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = bench.main([*TINY, *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_prints_the_table_and_the_scores_agree(capsys):
    code, out, err = run_main(capsys, "--peer", "nltk")
    assert code == 0, err
    assert "3 sentences x 12 token ids, 1 reference each" in out
    for task in ("BLEU per-sentence", "BLEU corpus", "GLEU per-sentence", "GLEU corpus"):
        assert task in out
    assert "bleusuite (numpy)" in out and "nltk sentence_bleu loop" in out
    assert "vs NLTK" in out and "DISAGREE" not in out


def test_every_peer_agrees_or_is_skipped(capsys):
    code, out, err = run_main(capsys, "--refs", "2", "--metric", "bleu")
    assert code == 0, err
    assert "2 references each" in out
    assert "GLEU" not in out.split("Scores are compared")[0]
    for peer, marker in (("sacrebleu", "sacrebleu corpus_score"),
                         ("ignite", "pytorch-ignite Bleu"),
                         ("torchmetrics", "torchmetrics BLEUScore")):
        try:
            __import__(peer)
        except ImportError:
            assert "is not installed" in out.split("Skipped:")[1]
        else:
            assert marker in out


def test_a_missing_peer_is_listed_as_skipped(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "sacrebleu", None)  # importing it now fails
    code, out, _ = run_main(capsys, "--peer", "sacrebleu", "--peer", "nltk")
    assert code == 0
    assert "Skipped:" in out
    assert "sacrebleu: sacrebleu is not installed" in out
    # one line says how to install the peers, with the extra (issue 35, item 13)
    assert out.strip().splitlines()[-1].startswith('The peers: pip install ".[bench]"')


def test_peer_none_runs_bleusuite_alone(capsys):
    code, out, _ = run_main(capsys, "--peer", "none", "--scope", "corpus")
    assert code == 0
    assert "bleusuite (numpy)" in out and "nltk" not in out.split("\n", 2)[2]
    assert "n/a" in out  # no NLTK: no speedup column
    assert 'vs NLTK n/a: NLTK did not run. The peers: pip install ".[bench]"' in out


def test_a_disagreement_exits_1(capsys, monkeypatch):
    task = bench.Task("bleu", "corpus")
    wrong = bench.Entry(
        task, "off by one tenth", "nltk", lambda inputs: lambda: 0.5,
        lambda result: np.atleast_1d(np.float64(result)),
        lambda inputs: inputs.expected(task, smooth="method0") * 0 + 0.4,
    )
    monkeypatch.setattr(command, "entries", lambda *args, **kwargs: [wrong])
    code, out, err = run_main(capsys)
    assert code == 1
    assert "DISAGREE" in out
    assert "off by one tenth: scores differ from bleusuite's by 0.1" in err


def test_a_backend_that_cannot_run_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setitem(bench.BACKEND_UNAVAILABLE, "cupy", lambda: "no CUDA device")
    code, _, err = run_main(capsys, "--backend", "cupy")
    assert code == 2
    assert "--backend cupy: no CUDA device" in err


def test_torch_backends(capsys):
    pytest.importorskip("torch")
    code, out, err = run_main(capsys, "--peer", "none", "--backend", "torch",
                              "--backend", "torch-kernels")
    assert code == 0, err
    assert "bleusuite (torch CPU)" in out and "bleusuite (torch CPU, torch kernels)" in out
    assert backends.torch_cpu_via_numpy()  # restored after the torch-kernels runs


def test_jax_backend():
    """``--backend jax``: bleusuite under jax.jit with 64-bit types, NumPy's scores. In a
    process of its own: JAX's threads would make the forks of other tests here unsafe."""
    if importlib.util.find_spec("jax") is None:
        pytest.skip("jax is not installed")
    done = subprocess.run(
        [sys.executable, "-m", "bleusuite", "bench", *TINY, "--peer", "none", "--backend",
         "numpy", "--backend", "jax", "--scope", "corpus", "--metric", "gleu"],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "bleusuite (jax.jit, x64)" in done.stdout and "DISAGREE" not in done.stdout


def test_plot(capsys, tmp_path: Path):
    pytest.importorskip("matplotlib")
    path = tmp_path / "sub" / "bench.png"
    code, out, _ = run_main(capsys, "--peer", "nltk", "--metric", "gleu", "--plot", str(path))
    assert code == 0
    assert f"plot saved to {path}" in out
    assert path.read_bytes().startswith(b"\x89PNG")


def test_progress_line_without_tqdm(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    stream = io.StringIO()
    chosen = bench.entries([bench.Task("gleu", "corpus")], ["numpy"], ["nltk"])
    inputs = bench.Inputs(*bench.zipf_batch(2, 6))
    results = bench.measure(chosen, inputs, repeat=2, progress=True, stream=stream)
    assert [m.agrees for m in results] == [True, True]
    text = stream.getvalue()
    assert "bleusuite bench [5/5] GLEU corpus: nltk corpus_gleu" in text  # 1 warm-up + 2 + 2
    assert text.endswith("\r")  # the line is cleared at the end


@pytest.mark.parametrize("terminal", [False, True], ids=["pipe", "terminal"])
def test_the_progress_bar_is_drawn_only_on_a_terminal(monkeypatch, terminal):
    """Issue 24, item 13: ``bleusuite bench`` drew its progress bar into a pipe; like
    ``bleusuite score`` it now draws it only where stderr is a terminal."""
    monkeypatch.setitem(sys.modules, "tqdm", None)  # the plain line: easy to recognise

    class Stderr(io.StringIO):
        def isatty(self) -> bool:
            return terminal

    stderr = Stderr()
    monkeypatch.setattr(sys, "stderr", stderr)
    code = bench.main(["--batch", "3", "--length", "12", "--repeat", "1", "--peer", "none",
                       "--scope", "corpus"])
    assert code == 0
    assert ("bleusuite bench [" in stderr.getvalue()) is terminal
    stderr.truncate(0)
    bench.main(["--batch", "3", "--length", "12", "--repeat", "1", "--peer", "none",
                "--scope", "corpus", "--no-progress"])
    assert "bleusuite bench [" not in stderr.getvalue()


@pytest.mark.parametrize("bad", [["--batch", "0"], ["--refs", "x"], ["--backend", "tpu"]])
def test_bad_arguments(bad, capsys):
    with pytest.raises(SystemExit) as exit_info:
        bench.main(bad)
    assert exit_info.value.code == 2


def test_add_arguments_on_a_subcommand_parser():
    parser = argparse.ArgumentParser(prog="bleusuite")
    commands = parser.add_subparsers(dest="command")
    bench.add_arguments(commands.add_parser("bench"))
    args = parser.parse_args(["bench", "--batch", "8", "--backend", "torch", "--plot", "x.png"])
    assert (args.command, args.batch, args.bench_backends, args.plot) == (
        "bench", 8, ["torch"], "x.png")


@pytest.mark.parametrize("module", ["bleusuite.bench", "bleusuite.bench"])
def test_python_dash_m(module):
    done = subprocess.run([sys.executable, "-m", module, "--help"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stdout.startswith("usage: bleusuite bench")


def test_the_library_never_imports_the_kit():
    """Importing bleusuite and every module it has (the command included) leaves the kit
    unloaded: only running ``bleusuite bench`` imports it."""
    code = (
        "import importlib, pkgutil, sys\n"
        "def walk(package):\n"
        "    for info in pkgutil.iter_modules(package.__path__, package.__name__ + '.'):\n"
        "        if info.name in ('bleusuite.bench',\n"
        "                         'bleusuite.__main__'):\n"
        "            continue\n"
        "        try:\n"
        "            module = importlib.import_module(info.name)\n"
        "        except ImportError:\n"
        "            continue  # an optional backend that is not installed here\n"
        "        if info.ispkg:\n"
        "            walk(module)\n"
        "walk(importlib.import_module('bleusuite'))\n"
        "from bleusuite.cli.parser import build_parser\n"
        "build_parser(with_bench=False)\n"
        "print(sorted(m for m in sys.modules if m.startswith(('bleusuite.bench', 'test_'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_no_benchmark_imports_a_test_module():
    folder = Path(__file__).resolve().parents[2] / "benchmarks"
    for path in sorted(folder.glob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            words = line.split()
            if words[:1] in (["from"], ["import"]) and len(words) > 1:
                assert not words[1].startswith(("test_", "tests")), f"{path.name}:{number}"
