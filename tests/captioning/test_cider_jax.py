"""CIDEr-D of JAX arrays (``tox -e jax``): with x64 the fixed-shape device path
(``bleusuite/scores/cider/fixed_shape.py``) gives the host path's scores to 1e-12, its own
and fixed document frequencies, eager and under ``jax.jit``; without x64 (int32 keys) the
ids are scored on the host and the float32 scores come back."""

from __future__ import annotations

import numpy as np
import pytest
from caption_cases import id_batch

from bleusuite import cider_document_frequency, sentence_cider
from bleusuite.scores.cider.fixed_shape import fixed_cider_scores

jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")


@pytest.mark.parametrize("seed, images", [(1, 3), (2, 40), (3, 150)])
def test_x64_equals_the_host_path(seed, images):
    hyp, refs = id_batch(seed, images)
    frequency = cider_document_frequency(id_batch(seed, 2 * images)[1], pad_id=0)
    with jax.enable_x64(True):
        for extra in ({}, {"document_frequency": frequency}):
            want = sentence_cider(hyp, refs, pad_id=0, **extra)
            got = sentence_cider(jnp.asarray(hyp), jnp.asarray(refs), pad_id=0, **extra)
            assert isinstance(got, jax.Array) and got.dtype == jnp.float64
            np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13, atol=1e-12)


def test_x64_under_jit():
    """The fixed-shape function traced once by ``jax.jit`` (nothing in it reads a value)."""
    from bleusuite.backends.jax import backend

    hyp, refs = id_batch(7, 30)
    frequency = cider_document_frequency(refs, pad_id=0)
    want = sentence_cider(hyp, refs, pad_id=0, document_frequency=frequency)
    with jax.enable_x64(True):
        table = frequency.device_table(backend, jnp.asarray(hyp))
        hyp_len = jnp.asarray((hyp != 0).sum(axis=1))
        ref_len = jnp.asarray((refs != 0).sum(axis=2))

        @jax.jit
        def scores(h, hl, r, rl):
            return fixed_cider_scores(backend, h, hl, r, rl, rl > 0, max_order=4, sigma=6.0,
                                      table=table, documents=frequency.documents)

        got = scores(jnp.asarray(hyp), hyp_len, jnp.asarray(refs), ref_len)
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-13, atol=1e-12)


def test_x32_scores_on_the_host():
    hyp, refs = id_batch(9, 20)
    with jax.enable_x64(False):
        got = sentence_cider(jnp.asarray(hyp), jnp.asarray(refs), pad_id=0)
    assert isinstance(got, jax.Array) and got.dtype == jnp.float32
    np.testing.assert_allclose(np.asarray(got), sentence_cider(hyp, refs, pad_id=0),
                               rtol=1e-6, atol=1e-6)
