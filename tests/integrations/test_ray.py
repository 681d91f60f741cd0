"""bleusuite.ray on a local Ray cluster (2 CPUs, started once for the session): corpus
scores equal to the single-process results, several systems and metrics, token-id columns,
uneven and empty blocks, the paired tests, a killed worker, the Parquet filtering recipe,
and the examples of docs/scale.md.

Skipped where Ray Data is not installed (``pip install 'bleusuite[ray]'``; ``tox -e ray``).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import re
import signal
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ray = pytest.importorskip("ray")
pytest.importorskip("ray.data")
import pyarrow as pa  # noqa: E402  (Ray Data's own dependency)
import pyarrow.parquet as pq  # noqa: E402
from workloads import make_corpus  # noqa: E402

import bleusuite  # noqa: E402
from bleusuite.ray import CorpusScores, SentenceScorer, corpus_scores  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session", autouse=True)
def cluster() -> Iterator[None]:
    """One local cluster for every test here: two worker processes, no dashboard."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level="warning")
    with warnings.catch_warnings():  # Ray's own DataContext defaults warn on creation
        warnings.simplefilter("ignore", DeprecationWarning)
        context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    yield
    ray.shutdown()


def _texts(rows: int, systems: int = 1, references: int = 1, seed: int = 0) -> tuple[
        list[list[str]], list[list[str]]]:
    """Systems and references that perturb the same sentences (MT-like text)."""
    first, streams = make_corpus(rows, systems - 1 + references, seed=seed)
    return [first, *streams[: systems - 1]], streams[systems - 1 :]


def _table(systems: list[list[str]], references: list[list[str]]) -> pa.Table:
    columns: dict[str, Any] = {f"sys{k}": lines for k, lines in enumerate(systems)}
    columns.update({f"ref{r}": lines for r, lines in enumerate(references)})
    columns["line"] = np.arange(len(systems[0]))
    return pa.table(columns)


def _blocks(table: pa.Table, sizes: list[int]) -> list[pa.Table]:
    """Consecutive blocks of these sizes (0: an empty block), the last one the rest."""
    bounds = np.cumsum([0, *sizes])
    blocks = [table.slice(int(a), int(b - a)) for a, b in itertools.pairwise(bounds)]
    return [*blocks, table.slice(int(bounds[-1]))]


def _per_row(references: list[list[str]]) -> list[tuple[str, ...]]:
    return list(zip(*references, strict=True))


# ----------------------------------------------------------------------------- corpus


def test_200k_rows_give_the_single_process_bleu_and_gleu() -> None:
    systems, references = _texts(200_000)
    table = _table(systems, references)
    dataset = ray.data.from_arrow(_blocks(table, [70_001, 0, 3, 29_996, 0, 50_000]))
    scores = corpus_scores(dataset, hypotheses="sys0", references=["ref0"],
                           metrics=("bleu", "gleu"), batch_size=20_000)
    rows = _per_row(references)
    assert scores.rows == 200_000
    assert scores["sys0"]["bleu"] == bleusuite.corpus_bleu_result(
        systems[0], rows, tokenize="13a", smooth="exp")
    assert scores["sys0"]["gleu"] == bleusuite.corpus_gleu_result(
        systems[0], rows, tokenize="13a")


def test_several_systems_and_every_metric() -> None:
    systems, references = _texts(2_000, systems=3, references=2, seed=1)
    dataset = ray.data.from_arrow(_blocks(_table(systems, references), [500, 0, 777]))
    scores = corpus_scores(dataset, hypotheses=["sys0", "sys1", "sys2"],
                           references=["ref0", "ref1"],
                           metrics={"bleu": {}, "gleu": {}, "chrf": {"word_order": 2}},
                           lowercase=True)
    assert isinstance(scores, CorpusScores) and list(scores) == ["sys0", "sys1", "sys2"]
    rows = _per_row(references)
    sacrebleu = pytest.importorskip("sacrebleu")
    for k, lines in enumerate(systems):
        result = scores[f"sys{k}"]
        assert result["bleu"] == bleusuite.corpus_bleu_result(
            lines, rows, tokenize="13a", smooth="exp", lowercase=True)
        assert result["gleu"] == bleusuite.corpus_gleu_result(
            lines, rows, tokenize="13a", lowercase=True)
        assert result["chrf"] == bleusuite.corpus_chrf_result(
            lines, rows, word_order=2, lowercase=True)
        # the results hold the numbers they print: sacrebleu's .score, 0-100
        assert result["bleu"].score == sacrebleu.metrics.BLEU(
            lowercase=True).corpus_score(lines, references).score
        assert result["chrf"].score == sacrebleu.metrics.CHRF(
            word_order=2, lowercase=True).corpus_score(lines, references).score
    assert scores.paired == {}


