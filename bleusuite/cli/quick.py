"""A small ``bleusuite score`` run in plain Python, without NumPy.

Importing NumPy takes longer than counting a file of a few hundred lines, so a command that
only scores a small file would start slower than sacrebleu. Such a run is counted and scored
here, as sacrebleu does it, operation for operation: each line lowercased (``-lc``),
stripped on the right and tokenised, n-grams counted with :class:`collections.Counter`,
clipped against the largest count over the references, the closest reference length (the
shorter on a tie), and ``compute_bleu``'s arithmetic in Python floats. The numbers and the
printed text are those of the array route (tested on generated corpora) and of sacrebleu.

It applies to one system, BLEU alone with one of sacrebleu's smoothing methods, corpus or
sentence scores, no resampling (``-ci``, paired tests), on the NumPy backend, in a process
that has not imported NumPy yet (the command; a program that calls :func:`bleusuite.cli.main`
and already uses NumPy loses nothing by using it), and at most :data:`QUICK_MAX_CHARS`
characters of text.

>>> stats = sentence_statistics("a b c d".split(), ["a b c e".split(), "a b".split()])
>>> stats
[4, 4, 3, 2, 1, 0, 4, 3, 2, 1]
>>> compute_bleu(stats[2:6], stats[6:], 4, 4, "exp", None, False)[0]
59.460355750136046
"""

from __future__ import annotations

import math
import sys
from collections import Counter
from collections.abc import Sequence

from bleusuite import smoothing
from bleusuite.cli.io import ScoreInputs
from bleusuite.cli.options import MAX_ORDER, ScoreOptions
from bleusuite.cli.output import MetricReport, bleu_verbose_line, make_signature, render
from bleusuite.tokenizers import Tokenizer

__all__ = ["QUICK_MAX_CHARS", "applies", "compute_bleu", "run", "sentence_statistics"]

#: characters of text (hypotheses and references) up to which a run takes this route:
#: about 1,000 lines of news text with one reference. Counting that many here takes about
#: as long as importing NumPy, which the array route needs (measured on the WMT sample)
QUICK_MAX_CHARS = 1 << 18


def applies(options: ScoreOptions, inputs: ScoreInputs) -> bool:
    """Whether the run takes this route (see the module's description)."""
    if ("numpy" in sys.modules or options.backend != "numpy" or options.metrics != ("bleu",)
            or options.family != "sacrebleu" or options.confidence or options.paired
            or len(inputs.systems) != 1):
        return False
    chars = 0
    for stream in (*inputs.systems, *inputs.references):
        chars += sum(map(len, stream))
        if chars > QUICK_MAX_CHARS:
            return False
    return True


def _ngrams(tokens: list[str]) -> Counter[tuple[str, ...]]:
    """sacrebleu's ``extract_all_word_ngrams(line, 1, 4)`` of a split line."""
    counts: Counter[tuple[str, ...]] = Counter()
    for n in range(1, MAX_ORDER + 1):
        counts.update(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))
    return counts


def sentence_statistics(hyp: list[str], refs: Sequence[list[str]]) -> list[int]:
    """sacrebleu's statistics of one tokenised sentence: ``[hyp_len, ref_len,
    correct_1..4, total_1..4]``."""
    ref_ngrams: Counter[tuple[str, ...]] = Counter()
    closest_len, closest_diff = 0, -1
    for ref in refs:
        for ngram, count in _ngrams(ref).items():
            if count > ref_ngrams[ngram]:
                ref_ngrams[ngram] = count
        diff = abs(len(hyp) - len(ref))
        if closest_diff < 0 or diff < closest_diff:
            closest_len, closest_diff = len(ref), diff
        elif diff == closest_diff:
            closest_len = min(closest_len, len(ref))
    correct = [0] * MAX_ORDER
    total = [0] * MAX_ORDER
    for ngram, count in _ngrams(hyp).items():
        n = len(ngram) - 1
        total[n] += count
        if ngram in ref_ngrams:
            correct[n] += min(count, ref_ngrams[ngram])
    return [len(hyp), closest_len, *correct, *total]


def compute_bleu(correct: Sequence[float], total: Sequence[float], sys_len: int, ref_len: int,
                 smooth: str, smooth_value: float | None, effective_order: bool) -> tuple[
                     float, list[float], float]:
    """sacrebleu's ``BLEU.compute_bleu``: ``(score, precisions, brevity penalty)``."""
    correct, total = list(correct), list(total)
    if smooth_value is None:
        smooth_value = smoothing.SMOOTH_VALUE_DEFAULTS.get(smooth)
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * MAX_ORDER
    if not any(correct):
        return 0.0, precisions, bp
    smooth_mteval = 1.0
    eff_order = MAX_ORDER
    for n in range(1, MAX_ORDER + 1):
        if smooth == "add-k" and n > 1:
            assert smooth_value is not None
            correct[n - 1] += smooth_value
            total[n - 1] += smooth_value
        if total[n - 1] == 0:
            break
        if effective_order:
            eff_order = n
        if correct[n - 1] == 0:
            if smooth == "exp":
                smooth_mteval *= 2
                precisions[n - 1] = 100.0 / (smooth_mteval * total[n - 1])
            elif smooth == "floor":
                assert smooth_value is not None
                precisions[n - 1] = 100.0 * smooth_value / total[n - 1]
        else:
            precisions[n - 1] = 100.0 * correct[n - 1] / total[n - 1]
    logs = [smoothing.SACREBLEU_LOG_ZERO if p == 0.0 else math.log(p)
            for p in precisions[:eff_order]]
    return bp * math.exp(sum(logs) / eff_order), precisions, bp


def run(options: ScoreOptions, inputs: ScoreInputs, tokenizer: Tokenizer) -> str:
    """The command's output for a run that :func:`applies`."""
    tokenize, lowercase = tokenizer.tokenize, options.lowercase

    def tokens(line: str) -> list[str]:
        result: list[str] = tokenize((line.lower() if lowercase else line).rstrip()).split()
        return result

    hyps = list(map(tokens, inputs.systems[0]))
    refs = [list(map(tokens, stream)) for stream in inputs.references]
    rows = [sentence_statistics(hyp, [stream[i] for stream in refs])
            for i, hyp in enumerate(hyps)]
    if not options.sentence_level:
        rows = [[sum(column) for column in zip(*rows, strict=True)]]
    scores, verbose = [], []
    for row in rows:
        score, precisions, bp = compute_bleu(row[2 : 2 + MAX_ORDER], row[2 + MAX_ORDER :],
                                             row[0], row[1], options.smooth,
                                             options.smooth_value, options.effective_order)
        scores.append(score)
        verbose.append(bleu_verbose_line(precisions, bp, row[0], row[1]))
    signature = make_signature(options, "bleu", len(inputs.references), tokenizer.signature)
    return render([MetricReport("BLEU", signature, scores, verbose)], options)
