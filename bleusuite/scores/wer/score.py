"""WER and CER of text or token ids: the public functions (hypotheses first, as every
bleusuite function) and :class:`EditResult`, every measure and count of a corpus.

Each hypothesis has one reference (a string, or a list holding one). Text is split as
jiwer's defaults split it (words: runs of whitespace made one space, the ends stripped;
characters: the ends stripped, spaces kept); ``transform``, any callable str -> str (a
lowercaser, a Whisper-style normaliser), is applied to every line first. Token ids and
token lists are compared as they are (for CER too: each id is a unit).

>>> hyps, refs = ["the cat sit on mat", "hello"], ["the cat sat on the mat", "hello"]
>>> sentence_wer(hyps, refs).round(4).tolist()       # jiwer.wer(ref, hyp) of each pair
[0.3333, 0.0]
>>> result = corpus_wer(hyps, refs)                  # jiwer.process_words(refs, hyps)
>>> round(result.wer, 4), result.hits, result.substitutions, result.deletions
(0.2857, 5, 1, 1)
>>> round(float(corpus_cer(["abd"], ["abc"])), 4)    # jiwer.cer("abc", "abd")
0.3333
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, SupportsIndex

import numpy as np

from bleusuite.inputs import scoring_batch
from bleusuite.inputs.checks import is_text
from bleusuite.inputs.normalize import text_rows
from bleusuite.scores.reports import GIVEN_TOKENS, ScoreResult, host, make_signature
from bleusuite.scores.wer.counts import (
    default_chars,
    statistics_of_batch,
    statistics_of_chars,
    statistics_of_lines,
)
from bleusuite.scores.wer.formula import edit_measures
from bleusuite.scores.wer.statistics import WerStats

__all__ = ["EditResult", "corpus_cer", "corpus_wer", "sentence_cer", "sentence_wer",
           "wer_statistics"]

Transform = Callable[[str], str] | None


@dataclass(frozen=True)
class EditResult(ScoreResult):
    """Every measure and count of a set of sentences (jiwer's ``process_words`` numbers):
    ``wer`` (CER for characters), ``mer``, ``wil``, ``wip``, the summed ``hits``,
    ``substitutions``, ``deletions``, ``insertions``, and the words (or characters) of the
    references and hypotheses. ``float(result)`` is ``wer`` (jiwer's scale, 0-1); ``score``
    is ``100 * wer`` and :meth:`format` prints it as every bleusuite result does (``WER =
    28.57``), with its ``signature`` where the registry made it (:func:`result_of_table`)."""

    wer: float
    mer: float
    wil: float
    wip: float
    hits: int
    substitutions: int
    deletions: int
    insertions: int
    ref_words: int
    hyp_words: int
    signature: str = ""
    name: str = "WER"

    @property
    def score(self) -> float:
        """``100 * wer``: the scale of every bleusuite result line."""
        return 100.0 * self.wer

    def __float__(self) -> float:
        return self.wer

    @classmethod
    def from_stats(cls, stats: WerStats[Any], *, signature: str = "",
                   name: str = "WER") -> EditResult:
        """The result of statistics (per sentence, summed here, or summed already)."""
        table = np.asarray(host(WerStats.summed(stats).to_array()), dtype=np.int64)
        measures = {name: float(value) for name, value in edit_measures(table).items()}
        hits, subs, dels, ins = (int(x) for x in table)
        return cls(hits=hits, substitutions=subs, deletions=dels, insertions=ins,
                   ref_words=hits + subs + dels, hyp_words=hits + subs + ins,
                   signature=signature, name=name, **measures)


def result_of_table(total: np.ndarray, settings: Any, nrefs: str,
                    given_tokens: bool = False) -> EditResult:
    """:func:`bleusuite.scores.registry.result` of this metric (``settings``: its
    :class:`~bleusuite.scores.wer.entry.WerSettings`)."""
    signature = make_signature("wer", settings, nrefs=nrefs,
                               extra={"split": GIVEN_TOKENS} if given_tokens else None)
    return EditResult.from_stats(WerStats.from_array(np.asarray(total, dtype=np.int64)),
                                 signature=signature.format(),
                                 name="CER" if settings.characters else "WER")


def wer_statistics(hypotheses: Any, references: Any, *, characters: bool = False,
                   transform: Transform = None, pad_id: SupportsIndex | None = None,
                   eos_id: SupportsIndex | None = None) -> WerStats[np.ndarray]:
    """Per-sentence alignment counts (NumPy): of words, or with ``characters`` of
    characters. Inputs as in :func:`sentence_wer`.

    >>> wer_statistics(["b c"], ["a b"]).to_array().tolist()   # jiwer: 2 substitutions
    [[0, 2, 0, 0]]
    """
    return _statistics(hypotheses, references, characters, transform, pad_id, eos_id,
                       None)[0]


def sentence_wer(hypotheses: Any, references: Any, *, transform: Transform = None,
                 pad_id: SupportsIndex | None = None,
                 eos_id: SupportsIndex | None = None) -> Any:
    """The WER of every hypothesis against its reference: shape (B,), float64; each
    equals ``jiwer.wer(reference, hypothesis)`` (the insertions where the reference is
    empty).

    Args:
        hypotheses: one string per sentence; or token ids / token lists in any form
            :func:`bleusuite.sentence_bleu` takes (lists, NumPy, torch; compared as they are).
        references: for each hypothesis, its reference (a string, or a list of one); or
            token ids / token lists (one token list per hypothesis, or a list of one).
        transform: a callable applied to every line of text first (a normaliser).
        pad_id, eos_id: padding and end-of-sentence ids of token-id arrays.

    >>> sentence_wer(np.array([[1, 2, 3, 0]]), np.array([[1, 2, 4, 5]]), pad_id=0)
    array([0.5])
    """
    stats, batch = _statistics(hypotheses, references, False, transform, pad_id, eos_id, None)
    return _to_caller(batch, edit_measures(stats.to_array())["wer"])


def sentence_cer(hypotheses: Any, references: Any, *, transform: Transform = None,
                 pad_id: SupportsIndex | None = None,
                 eos_id: SupportsIndex | None = None) -> Any:
    """The CER of every hypothesis against its reference (``jiwer.cer(reference,
    hypothesis)`` of each pair; spaces are characters). Token ids: each id is a unit.
    Arguments as :func:`sentence_wer`.

    >>> sentence_cer(["abd", "a  b"], ["abc", " a b "]).round(4).tolist()
    [0.3333, 0.3333]
    """
    stats, batch = _statistics(hypotheses, references, True, transform, pad_id, eos_id, None)
    return _to_caller(batch, edit_measures(stats.to_array())["wer"])


def corpus_wer(hypotheses: Any, references: Any, *, transform: Transform = None,
               pad_id: SupportsIndex | None = None,
               eos_id: SupportsIndex | None = None) -> EditResult:
    """WER, MER, WIL, WIP and the counts of the whole corpus: ``jiwer.process_words(
    references, hypotheses)``'s numbers. Arguments as :func:`sentence_wer`.

    Raises:
        ValueError: for an empty batch.
    """
    stats = _statistics(hypotheses, references, False, transform, pad_id, eos_id,
                        "corpus_wer")[0]
    return EditResult.from_stats(stats)


def corpus_cer(hypotheses: Any, references: Any, *, transform: Transform = None,
               pad_id: SupportsIndex | None = None,
               eos_id: SupportsIndex | None = None) -> EditResult:
    """The CER (``wer`` of the result: ``jiwer.cer(references, hypotheses)``) and the
    character counts of the whole corpus. Arguments as :func:`sentence_wer`."""
    stats = _statistics(hypotheses, references, True, transform, pad_id, eos_id,
                        "corpus_cer")[0]
    return EditResult.from_stats(stats)


def _statistics(hypotheses: Any, references: Any, characters: bool, transform: Transform,
                pad_id: Any, eos_id: Any, corpus: str | None) -> tuple[
                    WerStats[np.ndarray], Any]:
    """The counts of text (split as jiwer's defaults) or token ids (then with their batch,
    whose ``to_caller`` brings scores back to the caller's arrays)."""
    if transform is not None and not callable(transform):
        raise TypeError(f"transform must be a callable str -> str or None; got "
                        f"{type(transform).__name__}")
    if is_text(hypotheses, allow_empty=True):
        if pad_id is not None or eos_id is not None:
            raise ValueError("pad_id and eos_id apply to token ids; the hypotheses are strings")
        rows = text_rows(hypotheses, references)
        _one_reference([len(row) for row in rows])
        if corpus is not None and not rows:
            raise ValueError(f"hypotheses: {corpus} needs at least one sentence; got an empty "
                             "batch")
        hyps, refs = list(hypotheses), [row[0] for row in rows]
        if transform is not None:
            hyps, refs = [transform(h) for h in hyps], [transform(r) for r in refs]
            for line in hyps + refs:
                if not isinstance(line, str):
                    raise TypeError(f"transform must return a str; got {type(line).__name__}")
        if characters:
            return statistics_of_chars([default_chars(h) for h in hyps],
                                       [default_chars(r) for r in refs])[0], None
        return statistics_of_lines(hyps, refs)[0], None
    if transform is not None:
        raise ValueError("transform applies to text; token ids are compared as they are")
    if isinstance(references, list | tuple) and all(
            isinstance(row, list | tuple) and (not row or not isinstance(
                row[0], list | tuple | np.ndarray)) for row in references):
        references = [[row] for row in references]  # one token list each: NLTK's form
    batch = scoring_batch(hypotheses, references, pad_id=pad_id, eos_id=eos_id, tokenize=None,
                          lowercase=False, corpus=corpus)
    _one_reference(np.asarray(host(batch.ref_present)).sum(axis=1).tolist())
    return statistics_of_batch(batch)[0], batch


def _one_reference(counts: list[int]) -> None:
    for row, count in enumerate(counts):
        if count != 1:
            raise ValueError(f"references: hypothesis {row} has {count} references; WER and "
                             "CER take exactly one per hypothesis")


def _to_caller(batch: Any, scores: np.ndarray) -> Any:
    if batch is None:
        return scores
    if batch.pairs is None:  # a device's (or JAX's) batch: back there
        return batch.to_caller(batch.backend.asarray(scores, like=batch.hyp))
    return batch.to_caller(scores)
