"""The three routes of ``bleusuite score`` give the same numbers and the same text.

* :mod:`bleusuite.cli.quick` (a small run in plain Python) against the array route, in
  this process, on generated corpora: every sacrebleu smoothing, ``-sv``, ``-lc``,
  tokenizers, corpus and sentence scores, several references, empty lines, repeated
  n-grams, lines shorter than 4 tokens, no matches; and which runs take it.
* :mod:`bleusuite.cli.shards` (slices of lines counted in forked processes) against one
  process, with 2 and 3 processes, and a child that fails; how the lines are cut.
* Several systems against one reference (counted with the roles swapped,
  :func:`bleusuite.cli.statistics.one_reference_statistics`) against the stacked batch of
  several references' route, for BLEU and GLEU and each counting strategy.
* The real command, in subprocesses: a small file takes the quick route without importing
  NumPy, a large one is counted in several processes, and both print sacrebleu's output.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from compiled_part import require_compiled

from bleusuite import native
from bleusuite.cli import quick, shards
from bleusuite.cli.io import ScoreInputs, _NoProgress, load_tokenizer
from bleusuite.cli.options import ScoreOptions
from bleusuite.cli.parser import build_parser
from bleusuite.cli.scoring import report
from bleusuite.cli.statistics import (
    compiled_statistics,
    one_reference_statistics,
    sentence_statistics,
    stacked_systems,
    text_statistics,
)
from bleusuite.text import encode_texts

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", ".", ",", "The", "CAT", "x-y",
         "3.5", "don't", "&amp;", "(", ")", "é", "東京"]


def _options(*flags: str) -> ScoreOptions:
    return ScoreOptions.from_args(build_parser().parse_args(["score", "ref.txt", *flags]))


def _corpus(seed: int, lines: int, refs: int) -> ScoreInputs:
    """Hypotheses that share words with their references (as system outputs do), with
    empty lines, very short lines and repeated words."""
    rng = np.random.default_rng(seed)
    hyps, streams = [], [[] for _ in range(refs)]
    for _ in range(lines):
        base = list(rng.choice(WORDS, size=int(rng.integers(0, 12))))
        for stream in streams:
            edited = [w for w in base if rng.random() > 0.2] + list(
                rng.choice(WORDS, size=int(rng.integers(0, 3))))
            stream.append(" ".join(edited))
        kept = [w for w in base if rng.random() > 0.3]
        hyps.append(" ".join(kept * int(rng.integers(1, 3))) + " " * int(rng.integers(0, 2)))
    return ScoreInputs(["hyp.txt"], [hyps], streams)


def _array_route(options: ScoreOptions, inputs: ScoreInputs) -> str:
    tokenizer = load_tokenizer(options.tokenize)
    stats = text_statistics([*inputs.systems, *inputs.references], 1, tokenizer, options)
    return report(inputs, stats, options, tokenizer, False)


FLAGS = [
    [], ["-s", "none"], ["-s", "floor"], ["-s", "floor", "-sv", "0.3"], ["-s", "add-k"],
    ["-s", "add-k", "-sv", "2"], ["-lc"], ["-tok", "none"], ["-tok", "char"],
    ["-tok", "intl", "-lc"], ["-f", "json"], ["-f", "latex"], ["-w", "6", "--short"], ["-b"],
]


@pytest.mark.parametrize("flags", FLAGS, ids=" ".join)
@pytest.mark.parametrize("sentence_level", [False, True], ids=["corpus", "sentence"])
def test_quick_route_prints_what_the_array_route_prints(flags, sentence_level):
    options = _options(*flags, *(["-sl"] if sentence_level else []))
    tokenizer = load_tokenizer(options.tokenize)
    for seed, (lines, refs) in enumerate([(30, 1), (25, 3), (3, 2), (1, 1)]):
        inputs = _corpus(seed, lines, refs)
        assert quick.run(options, inputs, tokenizer) == _array_route(options, inputs), seed


def test_quick_route_without_any_match_or_token():
    options = _options("-sl")
    tokenizer = load_tokenizer("13a")
    for hyps, refs in [(["a b c"], ["d e f"]), ([""], ["a b"]), (["a"], [""]), ([""], [""]),
                       (["a b c d e"], ["a x c x e"])]:
        inputs = ScoreInputs(["h"], [hyps], [refs])
        assert quick.run(options, inputs, tokenizer) == _array_route(options, inputs)
        corpus = _options()
        assert quick.run(corpus, inputs, tokenizer) == _array_route(corpus, inputs)


def test_quick_statistics_are_sacrebleus():
    from sacrebleu.metrics import BLEU

    inputs = _corpus(7, 40, 2)
    metric = BLEU(references=inputs.references)
    theirs = metric._extract_corpus_statistics(inputs.systems[0], None)
    tokenize = load_tokenizer("13a").tokenize
    ours = [quick.sentence_statistics(tokenize(hyp.rstrip()).split(),
                                      [tokenize(s[i].rstrip()).split() for s in inputs.references])
            for i, hyp in enumerate(inputs.systems[0])]
    assert ours == [list(row) for row in theirs]
    for smooth in ("none", "floor", "add-k", "exp"):
        for row in theirs:
            expected = BLEU.compute_bleu(list(row[2:6]), list(row[6:]), row[0], row[1], smooth,
                                         None, True)
            score, precisions, bp = quick.compute_bleu(row[2:6], row[6:], row[0], row[1],
                                                       smooth, None, True)
            assert (score, precisions, bp) == (expected.score, expected.precisions, expected.bp)


def test_which_runs_take_the_quick_route(monkeypatch):
    small = _corpus(1, 10, 1)
    two = ScoreInputs(["a", "b"], [small.systems[0]] * 2, small.references)
    monkeypatch.delitem(sys.modules, "numpy")  # as in a fresh command process
    assert quick.applies(_options(), small)
    assert quick.applies(_options("-sl", "-s", "floor", "-lc"), small)
    for options, inputs in [
        (_options("-m", "bleu", "gleu"), small), (_options("-m", "gleu"), small),
        (_options("-s", "method1"), small), (_options("-ci"), small),
        (_options("--backend", "torch"), small), (_options(), two),
        (_options("-pbs"), two),
    ]:
        assert not quick.applies(options, inputs), options
    monkeypatch.setattr(quick, "QUICK_MAX_CHARS", sum(map(len, small.systems[0])) - 1)
    assert not quick.applies(_options(), small)
    monkeypatch.undo()
    assert not quick.applies(_options(), small)  # NumPy is imported: the array route


# ------------------------------------------------- several systems against one reference


@pytest.mark.parametrize("counting", ["compact", "fixed", "numba"])
@pytest.mark.parametrize("seed", range(6))
def test_one_reference_counted_once_for_all_systems_equals_the_stacked_batch(
        seed, counting, monkeypatch):
    if counting == "numba":
        pytest.importorskip("numba")
    monkeypatch.setenv("BLEUSUITE_COUNTING", counting)
    rng = np.random.default_rng(seed)
    inputs = _corpus(seed, int(rng.integers(1, 40)), 1)
    reference = inputs.references[0]
    systems = [inputs.systems[0], reference, [""] * len(reference),  # all empty
               [" ".join(line.split()[::-1]) for line in inputs.systems[0]],
               *(list(rng.permutation(inputs.systems[0]))
                 for _ in range(int(rng.integers(0, 3))))]
    flags = ["-m", "bleu", "gleu", *(["-lc"] if seed % 2 else []),
             *(["-s", "method5"] if seed % 3 == 0 else [])]  # method5 counts 5-grams
    options = _options(*flags)
    ids = encode_texts([*systems, reference], load_tokenizer("13a"), options.lowercase)
    ours = one_reference_statistics(ids, len(systems), options, _NoProgress())
    stacked = sentence_statistics(stacked_systems(ids, len(systems)), options.metrics,
                                  options.stats_order)
    lines = len(reference)
    assert len(ours) == len(systems)
    for k, statistics in enumerate(ours):
        assert statistics.keys() == stacked.keys()
        for metric, array in statistics.items():
            np.testing.assert_array_equal(array, stacked[metric][k * lines : (k + 1) * lines])


@pytest.mark.parametrize("seed", range(8))
def test_compiled_statistics_equal_the_stacked_batch(seed, monkeypatch):
    """The compiled part's counts, for 1-3 systems and 1-3 references (closest reference
    lengths, ties, empty lines, GLEU's best reference), give the stacked batch's
    statistics."""
    require_compiled()
    monkeypatch.setenv("BLEUSUITE_NATIVE", "1")
    rng = np.random.default_rng(seed)
    refs = int(rng.integers(1, 4))
    inputs = _corpus(seed, int(rng.integers(1, 40)), refs)
    systems = [inputs.systems[0], inputs.references[0], [""] * len(inputs.systems[0]),
               *(list(rng.permutation(inputs.systems[0]))
                 for _ in range(int(rng.integers(0, 2))))][: int(rng.integers(1, 5))]
    flags = ["-m", "bleu", "gleu", *(["-lc"] if seed % 2 else []),
             *(["-s", "method5"] if seed % 3 == 0 else [])]  # method5 counts 5-grams
    options = _options(*flags)
    ids = encode_texts([*systems, *inputs.references], load_tokenizer("13a"),
                       options.lowercase)
    ours = compiled_statistics(ids, len(systems), options, _NoProgress())
    stacked = sentence_statistics(stacked_systems(ids, len(systems)), options.metrics,
                                  options.stats_order)
    lines = len(inputs.systems[0])
    assert len(ours) == len(systems)
    for k, statistics in enumerate(ours):
        assert statistics.keys() == stacked.keys()
        for metric, array in statistics.items():
            np.testing.assert_array_equal(array, stacked[metric][k * lines : (k + 1) * lines])


@pytest.mark.parametrize("compiled", [False, True])
def test_which_route_counts(compiled, monkeypatch):
    """With the compiled part, every NumPy run is counted by it; without, several systems
    with one reference are counted with the roles swapped, the rest as a stacked batch."""
    if compiled:
        require_compiled()
    monkeypatch.setenv("BLEUSUITE_NATIVE", "1" if compiled else "0")
    calls = []
    from bleusuite.cli import statistics

    for name in ("one_reference_statistics", "compiled_statistics"):
        original = getattr(statistics, name)
        monkeypatch.setattr(statistics, name, lambda *args, name=name, original=original: (
            calls.append((name, args[1])) or original(*args)))
    inputs = _corpus(3, 9, 2)
    tokenizer = load_tokenizer("13a")
    two_systems = [inputs.systems[0], inputs.references[0]]
    for texts, systems in [([*two_systems, inputs.references[1]], 2),  # one reference
                           ([*two_systems, *inputs.references], 2),  # two references
                           ([inputs.systems[0], inputs.references[0]], 1)]:  # one system
        text_statistics(texts, systems, tokenizer, _options())
    if compiled:
        assert calls == [("compiled_statistics", 2), ("compiled_statistics", 2),
                         ("compiled_statistics", 1)]
    else:
        assert calls == [("one_reference_statistics", 2)]


# ------------------------------------------------------------------------------- shards


@pytest.mark.parametrize("processes", [2, 3])
def test_slices_counted_in_forked_processes_equal_one_process(processes, monkeypatch):
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
    inputs = _corpus(5, 47, 2)
    texts = [*inputs.systems, *inputs.references]
    texts = [texts[0], texts[0][::-1], *texts[1:]]  # two systems
    options = _options("-m", "bleu", "gleu")
    tokenizer = load_tokenizer("13a")
    one = shards.systems_statistics(texts, 2, tokenizer, options, processes=1)
    many = shards.systems_statistics(texts, 2, tokenizer, options, processes=processes)
    assert len(many) == 2
    for ours, expected in zip(many, one, strict=True):
        assert ours.keys() == expected.keys()
        for metric in expected:
            np.testing.assert_array_equal(ours[metric], expected[metric])
    assert os.environ["BLEUSUITE_NUM_THREADS"] == "1"  # restored


def test_a_failing_child_is_counted_again_by_the_command(monkeypatch):
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
    parent = os.getpid()
    count = shards._count
    calls = []

    def fails_in_children(*args, **kwargs):
        if os.getpid() != parent:
            raise MemoryError("a child that fails")
        calls.append(len(args[0][0]))
        return count(*args, **kwargs)

    monkeypatch.setattr(shards, "_count", fails_in_children)
    inputs = _corpus(9, 20, 1)
    texts = [*inputs.systems, *inputs.references]
    tokenizer = load_tokenizer("13a")
    many = shards.systems_statistics(texts, 1, tokenizer, _options(), processes=2)
    assert len(calls) == 2 and sum(calls) == 20  # both slices, both in the command
    one = text_statistics(texts, 1, tokenizer, _options())
    np.testing.assert_array_equal(many[0]["bleu"], one[0]["bleu"])


def test_the_command_slice_is_smaller_by_its_head_start():
    texts = [["x" * 9] * 1000]
    assert shards.line_slices(texts, 2) == [(0, 500), (500, 1000)]
    assert shards.line_slices(texts, 2, head_start=0.25) == [(0, 375), (375, 1000)]
    # three processes: the others take (1 + 0.25) / 3 each
    assert shards.line_slices(texts, 3, head_start=0.25) == [(0, 167), (167, 584), (584, 1000)]
    # a head start larger than a slice: the command keeps one line
    assert shards.line_slices(texts, 2, head_start=2.0) == [(0, 1), (1, 1000)]


@pytest.mark.parametrize("processes", [1, 2])
def test_meanwhile_runs_once_in_the_command(processes, monkeypatch):
    """The command's other work runs once, in the command, whether it forks or not; with
    children its slice is smaller by that work's time."""
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
    parent, calls = os.getpid(), []
    slices = []
    line_slices = shards.line_slices
    monkeypatch.setattr(shards, "line_slices",
                        lambda *a, **k: slices.append(line_slices(*a, **k)) or slices[-1])
    inputs = _corpus(10, 40, 1)
    texts = [*inputs.systems, *inputs.references]
    chars = sum(sum(map(len, stream)) for stream in texts)
    seconds = 0.25 * chars * shards.seconds_per_char(load_tokenizer("13a"))  # a quarter
    stats = shards.systems_statistics(texts, 1, load_tokenizer("13a"), _options(),
                                      processes=processes, meanwhile_seconds=seconds,
                                      meanwhile=lambda: calls.append(os.getpid()))
    assert calls == [parent]
    one = text_statistics(texts, 1, load_tokenizer("13a"), _options())
    np.testing.assert_array_equal(stats[0]["bleu"], one[0]["bleu"])
    if processes == 2:
        (begin, end), _ = slices[-1]
        assert begin == 0 and 0.2 < end / 40 < 0.5  # (1 - 0.25) / 2 of the characters


