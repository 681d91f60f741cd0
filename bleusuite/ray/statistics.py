"""Per-row statistics of one batch, for every metric of a :class:`~bleusuite.ray.plan.Plan`
and every system (hypothesis column) against the shared reference columns.

Text takes ``bleusuite score``'s route (each distinct word of the batch tokenised once, the
matches of every system counted in one call, each metric's statistics built by its registry
entry); token ids take the scoring functions' (:func:`bleusuite.inputs.normalize_batch`).
Either way the statistics are those of the single-process functions, row for row.

>>> from bleusuite.ray.columns import read_columns
>>> from bleusuite.ray.plan import make_plan
>>> columns = read_columns({"hyp": np.array(["the cat sat"]), "ref": np.array(["the cat"])},
...                        ["hyp"], ["ref"])
>>> block = block_statistics(columns, make_plan(("bleu", "gleu"), {}))
>>> block.tables["gleu"][0].tolist(), block.present.tolist()
([[3, 6]], [1])
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite.counting import count_matches
from bleusuite.inputs import normalize_batch, streams_batch
from bleusuite.ray.columns import Columns, IdRows
from bleusuite.ray.plan import Kind, Plan
from bleusuite.scores import registry
from bleusuite.scores.reports import host
from bleusuite.text import Encoder

__all__ = ["BlockStatistics", "block_statistics", "sample_statistics"]


@dataclass(frozen=True)
class BlockStatistics:
    """The statistics of a batch of ``kind``: ``tables`` per metric, per system, those of
    each row ``(B, F)`` (the metric's ``to_array`` form); ``present`` ``(B,)`` the references
    each row has (absent: an all-padding row of ids)."""

    kind: Kind
    tables: Mapping[str, list[np.ndarray]]
    present: np.ndarray


def block_statistics(columns: Columns, plan: Plan, workers: int | None = None) -> BlockStatistics:
    """The statistics of ``columns`` for every metric of ``plan`` (ValueError: a kind of
    column it cannot score, or a row without references); ``workers``: threads that count
    text (default :func:`bleusuite.threads.worker_threads`)."""
    refusal = plan.refusals.get(columns.kind)
    if refusal is not None:
        raise ValueError(f"{columns.kind} columns: {refusal}")
    if columns.rows == 0:  # the layout of each table, from one row
        sample = sample_statistics(plan, columns.kind, len(columns.systems),
                                   len(columns.references))
        return BlockStatistics(columns.kind, {name: [t[:0] for t in tables]
                                              for name, tables in sample.tables.items()},
                               sample.present[:0])
    if columns.kind == "text":
        return _text_statistics(columns, plan, workers)
    return _id_statistics(columns, plan)


def sample_statistics(plan: Plan, kind: Kind, systems: int = 1,
                      references: int = 1) -> BlockStatistics:
    """The statistics of one made-up row of ``kind``, which checks the settings of ``plan``."""
    if kind == "text":
        sample = Columns("text", [["a b"]] * systems, [["a c"]] * references, 1)
    else:
        row = IdRows(np.array([1, 2], dtype=np.int64), np.array([0, 2], dtype=np.int64))
        other = IdRows(np.array([1, 3], dtype=np.int64), np.array([0, 2], dtype=np.int64))
        sample = Columns("ids", [row] * systems, [other] * references, 1)
    return block_statistics(sample, plan)


def _text_statistics(columns: Columns, plan: Plan, workers: int | None) -> BlockStatistics:
    systems: list[list[str]] = [c for c in columns.systems if isinstance(c, list)]
    references: list[list[str]] = [c for c in columns.references if isinstance(c, list)]
    tables: dict[str, list[np.ndarray]] = {}
    counted: dict[str, registry.WordCounting] = {}  # metric -> what it needs counted
    entries: dict[str, registry.WordCountedMetric] = {}
    for name in plan.metrics:
        settings = plan.settings("text", name)
        words, text = registry.word_counted(name), registry.text_counted(name)
        if words is not None:
            counted[name], entries[name] = words.word_counting(settings), words
        elif text is not None:
            tables[name] = [text.text_statistics(lines, references, settings)
                            for lines in systems]
    # metrics that tokenise alike share one pass (BLEU and GLEU, unless told otherwise)
    def tokenisation(name: str) -> tuple[str, bool]:
        return counted[name].tokenize, counted[name].lowercase

    for (tokenize, lowercase), group in itertools.groupby(sorted(counted, key=tokenisation),
                                                         key=tokenisation):
        names = list(group)
        encoder = Encoder(tokenize, lowercase)
        token_ids = encoder.encode([*systems, *references])
        per_reference = any(counted[name].per_reference for name in names)
        counts = count_matches(streams_batch(token_ids, len(systems)),
                               max(counted[name].orders for name in names), per_reference,
                               workers)
        lengths, rows = token_ids.lengths, columns.rows  # (streams, B): systems, references
        for name, k in itertools.product(names, range(len(systems))):
            part = slice(k * rows, (k + 1) * rows)  # the counts hold every system's rows
            per_ref = None if counts.per_reference is None else counts.per_reference[part]
            tables.setdefault(name, []).append(entries[name].word_statistics(
                counts.clipped[part], per_ref,
                np.concatenate([lengths[k : k + 1], lengths[len(systems):]]),
                plan.settings("text", name)))
    present = np.full(columns.rows, len(references), dtype=np.int64)
    return BlockStatistics("text", {name: tables[name] for name in plan.metrics}, present)


def _id_statistics(columns: Columns, plan: Plan) -> BlockStatistics:
    systems = [_sentences(c, plan.device) for c in columns.systems if isinstance(c, IdRows)]
    references = _references(
        [c for c in columns.references if isinstance(c, IdRows)], plan.device)
    tables: dict[str, list[np.ndarray]] = {name: [] for name in plan.metrics}
    present = np.zeros(0, dtype=np.int64)
    for hypotheses in systems:
        batch = normalize_batch(hypotheses, references, pad_id=plan.pad_id, eos_id=plan.eos_id)
        present = host(batch.backend.sum_(batch.backend.to_int64(batch.ref_present), axis=1))
        for name in plan.metrics:
            stats = registry.get(name).token_id_statistics(batch, plan.settings("ids", name))
            # the statistics' own dtype: int64 counts, or float64 sums (CIDEr-D's)
            tables[name].append(np.asarray(host(stats.to_array())))
    if not present.all():  # on a device the batch's check waits for this host read
        row = int(np.flatnonzero(present == 0)[0])
        raise ValueError(f"references: row {row} of the batch has no reference (every "
                         "reference is padding)")
    return BlockStatistics("ids", tables, np.asarray(present, dtype=np.int64))


def _on_device(values: np.ndarray, device: str | None) -> Any:
    if device is None:
        return values
    import torch  # the device= path only (an optional library)

    return torch.as_tensor(values).to(device)


def _sentences(rows: IdRows, device: str | None) -> Any:
    """``(B, L)`` where every row has length L, else a list of 1-D views (moved once)."""
    values = _on_device(rows.values, device)
    width = rows.width()
    if width is not None:
        return values.reshape(len(rows.offsets) - 1, width)
    bounds = rows.offsets.tolist()
    return [values[begin:end] for begin, end in itertools.pairwise(bounds)]


def _references(columns: list[IdRows], device: str | None) -> Any:
    """``(B, R, L)`` where every row of every column has length L, else lists of 1-D arrays."""
    widths = {column.width() for column in columns}
    if len(widths) == 1 and None not in widths:
        stacked = np.stack([column.values.reshape(len(column.offsets) - 1, -1)
                            for column in columns], axis=1)
        return _on_device(np.ascontiguousarray(stacked), device)
    sentences = [_sentences(column, device) for column in columns]
    return [list(row) for row in zip(*sentences, strict=True)]
