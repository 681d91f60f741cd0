"""Corpus scores of a Ray ``Dataset`` (:func:`corpus_scores`), exact over any number of
workers: one ``map_batches`` task per batch sums its rows' statistics
(:mod:`bleusuite.ray.statistics`), the driver adds those integer rows (so the totals do not
depend on the blocks, their order or a retried task) and builds each metric's result as
the single process does. With ``paired=`` the per-row statistics come back, in the
dataset's order, for the paired tests of :mod:`bleusuite.significance`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import ray
import ray.data

from bleusuite import threads
from bleusuite.ray.columns import checked_column_names, column_kind, one_kind, read_columns
from bleusuite.ray.plan import Kind, MetricsArgument, Plan, make_plan
from bleusuite.ray.results import (
    PAIRED_TESTS,
    CorpusScores,
    Paired,
    Result,
    paired_results,
)
from bleusuite.ray.statistics import block_statistics, sample_statistics
from bleusuite.scores import registry
from bleusuite.significance.draws import check_count
from bleusuite.significance.seeding import DEFAULT_SEED

__all__ = ["DEFAULT_BATCH_ROWS", "assigned_cpus", "check_columns", "corpus_scores"]

#: rows per ``map_batches`` call: what a worker holds at once (its text, token ids and
#: counts), whatever the size of the dataset. A batch numbers its own words, so each
#: distinct word is tokenised once per batch: 8192-row batches of MT-like text cost 2.5x
#: the time of 65536-row ones, which hold about 70 MiB more (docs/scale.md)
DEFAULT_BATCH_ROWS = 65536
#: the ``map_batches`` arguments this module sets itself
_OWN_ARGUMENTS = ("fn", "batch_format", "batch_size", "zero_copy_batch", "fn_kwargs")
_NO_ROWS = np.iinfo(np.int64).max  # the fewest references of a batch without rows


def assigned_cpus() -> int | None:
    """The CPUs Ray gave the running task or actor, or None outside one: the threads its
    counting may use (:func:`bleusuite.threads.cpus_given`; an explicit
    ``BLEUSUITE_NUM_THREADS`` wins)."""
    if not ray.is_initialized() or ray.get_runtime_context().get_task_id() is None:
        return None  # the driver (a direct call)
    cpus = ray.get_runtime_context().get_assigned_resources().get("CPU")
    return max(1, int(cpus)) if cpus else None


def check_columns(dataset: Any, columns: Mapping[str, Sequence[str]]) -> Kind | None:
    """The one kind of the hypothesis and reference columns, where the schema of ``dataset``
    is known without running it (else None: a task's batch is checked), every column of
    ``columns`` (argument name -> column names) checked to exist (ValueError) and the kinds
    (TypeError)."""
    schema = dataset.schema(fetch_if_missing=False)
    arrow = getattr(schema, "base_schema", None)
    if not isinstance(arrow, pa.Schema):
        return None
    kinds: dict[str, str] = {}
    for argname, names in columns.items():
        for name in names:
            if name not in arrow.names:
                raise ValueError(f"{argname}: the dataset has no column {name!r}; its columns "
                                 f"are {', '.join(map(repr, arrow.names))}")
            if argname in ("hypotheses", "references"):
                kinds[name] = column_kind(arrow.field(name).type, f"{argname}: column {name!r}")
    return one_kind(kinds)


@dataclass(frozen=True)
class _BatchStatistics:
    """The ``map_batches`` function: a batch's statistics, summed (one row) or per row."""

    plan: Plan
    hypotheses: tuple[str, ...]
    references: tuple[str, ...]
    per_row: bool = False
    order_by: str | None = None

    def __call__(self, batch: pa.Table) -> dict[str, np.ndarray]:
        columns = read_columns(batch, self.hypotheses, self.references)
        with threads.cpus_given(assigned_cpus()):  # every count of the batch
            block = block_statistics(columns, self.plan)
        rows = columns.rows
        out: dict[str, np.ndarray] = {}
        for j, name in enumerate(self.plan.metrics):
            for k, table in enumerate(block.tables[name]):
                out[f"m{j}s{k}"] = table if self.per_row else table.sum(axis=0, keepdims=True)
        if self.per_row:
            out["ids"] = np.full(rows, columns.kind == "ids")
            out["present"] = block.present
            if self.order_by is not None:
                out["key"] = _order_keys(batch, self.order_by)
            return out
        out["rows"] = np.array([rows], dtype=np.int64)
        out["id_rows"] = np.array([rows if columns.kind == "ids" else 0], dtype=np.int64)
        out["refs_min"] = np.array([block.present.min(initial=_NO_ROWS)], dtype=np.int64)
        out["refs_max"] = np.array([block.present.max(initial=-1)], dtype=np.int64)
        return out


def _order_keys(batch: pa.Table, name: str) -> np.ndarray:
    if name not in batch.column_names:
        raise ValueError(f"order_by: the batch has no column {name!r}")
    column = batch.column(name)
    if column.null_count or not (pa.types.is_integer(column.type)
                                 or pa.types.is_floating(column.type)):
        raise TypeError(f"order_by: column {name!r} must hold numbers without nulls; got "
                        f"{column.type} with {column.null_count} null(s)")
    keys: np.ndarray = column.to_numpy()
    return keys


def corpus_scores(
    dataset: ray.data.Dataset,
    *,
    hypotheses: str | Sequence[str],
    references: Sequence[str],
    metrics: MetricsArgument = ("bleu",),
    paired: Paired | None = None,
    n_resamples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    order_by: str | None = None,
    pad_id: int | None = None,
    eos_id: int | None = None,
    batch_size: int | None = DEFAULT_BATCH_ROWS,
    map_batches_args: Mapping[str, Any] | None = None,
    **options: Any,
) -> CorpusScores:
    """Corpus scores of the hypothesis columns of ``dataset`` against its reference columns:
    the result objects of the single-process functions, to the last digit.

    Args:
        dataset: the rows: one line per row, in columns of text (strings) or token ids
            (lists of integers), all of one kind.
        hypotheses: a hypothesis column, or several (one per system, scored at once against
            the same references; the first is the baseline of the paired tests).
        references: the reference columns.
        metrics: metric names (``"bleu"``, ``"gleu"``, ``"chrf"``, ``"ter"``, ``"wer"``
            with one reference column (``{"wer": {"characters": True}}``: CER), ``"rouge"``
            on text without ``paired``), or a mapping of names to settings of their own.
        paired: ``"bs"`` (paired bootstrap) or ``"ar"`` (approximate randomization) to test
            each system against the baseline, as ``bleusuite score --paired-bs/-ar``.
        n_resamples: resamples (``bs``, default 1000) or trials (``ar``, default 10000).
        seed: the tests' seed (sacrebleu's default 12345; None: fresh entropy).
        order_by: a numeric column that orders the rows for the paired tests; None: the
            dataset's own order.
        pad_id, eos_id: token ids: padding (dropped anywhere) and end of sentence.
        batch_size: rows per ``map_batches`` call (None: whole blocks): a worker's memory.
        map_batches_args: more arguments of ``Dataset.map_batches`` (``num_cpus``, ...).
        **options: settings (``tokenize``, ``smooth``, ...) of every metric that has one.

    Returns:
        ``scores[hypothesis column][metric]`` (:class:`~bleusuite.ray.CorpusScores`), with
        ``scores.paired[metric]`` the paired tests' results where asked.

    Raises:
        TypeError, ValueError: bad arguments (named), or data that cannot be scored.
    """
    if not isinstance(dataset, ray.data.Dataset):
        raise TypeError(f"dataset must be a ray.data.Dataset; got {type(dataset).__name__}")
    systems = (hypotheses,) if isinstance(hypotheses, str) else \
        checked_column_names(hypotheses, "hypotheses")
    refs = checked_column_names(references, "references")
    if paired is not None and paired not in PAIRED_TESTS:
        raise ValueError(f"paired must be one of {', '.join(PAIRED_TESTS)} or None; got "
                         f"{paired!r}")
    if paired is not None and len(systems) < 2:
        raise ValueError("paired: a paired test needs two hypothesis columns or more (the "
                         "first is the baseline)")
    n = None if n_resamples is None else check_count(n_resamples, "n_resamples")
    if batch_size is not None:
        batch_size = check_count(batch_size, "batch_size")
    if order_by is not None and not isinstance(order_by, str):
        raise TypeError(f"order_by must be a column name or None; got {order_by!r}")
    extra = dict(map_batches_args or {})
    for key in _OWN_ARGUMENTS:
        if key in extra:
            raise TypeError(f"map_batches_args: {key!r} is set by corpus_scores")
    known = check_columns(dataset, {"hypotheses": systems, "references": refs,
                                    "order_by": [order_by] if order_by else []})
    plan = make_plan(metrics, options, pad_id=pad_id, eos_id=eos_id)
    unpaired = [name for name in plan.metrics if not registry.get(name).paired_tests]
    if paired is not None and unpaired:
        raise ValueError(f"paired: the paired tests resample integer statistics; "
                         f"{', '.join(unpaired)}'s are not such (test the other metrics, or "
                         f"score {', '.join(unpaired)} without paired=)")
    kinds: tuple[Kind, ...] = ("text", "ids") if known is None else (known,)
    for kind in kinds:  # the settings and the columns' count, checked before any task starts
        refusal = plan.refusals.get(kind)
        if refusal is None:
            sample = sample_statistics(plan, kind, len(systems), len(refs))
            _results(plan, kind, sample.tables, ("sample",), "1")
        elif known is not None:
            raise ValueError(f"{kind} columns: {refusal}")
    stage = dataset.map_batches(
        _BatchStatistics(plan, systems, refs, per_row=paired is not None, order_by=order_by),
        batch_format="pyarrow", batch_size=batch_size, zero_copy_batch=True, **extra)
    if paired is None:
        return _summed(stage, plan, systems)
    # without order_by, Ray's order-preserving execution brings the batches in the dataset's
    # order; the dataset's setting is restored after
    execution = stage.context.execution_options
    before = execution.preserve_order
    execution.preserve_order = before or order_by is None
    try:
        return _gathered(stage, plan, systems, paired, n, seed, order_by is not None)
    finally:
        execution.preserve_order = before


def _kind(rows: int, id_rows: int) -> Kind:
    if rows == 0:
        raise ValueError("dataset: no rows to score (a corpus score needs one sentence or more)")
    if id_rows not in (0, rows):
        raise TypeError(f"dataset: the columns hold text in {rows - id_rows} rows and token "
                        f"ids in {id_rows}; they must hold one kind")
    return "ids" if id_rows else "text"


def _results(plan: Plan, kind: Kind, totals: Mapping[str, Sequence[np.ndarray]],
             systems: Sequence[str], nrefs: str) -> dict[str, dict[str, Result]]:
    """Each system's result of each metric, as the single-process functions build it."""
    return {system: {name: registry.result(name, np.asarray(totals[name][k]).reshape(-1),
                                           plan.settings(kind, name), nrefs, kind == "ids")
                     for name in plan.metrics}
            for k, system in enumerate(systems)}


def _nrefs(fewest: int, most: int) -> str:
    """``nrefs:`` of the signature: the references of every row, or ``var``."""
    return str(fewest) if fewest == most else "var"


def _summed(stage: Any, plan: Plan, systems: Sequence[str]) -> CorpusScores:
    totals: dict[str, list[Any]] = {name: [0] * len(systems) for name in plan.metrics}
    rows = id_rows = 0
    fewest, most = _NO_ROWS, -1
    for batch in stage.iter_batches(batch_format="numpy", batch_size=None):
        rows += int(batch["rows"].sum())
        id_rows += int(batch["id_rows"].sum())
        fewest = min(fewest, int(batch["refs_min"].min(initial=_NO_ROWS)))
        most = max(most, int(batch["refs_max"].max(initial=-1)))
        for j, name in enumerate(plan.metrics):
            for k in range(len(systems)):
                totals[name][k] = totals[name][k] + batch[f"m{j}s{k}"].sum(axis=0)
    kind = _kind(rows, id_rows)
    return CorpusScores(_results(plan, kind, totals, systems, _nrefs(fewest, most)), {}, rows)


def _gathered(stage: Any, plan: Plan, systems: Sequence[str], paired: Paired, n: int | None,
              seed: int | None, keyed: bool) -> CorpusScores:
    parts: dict[str, list[np.ndarray]] = {}
    for batch in stage.iter_batches(batch_format="numpy", batch_size=None):
        for key, value in batch.items():
            parts.setdefault(key, []).append(np.asarray(value))
    if not parts:
        _kind(0, 0)
    gathered = {key: np.concatenate(values) for key, values in parts.items()}
    rows = len(gathered["present"])
    kind = _kind(rows, int(gathered["ids"].sum()))
    order: slice | np.ndarray = slice(None)
    if keyed:
        keys = gathered["key"]
        if len(np.unique(keys)) != rows:
            raise ValueError("order_by: the column's values must be distinct (one position "
                             "per row)")
        order = np.argsort(keys, kind="stable")
    tables = {name: [gathered[f"m{j}s{k}"][order].astype(np.int64, copy=False)
                     for k in range(len(systems))]
              for j, name in enumerate(plan.metrics)}
    totals = {name: [table.sum(axis=0) for table in tables[name]] for name in plan.metrics}
    present = gathered["present"]
    results = _results(plan, kind, totals, systems,
                       _nrefs(int(present.min()), int(present.max())))
    tests = {name: paired_results(name, plan.settings(kind, name), tables[name], paired, n,
                                  seed)
             for name in plan.metrics}
    return CorpusScores(results, tests, rows)
