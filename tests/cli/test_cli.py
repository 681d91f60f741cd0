"""Tests of the ``bleusuite`` command (bleusuite/cli/).

``bleusuite score`` is checked against sacrebleu's Python API (``BLEU(...).corpus_score`` and
``sentence_score``) and once against the real ``sacrebleu`` command, on generated text with
punctuation, numbers, entities, mixed case, CJK and odd whitespace; GLEU against NLTK's
``corpus_gleu`` / ``sentence_gleu`` on the same tokens; the bootstrap against a Python loop
over the same seeded resamples. Error cases run the real command in a subprocess.

The generated corpora come from ``tests/workloads.py``, shared with the
benchmarks (``benchmarks/bench_cli.py``, ``bench_paired.py``).
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import statistics
import struct
import subprocess
import sys
import termios
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from workloads import make_corpus, write_corpus

import bleusuite
from bleusuite import cli, native
from bleusuite.cli.io import PROGRESS_MIN_LINES, read_lines
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.parser import build_parser
from bleusuite.cli.scoring import score_function
from bleusuite.cli.statistics import systems_statistics
from bleusuite.counting import count_pairs
from bleusuite.counting.compact import count_matches_compact
from bleusuite.counting.ragged import padded_batches
from bleusuite.inputs.batch import RaggedPairs
from bleusuite.significance.bootstrap import bootstrap_scores
from bleusuite.significance.draws import multiplicities, resample_indices
from bleusuite.text import encode_texts, load_tokenizer
from bleusuite.text.tokenizers import SACREBLEU_TOKENIZERS as TOKENIZERS
from bleusuite.text.tokenizers import SPM_MODELS

sacrebleu = pytest.importorskip("sacrebleu")
from nltk.translate.bleu_score import SmoothingFunction  # noqa: E402
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu  # noqa: E402
from nltk.translate.gleu_score import corpus_gleu as nltk_corpus_gleu  # noqa: E402
from nltk.translate.gleu_score import sentence_gleu as nltk_sentence_gleu  # noqa: E402
from sacrebleu.metrics import BLEU  # noqa: E402

TOLERANCE = 1e-9  # on sacrebleu's 0-100 scale
WIDTH = "13"  # --width for comparisons: rounding error 5e-14


def run_command(*args: str, stdin: bytes | None = None,
                env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m bleusuite ARGS`` in a subprocess (stdin closed unless given)."""
    return subprocess.run(
        [sys.executable, "-m", "bleusuite", *args], input=stdin if stdin is not None else b"",
        capture_output=True, timeout=120, env=env,
    )


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """``cli.main(ARGS)`` in this process; returns stdout."""
    status = cli.main(list(args))
    captured = capsys.readouterr()
    assert status == 0, captured.err
    return captured.out


def score_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    return json.loads(run_main(capsys, "score", *args, "-f", "json", "-w", WIDTH))


def tokenize_like_sacrebleu(lines: list[str], name: str = "13a",
                            lowercase: bool = False) -> list[list[str]]:
    """Tokens of each line exactly as sacrebleu's BLEU computes them (line by line)."""
    metric = BLEU(tokenize=name, lowercase=lowercase)
    return [metric._preprocess_segment(line.rstrip()).split() for line in lines]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """2000 lines, 3 references, written to files."""
    hyp, refs = make_corpus(2000, 3, seed=1)
    hyp_path, ref_paths = write_corpus(tmp_path_factory.mktemp("corpus"), hyp, refs)
    return {"hyp": hyp, "refs": refs, "hyp_path": hyp_path, "ref_paths": ref_paths}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """400 lines, 2 references (the slower tokenizers, sentence level, the bootstrap)."""
    hyp, refs = make_corpus(400, 2, seed=2)
    hyp_path, ref_paths = write_corpus(tmp_path_factory.mktemp("small"), hyp, refs)
    return {"hyp": hyp, "refs": refs, "hyp_path": hyp_path, "ref_paths": ref_paths}


# --------------------------------------------------------------------- corpus-level BLEU


def assert_same_bleu(ours: dict[str, Any], theirs: Any) -> None:
    assert abs(ours["score"] - theirs.score) <= TOLERANCE
    assert ours["verbose_score"] == theirs._verbose
    assert ours["name"] == "BLEU"


@pytest.mark.parametrize("tokenize", ["13a", "none", "intl", "char", "zh"])
def test_corpus_bleu_equals_sacrebleu_for_every_tokenizer(capsys, corpus, small, tokenize):
    data = corpus if tokenize in ("13a", "none") else small
    ours = score_json(capsys, *data["ref_paths"], "-i", data["hyp_path"], "-tok", tokenize)
    theirs = BLEU(tokenize=tokenize).corpus_score(data["hyp"], data["refs"])
    assert_same_bleu(ours, theirs)
    assert ours["tok"] == tokenize
    assert ours["signature"] == (
        f"nrefs:{len(data['refs'])}|case:mixed|eff:no|tok:{tokenize}|smooth:exp|"
        f"version:bleusuite-{bleusuite.__version__}"
    )


