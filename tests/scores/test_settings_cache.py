"""The settings of BLEU, GLEU and chrF (``Settings.of``): kept per keyword arguments by
:class:`bleusuite.scores.settings_cache.SettingsCache`, which ``torch.compile`` traces
without a warning (an ``lru_cache`` is opaque to Dynamo) and which tells an argument it
cannot keep by its type, never by the text of an error; and the message of torchmetrics'
``smooth=True``."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import bleusuite
from bleusuite.scores.bleu.settings import BleuSettings
from bleusuite.scores.chrf.settings import ChrfSettings
from bleusuite.scores.gleu.settings import GleuSettings


class _HashRaises(float):
    """A number whose hash raises a TypeError that does not say 'unhashable'."""

    def __hash__(self) -> int:
        raise TypeError("no hash today")


def test_the_same_arguments_give_the_same_settings():
    assert BleuSettings.of(weights=[0.5, 0.5]) is BleuSettings.of(weights=(0.5, 0.5))
    assert BleuSettings.of(tokenize="13a", sentence=True).effective_order
    assert GleuSettings.of(min_len=2) is GleuSettings.of(min_len=2)
    assert ChrfSettings.of(word_order=2) is ChrfSettings.of(word_order=2)
    # 1 and True are equal, yet one is no order: the type is part of the key
    assert BleuSettings.of(max_order=1).max_order == 1
    with pytest.raises(TypeError, match="max_order"):
        BleuSettings.of(max_order=True)
    # NumPy scalars are kept; an array's weights are checked, not kept
    assert BleuSettings.of(max_order=np.int64(2)).max_order == 2
    weights = np.array([0.5, 0.5])
    assert BleuSettings.of(weights=weights).weights == (0.5, 0.5)


def test_a_setting_that_cannot_be_hashed_is_checked_not_misread():
    """The old cache re-raised a TypeError of hash() unless its text said 'unhashable'."""
    assert ChrfSettings.of(beta=_HashRaises(2.0)).beta == 2.0
    assert BleuSettings.of(smooth_value=_HashRaises(0.1), smooth="floor").smooth_value == 0.1
    with pytest.raises((TypeError, ValueError), match="min_len"):
        GleuSettings.of(min_len=[1])


def test_smooth_true_names_torchmetrics_smooth():
    for smooth, name in ((True, "torchmetrics_smooth"), (False, "no_smooth")):
        with pytest.raises(ValueError, match=f"smooth={smooth} is smooth='{name}'"):
            bleusuite.sentence_bleu([[1, 2, 3]], [[[1, 2, 3]]], smooth=smooth)


@pytest.mark.parametrize("compiler", ["eager", "aot_eager"])
def test_torch_compile_traces_the_settings_cleanly(compiler):
    """No "Dynamo detected a call to a functools.lru_cache-wrapped function" warning, one
    graph (fullgraph=True), eager's numbers."""
    torch = pytest.importorskip("torch")
    torch._dynamo.reset()
    hyp = torch.tensor([[5, 6, 7, 8, 0], [5, 9, 9, 0, 0]])
    ref = torch.tensor([[5, 6, 7, 9, 0], [5, 9, 9, 8, 0]])

    def scores(h, r):
        return (bleusuite.sentence_bleu(h, r, pad_id=0, smooth="method1", weights=(0.5, 0.5)),
                bleusuite.sentence_gleu(h, r, pad_id=0, min_len=2))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = torch.compile(scores, fullgraph=True, backend=compiler)(hyp, ref)
    messages = [str(w.message) for w in caught]
    assert not [m for m in messages if "lru_cache" in m or "Dynamo" in m], messages
    for a, b in zip(got, scores(hyp, ref), strict=True):
        torch.testing.assert_close(a, b, rtol=0, atol=0)