def test_rouge_corpus_and_sentence_scores() -> None:
    """ROUGE of text columns: the corpus result is the single process's (the mean of the
    documents' scores), the per-row column 100 x :func:`bleusuite.sentence_rouge`; token-id
    columns and the paired tests are refused by name."""
    from workloads import summary_documents

    hyps, refs = summary_documents(120, words=60, refs=2, seed=3)
    table = pa.table({"sys0": hyps, "sys1": hyps[::-1], "ref0": [r[0] for r in refs],
                      "ref1": [r[1] for r in refs]})
    dataset = ray.data.from_arrow(_blocks(table, [40, 0, 37]))
    scores = corpus_scores(dataset, hypotheses=["sys0"], references=["ref0", "ref1"],
                           metrics={"rouge": {"rouge_type": "rougeLsum", "use_stemmer": True},
                                    "bleu": {}})
    expected = bleusuite.corpus_rouge_result(hyps, refs, rouge_type="rougeLsum",
                                             use_stemmer=True)
    result = scores["sys0"]["rouge"]
    assert result.score == pytest.approx(expected.score, abs=1e-12)
    assert result.signature == expected.signature and result.documents == 120
    scorer = SentenceScorer(hypotheses="sys0", references=["ref0", "ref1"], metric="rouge",
                            rouge_type="rouge2", measure="recall")
    per_row = 100 * bleusuite.sentence_rouge(hyps, refs, rouge_type="rouge2", measure="recall")
    assert scorer(table).column("rouge").to_pylist() == pytest.approx(per_row.tolist(),
                                                                      abs=1e-12)
    with pytest.raises(ValueError, match="paired: the paired tests resample integer"):
        corpus_scores(dataset, hypotheses=["sys0", "sys1"], references=["ref0"],
                      metrics=["rouge"], paired="bs")
    with pytest.raises(ValueError, match="rouge needs text columns"):
        SentenceScorer(hypotheses="hyp", references=["ref"], metric="rouge")(_id_batch())


def _ragged(rng: np.random.Generator, rows: int, pad: int, eos: int) -> list[np.ndarray]:
    """Token-id sentences of 0-30 ids, some with padding or an eos and junk after it."""
    sentences = []
    for _ in range(rows):
        ids = rng.integers(3, 40, size=int(rng.integers(0, 30)))
        tail = rng.random()
        if tail < 0.2:
            ids = np.concatenate([ids, [eos], rng.integers(3, 40, size=3)])
        elif tail < 0.4:
            ids = np.concatenate([ids, [pad, pad]])
        sentences.append(ids)
    return sentences


def test_token_id_columns() -> None:
    """Ragged lists (int32 and int64), a fixed-width column with absent references, padding
    and eos: the single-process functions' numbers and signature."""
    rng = np.random.default_rng(2)
    rows, pad, eos = 3_000, 0, 2
    hyp, ref0 = _ragged(rng, rows, pad, eos), _ragged(rng, rows, pad, eos)
    ref0 = [s if (s != pad).any() else np.array([5]) for s in ref0]  # always a first one
    ref1 = np.zeros((rows, 32), dtype=np.int64)
    for i, sentence in enumerate(_ragged(rng, rows, pad, eos)):
        ref1[i, : min(len(sentence), 32)] = sentence[:32]
    ref1[::7] = pad  # every 7th row has no second reference: nrefs "var"
    table = pa.table({
        "hyp": pa.array([s.tolist() for s in hyp], pa.list_(pa.int32())),
        "ref0": pa.array([s.tolist() for s in ref0], pa.large_list(pa.int64())),
        "ref1": pa.FixedSizeListArray.from_arrays(pa.array(ref1.reshape(-1)), 32),
    })
    dataset = ray.data.from_arrow(_blocks(table, [1_000, 0, 1]))
    scores = corpus_scores(dataset, hypotheses="hyp", references=["ref0", "ref1"],
                           metrics=("bleu", "gleu"), pad_id=pad, eos_id=eos)
    refs = [[ref0[i], ref1[i]] for i in range(rows)]
    bleu = bleusuite.corpus_bleu_result(hyp, refs, pad_id=pad, eos_id=eos, smooth="exp")
    assert scores["hyp"]["bleu"] == bleu
    assert "nrefs:var|" in bleu.signature and "tok:given" in bleu.signature
    assert scores["hyp"]["gleu"] == bleusuite.corpus_gleu_result(hyp, refs, pad_id=pad,
                                                                 eos_id=eos)