@pytest.mark.parametrize(
    ("smooth", "value", "lowercase"),
    [("none", None, False), ("floor", None, True), ("floor", 0.3, False), ("add-k", None, False),
     ("add-k", 2.0, True), ("exp", None, True)],
)
def test_corpus_bleu_equals_sacrebleu_for_every_smoothing(capsys, corpus, smooth, value,
                                                         lowercase):
    args = [*corpus["ref_paths"], "-i", corpus["hyp_path"], "-s", smooth]
    args += ["-sv", str(value)] if value is not None else []
    args += ["-lc"] if lowercase else []
    ours = score_json(capsys, *args)
    theirs = BLEU(smooth_method=smooth, smooth_value=value, lowercase=lowercase).corpus_score(
        corpus["hyp"], corpus["refs"])
    assert_same_bleu(ours, theirs)
    assert ours["case"] == ("lc" if lowercase else "mixed")


def test_other_smoothing_families_equal_the_library(capsys, small):
    """NLTK and ignite names give bleusuite.corpus_bleu (tested against NLTK and ignite) on the
    sacrebleu tokens; method1 is also checked against NLTK itself."""
    hyps = tokenize_like_sacrebleu(small["hyp"])
    refs = list(zip(*(tokenize_like_sacrebleu(r) for r in small["refs"]), strict=True))
    refs = [list(r) for r in refs]
    for smooth in ("method1", "method3", "method4", "method7", "no_smooth", "smooth1",
                   "nltk_smooth2", "smooth2"):
        ours = score_json(capsys, *small["ref_paths"], "-i", small["hyp_path"], "-s", smooth)
        expected = 100 * float(bleusuite.corpus_bleu(hyps, refs, smooth=smooth))
        assert abs(ours["score"] - expected) <= TOLERANCE, smooth
        family = bleusuite.scores.bleu.smoothing.family_of(smooth)
        assert ours["smooth"].startswith(f"{family}/{smooth}")
    ours = score_json(capsys, *small["ref_paths"], "-i", small["hyp_path"], "-s", "method1",
                      "-sv", "0.2")
    nltk = nltk_corpus_bleu(refs, hyps, smoothing_function=SmoothingFunction(0.2).method1)
    assert abs(ours["score"] - 100 * nltk) <= TOLERANCE
    assert ours["smooth"] == "nltk/method1[0.20]"


def test_corpus_gleu_equals_nltk(capsys, corpus):
    out = score_json(capsys, *corpus["ref_paths"], "-i", corpus["hyp_path"], "-m", "bleu", "gleu",
                     "-lc")
    assert [entry["name"] for entry in out] == ["BLEU", "GLEU"]
    hyps = tokenize_like_sacrebleu(corpus["hyp"], lowercase=True)
    refs = [list(r) for r in zip(*(tokenize_like_sacrebleu(r, lowercase=True)
                                   for r in corpus["refs"]), strict=True)]
    assert abs(out[1]["score"] - 100 * nltk_corpus_gleu(refs, hyps)) <= TOLERANCE
    assert out[1]["signature"].startswith("nrefs:3|case:lc|tok:13a|ngram:1-4|")


# ---------------------------------------------------------------------- sentence level


def test_sentence_level_equals_sacrebleu_and_nltk(capsys, small):
    out = run_main(capsys, "score", *small["ref_paths"], "-i", small["hyp_path"], "-sl",
                   "-m", "bleu", "gleu", "-f", "json", "-w", WIDTH)
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == len(small["hyp"])
    metric = BLEU(effective_order=True)
    hyps = tokenize_like_sacrebleu(small["hyp"])
    refs = [tokenize_like_sacrebleu(r) for r in small["refs"]]
    for i, (bleu, gleu) in enumerate(rows):
        theirs = metric.sentence_score(small["hyp"][i], [r[i] for r in small["refs"]])
        assert abs(bleu["score"] - theirs.score) <= TOLERANCE, i
        assert bleu["verbose_score"] == theirs._verbose, i
        nltk = nltk_sentence_gleu([r[i] for r in refs], hyps[i])
        assert abs(gleu["score"] - 100 * nltk) <= TOLERANCE, i
    assert rows[0][0]["eff"] == "yes"


@pytest.mark.parametrize("smooth", ["none", "floor", "add-k"])
def test_sentence_level_smoothing_equals_sacrebleu(capsys, small, smooth):
    out = run_main(capsys, "score", *small["ref_paths"], "-i", small["hyp_path"], "-sl",
                   "-s", smooth, "-b", "-w", WIDTH)
    scores = [float(line) for line in out.splitlines()]
    metric = BLEU(effective_order=True, smooth_method=smooth)
    for i, score in enumerate(scores):
        theirs = metric.sentence_score(small["hyp"][i], [r[i] for r in small["refs"]])
        assert abs(score - theirs.score) <= TOLERANCE, i


def _drop_signature(line: str) -> str:
    """``BLEU|...|version:X = rest`` -> ``BLEU = rest`` (the signatures differ by design)."""
    name, _, rest = line.partition(" = ")
    return f"{name.split('|')[0].strip()} = {rest}"


