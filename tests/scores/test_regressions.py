"""One test per defect found by hostile testing (issue 10), each on the reproducer itself.

Every numeric case is run on NumPy, on torch CPU tensors through NumPy views and through the
torch pipeline itself (the path CUDA tensors take), in the functions and in
``metrics.Bleu``; numbers are compared with the reference library to 1e-12 *relative*
(the values at high orders are around 1e-10 .. 1e-40, where an absolute tolerance says
nothing).
"""

from __future__ import annotations

import gzip
import json
import math
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the regressions run on torch and metrics.Bleu too")
pytest.importorskip("ignite", reason="the regressions run on metrics.Bleu too")

from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from sacrebleu.metrics import BLEU as SacreBLEU

import bleusuite
from bleusuite import backends, cli
from bleusuite.metrics import Bleu

RTOL = 1e-12

# (hypothesis, reference): one unigram match, nothing above, so the k-th zero order is
# smoothed with 2**k
HYP, REF = [1, 2], [1, 3]


def _converters() -> dict[str, Any]:
    return {"numpy": np.asarray, "torch-via-numpy": torch.as_tensor,
            "torch-pipeline": torch.as_tensor}


@pytest.fixture(params=list(_converters()))
def convert(request: Any) -> Any:
    with backends.use_numpy_for_torch_cpu(request.param != "torch-pipeline"):
        yield _converters()[request.param]


def _as_numpy(value: Any) -> np.ndarray:
    return np.asarray(backends.get_backend(value).to_numpy(value), dtype=np.float64)


def _nltk(hyps: list[list[int]], refs: list[list[list[int]]], order: int, smooth: str) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(nltk_corpus_bleu(refs, hyps, weights=(1 / order,) * order,
                                      smoothing_function=getattr(SmoothingFunction(), smooth)))


# ------------------------------------------------------------------------------------ D1


D1_CASES = [(65, "method3"), (64, "method3"), (63, "method3"), (62, "method4"),
            (65, "method4"), (200, "method7"), (256, "method3"), (256, "method4"),
            (256, "method7")]


@pytest.mark.parametrize(("order", "smooth"), D1_CASES)
def test_geometric_smoothing_is_exact_at_high_orders(convert, order, smooth):
    """``2**k`` was computed in int64 and overflowed from k = 63 (inf, or a wrong number)."""
    expected = _nltk([HYP], [[REF]], order, smooth)
    hyp, ref = convert(np.array([HYP])), convert(np.array([REF]))
    sentence = _as_numpy(bleusuite.sentence_bleu(hyp, ref, max_order=order, smooth=smooth))
    corpus = _as_numpy(bleusuite.corpus_bleu(hyp, ref, max_order=order, smooth=smooth))
    np.testing.assert_allclose(sentence, [expected], rtol=RTOL, atol=0)
    np.testing.assert_allclose(corpus, expected, rtol=RTOL, atol=0)


def test_geometric_smoothing_issue_numbers():
    """The numbers quoted in the issue."""
    def score(order: int, smooth: str) -> float:
        return float(bleusuite.sentence_bleu([HYP], [[REF]], max_order=order, smooth=smooth)[0])

    assert score(65, "method3") == pytest.approx(2.3036097502241238e-10, rel=RTOL)
    assert score(64, "method3") == pytest.approx(3.257253376157744e-10, rel=RTOL)
    assert score(62, "method4") == pytest.approx(9.32022308277989e-11, rel=RTOL)


@pytest.mark.parametrize("order", [63, 64, 65, 128, 256])
def test_sacrebleu_exp_is_exact_at_high_orders(convert, order):
    """sacrebleu's ``exp`` halves its smoothing constant per zero order (a float: exact).
    sacrebleu stops at the first order without n-grams, so the hypothesis is long: its
    tokens all match, none of its bigrams does."""
    tokens = np.arange(1, 301)
    spread = np.stack([tokens, tokens + 1000], axis=1).reshape(-1)  # 1 1001 2 1002 ...
    metric = SacreBLEU(tokenize="none", smooth_method="exp", max_ngram_order=order)
    expected = metric.corpus_score([" ".join(map(str, tokens))],
                                   [[" ".join(map(str, spread))]]).score / 100
    assert expected > 0
    hyp, ref = convert(tokens[None, :]), convert(spread[None, :])
    corpus = _as_numpy(bleusuite.corpus_bleu(hyp, ref, max_order=order, smooth="exp"))
    np.testing.assert_allclose(corpus, expected, rtol=RTOL, atol=0)


@pytest.mark.parametrize("average", ["macro", "micro"])
@pytest.mark.parametrize(("order", "smooth"), [(65, "method3"), (62, "method4"),
                                               (256, "method7")])