def test_ray_tensor_columns() -> None:
    """Rows of NumPy arrays become Ray's tensor columns: a padded batch, one array."""
    from workloads import mt_like_batch

    hyp, refs = mt_like_batch(600, 48, refs=2)
    dataset = ray.data.from_items([{"hyp": h, "ref0": r[0], "ref1": r[1]}
                                   for h, r in zip(hyp, refs, strict=True)],
                                  override_num_blocks=3)
    scores = corpus_scores(dataset, hypotheses="hyp", references=["ref0", "ref1"],
                           metrics="bleu", pad_id=0, smooth="floor")
    assert scores["hyp"]["bleu"] == bleusuite.corpus_bleu_result(hyp, refs, pad_id=0,
                                                                 smooth="floor")


# ----------------------------------------------------------------------- paired tests


def _command_paired(tmp_path: Path, systems: list[list[str]], references: list[list[str]],
                    flags: list[str]) -> list[dict[str, Any]]:
    """``bleusuite score``'s paired test on the same lines, as JSON."""
    def write(name: str, lines: list[str]) -> str:
        path = tmp_path / name
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        return str(path)

    refs = [write(f"ref{r}.txt", lines) for r, lines in enumerate(references)]
    hyps = [write(f"sys{k}.txt", lines) for k, lines in enumerate(systems)]
    done = subprocess.run([sys.executable, "-m", "bleusuite", "score", *refs, "-i", *hyps,
                           *flags, "-f", "json"], capture_output=True, text=True, check=True)
    report: list[dict[str, Any]] = json.loads(done.stdout)
    return report


@pytest.mark.parametrize(("test", "ordered_by_column"), [("bs", False), ("ar", True)])
def test_paired_tests_equal_the_command(tmp_path: Path, test: str,
                                        ordered_by_column: bool) -> None:
    """The rows in the dataset's order: kept by order-preserving execution (uneven and
    empty blocks), or sorted by a line-number column (the blocks given in reverse: read
    as they come, the resamples would differ)."""
    systems, references = _texts(3_000, systems=3, references=1, seed=4)
    blocks = _blocks(_table(systems, references), [2_400, 0, 100, 200])
    if ordered_by_column:
        blocks = blocks[::-1]
    scores = corpus_scores(ray.data.from_arrow(blocks), hypotheses=["sys0", "sys1", "sys2"],
                           references=["ref0"], paired=test, n_resamples=200, seed=7,
                           order_by="line" if ordered_by_column else None)
    report = _command_paired(tmp_path, systems, references,
                             [f"--paired-{test}", f"--paired-{test}-n", "200", "--seed", "7"])
    assert [result.as_dict() for result in scores.paired["bleu"]] == [
        system["BLEU"] for system in report]
    rows = _per_row(references)
    for k, lines in enumerate(systems):
        assert scores[f"sys{k}"]["bleu"] == bleusuite.corpus_bleu_result(
            lines, rows, tokenize="13a", smooth="exp")


# ----------------------------------------------------------------------------- faults


