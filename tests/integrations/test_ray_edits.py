"""WER and CER through bleusuite.ray on a local Ray cluster: ``metrics="wer"`` (CER with the
setting ``{"wer": {"characters": True}}``) of text columns and of token-id columns gives the
single-process results (:func:`bleusuite.corpus_wer`, :func:`bleusuite.corpus_cer`) and
jiwer's numbers, over uneven and empty blocks; the paired tests give
:mod:`bleusuite.significance`'s results on the same statistics; the per-row column is
``100 x jiwer.wer`` of each pair; more than one reference column is refused before any task.

Skipped where Ray Data is not installed (``tox -e ray``).
"""

from __future__ import annotations

import dataclasses
import itertools
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from edit_cases import asr_pairs

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
jiwer = pytest.importorskip("jiwer")
import pyarrow as pa  # noqa: E402  (Ray Data's own dependency)

import bleusuite  # noqa: E402
from bleusuite.ray import SentenceScorer, corpus_scores  # noqa: E402
from bleusuite.significance import (  # noqa: E402
    paired_approximate_randomization,
    paired_bootstrap,
)


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    """A local cluster of two workers, unless one is running (test_ray.py's, for the
    session): then that one, left as it is."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level="warning")
    with warnings.catch_warnings():  # Ray's own DataContext defaults warn on creation
        warnings.simplefilter("ignore", DeprecationWarning)
        context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    yield
    if started:
        ray.shutdown()


def _blocks(table: pa.Table, sizes: list[int]) -> list[pa.Table]:
    """Consecutive blocks of these sizes (0: an empty block), the last one the rest."""
    bounds = np.cumsum([0, *sizes])
    blocks = [table.slice(int(a), int(b - a)) for a, b in itertools.pairwise(bounds)]
    return [*blocks, table.slice(int(bounds[-1]))]


def _systems(rows: int, count: int) -> tuple[list[list[str]], list[str]]:
    """``count`` ASR-like systems of the same references (tests/edit_cases.py)."""
    pairs = asr_pairs(rows, seed=11)
    references = [ref for ref, _ in pairs]
    systems = [[hyp for _, hyp in pairs]]
    for k in range(1, count):  # the other systems: other corruptions of the same lines
        other = asr_pairs(rows, seed=11 + k)
        systems.append([hyp if ref == references[i] else references[i]
                        for i, (ref, hyp) in enumerate(other)])
    return systems, references


def _text_dataset(systems: list[list[str]], references: list[str]) -> Any:
    columns: dict[str, Any] = {f"sys{k}": lines for k, lines in enumerate(systems)}
    columns["ref"] = references
    columns["line"] = np.arange(len(references))
    return ray.data.from_arrow(_blocks(pa.table(columns), [700, 0, 3, 250]))


def _unsigned(result: Any) -> Any:
    """A result without its signature: the library's corpus_wer makes none."""
    return dataclasses.replace(result, signature="")


def _check_jiwer(result: Any, references: list[str], hypotheses: list[str],
                 characters: bool) -> None:
    if characters:
        theirs = jiwer.process_characters(references, hypotheses)
        assert result.wer == theirs.cer
    else:
        theirs = jiwer.process_words(references, hypotheses)
        assert (result.wer, result.mer, result.wil, result.wip) == (
            theirs.wer, theirs.mer, theirs.wil, theirs.wip)
    assert (result.hits, result.substitutions, result.deletions, result.insertions) == (
        theirs.hits, theirs.substitutions, theirs.deletions, theirs.insertions)


@pytest.mark.parametrize("characters", [False, True])
def test_wer_and_cer_of_text_columns(characters: bool) -> None:
    """Two systems, with empty lines, runs of spaces, Russian; WER and CER at once too."""
    systems, references = _systems(2_000, 2)
    metrics: Any = {"wer": {"characters": True}} if characters else "wer"
    scores = corpus_scores(_text_dataset(systems, references), hypotheses=["sys0", "sys1"],
                           references=["ref"], metrics=metrics, batch_size=600)
    corpus = bleusuite.corpus_cer if characters else bleusuite.corpus_wer
    for k, lines in enumerate(systems):
        result = scores[f"sys{k}"]["wer"]
        assert _unsigned(result) == dataclasses.replace(
            corpus(lines, references), name="CER" if characters else "WER")
        _check_jiwer(result, references, lines, characters)
        assert result.signature.startswith("nrefs:1|unit:" + ("char" if characters else "word"))
        assert result.format().startswith("CER|" if characters else "WER|")


def test_wer_beside_other_metrics() -> None:
    systems, references = _systems(600, 1)
    scores = corpus_scores(_text_dataset(systems, references), hypotheses="sys0",
                           references=["ref"], metrics={"wer": {}, "bleu": {}, "chrf": {}})
    assert _unsigned(scores["sys0"]["wer"]) == bleusuite.corpus_wer(systems[0], references)
    assert scores["sys0"]["bleu"] == bleusuite.corpus_bleu_result(
        systems[0], [[r] for r in references], tokenize="13a", smooth="exp")


