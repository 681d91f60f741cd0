"""Per-row scores as a new column (:class:`SentenceScorer`), for ``Dataset.map_batches``.

>>> import numpy as np
>>> scorer = SentenceScorer(hypotheses="mt", references=["ref"], output="bleu")
>>> batch = scorer({"mt": np.array(["the cat sat on the mat"]),
...                 "ref": np.array(["the cat sat on a mat"])})
>>> batch["bleu"].round(2)    # sacrebleu.sentence_bleu(...).score, 0-100
array([53.73])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import pyarrow as pa

from bleusuite import threads
from bleusuite.ray.columns import checked_column_names, read_columns
from bleusuite.ray.corpus import assigned_cpus
from bleusuite.ray.plan import make_plan
from bleusuite.ray.statistics import block_statistics, sample_statistics
from bleusuite.scores import registry

__all__ = ["SentenceScorer"]

#: a batch of rows in one of Ray Data's formats (``pyarrow.Table``, ``pandas.DataFrame``,
#: dict of NumPy arrays); the scorer returns the same format
BatchT = TypeVar("BatchT")


class SentenceScorer:
    """A ``map_batches`` callable that adds each row's score of one metric as a column.

    Give the class to ``map_batches`` (built once per actor, ``fn_constructor_kwargs=``) or
    an instance (shipped to the tasks); its settings are checked when it is built. The scores
    have sacrebleu's digits, 0-100 (``bleusuite score -sl``; BLEU with the effective order
    unless ``effective_order=False``).

    Args:
        hypotheses: the hypothesis column.
        references: the reference columns.
        metric: ``"bleu"``, ``"gleu"``, ``"chrf"`` or ``"rouge"`` (text only; settings
            ``rouge_type``, ``measure``, ``use_stemmer``, ``tokenize``; rouge-score's
            numbers times 100).
        output: the new column (default: the metric's name); a column of that name is
            replaced.
        pad_id, eos_id: token ids: padding (dropped anywhere) and end of sentence.
        device: a torch device (``"cuda"``) that counts token-id columns, for GPU actors
            (``num_gpus=1``); text columns are tokenised and counted on the CPU.
        **options: the metric's settings (``tokenize``, ``smooth``, ``word_order``, ...).

    Raises:
        TypeError, ValueError: bad arguments, named.
    """

    def __init__(self, *, hypotheses: str, references: Sequence[str], metric: str = "bleu",
                 output: str | None = None, pad_id: int | None = None,
                 eos_id: int | None = None, device: str | None = None,
                 **options: Any) -> None:
        if not isinstance(hypotheses, str):
            raise TypeError(f"hypotheses must be a column name; got {hypotheses!r}")
        references = checked_column_names(references, "references")
        if not isinstance(metric, str):
            raise TypeError(f"metric must be a metric name; got {metric!r}")
        output = metric if output is None else output
        if not isinstance(output, str) or output in (hypotheses, *references):
            raise ValueError(f"output must be a new column name, not an input column; got "
                             f"{output!r}")
        self.hypotheses = hypotheses
        self.references = references
        self.metric = metric
        self.output = output
        self.plan = make_plan((metric,), options, pad_id=pad_id, eos_id=eos_id, device=device,
                              sentence_level=True)
        for kind in ("text", "ids"):  # settings checked (and the tokenizer loaded) here
            if kind not in self.plan.refusals:
                sample = sample_statistics(self.plan, kind)
                registry.get(metric).scores(sample.tables[metric][0],
                                            self.plan.settings(kind, metric))

    def scores(self, batch: Any) -> np.ndarray:
        """The score of each row of ``batch`` (float64, 0-100)."""
        columns = read_columns(batch, [self.hypotheses], self.references)
        if columns.rows == 0:
            return np.zeros(0, dtype=np.float64)
        with threads.cpus_given(assigned_cpus()):  # every count of the batch
            block = block_statistics(columns, self.plan)
        settings = self.plan.settings(columns.kind, self.metric)
        scores = registry.get(self.metric).scores(block.tables[self.metric][0], settings)
        return np.asarray(scores, dtype=np.float64)

    def __call__(self, batch: BatchT) -> BatchT:
        """``batch`` with the scores in column :attr:`output`."""
        scores = self.scores(batch)
        table: Any = batch  # the same format back
        if isinstance(batch, pa.Table):
            column = pa.array(scores, type=pa.float64())
            if self.output in batch.column_names:
                return table.set_column(batch.column_names.index(self.output), self.output,
                                        column)
            return table.append_column(self.output, column)
        if isinstance(batch, dict):
            table = {**batch, self.output: scores}
            return table
        return table.assign(**{self.output: scores})

    def __repr__(self) -> str:
        return (f"SentenceScorer(hypotheses={self.hypotheses!r}, "
                f"references={list(self.references)!r}, metric={self.metric!r}, "
                f"output={self.output!r})")