def test_a_killed_worker_is_retried_and_changes_nothing(tmp_path: Path) -> None:
    """A worker process dies mid-job (SIGKILL, the first task to run); Ray runs its task
    again: every row counted once."""
    marker = tmp_path / "killed"

    def kill_once(batch: pa.Table) -> pa.Table:
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return batch
        os.kill(os.getpid(), signal.SIGKILL)
        return batch  # never reached

    systems, references = _texts(6_000, references=2, seed=6)
    dataset = ray.data.from_arrow(_blocks(_table(systems, references), [1_000] * 5))
    dataset = dataset.map_batches(kill_once, batch_format="pyarrow")
    scores = corpus_scores(dataset, hypotheses="sys0", references=["ref0", "ref1"],
                           metrics=("bleu", "chrf"), batch_size=1_000)
    assert marker.exists()
    assert scores.rows == 6_000
    rows = _per_row(references)
    assert scores["sys0"]["bleu"] == bleusuite.corpus_bleu_result(
        systems[0], rows, tokenize="13a", smooth="exp")
    assert scores["sys0"]["chrf"] == bleusuite.corpus_chrf_result(systems[0], rows)


# ---------------------------------------------------------------------- per-row scores


def test_filtering_recipe_on_parquet(tmp_path: Path) -> None:
    """Read Parquet, score each row on actors, keep the rows above a threshold, write
    Parquet: the rows and scores of sacrebleu's sentence_bleu."""
    sacrebleu = pytest.importorskip("sacrebleu")
    from ray.data.expressions import col

    systems, references = _texts(1_000, seed=5)
    table = pa.table({"id": np.arange(1_000), "mt": systems[0], "ref": references[0]})
    (tmp_path / "in").mkdir()
    pq.write_table(table.slice(0, 600), tmp_path / "in" / "part-0.parquet")
    pq.write_table(table.slice(600), tmp_path / "in" / "part-1.parquet")
    scored = ray.data.read_parquet(str(tmp_path / "in")).map_batches(
        SentenceScorer, fn_constructor_kwargs={"hypotheses": "mt", "references": ["ref"],
                                               "output": "bleu"},
        compute=ray.data.ActorPoolStrategy(size=1),  # one actor: a CPU left for the writes
        batch_format="pyarrow")
    scored.filter(expr=col("bleu") >= 30.0).write_parquet(str(tmp_path / "out"))
    kept = pq.read_table(tmp_path / "out").sort_by("id")
    expected = np.array([sacrebleu.sentence_bleu(h, [r]).score
                         for h, r in zip(systems[0], references[0], strict=True)])
    assert kept["id"].to_pylist() == np.flatnonzero(expected >= 30.0).tolist()
    assert kept["bleu"].to_pylist() == expected[expected >= 30.0].tolist()


def test_sentence_scorer_in_each_batch_format() -> None:
    pandas = pytest.importorskip("pandas")
    sacrebleu = pytest.importorskip("sacrebleu")
    systems, references = _texts(50, references=2, seed=8)
    columns = {"mt": systems[0], "r0": references[0], "r1": references[1]}
    rows = _per_row(references)
    expected = {
        "bleu": [sacrebleu.sentence_bleu(h, list(r)).score for h, r in zip(
            systems[0], rows, strict=True)],
        "chrf": [sacrebleu.sentence_chrf(h, list(r), word_order=2).score for h, r in zip(
            systems[0], rows, strict=True)],
        "gleu": (100 * bleusuite.sentence_gleu(systems[0], rows, tokenize="13a")).tolist(),
    }
    for metric, options in (("bleu", {}), ("chrf", {"word_order": 2}), ("gleu", {})):
        scorer = SentenceScorer(hypotheses="mt", references=["r0", "r1"], metric=metric,
                                **options)
        as_dict = scorer({name: np.array(lines) for name, lines in columns.items()})
        as_table = scorer(pa.table(columns))
        as_frame = scorer(pandas.DataFrame(columns))
        assert as_dict[metric].tolist() == expected[metric]
        assert as_table.column(metric).to_pylist() == expected[metric]
        assert as_frame[metric].tolist() == expected[metric]
        assert as_table.column_names == ["mt", "r0", "r1", metric]
    empty = SentenceScorer(hypotheses="mt", references=["r0"])(pa.table(columns).slice(0, 0))
    assert empty.num_rows == 0 and empty.column("bleu").type == pa.float64()


def _id_batch() -> dict[str, np.ndarray]:
    from workloads import mt_like_batch

    hyp, refs = mt_like_batch(40, 30, refs=1)
    return {"hyp": hyp, "ref": refs[:, 0]}