def test_geometric_smoothing_in_the_metric(average, order, smooth):
    expected = _nltk([HYP], [[REF]], order, smooth)
    for y_pred, y in (([HYP], [[REF]]), (torch.tensor([HYP]), torch.tensor([REF]))):
        metric = Bleu(ngram=order, smooth=smooth, average=average)
        metric.update((y_pred, y))
        result = float(metric.compute())
        assert math.isfinite(result)
        assert result == pytest.approx(expected, rel=RTOL, abs=0)


def test_powers_of_two_are_exact_on_every_backend(convert):
    exponents = convert(np.arange(1000, dtype=np.int64).reshape(10, 100))
    be = backends.get_backend(exponents)
    if backends.torch_cpu_via_numpy() and isinstance(exponents, torch.Tensor):
        exponents = exponents.numpy()
        be = backends.get_backend(exponents)
    powers = _as_numpy(be.power_of_two(exponents, 999))
    assert powers.reshape(-1).tolist() == [2.0**k for k in range(1000)]


# ------------------------------------------------------------------------------------ D2


@pytest.fixture(scope="module")
def text_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("plain")
    hyp = ["the cat sat on the mat today", "a b c d e f g", "one two three four",
           "x y", "it is a nice day to go out"]
    ref = ["the cat sat on a mat today", "a b c d e f h", "one two three five",
           "x y z", "it is a fine day to go out"]
    paths = {}
    for name, lines in (("hyp", hyp), ("ref", ref)):
        path = folder / f"{name}.txt"
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        paths[f"{name}_path"] = str(path)
    return {"hyp": hyp, "ref": ref, **paths}


