"""jiwer 4.0's API on bleusuite's alignment: ``wer``, ``mer``, ``wil``, ``wip``, ``cer``,
``process_words`` and ``process_characters``, reference first as jiwer has it, with its
output objects (:class:`WordOutput`, :class:`CharacterOutput`, :class:`AlignmentChunk`),
its default transforms (:data:`wer_default`, :data:`cer_default`) and its edge rules.

The numbers, counts and alignments are jiwer's own: the same alignment among those of
least cost as its rapidfuzz backtrace (:mod:`bleusuite.scores.wer.edits`), aligned in C on
the worker threads. jiwer is not needed; its transform objects (``jiwer.Compose([...])``,
``jiwer.wer_standardize``, ...) or any callable that turns a list of strings into a list of
lists of strings can be given as ``reference_transform`` / ``hypothesis_transform``.

>>> from bleusuite import jiwer
>>> jiwer.wer("a b", "b c"), jiwer.mer("a b", "b c")
(1.0, 1.0)
>>> out = jiwer.process_words(["the cat sat", "hello"], ["the cat sit", "hello world"])
>>> out.wer, out.hits, out.substitutions, out.insertions
(0.5, 3, 1, 1)
>>> [(chunk.type, chunk.ref_start_idx, chunk.hyp_start_idx) for chunk in out.alignments[1]]
[('equal', 0, 0), ('insert', 1, 1)]
>>> jiwer.cer("a  b ", " a b")
0.25
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bleusuite import native
from bleusuite.scores.wer.counts import (
    Alignments,
    default_chars,
    default_words,
    statistics_of_chars,
    statistics_of_lines,
    statistics_of_words,
    words_and_statistics,
)
from bleusuite.scores.wer.edits import TAGS
from bleusuite.scores.wer.formula import measures_of_totals
from bleusuite.scores.wer.statistics import WerStats

__all__ = ["AlignmentChunk", "CharacterOutput", "WordOutput", "cer", "cer_default", "mer",
           "process_characters", "process_words", "wer", "wer_default", "wil", "wip"]

Transform = Callable[[Any], Any]
Sentences = str | list[str]


@dataclass(slots=True)
class _PythonAlignmentChunk:
    """jiwer's ``AlignmentChunk``: ``type`` (``equal``, ``substitute``, ``insert`` or
    ``delete``) of ``reference[ref_start_idx:ref_end_idx]`` and
    ``hypothesis[hyp_start_idx:hyp_end_idx]`` (made here, valid as made: jiwer's checks of
    its arguments are not repeated)."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int


# its repr is jiwer's: AlignmentChunk(type=..., ...)
_PythonAlignmentChunk.__name__ = _PythonAlignmentChunk.__qualname__ = "AlignmentChunk"

#: jiwer's ``AlignmentChunk``: the compiled part's type where it is built (made ~10x faster;
#: the same fields, repr, equality and mutability), else the dataclass above
AlignmentChunk: Any = getattr(native.built(), "AlignmentChunk", _PythonAlignmentChunk)


@dataclass
class WordOutput:
    """jiwer's ``WordOutput``: the transformed sentences, their alignments, the measures
    of the whole list and the summed counts."""

    references: list[list[str]]
    hypotheses: list[list[str]]
    alignments: list[list[AlignmentChunk]]
    wer: float
    mer: float
    wil: float
    wip: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


@dataclass
class CharacterOutput:
    """jiwer's ``CharacterOutput``: as :class:`WordOutput` over characters, ``cer``."""

    references: list[list[str]]
    hypotheses: list[list[str]]
    alignments: list[list[AlignmentChunk]]
    cer: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


class _Default:
    """One of jiwer's default transforms (a callable like its ``Compose``): a str or a list
    of str to a list of lists of words (``wer_default``) or characters (``cer_default``)."""

    def __init__(self, name: str, split: Callable[[str], Any]) -> None:
        self.name, self.split = name, split

    def __call__(self, sentences: Sentences) -> list[list[str]]:
        lines = _lines(sentences)
        return [list(self.split(line)) for line in lines] if lines else [[]]

    def __repr__(self) -> str:
        return f"bleusuite.jiwer.{self.name}"


#: jiwer's ``wer_default``: runs of whitespace made one space, the ends stripped, words
wer_default = _Default("wer_default", default_words)
#: jiwer's ``cer_default``: the ends stripped, characters (spaces included)
cer_default = _Default("cer_default", default_chars)