def _ragged(rng: np.random.Generator, rows: int, empty: bool) -> list[np.ndarray]:
    """Token-id sentences from a small vocabulary (many equal-cost alignments), with huge
    ids; empty ones where ``empty``."""
    vocabulary = np.array([3, 4, 5, 6, 7, 2**40, 2**62])
    low = 0 if empty else 1
    return [rng.choice(vocabulary, size=int(rng.integers(low, 25))) for _ in range(rows)]


@pytest.mark.parametrize("characters", [False, True])
def test_wer_of_token_id_columns(characters: bool) -> None:
    """Ragged lists (int64 and int32 columns): the library's numbers on the same ids (each
    id a unit, for CER too) and jiwer's on the ids written as words."""
    rng = np.random.default_rng(44)
    rows = 1_500
    hyp, ref = _ragged(rng, rows, empty=True), _ragged(rng, rows, empty=False)
    table = pa.table({"hyp": pa.array([s.tolist() for s in hyp], pa.list_(pa.int64())),
                      "ref": pa.array([s.tolist() for s in ref], pa.large_list(pa.int64()))})
    metrics: Any = {"wer": {"characters": characters}}
    scores = corpus_scores(ray.data.from_arrow(_blocks(table, [500, 0, 1])), hypotheses="hyp",
                           references=["ref"], metrics=metrics)
    result = scores["hyp"]["wer"]
    assert _unsigned(result) == dataclasses.replace(bleusuite.corpus_wer(hyp, ref),
                                                    name="CER" if characters else "WER")
    assert "split:given" in result.signature
    words = [" ".join(map(str, s.tolist())) for s in hyp], [" ".join(map(str, s.tolist()))
                                                            for s in ref]
    _check_jiwer(result, words[1], words[0], characters=False)
    small = pa.table({"hyp": pa.array([[1, 2, 9], [4, 5]], pa.list_(pa.int32())),
                      "ref": pa.array([[1, 2, 3, 0], [4, 0, 0, 0]], pa.list_(pa.int32()))})
    padded = corpus_scores(ray.data.from_arrow(small), hypotheses="hyp", references=["ref"],
                           metrics="wer", pad_id=0)
    assert padded["hyp"]["wer"].wer == jiwer.wer(["1 2 3", "4"], ["1 2 9", "4 5"])


def test_more_than_one_reference_column_is_refused_before_any_task() -> None:
    text = ray.data.from_arrow(pa.table({"h": ["a b"], "r0": ["a b"], "r1": ["a c"]}))
    with pytest.raises(ValueError, match="references: WER and CER take one reference"):
        corpus_scores(text, hypotheses="h", references=["r0", "r1"], metrics="wer")
    ids = ray.data.from_arrow(pa.table({"h": [[1, 2]], "r0": [[1, 2]], "r1": [[1, 3]]}))
    with pytest.raises(ValueError, match="WER and CER take exactly one per hypothesis"):
        corpus_scores(ids, hypotheses="h", references=["r0", "r1"], metrics="wer")
    absent = ray.data.from_arrow(pa.table({"h": [[1, 2]], "r": [[0, 0]]}))
    with pytest.raises(Exception, match="hypothesis 0 has no reference"):  # in the task
        corpus_scores(absent, hypotheses="h", references=["r"], metrics="wer", pad_id=0)


@pytest.mark.parametrize(("test", "characters"), [("bs", False), ("ar", True),
                                                  ("bs", True), ("ar", False)])
def test_paired_tests_equal_the_single_process(test: str, characters: bool) -> None:
    """Three systems, rows in the dataset's order (uneven and empty blocks): the paired
    tests of :mod:`bleusuite.significance` on :func:`bleusuite.wer_statistics`."""
    systems, references = _systems(900, 3)
    metrics: Any = {"wer": {"characters": characters}}
    scores = corpus_scores(_text_dataset(systems, references),
                           hypotheses=["sys0", "sys1", "sys2"], references=["ref"],
                           metrics=metrics, paired=test, n_resamples=150, seed=9)
    stats = [bleusuite.wer_statistics(lines, references, characters=characters)
             for lines in systems]
    if test == "bs":
        expected = paired_bootstrap(stats[0], stats[1:], 150, 9)
    else:
        expected = paired_approximate_randomization(stats[0], stats[1:], 150, 9)
    assert scores.paired["wer"] == expected
    assert [result.score for result in expected] == [
        100 * scores[f"sys{k}"]["wer"].wer for k in range(3)]


def test_sentence_scorer_is_jiwers_wer_of_each_row() -> None:
    systems, references = _systems(300, 1)
    dataset = _text_dataset(systems, references)
    for options, measure in (({}, jiwer.wer), ({"characters": True}, jiwer.cer)):
        scored = dataset.map_batches(SentenceScorer(hypotheses="sys0", references=["ref"],
                                                    metric="wer", **options),
                                     batch_format="pyarrow").sort("line").take_all()
        assert [row["wer"] for row in scored] == pytest.approx(
            [100 * measure(ref, hyp) for ref, hyp in zip(references, systems[0], strict=True)],
            rel=1e-12, abs=1e-12)