def _plain(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert cli.main(list(args)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("order", [1, 2, 3, 6, 9])
@pytest.mark.parametrize("smooth", ["method3", "exp", "method5", "none"])
def test_plain_command_follows_max_order(capsys, text_files, order, smooth):
    """The score, the precisions and the JSON all follow ``--max-order`` (the score used
    to stay at order 4, and ``--max-order 2`` failed)."""
    hyps = [line.split() for line in text_files["hyp"]]
    refs = [[line.split()] for line in text_files["ref"]]
    expected = 100 * float(bleusuite.corpus_bleu(hyps, refs, max_order=order, smooth=smooth))
    files = ("--hyp", text_files["hyp_path"], "--ref", text_files["ref_path"])
    args = (*files, "--max-order", str(order), "--smooth", smooth)
    report = json.loads(_plain(capsys, *args, "--format", "json"))
    assert report["bleu"]["score"] == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert report["bleu"]["max_order"] == order
    assert len(report["bleu"]["precisions"]) == order
    text = _plain(capsys, *args)
    assert f"BLEU = {expected:.2f} " in text
    assert text.split("BLEU = ")[1].split(" (")[0].count("/") == order - 1


def test_plain_command_issue_numbers(capsys, text_files):
    files = ("--hyp", text_files["hyp_path"], "--ref", text_files["ref_path"])
    six = json.loads(_plain(capsys, *files, "--max-order", "6", "--smooth", "method3",
                            "--format", "json"))
    four = json.loads(_plain(capsys, *files, "--smooth", "method3", "--format", "json"))
    assert six["bleu"]["score"] < four["bleu"]["score"]


# ------------------------------------------------------------------------------------ D4


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_numpy_matrix_is_a_2d_batch():
    hyp = np.array([[5, 6, 7, 8, 9], [5, 6, 7, 0, 0]])
    ref = np.array([[5, 6, 7, 8, 10], [5, 6, 7, 8, 0]])
    expected = bleusuite.sentence_bleu(hyp, ref, pad_id=0, smooth="method1")
    got = bleusuite.sentence_bleu(np.matrix(hyp), np.matrix(ref), pad_id=0, smooth="method1")
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(
        bleusuite.corpus_gleu(np.matrix(hyp), np.matrix(ref), pad_id=0),
        bleusuite.corpus_gleu(hyp, ref, pad_id=0))
    metric = Bleu(smooth="method1", pad_id=0)
    metric.update((np.matrix(hyp), np.matrix(ref)))
    assert float(metric.compute()) == pytest.approx(float(expected.mean()), rel=1e-15)


def test_masked_array_is_refused_with_the_argument_named():
    hyp = np.ma.masked_array([[5, 6, 7]], mask=[[0, 0, 1]])
    with pytest.raises(TypeError, match=r"hypotheses must be a plain array.*masked"):
        bleusuite.sentence_bleu(hyp, np.array([[5, 6, 7]]))
    with pytest.raises(TypeError, match="references must be a plain array"):
        bleusuite.sentence_bleu(np.array([[5, 6, 7]]), hyp)


# ------------------------------------------------------------------------------------ D5


@pytest.mark.parametrize("value", [np.float32(0.2), np.float64(0.2), np.array(0.2),
                                   torch.tensor(0.2, dtype=torch.float64), np.int64(1)])
@pytest.mark.parametrize("smooth", ["floor", "add-k", "method1"])
def test_numpy_scalars_are_numbers(convert, value, smooth):
    """smooth_value takes what weights and max_order take: NumPy scalars, 0-d arrays."""
    hyp, ref = convert(np.array([[1, 2, 3, 4, 5]])), convert(np.array([[1, 2, 3, 6, 5]]))
    plain = float(np.asarray(value).item())
    expected = _as_numpy(bleusuite.sentence_bleu(hyp, ref, smooth=smooth, smooth_value=plain))
    got = _as_numpy(bleusuite.sentence_bleu(hyp, ref, smooth=smooth, smooth_value=value))
    np.testing.assert_array_equal(got, expected)
    metric = Bleu(smooth=smooth, smooth_value=value)
    metric.update(([[1, 2, 3, 4, 5]], [[[1, 2, 3, 6, 5]]]))
    assert float(metric.compute()) == float(expected[0])


def test_every_number_argument_takes_numpy_scalars():
    hyp, ref = np.array([[1, 2, 3, 4, 5]]), np.array([[1, 2, 3, 6, 5]])
    expected = bleusuite.sentence_bleu(hyp, ref, weights=(0.5, 0.5), smooth="floor",
                                       smooth_value=0.3, pad_id=0, eos_id=9)
    got = bleusuite.sentence_bleu(hyp, ref, weights=np.array([0.5, 0.5], dtype=np.float32),
                                  max_order=np.int8(2), smooth="floor",
                                  smooth_value=np.float64(0.3), pad_id=np.int16(0),
                                  eos_id=np.uint8(9))
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(("kwargs", "error", "name"), [
    ({"smooth": "floor", "smooth_value": "0.2"}, TypeError, "smooth_value"),
    ({"smooth": "floor", "smooth_value": True}, TypeError, "smooth_value"),
    ({"smooth": "floor", "smooth_value": np.float32("nan")}, ValueError, "smooth_value"),
    ({"smooth": "floor", "smooth_value": np.array([0.2])}, TypeError, "smooth_value"),
    ({"weights": ["0.5", "0.5"]}, TypeError, r"weights\[0\]"),
    ({"weights": [0.5, np.inf]}, ValueError, r"weights\[1\]"),
    ({"max_order": np.float64(4.0)}, TypeError, "max_order"),
    ({"max_order": np.bool_(True)}, TypeError, "max_order"),
    ({"pad_id": np.float32(0)}, TypeError, "pad_id"),
])
def test_bad_numbers_name_the_argument(kwargs, error, name):
    with pytest.raises(error, match=name):
        bleusuite.sentence_bleu(np.array([[1, 2]]), np.array([[1, 2]]), **kwargs)


# ------------------------------------------------------------------------------------ D6


def test_tuple_tokens_are_tokens_as_in_nltk():
    hyp = [("a", "DT"), ("cat", "NN"), ("sat", "VBD"), ("down", "RP")]
    ref = [("a", "DT"), ("cat", "NN"), ("sat", "VBN"), ("down", "RP")]
    expected = _nltk([hyp], [[ref]], 2, "method1")
    got = bleusuite.sentence_bleu([hyp], [[ref]], max_order=2, smooth="method1")
    assert float(got[0]) == pytest.approx(expected, rel=RTOL)
    with pytest.raises(TypeError, match=r"hypotheses\[0\]\[1\] must be a hashable token"):
        bleusuite.sentence_bleu([["a", ["b"]]], [[["a"]]])


# ------------------------------------------------------------------------------------ D7


@pytest.mark.parametrize("setting", ["abc", "0", "-2", "1.5"])
def test_thread_setting_is_checked_on_every_call(monkeypatch, setting):
    """A small batch (one block, no threads) used to ignore a bad setting silently."""
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", setting)
    hyp, ref = np.array([[1, 2, 3]]), np.array([[1, 2, 3]])
    calls = [
        lambda: bleusuite.sentence_bleu(hyp, ref),
        lambda: bleusuite.corpus_bleu([[1, 2]], [[[1, 2]]]),
        lambda: bleusuite.sentence_gleu(torch.tensor(hyp), torch.tensor(ref)),
        lambda: bleusuite.bleu_statistics(hyp, ref),
        lambda: Bleu().update((hyp, ref)),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="BLEUSUITE_NUM_THREADS"):
            call()
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
    for call in calls:
        call()


# ----------------------------------------------------------------------- CLI differences


def _run(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", *args], input=stdin, capture_output=True,
                          timeout=120)


def test_gzip_inputs_are_read_as_sacrebleu_reads_them(capsys, tmp_path, text_files):
    for name in ("hyp", "ref"):
        data = Path(text_files[f"{name}_path"]).read_bytes()
        (tmp_path / f"{name}.txt.gz").write_bytes(gzip.compress(data))
    hyp_gz, ref_gz = str(tmp_path / "hyp.txt.gz"), str(tmp_path / "ref.txt.gz")
    plain = _plain(capsys, "score", text_files["ref_path"], "-i", text_files["hyp_path"], "-w",
                   "10")
    assert _plain(capsys, "score", ref_gz, "-i", hyp_gz, "-w", "10") == plain
    expected = SacreBLEU().corpus_score(text_files["hyp"], [text_files["ref"]]).score
    assert json.loads(plain)["score"] == pytest.approx(expected, abs=1e-9)
    gz_report = _plain(capsys, "--hyp", hyp_gz, "--ref", ref_gz).splitlines()
    report = _plain(capsys, "--hyp", text_files["hyp_path"], "--ref", text_files["ref_path"])
    assert gz_report[1:] == report.splitlines()[1:]  # the first line names the file
    (tmp_path / "bad.gz").write_bytes(b"not gzip")
    # an error, with sacrebleu's exit status for errors (1; 2 is for usage)
    assert cli.main(["score", str(tmp_path / "bad.gz"), "-i", hyp_gz]) == 1
    assert "not valid gzip" in capsys.readouterr().err


def test_brevity_penalty_of_empty_corpus_is_one(capsys, tmp_path):
    """sacrebleu's convention: BP = 1 when hypothesis and reference lengths are both 0."""
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    report = json.loads(_plain(capsys, "--hyp", str(empty), "--ref", str(empty), "--format",
                               "json"))
    assert report["bleu"]["brevity_penalty"] == 1.0
    assert "BP = 1.000" in _plain(capsys, "--hyp", str(empty), "--ref", str(empty))
    score = json.loads(_plain(capsys, "score", str(empty), "-i", str(empty)))
    theirs = SacreBLEU().corpus_score(["", ""], [["", ""]])
    assert score["verbose_score"] == theirs._verbose
    assert "BP = 1.000" in theirs._verbose


@pytest.mark.parametrize("ending", [b"\r", b"\r\n", b"\n"])
def test_stdin_line_ends_as_sacrebleu(tmp_path, ending):
    """sacrebleu reads stdin with universal newlines (a lone CR ends a line), files with
    ``\\n`` only; the real ``sacrebleu`` command and ours print the same line."""
    ref = tmp_path / "ref.txt"
    ref.write_bytes(b"a b c d\ne f g h\nx y\n")
    hyp = ending.join([b"a b c d", b"e f g x", b"x y"]) + ending
    ours = _run("bleusuite", "score", str(ref), "-f", "text", stdin=hyp)
    theirs = _run("sacrebleu", str(ref), "-f", "text", stdin=hyp)
    assert ours.returncode == 0, ours.stderr
    assert theirs.returncode == 0, theirs.stderr
    ours_line, theirs_line = ours.stdout.decode().strip(), theirs.stdout.decode().strip()
    assert ours_line.split(" = ")[1] == theirs_line.split(" = ")[1]


# ------------------------------------------------------------------------- issue 24


@pytest.mark.parametrize("smooth", ["exp", "floor", "add-k", "none"])
def test_format_rounds_precisions_as_sacrebleu(smooth):
    """Issue 24, item 14: ``BleuResult.format()`` printed ``100 * (m / t)``, sacrebleu prints
    ``100. * m / t``: for 23/80 that is 28.749999... (28.7) against 28.75 (28.8)."""
    hyp = " ".join(str(i) for i in range(80))
    ref = " ".join([str(i) for i in range(23)] + [f"w{i}" for i in range(57)])
    result = bleusuite.corpus_bleu_result([hyp], [[ref]], tokenize="none", smooth=smooth)
    theirs = str(SacreBLEU(tokenize="none", smooth_method=smooth).corpus_score([hyp], [[ref]]))
    assert result.format(signature=False).split(" = ", 1)[1] == theirs.split(" = ", 1)[1]
    assert "28.8/" in theirs
    assert result.precisions[0] == 100.0 * 23 / 80  # the number printed, sacrebleu's
    assert result.to_dict()["precisions"][0] == 28.75