def test_a_childs_statistics_cross_the_pipe_as_int32_where_they_fit():
    small = np.arange(6, dtype=np.int64).reshape(3, 2)
    large = np.array([[0, 1 << 40]], dtype=np.int64)
    part = shards._narrow([{"bleu": small, "gleu": large}, {"bleu": small[:0]}])
    assert [part[0]["bleu"].dtype, part[0]["gleu"].dtype] == [np.int32, np.int64]
    joined = shards._join([[{"bleu": small}], [{"bleu": part[0]["bleu"]}]])
    assert joined[0]["bleu"].dtype == np.int64
    np.testing.assert_array_equal(joined[0]["bleu"], np.concatenate([small, small]))


@pytest.mark.parametrize("seed", range(20))
def test_line_slices_cover_the_lines_in_order(seed):
    rng = np.random.default_rng(seed)
    lines = int(rng.integers(1, 30))
    texts = [["x" * int(n) for n in rng.integers(0, 50, size=lines)]]
    processes = int(rng.integers(1, 6))
    slices = shards.line_slices(texts, processes, head_start=float(rng.uniform(0, 1)))
    assert len(slices) == min(processes, lines)
    assert slices[0][0] == 0 and slices[-1][1] == lines
    assert all(begin < end for begin, end in slices)
    assert all(a[1] == b[0] for a, b in itertools.pairwise(slices))