def test_real_sacrebleu_command(small):
    refs, hyp = small["ref_paths"], small["hyp_path"]
    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", *refs, "-i", hyp, "-w", WIDTH,
                             "-f", "json"], capture_output=True, check=True, timeout=120)
    ours = run_command("score", *refs, "-i", hyp, "-w", WIDTH)
    assert ours.returncode == 0, ours.stderr
    ours_json, theirs_json = json.loads(ours.stdout), json.loads(theirs.stdout)
    assert abs(ours_json["score"] - theirs_json["score"]) <= TOLERANCE
    assert ours_json["verbose_score"] == theirs_json["verbose_score"]
    assert set(theirs_json) <= set(ours_json)

    theirs = subprocess.run([sys.executable, "-m", "sacrebleu", *refs, "-i", hyp, "-sl"],
                            capture_output=True, check=True, timeout=120)
    ours = run_command("score", *refs, "-i", hyp, "-sl")
    assert ours.returncode == 0, ours.stderr
    ours_lines = ours.stdout.decode().splitlines()
    theirs_lines = theirs.stdout.decode().splitlines()
    assert [_drop_signature(x) for x in ours_lines] == [_drop_signature(x) for x in theirs_lines]


# ------------------------------------------------------------------------- bootstrap


def _resampled(lines: list[str], rows: np.ndarray) -> list[str]:
    return [lines[i] for i in rows]