def test_sentence_scorer_on_token_ids() -> None:
    batch = _id_batch()
    expected = 100 * bleusuite.sentence_bleu(batch["hyp"], batch["ref"], pad_id=0,
                                             smooth="exp", effective_order=True)
    scores = SentenceScorer(hypotheses="hyp", references=["ref"], pad_id=0)(batch)["bleu"]
    np.testing.assert_allclose(scores, expected, rtol=0, atol=1e-9)


def test_workers_count_on_the_cpus_ray_gave_them() -> None:
    """A task given one CPU counts on one thread, not on every CPU of the node (a node
    running one task per CPU would run CPUs x CPUs threads); two CPUs, two threads; an
    explicit BLEUSUITE_NUM_THREADS wins (issue 35, item 14)."""
    from workloads import mt_like_batch

    hyp_lines, ref_lines = make_corpus(6_000, 1, seed=3)
    hyp, refs = mt_like_batch(400, 512, refs=1)

    def _threads_of_a_scorer() -> dict[str, int]:
        """The most threads that one block of the counting of a SentenceScorer's batch ran on,
        text and token ids (batches large enough for every thread of the node); defined
        here, Ray ships it by value (with the batches below) to a worker that cannot import
        this test module or ``tests/workloads.py``."""
        from bleusuite.counting import kernel
        from bleusuite.ray import SentenceScorer

        seen: list[int] = []
        original = kernel._blocks

        def spy(pairs: Any, most: int) -> Any:
            bounds, workers = original(pairs, most)
            seen.append(workers)
            return bounds, workers

        kernel._blocks = spy
        used = {}
        try:
            SentenceScorer(hypotheses="hyp", references=["ref"])(
                {"hyp": np.array(hyp_lines), "ref": np.array(ref_lines[0])})
            used["text"], seen[:] = max(seen), []
            SentenceScorer(hypotheses="hyp", references=["ref"], pad_id=0)(
                {"hyp": hyp, "ref": refs[:, 0]})
            used["ids"] = max(seen)
        finally:
            kernel._blocks = original
        return used

    task = ray.remote(_threads_of_a_scorer)
    assert ray.get(task.options(num_cpus=1).remote()) == {"text": 1, "ids": 1}
    assert ray.get(task.options(num_cpus=2).remote()) == {"text": 2, "ids": 2}
    explicit = task.options(
        num_cpus=1, runtime_env={"env_vars": {"BLEUSUITE_NUM_THREADS": "2"}})
    assert ray.get(explicit.remote()) == {"text": 2, "ids": 2}


def test_sentence_scorer_counts_token_ids_on_a_torch_device() -> None:
    """``device=`` (CUDA on GPU actors; the CPU here): the numbers of the NumPy path."""
    pytest.importorskip("torch")
    batch = _id_batch()
    scores = SentenceScorer(hypotheses="hyp", references=["ref"], pad_id=0)(batch)["bleu"]
    on_device = SentenceScorer(hypotheses="hyp", references=["ref"], pad_id=0,
                               device="cpu")(batch)["bleu"]
    assert on_device.tolist() == scores.tolist()


# ----------------------------------------------------------------------------- errors


@pytest.fixture(name="small")
def _small() -> Any:
    """Two rows of text and two of token ids, their schema known before they run."""
    return ray.data.from_arrow(pa.table({
        "mt": ["the cat sat", "a dog"], "ref": ["the cat sat down", "a dog ran"],
        "ids": pa.array([[1, 2], [3]], pa.list_(pa.int64())),
        "ref_ids": pa.array([[1, 2, 4], [3]], pa.list_(pa.int64())),
    }))