def test_processes_follow_the_size_and_the_threads(monkeypatch):
    monkeypatch.setattr(shards, "can_fork", lambda: True)
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "4")
    big = 1000 * (3 * shards.SHARD_MIN_CHARS // 1000 + 1)  # characters
    assert shards._processes(big, _options()) == 3
    assert shards._processes(1, _options()) == 1
    assert shards._processes(big, _options("--backend", "torch")) == 1
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "1")
    assert shards._processes(big, _options()) == 1
    monkeypatch.setattr(shards, "can_fork", lambda: False)
    monkeypatch.setenv("BLEUSUITE_NUM_THREADS", "4")
    assert shards._processes(big, _options()) == 1
    assert not shards.can_fork()  # this process has imported NumPy


# ---------------------------------------------------------------------- the command


def _command(module: list[str], args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items()
               if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED", "BLEUSUITE_NUM_THREADS")}
    environ.update(env)
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", *module, *args],
                            capture_output=True, text=True, timeout=600, env=environ)
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def _imported(result: subprocess.CompletedProcess[str]) -> set[str]:
    return {line.split("|")[-1].strip() for line in result.stderr.splitlines()
            if line.startswith("import time:")}


def _without_version(text: str) -> str:
    return text.replace("bleusuite-0.1.0", "X").replace("2.6.0", "X")