def process_words(reference: Sentences, hypothesis: Sentences,
                  reference_transform: Transform = wer_default,
                  hypothesis_transform: Transform = wer_default) -> WordOutput:
    """jiwer's ``process_words``: the word alignment of each hypothesis against its
    reference, and WER, MER, WIL and WIP of the whole list.

    Raises:
        ValueError: a transform that does not give a list of lists of str, or numbers of
            references and hypotheses that differ (after the transforms).
    """
    if _default_of(reference_transform) is wer_default and _default_of(
            hypothesis_transform) is wer_default:
        ref_lines, hyp_lines = _both_lines(reference, hypothesis)
        hyps, refs, stats, alignments = words_and_statistics(hyp_lines, ref_lines,
                                                             alignments=True)
    else:
        refs, hyps = _transformed(reference, hypothesis, reference_transform,
                                  hypothesis_transform, words=True)
        stats, alignments = statistics_of_words(hyps, refs, alignments=True)
    totals, measures = _measures(stats)
    return WordOutput(refs, hyps, _chunks(alignments), measures["wer"], measures["mer"],
                      measures["wil"], measures["wip"], *totals)


def process_characters(reference: Sentences, hypothesis: Sentences,
                       reference_transform: Transform = cer_default,
                       hypothesis_transform: Transform = cer_default) -> CharacterOutput:
    """jiwer's ``process_characters``: the character alignment of each hypothesis against
    its reference, and the CER of the whole list (spaces are characters, as in jiwer)."""
    refs, hyps = _transformed(reference, hypothesis, reference_transform,
                              hypothesis_transform, words=False)
    stats, alignments = _char_statistics(refs, hyps, alignments=True)
    totals, measures = _measures(stats)
    return CharacterOutput([list(r) for r in refs], [list(h) for h in hyps],
                           _chunks(alignments), measures["wer"], *totals)


def wer(reference: Sentences, hypothesis: Sentences,
        reference_transform: Transform = wer_default,
        hypothesis_transform: Transform = wer_default) -> float:
    """jiwer's ``wer``: (S + D + I) / N over the whole list (the insertions where the
    references are empty).

    >>> wer(["a b c", "d"], ["a x c", "d e"])
    0.5
    """
    return _word_measure("wer", reference, hypothesis, reference_transform,
                         hypothesis_transform)


def mer(reference: Sentences, hypothesis: Sentences,
        reference_transform: Transform = wer_default,
        hypothesis_transform: Transform = wer_default) -> float:
    """jiwer's ``mer``: (S + D + I) / (H + S + D + I)."""
    return _word_measure("mer", reference, hypothesis, reference_transform,
                         hypothesis_transform)


def wil(reference: Sentences, hypothesis: Sentences,
        reference_transform: Transform = wer_default,
        hypothesis_transform: Transform = wer_default) -> float:
    """jiwer's ``wil``: 1 - WIP."""
    return _word_measure("wil", reference, hypothesis, reference_transform,
                         hypothesis_transform)


def wip(reference: Sentences, hypothesis: Sentences,
        reference_transform: Transform = wer_default,
        hypothesis_transform: Transform = wer_default) -> float:
    """jiwer's ``wip``: (H / N) * (H / P), N and P the reference and hypothesis words."""
    return _word_measure("wip", reference, hypothesis, reference_transform,
                         hypothesis_transform)


def cer(reference: Sentences, hypothesis: Sentences,
        reference_transform: Transform = cer_default,
        hypothesis_transform: Transform = cer_default) -> float:
    """jiwer's ``cer``: WER over characters (spaces included; the ends stripped).

    >>> cer("abc", "abd")
    0.3333333333333333
    """
    refs, hyps = _transformed(reference, hypothesis, reference_transform,
                              hypothesis_transform, words=False)
    return _measures(_char_statistics(refs, hyps, alignments=False)[0])[1]["wer"]


# ------------------------------------------------------------------ helpers


def _word_measure(name: str, reference: Sentences, hypothesis: Sentences,
                  reference_transform: Transform, hypothesis_transform: Transform) -> Any:
    if _default_of(reference_transform) is wer_default and _default_of(
            hypothesis_transform) is wer_default:
        # the lines as they are: split and numbered at once (the words are not returned)
        ref_lines, hyp_lines = _both_lines(reference, hypothesis)
        return _measures(statistics_of_lines(hyp_lines, ref_lines)[0])[1][name]
    refs, hyps = _transformed(reference, hypothesis, reference_transform,
                              hypothesis_transform, words=True)
    return _measures(statistics_of_words(hyps, refs)[0])[1][name]


def _both_lines(reference: Any, hypothesis: Any) -> tuple[list[str], list[str]]:
    """Both sides as lists of lines (an empty list: one empty line, as jiwer's transforms
    make it), checked as jiwer checks them."""
    refs = _lines([reference] if isinstance(reference, str) else reference) or [""]
    hyps = _lines([hypothesis] if isinstance(hypothesis, str) else hypothesis) or [""]
    _check_lengths(refs, hyps)
    return refs, hyps