def test_bootstrap_equals_a_loop_over_the_same_resamples(capsys, tmp_path, monkeypatch):
    hyp, refs = make_corpus(60, 2, seed=4)
    hyp_path, ref_paths = write_corpus(tmp_path, hyp, refs)
    n, seed = 120, 7
    indices = np.random.default_rng(seed).choice(len(hyp), size=(n, len(hyp)), replace=True)
    metric = BLEU()
    slow_bleu = [metric.corpus_score(_resampled(hyp, rows), [_resampled(r, rows) for r in refs])
                 .score for rows in indices]
    hyp_tokens = tokenize_like_sacrebleu(hyp)
    ref_tokens = [list(r) for r in zip(*(tokenize_like_sacrebleu(r) for r in refs), strict=True)]
    slow_gleu = [100 * nltk_corpus_gleu(_resampled(ref_tokens, rows), _resampled(hyp_tokens, rows))
                 for rows in indices]

    # the vectorised function, on the statistics the command computes
    options = ScoreOptions.from_args(build_parser().parse_args(
        ["score", *ref_paths, "-i", hyp_path, "-m", "bleu", "gleu"]))
    token_ids = encode_texts([read_lines(p, "text") for p in [hyp_path, *ref_paths]],
                             load_tokenizer("13a"), False)
    stats = systems_statistics(token_ids, 1, options)[0]
    fast_bleu = bootstrap_scores(stats["bleu"], score_function("bleu", options), n, seed)
    fast_gleu = bootstrap_scores(stats["gleu"], score_function("gleu", options), n, seed)
    np.testing.assert_allclose(fast_bleu, slow_bleu, rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(fast_gleu, slow_gleu, rtol=0, atol=TOLERANCE)

    # the command's summary of them: GLEU's from exact scores; BLEU's as sacrebleu's own
    # bootstrap scores resamples (float32 precisions), to the last digit
    out = score_json(capsys, *ref_paths, "-i", hyp_path, "-m", "bleu", "gleu", "-ci",
                     "-cin", str(n), "--seed", str(seed))
    for entry, slow in zip(out, (slow_bleu, slow_gleu), strict=True):
        ordered = sorted(slow)
        low, high = ordered[n // 40], ordered[n - n // 40 - 1]
        tolerance = 1e-4 if entry["name"] == "BLEU" else TOLERANCE
        assert abs(entry["confidence_mean"] - statistics.mean(slow)) <= tolerance
        assert abs(entry["confidence_var"] - (high - low) / 2) <= tolerance
        assert abs(entry["confidence_low"] - low) <= tolerance
        assert abs(entry["confidence_high"] - high) <= tolerance
        assert entry["bs"] == str(n) and entry["seed"] == str(seed)
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    theirs = BLEU().corpus_score(hyp, refs, n_bootstrap=n)
    assert out[0]["confidence_mean"] == float(f"{theirs._mean:.{WIDTH}f}")
    assert out[0]["confidence_var"] == float(f"{theirs._ci:.{WIDTH}f}")


def test_bootstrap_is_seeded_brackets_the_score_and_matches_sacrebleu(capsys, small):
    args = [*small["ref_paths"], "-i", small["hyp_path"], "-ci", "-cin", "300"]
    first = score_json(capsys, *args, "--seed", "5")
    again = score_json(capsys, *args, "--seed", "5")
    other = score_json(capsys, *args, "--seed", "6")
    assert first == again
    assert first["confidence_low"] != other["confidence_low"] or \
        first["confidence_high"] != other["confidence_high"]
    assert first["confidence_low"] <= first["score"] <= first["confidence_high"]
    # sacrebleu's own bootstrap (seed 12345, the default of both) draws the same resamples
    # and scores them with the same arithmetic: the same numbers to the last digit
    ours = score_json(capsys, *small["ref_paths"], "-i", small["hyp_path"], "-ci", "-cin", "200")
    theirs = BLEU().corpus_score(small["hyp"], small["refs"], n_bootstrap=200)
    assert ours["confidence_mean"] == float(f"{theirs._mean:.{WIDTH}f}")
    assert ours["confidence_var"] == float(f"{theirs._ci:.{WIDTH}f}")
    assert ours["signature"].startswith("nrefs:2|bs:200|seed:12345|")


def test_resample_indices_in_chunks_are_one_draw():
    whole = np.random.default_rng(3).choice(37, size=(11, 37), replace=True)
    for chunk in (1, 2, 5, 11, 100):
        parts = list(resample_indices(37, 11, seed=3, chunk=chunk))
        np.testing.assert_array_equal(np.concatenate(parts), whole)
    counts = multiplicities(whole, 37)
    assert counts.shape == (11, 37)
    np.testing.assert_array_equal(counts.sum(axis=1), 37)
    np.testing.assert_array_equal(counts[4], np.bincount(whole[4], minlength=37))


# ---------------------------------------------------------------- tokens and backends


MECAB_TOKENIZERS = ("ja-mecab", "ko-mecab")


def mecab_installed(name: str) -> bool:
    """Whether sacrebleu's MeCab tokenizer ``name`` has its extra packages here."""
    try:
        load_tokenizer(name)
    except ImportError:
        return False
    return True


TRICKY = st.sampled_from(
    [*"aZ09.,-&;<>\"'()[]{}:/$%", "&amp;", "&quot;", "&lt;", "<skipped>", " ", "  ", "\t",
     "\u00a0", "\u3000", "\x0b", "\x1c", "Σ", "ΣΑ", "İ", "東", "。", "«", "™", "５"]
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(st.lists(TRICKY, max_size=12).map("".join), min_size=1, max_size=6),
       lowercase=st.booleans())
def test_tokens_equal_sacrebleu_line_by_line(lines, lowercase):
    """Word-by-word tokenising (13a, none, char) gives sacrebleu's per-line tokens."""
    for name in TOKENIZERS:
        if (name in MECAB_TOKENIZERS and not mecab_installed(name)) or name in SPM_MODELS:
            continue  # the SentencePiece ones: tests/text/test_spm.py, on a model it trains
        token_ids = encode_texts([lines], load_tokenizer(name), lowercase)
        expected = tokenize_like_sacrebleu(lines, name, lowercase)
        assert [token_ids.tokens(0, i) for i in range(len(lines))] == expected, name


def test_padded_batches_cover_every_line_once(small):
    """Without the compiled part, ragged rows are counted in padded batches of similar
    length: every line in exactly one batch, and the counts those of the compiled kernel
    and of the library on token lists."""
    paths = [small["hyp_path"], *small["ref_paths"]]
    token_ids = encode_texts([read_lines(p, "text") for p in paths], load_tokenizer("13a"), False)
    starts, lengths = token_ids.starts, token_ids.lengths
    pairs = RaggedPairs(token_ids.ids, starts[0], lengths[0], token_ids.ids,
                        np.ascontiguousarray(starts[1:].T), np.ascontiguousarray(lengths[1:].T))
    batches = list(padded_batches(pairs, slots=2000))
    assert len(batches) > 5
    rows = np.concatenate([rows for rows, _ in batches])
    np.testing.assert_array_equal(np.sort(rows), np.arange(len(small["hyp"])))
    options = ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt"]))
    whole = systems_statistics(token_ids, 1, options)[0]["bleu"]
    one_batch = bleusuite.bleu_statistics(
        tokenize_like_sacrebleu(small["hyp"]),
        [list(r) for r in zip(*(tokenize_like_sacrebleu(r) for r in small["refs"]), strict=True)],
    ).to_array()
    np.testing.assert_array_equal(whole, one_batch)
    kernel = count_pairs(pairs, 5, per_reference=True)
    for rows, batch in batches:
        numpy_counts = count_matches_compact(batch, 5, True)
        np.testing.assert_array_equal(numpy_counts.clipped, kernel.clipped[rows])
        np.testing.assert_array_equal(numpy_counts.per_reference, kernel.per_reference[rows])


# ----------------------------------------------------------------------------- output


def test_text_output_and_options(capsys, small):
    refs, hyp = small["ref_paths"], small["hyp_path"]
    text = run_main(capsys, "score", *refs, "-i", hyp, "-f", "text", "-m", "bleu", "gleu")
    bleu_line, gleu_line = text.splitlines()
    assert bleu_line.startswith("BLEU|nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|")
    assert bleu_line.index(" = ") == gleu_line.index(" = ")  # aligned as sacrebleu does
    assert "(BP = " in bleu_line and "(matches = " in gleu_line
    short = run_main(capsys, "score", *refs, "-i", hyp, "-f", "text", "--short")
    assert short.startswith("BLEU|#:2|c:mixed|e:no|tok:13a|s:exp|v:bleusuite-")
    only = run_main(capsys, "score", *refs, "-i", hyp, "-b", "-w", "3", "-m", "bleu", "gleu")
    assert [len(str(x).split(".")[1]) for x in json.loads(only)] == [3, 3]  # sacrebleu's list
    floor = score_json(capsys, *refs, "-i", hyp, "-s", "floor")
    assert floor["smooth"] == "floor[0.10]"
    default = json.loads(run_main(capsys, "score", *refs, "-i", hyp))  # json by default
    assert default["score"] == round(default["score"], 1)
    ci = run_main(capsys, "score", *refs, "-i", hyp, "-f", "text", "-ci", "-cin", "50")
    assert "(μ = " in ci and "95% CI" not in ci and "|bs:50|seed:12345|" in ci


def test_the_whole_output_arrives(tmp_path, capsys):
    """An output larger than a pipe's buffer arrives whole, with main's exit status."""
    hyp, refs = make_corpus(3000, 1, seed=8, vocab_size=2000)
    hyp_path, ref_paths = write_corpus(tmp_path, hyp, refs)
    args = ("score", *ref_paths, "-i", hyp_path, "-sl", "-f", "text", "-w", WIDTH)
    result = run_command(*args)
    assert result.returncode == 0, result.stderr
    assert len(result.stdout) > 1 << 17
    assert result.stdout.decode() == run_main(capsys, *args)
    missing = run_command("score", str(tmp_path / "missing.txt"), "-i", hyp_path)
    assert missing.returncode == 1 and missing.stdout == b""


def test_command_exits_with_mains_status_and_leaves_the_process_as_it_was(monkeypatch):
    """The console script is ``SystemExit(main())``: no environment variable, no signal
    setting, no early exit."""
    import signal

    monkeypatch.setattr(cli, "main", lambda: 3)
    environment, handler = dict(os.environ), signal.getsignal(signal.SIGPIPE)
    with pytest.raises(SystemExit) as exit_info:
        cli.command()
    assert exit_info.value.code == 3
    assert dict(os.environ) == environment and signal.getsignal(signal.SIGPIPE) == handler


def test_stdin_is_the_default_input(small, tmp_path):
    refs = small["ref_paths"]
    # a tab on standard input separates systems (as in sacrebleu): one system has none
    hyp = tmp_path / "hyp.txt"
    hyp.write_bytes(Path(small["hyp_path"]).read_bytes().replace(b"\t", b" "))
    piped = run_command("score", *refs, "-w", WIDTH, stdin=hyp.read_bytes())
    named = run_command("score", *refs, "-i", str(hyp), "-w", WIDTH)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == named.stdout
    assert piped.stderr == b""  # no progress bar when stderr is not a terminal


def run_with_terminal_stderr(*args: str) -> tuple[int, bytes, bytes]:
    """``python -m bleusuite ARGS`` with stderr on a pseudo-terminal: (exit status, stdout,
    what the terminal showed)."""
    leader, follower = pty.openpty()
    # a fresh pseudo-terminal is 0 columns wide, and tqdm draws nothing in 0 columns
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen([sys.executable, "-m", "bleusuite", *args],
                               stdout=subprocess.PIPE, stderr=follower, stdin=subprocess.DEVNULL)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 60)
        if not ready:
            break
        try:
            data = os.read(leader, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        seen += data
    os.close(leader)
    stdout, _ = process.communicate(timeout=60)
    return process.returncode, stdout, seen


def test_progress_bar_only_on_a_terminal(tmp_path):
    hyp, refs = make_corpus(PROGRESS_MIN_LINES + 100, 1, seed=5, vocab_size=500)
    hyp_path, ref_paths = write_corpus(tmp_path, hyp, refs)
    quiet = run_command("score", *ref_paths, "-i", hyp_path)
    assert quiet.returncode == 0 and quiet.stderr == b""
    returncode, stdout, seen = run_with_terminal_stderr("score", *ref_paths, "-i", hyp_path)
    assert returncode == 0
    assert json.loads(stdout)["name"] == "BLEU"
    assert b"tokenizing" in seen


# ----------------------------------------------------------------------------- errors


def assert_fails(result: subprocess.CompletedProcess[bytes], *fragments: str) -> str:
    """Non-zero exit, one line on stderr, no traceback, nothing on stdout."""
    message = result.stderr.decode()
    assert result.returncode != 0
    assert result.stdout == b""
    assert "Traceback" not in message
    assert message.count("\n") == 1 and message.endswith("\n"), message
    for fragment in fragments:
        assert fragment in message, (fragment, message)
    return message


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    texts = {
        "hyp": b"the cat sat on the mat\nit was a good day\n",
        "ref": b"the cat sat on a mat\nit was a fine day\n",
        "short": b"the cat sat on the mat\n",
        "empty": b"",
        "bad_ref": b"the cat sat on the mat\nit was a g\xf6od day\n",
    }
    paths = {}
    for name, data in texts.items():
        (tmp_path / f"{name}.txt").write_bytes(data)
        paths[name] = str(tmp_path / f"{name}.txt")
    paths["missing"] = str(tmp_path / "missing.txt")
    return paths


@pytest.mark.parametrize(
    ("args", "stdin", "fragments"),
    [
        (["score", "{missing}", "-i", "{hyp}"], None, ["missing.txt", "No such file"]),
        (["score", "{ref}", "-i", "{missing}"], None, ["missing.txt", "No such file"]),
        (["score", "{ref}", "{short}", "-i", "{hyp}"], None, ["short.txt has 1 line but", "has 2"]),
        (["score", "{ref}", "-i", "{hyp}", "-tok", "moses"], None, ["invalid choice: 'moses'"]),
        (["score", "{ref}", "-i", "{hyp}", "-s", "laplace"], None, ["invalid choice: 'laplace'"]),
        (["score", "{ref}", "-i", "{empty}"], None, ["empty.txt is empty"]),
        (["score", "{empty}"], b"", ["standard input (hypothesis) is empty"]),
        (["score", "{bad_ref}", "-i", "{hyp}"], None, ["bad_ref.txt is not valid UTF-8 (line 2",
                                                       "-e/--encoding"]),
        (["score", "{ref}"], b"ok\n\xff\n", ["standard input (hypothesis) is not valid UTF-8",
                                             "(line 2"]),
        (["score", "{ref}", "-i", "{hyp}", "-s", "method3", "-sv", "0.5"], None,
         ["--smooth-value"]),
        (["score", "{ref}", "-i", "{hyp}", "-sl", "-ci"], None, ["--confidence"]),
        (["score", "{ref}", "-i", "{hyp}", "-m", "meteor"], None, ["invalid choice: 'meteor'"]),
        (["score", "{ref}", "-i", "{hyp}", "--seed", "x"], None, ["--seed"]),
        (["--hyp", "{hyp}", "--ref", "{bad_ref}"], None, ["not valid UTF-8 (line 2"]),
        (["--hyp", "{hyp}", "--ref", "{short}"], None, ["short.txt has 1 line but"]),
        (["--hyp", "{hyp}"], None, ["give both --hyp"]),
    ],
    ids=["missing-ref", "missing-hyp", "line-counts", "tokenizer", "smoothing", "empty-file",
         "empty-stdin", "utf8-file", "utf8-stdin", "smooth-value", "sentence-ci", "metric",
         "seed", "plain-utf8", "plain-line-counts", "plain-no-ref"],
)
def test_errors_are_one_line_without_traceback(files, args, stdin, fragments):
    argv = [arg.format(**files) for arg in args]
    assert_fails(run_command(*argv, stdin=stdin), *fragments)


@pytest.mark.parametrize(
    ("env", "args", "fragments"),
    [
        ({"BLEUSUITE_COUNTING": "bogus"}, [],
         ["BLEUSUITE_COUNTING must be one of auto, compiled, compact, fixed, triton; got 'bogus'"]),
        ({"BLEUSUITE_COUNTING": "compiled", "BLEUSUITE_NATIVE": "0"}, [],
         ["BLEUSUITE_COUNTING=compiled needs bleusuite's compiled part"]),
        ({"SACREBLEU_SEED": "-1"}, ["-ci"],
         ["SACREBLEU_SEED (environment variable) must be an integer >= 0", "'-1'"]),
        ({"SACREBLEU_SEED": "x"}, ["-ci"], ["SACREBLEU_SEED (environment variable)"]),
        ({}, ["-w", "100001"], ["--width must be between 0 and 100,000; got 100001"]),
        ({}, ["-m", "chrf", "--chrf-beta", "-1"], ["--chrf-beta must not be negative"]),
    ],
    ids=["counting", "counting-compiled", "seed-negative", "seed-text", "width", "beta"],
)
def test_environment_and_settings_errors_name_what_is_wrong(files, env, args, fragments):
    """The command reads ``BLEUSUITE_COUNTING`` with the library's meaning and checks, and
    names ``SACREBLEU_SEED`` when it is wrong (issue 35, items 3-5)."""
    environ = {k: v for k, v in os.environ.items()
               if k not in ("BLEUSUITE_COUNTING", "SACREBLEU_SEED")}
    result = run_command("score", files["ref"], "-i", files["hyp"], *args,
                         env={**environ, **env})
    assert_fails(result, *fragments)


@pytest.mark.parametrize("strategy", ["compact", "fixed", "auto"])
def test_the_command_counts_as_bleusuite_counting_says(capsys, small, strategy, monkeypatch):
    """``BLEUSUITE_COUNTING`` forces the command's counting as the library's (the same
    numbers); ``SACREBLEU_SEED`` is read only where the run resamples, as in sacrebleu."""
    from bleusuite.counting import compact, fixed

    args = ("score", *small["ref_paths"], "-i", small["hyp_path"], "-m", "bleu", "chrf",
            "gleu", "-w", "12", "-b")
    monkeypatch.delenv("BLEUSUITE_COUNTING", raising=False)
    expected = run_main(capsys, *args)
    calls = []
    for module, name in ((compact, "count_matches_compact"), (fixed, "count_matches_fixed")):
        original = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, _f=original, _n=name, **k: (
            calls.append(_n), _f(*a, **k))[1])
    monkeypatch.setenv("BLEUSUITE_COUNTING", strategy)
    monkeypatch.setenv("SACREBLEU_SEED", "not a seed")  # no resampling: not read
    assert run_main(capsys, *args) == expected
    default = set() if native.compiled() else {"count_matches_compact"}
    assert set(calls) == {"compact": {"count_matches_compact"},
                          "fixed": {"count_matches_fixed"}, "auto": default}[strategy]


def test_missing_sacrebleu_is_a_clear_error(files, tmp_path):
    """13a, none and char are bleusuite's own: they run without sacrebleu; the tokenizers
    loaded from sacrebleu say what to install."""
    shadow = tmp_path / "shadow" / "sacrebleu"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError('No module named sacrebleu')\n")
    env = dict(os.environ, PYTHONPATH=str(shadow.parent))
    own = run_command("score", files["ref"], "-i", files["hyp"], "-w", WIDTH, env=env)
    assert own.returncode == 0, own.stderr
    assert own.stdout == run_command("score", files["ref"], "-i", files["hyp"], "-w", WIDTH).stdout
    result = run_command("score", files["ref"], "-i", files["hyp"], "-tok", "intl", env=env)
    assert_fails(result, "pip install 'bleusuite[cli]'")
    plain = run_command(env=env)  # the sample corpus needs no sacrebleu
    assert plain.returncode == 0 and b"GLEU" in plain.stdout


# ------------------------------------------------------------------ the plain command


def test_plain_command_still_works(files):
    sample = run_command()
    assert sample.returncode == 0, sample.stderr
    out = sample.stdout.decode()
    assert "BLEU = 23.17" in out and "GLEU = 27.81" in out
    result = run_command("--hyp", files["hyp"], "--ref", files["ref"], "--ref", files["hyp"],
                         "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["bleu"]["score"] == pytest.approx(100.0) and report["sentences"] == 2


def test_help_lists_the_score_command():
    result = run_command("--help")
    assert result.returncode == 0 and b"score" in result.stdout
    result = run_command("score", "--help")
    assert result.returncode == 0
    for flag in (b"-tok", b"--tokenize", b"-lc", b"--smooth-method", b"-sv", b"--confidence-n",
                 b"--chrf-word-order", b"--sentence-level", b"--width", b"--format"):
        assert flag in result.stdout


def test_bench_command_is_wired_in():
    """``bleusuite bench`` (bleusuite/bench/, tested in test_bench_command.py) is a
    subcommand, and its usage errors are one line like the others."""
    listed = run_command("--help")
    assert b"bench" in listed.stdout
    assert_fails(run_command("bench", "--batch", "0"), "bleusuite bench: error:", "--batch")


# ------------------------------------------------- issue 24: output, decoding, flags


@pytest.fixture(scope="module")
def long_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """10,000 lines: the sentence-level report is about 1.4 MB."""
    folder = tmp_path_factory.mktemp("long_run")
    hyp, refs = make_corpus(10_000, 1, seed=24, vocab_size=500)
    hyp_path, ref_paths = write_corpus(folder, hyp, refs)
    args = ["score", *ref_paths, "-i", hyp_path, "-sl"]
    expected = run_command(*args).stdout
    return {"args": args, "expected": expected, "folder": folder}


BUFFERING = [pytest.param({}, id="buffered"), pytest.param({"PYTHONUNBUFFERED": "1"},
                                                             id="unbuffered")]


def _environment(extra: dict[str, str]) -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    environment.update(extra)
    return environment


@pytest.mark.parametrize("buffering", BUFFERING)
def test_a_file_size_limit_is_an_error_not_a_cut_report(long_run, buffering):
    """ulimit -f: the report cannot be written whole, so the command fails in one line
    (it once exited 0 with 681 of 10,000 lines, unbuffered)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (100 * 1024, 100 * 1024))

    out = long_run["folder"] / f"out-{len(buffering)}.txt"
    with open(out, "wb") as sink:
        result = subprocess.run([sys.executable, "-m", "bleusuite", *long_run["args"]],
                                stdout=sink, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                preexec_fn=limit, env=_environment(buffering), timeout=120)
    message = result.stderr.decode()
    assert result.returncode == 1, message
    assert message.count("\n") == 1 and "cannot write the output" in message, message
    assert out.stat().st_size < len(long_run["expected"])


@pytest.mark.parametrize("buffering", BUFFERING)
def test_a_full_disk_is_an_error(long_run, buffering):
    with open("/dev/full", "wb") as full:
        result = subprocess.run([sys.executable, "-m", "bleusuite", *long_run["args"]],
                                stdout=full, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                                env=_environment(buffering), timeout=120)
    message = result.stderr.decode()
    assert result.returncode == 1 and "No space left on device" in message, message
    assert message.count("\n") == 1


@pytest.mark.parametrize("buffering", BUFFERING)
def test_a_full_non_blocking_pipe_gets_every_byte(long_run, buffering):
    """A non-blocking pipe that fills up: the command waits for it and writes the rest."""
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    process = subprocess.Popen([sys.executable, "-m", "bleusuite", *long_run["args"]],
                               stdout=write_end, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, env=_environment(buffering))
    os.close(write_end)
    received = b""
    with open(read_end, "rb") as source:
        while chunk := source.read(4096):
            received += chunk
    _, errors = process.communicate(timeout=120)
    assert process.returncode == 0, errors
    assert received == long_run["expected"]


@pytest.mark.parametrize("buffering", BUFFERING)
def test_a_reader_that_goes_away_ends_the_command_as_sacrebleu(long_run, buffering):
    """``bleusuite score ... | head -1``: status 141 (sacrebleu dies of SIGPIPE), no
    traceback, no message."""
    process = subprocess.Popen([sys.executable, "-m", "bleusuite", *long_run["args"]],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.DEVNULL, env=_environment(buffering))
    assert process.stdout is not None
    first = process.stdout.readline()
    process.stdout.close()
    _, errors = process.communicate(timeout=120)
    assert first == long_run["expected"].splitlines(keepends=True)[0]
    assert process.returncode == 141 and errors == b"", errors


def test_utf16_without_a_byte_order_mark_is_refused_as_sacrebleu(tmp_path, files):
    """-e utf-16 on a big-endian file without a BOM: sacrebleu refuses it; bleusuite once
    read it as little-endian and printed a plausible score with status 0."""
    hyp, ref = Path(files["hyp"]).read_text(), Path(files["ref"]).read_text()
    for encoding, codec, bom in (("utf-16", "utf-16-be", "BOM"), ("utf-32", "utf-32-be", "")):
        (tmp_path / "hyp.be").write_bytes(hyp.encode(codec))
        (tmp_path / "ref.be").write_bytes(ref.encode(codec))
        result = run_command("score", str(tmp_path / "ref.be"), "-i", str(tmp_path / "hyp.be"),
                             "-e", encoding)
        assert_fails(result, f"is not valid {encoding}", bom)
        (tmp_path / "hyp.bom").write_bytes(hyp.encode(encoding))  # with its byte order mark
        (tmp_path / "ref.bom").write_bytes(ref.encode(encoding))
        with_bom = run_command("score", str(tmp_path / "ref.bom"), "-i",
                               str(tmp_path / "hyp.bom"), "-e", encoding, "-w", WIDTH)
        plain = run_command("score", files["ref"], "-i", files["hyp"], "-w", WIDTH)
        assert with_bom.returncode == 0 and with_bom.stdout == plain.stdout


@pytest.mark.parametrize("codec", ["rot13", "hex", "base64", "zlib", "no-such-codec"])
def test_codecs_that_are_not_text_encodings_are_one_line_errors(files, codec):
    assert_fails(run_command("score", files["ref"], "-i", files["hyp"], "-e", codec),
                 "--encoding", repr(codec))


@pytest.mark.parametrize(
    ("flags", "fragment"),
    [(["-ol"], "-ol is sacrebleu's option for downloading test sets"),
     (["-ol", "de"], "-ol is sacrebleu's option"),
     (["-t", "wmt14"], "-t is sacrebleu's option"),
     (["--echo", "src"], "--echo is sacrebleu's option"),
     (["--subset", "x"], "--subset is sacrebleu's option for downloading test sets"),
     (["-t", "wmt14", "-d"], "-t is sacrebleu's option"),
     (["--smooth", "exp"], "unrecognized arguments: --smooth"),
     (["--token", "13a"], "unrecognized arguments: --token")],
    ids=["ol", "ol-de", "t", "echo", "subset", "t-detail", "abbreviated-smooth",
         "abbreviated-tok"])
def test_sacrebleus_other_flags_are_named_not_misread(files, flags, fragment):
    """-l once became -lc (lowercase) silently; no flag is taken for a prefix of another."""
    message = assert_fails(run_command("score", files["ref"], "-i", files["hyp"], *flags),
                           fragment)
    assert "bleusuite score --help" in message


def test_lowercase_is_still_lowercase(files, capsys):
    lowered = run_main(capsys, "score", files["ref"], "-i", files["hyp"], "-lc", "-f", "text")
    assert "|case:lc|" in lowered


def test_paired_ar_with_a_fractional_add_k_keeps_the_exact_arithmetic(tmp_path):
    """sacrebleu's --paired-ar adds k in place to the integer statistics of its trials, so
    -sv 0.5 counts as 0 there (not in its real scores). bleusuite adds 0.5 everywhere (a
    listed difference, docs/cli.md): its p-value is the one of sacrebleu's own arithmetic
    on unrounded statistics, and with a whole k it is sacrebleu's to the digit."""
    lines = ["the cat sat on the mat", "a dog ran home", "it is a fine day today",
             "we will meet at noon"]
    other = ["the cat sat on a mat", "a dog ran far", "it is fine today", "we meet at noon"]
    ref = ["the cat sat on the mat", "the dog ran home", "it is a fine day", "we will meet at noon"]
    paths = {}
    for name, text in (("ref", ref), ("base", lines), ("system", other)):
        paths[name] = tmp_path / f"{name}.txt"
        paths[name].write_text("".join(line + "\n" for line in text), encoding="utf-8")
    args = [str(paths["ref"]), "-i", str(paths["base"]), str(paths["system"]), "-par",
            "-parn", "300", "-s", "add-k", "-f", "json", "-w", "16"]

    def sacrebleu_command(*extra: str) -> Any:
        done = subprocess.run([sys.executable, "-m", "sacrebleu", *args, *extra],
                              capture_output=True, timeout=120, check=True)
        return json.loads(done.stdout)

    whole = run_command("score", *args, "-sv", "1")
    assert json.loads(whole.stdout) == sacrebleu_command("-sv", "1")
    ours = json.loads(run_command("score", *args, "-sv", "0.5").stdout)
    theirs = sacrebleu_command("-sv", "0.5")
    assert ours[1]["BLEU"]["score"] == theirs[1]["BLEU"]["score"]
    assert ours[1]["BLEU"]["p_value"] != theirs[1]["BLEU"]["p_value"]
    # the same trials, scored by sacrebleu's compute_bleu on float statistics
    metric = BLEU(smooth_method="add-k", smooth_value=0.5)
    base_stats = np.array(metric._extract_corpus_statistics(lines, [ref]), dtype=np.float64)
    sys_stats = np.array(metric._extract_corpus_statistics(other, [ref]), dtype=np.float64)
    real = abs(metric._compute_score_from_stats(base_stats.sum(0).tolist()).score
               - metric._compute_score_from_stats(sys_stats.sum(0).tolist()).score)
    take = np.random.default_rng(12345).integers(2, size=(300, len(lines)), dtype=bool)
    differences = []
    for mask in take:
        a = (mask[:, None] * base_stats + ~mask[:, None] * sys_stats).sum(0)
        b = (~mask[:, None] * base_stats + mask[:, None] * sys_stats).sum(0)
        differences.append(abs(metric._compute_score_from_stats(a.tolist()).score
                               - metric._compute_score_from_stats(b.tolist()).score))
    expected = (sum(d > real for d in differences) + 1) / (len(differences) + 1)
    assert ours[1]["BLEU"]["p_value"] == pytest.approx(expected, abs=1e-12)