@pytest.mark.parametrize(("arguments", "error", "message"), [
    ({"hypotheses": "nope"}, ValueError, "hypotheses: the dataset has no column 'nope'"),
    ({"references": ["ref", "gone"]}, ValueError, "references: the dataset has no column"),
    ({"references": []}, ValueError, "references: give at least one column"),
    ({"references": "ref"}, TypeError, r"references must be a list .*write \['ref'\]"),
    ({"hypotheses": []}, ValueError, "hypotheses: give at least one column"),
    ({"metrics": "bleurt"}, ValueError, "metrics: unknown metric 'bleurt'"),
    ({"metrics": ()}, ValueError, "metrics: give at least one"),
    ({"metrics": ["bleu", "bleu"]}, ValueError, "metrics: each metric once"),
    ({"colour": "red"}, TypeError, "unknown option 'colour'"),
    ({"metrics": {"chrf": {"smooth": "exp"}}}, TypeError, "chrf has no setting 'smooth'"),
    ({"smooth": "sometimes"}, ValueError, "smooth must be one of"),
    ({"tokenize": "klingon"}, ValueError, "klingon"),
    ({"paired": "bootstrap", "hypotheses": ["mt", "mt"]}, ValueError, "paired must be one of"),
    ({"paired": "bs"}, ValueError, "paired: a paired test needs two hypothesis columns"),
    ({"n_resamples": 0}, ValueError, "n_resamples must be a positive integer"),
    ({"batch_size": 0}, ValueError, "batch_size must be a positive integer"),
    ({"map_batches_args": {"batch_format": "numpy"}}, TypeError, "'batch_format' is set by"),
    ({"order_by": "when"}, ValueError, "order_by: the dataset has no column 'when'"),
    ({"pad_id": 0}, ValueError, "text columns: pad_id and eos_id apply to token-id columns"),
    ({"pad_id": "0"}, TypeError, "pad_id must be an int token id"),
    ({"hypotheses": "ids", "references": ["ref_ids"], "metrics": "chrf"}, ValueError,
     "ids columns: chrf needs text columns"),
    ({"hypotheses": "ids", "references": ["ref_ids"], "tokenize": "13a"}, ValueError,
     "tokenize='13a' applies to text columns"),
    ({"hypotheses": "ids", "references": ["ref"]}, TypeError,
     "must all be text or all token ids"),
])
def test_bad_arguments_are_named(small: Any, arguments: dict[str, Any], error: type[Exception],
                                 message: str) -> None:
    call = {"hypotheses": "mt", "references": ["ref"], **arguments}
    with pytest.raises(error, match=message):
        corpus_scores(small, **call)


def test_not_a_dataset() -> None:
    with pytest.raises(TypeError, match=r"dataset must be a ray\.data\.Dataset; got list"):
        corpus_scores([], hypotheses="mt", references=["ref"])  # type: ignore[arg-type]


def test_data_errors_found_by_the_tasks_name_the_column(small: Any) -> None:
    """Where the schema is known only once a task runs, the task says what is wrong."""
    def with_nulls(batch: pa.Table) -> pa.Table:
        return batch.set_column(1, "ref", pa.array([None] * batch.num_rows, pa.string()))

    with pytest.raises(Exception, match="references: column 'ref' has 2 null cell"):
        corpus_scores(small.map_batches(with_nulls, batch_format="pyarrow"),
                      hypotheses="mt", references=["ref"])
    with pytest.raises(ValueError, match="dataset: no rows to score"):
        corpus_scores(small.filter(expr=ray.data.expressions.col("mt") == "none"),
                      hypotheses="mt", references=["ref"])


def test_the_dataset_is_left_as_it_was(small: Any) -> None:
    options = small.context.execution_options
    before = options.preserve_order
    corpus_scores(small, hypotheses=["mt", "mt"], references=["ref"], paired="ar",
                  n_resamples=9)
    assert options.preserve_order == before


@pytest.mark.parametrize(("arguments", "error", "message"), [
    ({"references": []}, ValueError, "references: give at least one column"),
    ({"references": "ref"}, TypeError, "references must be a list of column names"),
    ({"hypotheses": ["mt"]}, TypeError, "hypotheses must be a column name"),
    ({"metric": "bleurt"}, ValueError, "unknown metric 'bleurt'"),
    ({"output": "mt"}, ValueError, "output must be a new column name"),
    ({"word_order": 2}, TypeError, "unknown option 'word_order'"),
    ({"device": 0}, TypeError, "device must be a torch device name"),
])
def test_sentence_scorer_bad_arguments(arguments: dict[str, Any], error: type[Exception],
                                       message: str) -> None:
    call = {"hypotheses": "mt", "references": ["ref"], **arguments}
    with pytest.raises(error, match=message):
        SentenceScorer(**call)


# ------------------------------------------------------------------ imports and docs