def _check_lengths(refs: list[Any], hyps: list[Any]) -> None:
    if len(refs) != len(hyps):
        raise ValueError(
            "After applying the transforms on the reference and hypothesis sentences, their "
            f"lengths must match. Instead got {len(refs)} reference and {len(hyps)} "
            "hypothesis sentences.")


def _lines(sentences: Any) -> list[str]:
    """A str as a list of one, a list as it is: jiwer's transforms take nothing else."""
    if isinstance(sentences, str):
        return [sentences]
    if isinstance(sentences, list):
        for line in sentences:
            if not isinstance(line, str):
                raise ValueError(f"input {sentences} was expected to be a string or list of "
                                 "strings")
        return sentences
    raise ValueError(f"input {sentences} was expected to be a string or list of strings")


def _default_of(transform: Any) -> _Default | None:
    """Our default transform that ``transform`` is: ours, or jiwer's own object."""
    if isinstance(transform, _Default):
        return transform
    module = sys.modules.get("jiwer.transformations")
    if module is not None:
        if transform is getattr(module, "wer_default", None):
            return wer_default
        if transform is getattr(module, "cer_default", None):
            return cer_default
    return None


def _transformed(reference: Any, hypothesis: Any, reference_transform: Transform,
                 hypothesis_transform: Transform, words: bool) -> tuple[list[Any],
                                                                        list[Any]]:
    """Both sides transformed (characters as str where the default made them) and
    checked as jiwer checks them."""
    sides: list[list[Any]] = []
    for side, transform, is_reference in ((reference, reference_transform, True),
                                          (hypothesis, hypothesis_transform, False)):
        if isinstance(side, str):
            side = [side]
        default = _default_of(transform)
        if default is not None:
            lines = _lines(side)
            if default is cer_default and not words:
                sides.append([default_chars(line) for line in lines] if lines else [""])
            else:
                sides.append(default(lines))
            continue
        out = transform(side)
        if not _is_lists_of_str(out):
            which = "reference" if is_reference else "hypothesis"
            raise ValueError(
                f"After applying the transformation, each {which} should be a list of "
                "strings, with each string being a single word or character. Please ensure "
                "the given transformation reduces the input to a list of list strings.")
        sides.append(out)
    refs, hyps = sides
    _check_lengths(refs, hyps)
    return refs, hyps


def _is_lists_of_str(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(entry, list) and all(isinstance(s, str) for s in entry) for entry in value)


def _char_statistics(refs: list[Any], hyps: list[Any], alignments: bool) -> tuple[
        WerStats[np.ndarray], Alignments | None]:
    """Characters (str of the default transform) by code point; lists of strings (any
    other transform's) as words."""
    if all(isinstance(r, str) for r in refs) and all(isinstance(h, str) for h in hyps):
        return statistics_of_chars(hyps, refs, alignments)
    return statistics_of_words([list(h) for h in hyps], [list(r) for r in refs], alignments)


def _measures(stats: WerStats[np.ndarray]) -> tuple[tuple[int, int, int, int], dict[str, Any]]:
    """The summed counts (hits, substitutions, insertions, deletions: jiwer's field order)
    and the measures as jiwer returns them (int where its edge rules give ints)."""
    hits, subs, dels, ins = (sum(x.tolist()) for x in (
        stats.hits, stats.substitutions, stats.deletions, stats.insertions))
    return (hits, subs, ins, dels), measures_of_totals(hits, subs, dels, ins)


def _chunks(alignments: Alignments | None) -> list[list[AlignmentChunk]]:
    """jiwer's chunk objects of each row's opcodes (made in C where it is built)."""
    assert alignments is not None
    chunks, starts, counts = alignments
    compiled = native.module()
    if compiled is not None:
        made: list[list[AlignmentChunk]] = compiled.alignment_chunks(
            *(np.ascontiguousarray(part, dtype=np.int64) for part in alignments), TAGS)
        return made
    # the rows of chunks in use, each row's after the other's
    first = np.cumsum(counts) - counts
    used = np.arange(int(counts.sum())) - np.repeat(first - starts, counts)
    rows = chunks[used]
    tags = np.array(TAGS, dtype=object)[rows[:, 0]].tolist()
    flat = list(itertools.starmap(AlignmentChunk, zip(
        tags, *(rows[:, k].tolist() for k in range(1, 5)), strict=True)))
    return [flat[a: a + k] for a, k in zip(first.tolist(), counts.tolist(), strict=True)]
