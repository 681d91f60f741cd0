"""Paired significance between two (or more) systems' WER and CER: ``paired_bootstrap`` and
``paired_approximate_randomization`` take :class:`bleusuite.WerStats` (found through
``registry.of_statistics``: scores are 100 x WER) and give the numbers of a direct
computation: sacrebleu's draws for the seed, each resample's counts summed row by row in
Python's order, jiwer's WER of the sums (its edge rule where the resample has no reference
word), sacrebleu's summaries (mean, 95% half-width, p-values)."""

from __future__ import annotations

import numpy as np
import pytest
from edit_cases import asr_pairs

import bleusuite
from bleusuite.scores import registry
from bleusuite.significance import paired_approximate_randomization, paired_bootstrap


def _wer100(sums: np.ndarray) -> np.ndarray:
    """100 x jiwer's WER of each row of summed ``[hits, subs, dels, ins]``."""
    rates = []
    for hits, subs, dels, ins in sums.tolist():
        words = hits + subs + dels
        rates.append(ins if words == 0 else (subs + dels + ins) / words)
    return 100.0 * np.array(rates, dtype=np.float64)


def _systems(count: int, rows: int, characters: bool) -> list[bleusuite.WerStats]:
    pairs = asr_pairs(rows, seed=7)
    references = [ref for ref, _ in pairs]
    hypotheses = [[hyp for _, hyp in pairs]]
    for k in range(1, count):
        other = dict(asr_pairs(rows, seed=7 + k))
        hypotheses.append([other.get(ref, ref) for ref in references])
    return [bleusuite.wer_statistics(lines, references, characters=characters)
            for lines in hypotheses]


def _direct_bootstrap(tables: list[np.ndarray], n: int, seed: int) -> list[tuple]:
    rows = tables[0].shape[0]
    draws = np.random.default_rng(seed).choice(rows, size=(n, rows))
    real = [_wer100(t.sum(axis=0, keepdims=True))[0] for t in tables]
    resampled = [_wer100(np.array([t[d].sum(axis=0) for d in draws])) for t in tables]
    out = []
    for k, scores in enumerate(resampled):
        ordered = np.sort(scores)
        lower = n // 40
        mean, ci = ordered.mean(), 0.5 * (ordered[n - lower - 1] - ordered[lower])
        p = None
        if k:
            differences = np.abs(scores - resampled[0])
            centred = differences - differences.mean()
            p = (int((centred > abs(real[0] - real[k])).sum()) + 1) / (n + 1)
        out.append((real[k], p, mean, ci))
    return out


def _direct_randomization(tables: list[np.ndarray], n: int, seed: int) -> list[tuple]:
    rows = tables[0].shape[0]
    masks = np.random.default_rng(seed).integers(2, size=(n, rows), dtype=bool)
    real = [_wer100(t.sum(axis=0, keepdims=True))[0] for t in tables]
    out = [(real[0], None)]
    for k in range(1, len(tables)):
        a = np.array([np.where(m[:, None], tables[0], tables[k]).sum(axis=0) for m in masks])
        b = np.array([np.where(m[:, None], tables[k], tables[0]).sum(axis=0) for m in masks])
        differences = np.abs(_wer100(a) - _wer100(b))
        p = (int((differences > abs(real[0] - real[k])).sum()) + 1) / (n + 1)
        out.append((real[k], p))
    return out


def test_wer_statistics_are_wers_in_the_registry():
    stats = bleusuite.wer_statistics(["a b"], ["a c"])
    assert registry.of_statistics(stats) is registry.get("wer")


@pytest.mark.parametrize("characters", [False, True])
@pytest.mark.parametrize("seed", [12345, 3])
def test_paired_bootstrap_of_wer_is_the_direct_computation(characters, seed):
    stats = _systems(3, 250, characters)
    results = paired_bootstrap(stats[0], stats[1:], n_resamples=300, seed=seed)
    expected = _direct_bootstrap([s.to_array() for s in stats], 300, seed)
    for result, (score, p, mean, ci) in zip(results, expected, strict=True):
        assert result.score == score and result.p_value == p
        assert result.mean == pytest.approx(mean, rel=1e-13)
        assert result.ci == pytest.approx(ci, rel=1e-12, abs=1e-12)
    pairs = asr_pairs(250, seed=7)
    corpus = bleusuite.corpus_cer if characters else bleusuite.corpus_wer
    assert results[0].score == 100 * corpus([hyp for _, hyp in pairs],
                                            [ref for ref, _ in pairs]).wer


@pytest.mark.parametrize("characters", [False, True])
def test_paired_randomization_of_wer_is_the_direct_computation(characters):
    stats = _systems(3, 200, characters)
    results = paired_approximate_randomization(stats[0], stats[1:], n_trials=250, seed=11)
    expected = _direct_randomization([s.to_array() for s in stats], 250, 11)
    assert [(r.score, r.p_value) for r in results] == expected
    assert all(r.mean is None and r.ci is None for r in results)


def test_resamples_without_a_reference_word_take_jiwers_rule():
    """Three sentences, one with an empty reference: many resamples draw only it (WER is
    then its insertions, as jiwer's), and token-id statistics work alike."""
    base = bleusuite.wer_statistics(["a b", "x y z", "c"], ["", "x y", "c d"])
    other = bleusuite.wer_statistics(["", "x y", "c d e"], ["", "x y", "c d"])
    tables = [base.to_array(), other.to_array()]
    results = paired_bootstrap(base, [other], n_resamples=200, seed=1)
    expected = _direct_bootstrap(tables, 200, 1)
    assert [(r.score, r.p_value) for r in results] == [e[:2] for e in expected]
    assert [r.mean for r in results] == pytest.approx([e[2] for e in expected], rel=1e-13)
    ids = bleusuite.wer_statistics(np.array([[1, 2, 0], [5, 6, 7]]),
                                   np.array([[1, 3, 0], [5, 6, 0]]), pad_id=0)
    same = paired_approximate_randomization(ids, [ids], n_trials=50, seed=2)
    # a system against itself: no trial differs by more than 0, so sacrebleu's (0 + 1) / (n + 1)
    assert same[1].score == same[0].score == 50.0 and same[1].p_value == 1 / 51


def test_a_mismatch_is_refused():
    base = bleusuite.wer_statistics(["a b", "c"], ["a b", "c"])
    with pytest.raises(ValueError, match="do not match the baseline"):
        paired_bootstrap(base, [bleusuite.wer_statistics(["a"], ["a"])], n_resamples=10)
