"""CIDEr-D through bleusuite.ray on a local Ray cluster: ``metrics={"cider":
{"document_frequency": ...}}`` of text columns and of token-id columns gives
:func:`bleusuite.corpus_cider`'s mean with the same document frequencies over uneven and
empty blocks, found by name in the metric registry; without document frequencies the call
is refused with the entry's message.

Skipped where Ray Data is not installed (``tox -e ray``).
"""

from __future__ import annotations

import itertools
import random
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

import bleusuite  # noqa: E402
from bleusuite.ray import corpus_scores  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "captioning"))
from caption_cases import edited, sentence  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    """A local cluster of two workers, unless one is running: then that one."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
                 logging_level="warning")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        context = ray.data.DataContext.get_current()
    context.enable_progress_bars = False
    yield
    if started:
        ray.shutdown()


def _blocks(table: pa.Table, sizes: list[int]) -> list[pa.Table]:
    bounds = np.cumsum([0, *sizes])
    blocks = [table.slice(int(a), int(b - a)) for a, b in itertools.pairwise(bounds)]
    return [*blocks, table.slice(int(bounds[-1]))]


def _corpus(images: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(3)
    refs = [[sentence(rng) for _ in range(3)] for _ in range(images)]
    return [edited(rng, rng.choice(r)) for r in refs], refs


def test_text_columns_equal_corpus_cider() -> None:
    hyps, refs = _corpus(400)
    frequency = bleusuite.cider_document_frequency(refs)
    columns: dict[str, Any] = {"hyp": hyps}
    columns.update({f"ref{k}": [r[k] for r in refs] for k in range(3)})
    dataset = ray.data.from_arrow(_blocks(pa.table(columns), [150, 0, 7]))
    scores = corpus_scores(dataset, hypotheses="hyp", references=["ref0", "ref1", "ref2"],
                           metrics={"cider": {"document_frequency": frequency}},
                           batch_size=100)
    result = scores["hyp"]["cider"]
    want = bleusuite.corpus_cider(hyps, refs, document_frequency=frequency)
    assert result.cider == pytest.approx(want, rel=1e-12) and result.images == 400
    assert result.signature.startswith("nrefs:3|df:fixed")


def test_token_id_columns_equal_corpus_cider() -> None:
    hyps, refs = _corpus(200)
    vocabulary: dict[str, int] = {}

    def ids(line: str) -> list[int]:
        return [vocabulary.setdefault(w, len(vocabulary) + 1) for w in line.split()]

    hyp_ids = [ids(h) for h in hyps]
    ref_ids = [[ids(r) for r in row] for row in refs]
    frequency = bleusuite.cider_document_frequency(ref_ids)
    columns: dict[str, Any] = {"hyp": pa.array(hyp_ids, pa.list_(pa.int64()))}
    columns.update({f"ref{k}": pa.array([r[k] for r in ref_ids], pa.list_(pa.int64()))
                    for k in range(3)})
    dataset = ray.data.from_arrow(_blocks(pa.table(columns), [90, 0]))
    scores = corpus_scores(dataset, hypotheses="hyp", references=["ref0", "ref1", "ref2"],
                           metrics={"cider": {"document_frequency": frequency}})
    want = bleusuite.corpus_cider(hyp_ids, ref_ids, document_frequency=frequency)
    assert scores["hyp"]["cider"].cider == pytest.approx(want, rel=1e-12)


def test_without_document_frequencies_it_is_refused() -> None:
    hyps, refs = _corpus(10)
    dataset = ray.data.from_arrow(pa.table({"hyp": hyps, "ref": [r[0] for r in refs]}))
    with pytest.raises(ValueError, match="document_frequency"):
        corpus_scores(dataset, hypotheses="hyp", references=["ref"], metrics="cider")