def _write(path: Path, inputs: ScoreInputs, copies: int) -> list[str]:
    names = []
    for name, lines in [("hyp", inputs.systems[0]), *(
            (f"ref{i}", stream) for i, stream in enumerate(inputs.references))]:
        (path / f"{name}.txt").write_text("\n".join(lines * copies) + "\n", encoding="utf-8")
        names.append(str(path / f"{name}.txt"))
    return names


def test_a_small_file_is_scored_without_numpy_as_sacrebleu(tmp_path):
    hyp, *refs = _write(tmp_path, _corpus(3, 60, 2), 1)
    for flags in ([], ["-sl", "-s", "floor"], ["-lc", "-f", "json"]):
        args = [*refs, "-i", hyp, *flags]
        ours = _command(["bleusuite", "score"], args)
        assert "numpy" not in _imported(ours)
        theirs = _command(["sacrebleu"], args)
        assert _without_version(ours.stdout) == _without_version(theirs.stdout)


def test_a_large_run_counted_in_two_processes_is_sacrebleus(tmp_path):
    inputs = _corpus(4, 400, 1)
    copies = 2 * shards.SHARD_MIN_CHARS // sum(map(len, inputs.systems[0] * 2)) + 1
    hyp, ref = _write(tmp_path, inputs, copies)
    other = tmp_path / "other.txt"
    other.write_text("\n".join(line[::-1] for line in (inputs.systems[0] * copies)) + "\n",
                     encoding="utf-8")
    args = [ref, "-i", hyp, str(other), "-f", "json"]
    two = _command(["bleusuite", "score"], args, BLEUSUITE_NUM_THREADS="2")
    one = _command(["bleusuite", "score"], args, BLEUSUITE_NUM_THREADS="1")
    assert two.stdout == one.stdout

    def imports(result: subprocess.CompletedProcess[str], module: str) -> int:
        return sum(line.startswith("import time:") and line.split("|")[-1].strip() == module
                   for line in result.stderr.splitlines())

    # NumPy is imported once, before forking; the NumPy pipeline's counting module at the
    # first count, so once in each process (never with the compiled part, which counts)
    assert (imports(two, "numpy"), imports(one, "numpy")) == (1, 1)
    counting = "bleusuite.counting_compact"
    expected = (0, 0) if native.compiled() else (2, 1)
    assert (imports(two, counting), imports(one, counting)) == expected
    theirs = _command(["sacrebleu"], args)
    assert _without_version(two.stdout) == _without_version(theirs.stdout)


def test_freed_memory_is_kept_on_glibc():
    import platform

    from bleusuite.cli import score

    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert score.keep_freed_memory() is glibc