def test_the_package_does_not_import_ray_and_names_the_extra() -> None:
    code = ("import sys, bleusuite, bleusuite.cli, bleusuite.significance\n"
            "bleusuite.corpus_bleu_result(['a'], [['a']], tokenize='13a')\n"
            "assert 'ray' not in sys.modules, 'bleusuite imported ray'\n"
            "sys.modules['ray'] = None  # as if Ray were not installed\n"
            "try:\n"
            "    import bleusuite.ray\n"
            "except ImportError as error:\n"
            "    print(error)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=ROOT)
    assert "pip install 'bleusuite[ray]'" in done.stdout


def _scale_examples() -> list[tuple[int, str]]:
    """The Python blocks of docs/scale.md marked ``<!-- skip: needs ray ... -->`` (the
    marker keeps them out of the plain test run, tests/docs/test_docs_examples.py), with their
    line numbers; blocks with other markers (a GPU) are left out."""
    source = (ROOT / "docs" / "scale.md").read_text(encoding="utf-8")
    fence = re.compile(r"^<!-- skip: (?P<reason>.*?) -->\n```python\n(?P<body>.*?)^```$",
                       re.MULTILINE | re.DOTALL)
    return [(source.count("\n", 0, match.start()) + 2, match.group("body"))
            for match in fence.finditer(source) if match.group("reason").startswith("needs ray")]


SCALE_EXAMPLES = [pytest.param(line, code, id=f"docs/scale.md:{line}")
                  for line, code in _scale_examples()]


def test_docs_scale_md_has_examples() -> None:
    assert len(_scale_examples()) >= 2


@pytest.mark.parametrize(("line", "code"), SCALE_EXAMPLES)
def test_the_examples_of_docs_scale_md_run(line: int, code: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # the examples write their files here
    assert "ray.init(" in code and "concurrency=" not in code  # no deprecated argument
    monkeypatch.setattr(ray, "init", lambda **kwargs: None)  # the session's cluster is up
    logger = logging.getLogger("ray.data")
    level = logger.level
    try:
        exec(compile(code, f"docs/scale.md:{line}", "exec"), {"__name__": "__main__"})
    finally:
        logger.setLevel(level)  # the example quiets Ray Data: not for the other tests
    printed = capsys.readouterr().out.splitlines()
    shown = [comment.split("# ", 1)[1] for comment in code.splitlines()
             if comment.startswith("# [") or comment.startswith("# '")]
    for expected in shown:  # a result written as a comment under the code
        assert expected in printed


# ------------------------------------------------------------------------------- TER


def test_ter_of_text_and_token_id_columns() -> None:
    """TER of text (two systems, two references, a tercom option) and of token ids: the
    single-process results (sacrebleu's, tests/scores/test_ter.py); a tercom option refuses
    ids."""
    systems, references = _texts(600, systems=2, references=2, seed=4)
    dataset = ray.data.from_arrow(_blocks(_table(systems, references), [200, 0, 77]))
    scores = corpus_scores(dataset, hypotheses=["sys0", "sys1"], references=["ref0", "ref1"],
                           metrics={"ter": {"normalized": True}, "bleu": {}})
    rows = _per_row(references)
    for k, lines in enumerate(systems):
        assert scores[f"sys{k}"]["ter"] == bleusuite.corpus_ter_result(lines, rows,
                                                                       normalized=True)
    rng = np.random.default_rng(5)
    hyp, ref = _ragged(rng, 600, 0, 2), _ragged(rng, 600, 0, 2)
    ref = [s if (s != 0).any() else np.array([5]) for s in ref]
    table = pa.table({"hyp": pa.array([s.tolist() for s in hyp], pa.list_(pa.int64())),
                      "ref": pa.array([s.tolist() for s in ref], pa.list_(pa.int64()))})
    ids = corpus_scores(ray.data.from_arrow(_blocks(table, [200])), hypotheses="hyp",
                        references=["ref"], metrics="ter", pad_id=0, eos_id=2)
    expected = bleusuite.corpus_ter_result(hyp, [[r] for r in ref], pad_id=0, eos_id=2)
    assert ids["hyp"]["ter"] == expected and "tok:given" in expected.signature
    with pytest.raises(ValueError, match="no_punct"):
        corpus_scores(ray.data.from_arrow(table), hypotheses="hyp", references=["ref"],
                      metrics={"ter": {"no_punct": True}}, pad_id=0)
