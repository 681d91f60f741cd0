"""JAX arrays: eager calls, ``jax.jit`` (settings static), ``jax.vmap`` over several batches,
the x64 / x32 dtype rules, and no host callback in a compiled call.

The parity suite itself runs on JAX through ``on_every_backend`` and the ``pipeline``
fixture (``tests/backend_fixtures.py``); this file covers what is particular to JAX.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from backend_fixtures import assert_scores_close
from cases import brute_force

import bleusuite
from bleusuite import backends
from bleusuite.counting import count_matches, counting_strategy
from bleusuite.inputs import normalize_batch

jax = pytest.importorskip("jax", reason="jax is not installed (tox -e jax installs it)")
jnp = pytest.importorskip("jax.numpy")
# loaded up front: it registers the statistics as JAX pytrees, which _leaves relies on even
# for results computed on NumPy (the backend is otherwise loaded by the first JAX call); a
# plain import, not a skip guard: with jax importable it must import
importlib.import_module("bleusuite.backends.jax")


@pytest.fixture(params=[True, False], ids=["x64", "x32"])
def x64(request: Any) -> Any:
    """Run the test with ``jax_enable_x64`` on, then off."""
    with jax.enable_x64(request.param):
        yield request.param


def _batch(seed: int, rows: int = 6, width: int = 14, num_refs: int = 3,
           vocab: int = 9) -> tuple[np.ndarray, np.ndarray]:
    """Token ids 1..vocab (3 is also the eos of some calls), right padding with 0, every
    row with at least one reference."""
    rng = np.random.default_rng(seed)
    hyp = rng.integers(1, vocab + 1, (rows, width))
    ref = rng.integers(1, vocab + 1, (rows, num_refs, width))
    hyp[:, width - int(rng.integers(0, width // 2)):] = 0
    ref[:, 1:, width - int(rng.integers(0, width // 2)):] = 0
    ref[rows // 2, 2] = 0  # an absent reference
    return hyp, ref


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sentence_bleu": partial(bleusuite.sentence_bleu, pad_id=0, eos_id=3, smooth="method3"),
    "corpus_bleu": partial(bleusuite.corpus_bleu, pad_id=0, smooth="exp", effective_order=True),
    "sentence_gleu": partial(bleusuite.sentence_gleu, pad_id=0, min_len=2),
    "corpus_gleu": partial(bleusuite.corpus_gleu, pad_id=0, eos_id=3),
    "bleu_statistics": partial(bleusuite.bleu_statistics, pad_id=0),
    "gleu_statistics": partial(bleusuite.gleu_statistics, pad_id=0, max_len=3),
    "method0": partial(bleusuite.sentence_bleu, pad_id=0, smooth="method0"),
    "ignite smooth2, weights": partial(bleusuite.sentence_bleu, pad_id=0, smooth="smooth2",
                                       weights=(0.5, 0.3, 0.2)),
    "high order (fallback)": partial(bleusuite.sentence_bleu, max_order=30, smooth="method1"),
}


def _leaves(result: Any) -> list[np.ndarray]:
    """Every array of a result (scores, or the fields of statistics), as NumPy."""
    return [np.asarray(leaf) for leaf in jax.tree_util.tree_leaves(result)]


@pytest.mark.parametrize("name", list(FUNCTIONS))
def test_eager_and_jit_equal_numpy(name, x64):
    fn = FUNCTIONS[name]
    hyp, ref = _batch(seed=len(name))
    expected = _leaves(fn(hyp, ref))
    jhyp, jref = jnp.asarray(hyp), jnp.asarray(ref)
    eager = fn(jhyp, jref)
    jitted = jax.jit(fn)(jhyp, jref)
    for leaf in jax.tree_util.tree_leaves(eager):
        assert isinstance(leaf, jax.Array)
        assert leaf.devices() == jhyp.devices()
        floating = jnp.issubdtype(leaf.dtype, jnp.floating)
        want = (np.float64 if floating else np.int64) if x64 else (
            np.float32 if floating else np.int32)
        assert leaf.dtype == want
    for got, want in zip(_leaves(eager), expected, strict=True):
        assert_scores_close(got, want)
    # the compiled call gives the eager numbers (XLA may fuse float steps: within rounding)
    for got, want in zip(_leaves(jitted), _leaves(eager), strict=True):
        assert got.dtype == want.dtype
        if got.dtype.kind == "f":
            np.testing.assert_allclose(got, want, rtol=4 * np.finfo(got.dtype).eps, atol=0)
        else:
            np.testing.assert_array_equal(got, want)


def test_a_compiled_call_has_no_host_callback():
    hyp, ref = _batch(seed=1)
    for fn in FUNCTIONS.values():
        jaxpr = str(jax.make_jaxpr(fn)(jnp.asarray(hyp), jnp.asarray(ref)))
        assert "callback" not in jaxpr


def test_jit_with_static_settings():
    """Settings as static arguments of the jitted function itself."""
    hyp, ref = _batch(seed=2)
    jitted = jax.jit(bleusuite.sentence_bleu, static_argnames=("pad_id", "smooth", "max_order"))
    for smooth, order in (("method1", 4), ("floor", 2)):
        got = jitted(jnp.asarray(hyp), jnp.asarray(ref), pad_id=0, smooth=smooth,
                     max_order=order)
        want = bleusuite.sentence_bleu(hyp, ref, pad_id=0, smooth=smooth, max_order=order)
        assert_scores_close(got, want)


@pytest.mark.parametrize("ragged", [False, True], ids=["padded", "ragged"])
@pytest.mark.parametrize("argname", ["pad_id", "eos_id"])
def test_a_traced_token_id_says_to_make_it_static(argname, ragged):
    """Issue 24, item 11: a ``pad_id`` / ``eos_id`` traced by ``jax.jit`` got "pad_id must be
    an int token id or None; got JitTracer(...)"; the message says to make it static, and
    what it says works."""
    hyp, ref = _batch(seed=2)

    def score(hyp, ref, **token):
        if ragged:  # one 1-D array per sentence: the ragged input path
            hyp, ref = [h for h in hyp], [[r] for r in ref[:, 0]]
        return bleusuite.sentence_bleu(hyp, ref, smooth="method1", **token)

    with pytest.raises(TypeError) as info:
        jax.jit(lambda h, r, token: score(h, r, **{argname: token}))(
            jnp.asarray(hyp), jnp.asarray(ref), 3)
    message = str(info.value)
    assert message.startswith(f"{argname} must be an int token id or None; got a value traced "
                              "by JAX (")
    assert f"jax.jit(f, static_argnames='{argname}')" in message
    assert f"jax.jit(functools.partial(f, {argname}=...))" in message
    with pytest.raises(TypeError, match="traced by JAX"):  # vmap traces too
        jax.vmap(lambda token: score(jnp.asarray(hyp), jnp.asarray(ref), **{argname: token}))(
            jnp.arange(2))
    want = score(hyp, ref, **{argname: 3})
    static = jax.jit(score, static_argnames=argname)
    assert_scores_close(static(jnp.asarray(hyp), jnp.asarray(ref), **{argname: 3}), want)
    bound = jax.jit(partial(score, **{argname: 3}))
    assert_scores_close(bound(jnp.asarray(hyp), jnp.asarray(ref)), want)


@pytest.mark.parametrize("name", ["sentence_bleu", "corpus_bleu", "corpus_gleu",
                                  "bleu_statistics"])
def test_vmap_over_several_batches(name, x64):
    """``jax.vmap`` maps over a leading axis of equally shaped batches: a corpus function
    then gives one corpus score per batch."""
    fn = FUNCTIONS[name]
    batches = [_batch(seed=seed) for seed in range(3)]
    hyps = jnp.asarray(np.stack([h for h, _ in batches]))
    refs = jnp.asarray(np.stack([r for _, r in batches]))
    mapped = _leaves(jax.jit(jax.vmap(fn))(hyps, refs))
    for index, (hyp, ref) in enumerate(batches):
        for got, want in zip(mapped, _leaves(fn(hyp, ref)), strict=True):
            assert_scores_close(got[index], want)


def test_rows_without_reference_raise_eagerly_and_are_nan_under_jit():
    hyp, ref = _batch(seed=3)
    ref[1] = 0  # every reference of row 1 is padding
    with pytest.raises(ValueError, match="hypothesis 1 has no reference"):
        bleusuite.sentence_bleu(jnp.asarray(hyp), jnp.asarray(ref), pad_id=0)
    scores = np.asarray(jax.jit(partial(bleusuite.sentence_bleu, pad_id=0))(
        jnp.asarray(hyp), jnp.asarray(ref)))
    assert np.isnan(scores[1]) and not np.isnan(np.delete(scores, 1)).any()
    keep = np.arange(len(hyp)) != 1
    assert_scores_close(scores[keep], bleusuite.sentence_bleu(hyp[keep], ref[keep], pad_id=0))
    corpus = jax.jit(partial(bleusuite.corpus_gleu, pad_id=0))(jnp.asarray(hyp),
                                                               jnp.asarray(ref))
    assert np.isnan(float(corpus))


def test_method6_without_trigram_raises_eagerly_and_is_nan_under_jit():
    hyp = np.array([[1, 2, 3, 4, 5], [1, 2, 9, 4, 8]])
    ref = np.array([[1, 2, 3, 4, 6], [1, 2, 3, 4, 6]])
    fn = partial(bleusuite.sentence_bleu, smooth="method6")
    with pytest.raises(ValueError, match="method6"):
        fn(jnp.asarray(hyp), jnp.asarray(ref))
    scores = np.asarray(jax.jit(fn)(jnp.asarray(hyp), jnp.asarray(ref)))
    assert np.isnan(scores[1])
    assert_scores_close(scores[:1], fn(hyp[:1], ref[:1]))


def test_key_bits_follow_x64():
    be = backends.get_backend(jnp.zeros(1))
    assert be.name == "jax"
    with jax.enable_x64(True):
        assert be.key_bits == 62 and be.int64 == np.int64 and be.float64 == np.float64
    with jax.enable_x64(False):
        assert be.key_bits == 30 and be.int64 == np.int32 and be.float64 == np.float32


@pytest.mark.parametrize("width", [100, 200])
def test_x32_counts_stay_exact_with_30_bit_keys(width):
    """Orders 1..4 of 100-token rows fit one 30-bit key (4 x 7 + 2 bits); of 200-token rows
    they do not (4 x 8 + 2), so x32 counts order by order where x64 packs one key."""
    rng = np.random.default_rng(width)
    hyp = rng.integers(1, 30, (3, width))
    ref = np.stack([hyp, rng.integers(1, 30, (3, width))], axis=1)
    ref[:, 0, ::7] = 99
    hyps = [list(map(int, row)) for row in hyp]
    refs = [[list(map(int, r)) for r in row] for row in ref]
    want_clipped, want_per_ref = brute_force(hyps, refs, 4)
    for x64 in (True, False):
        with jax.enable_x64(x64):
            counts = count_matches(normalize_batch(jnp.asarray(hyp), jnp.asarray(ref)), 4,
                                   per_reference=True)
            assert counts.clipped.dtype == (np.int64 if x64 else np.int32)
            np.testing.assert_array_equal(np.asarray(counts.clipped), want_clipped)
            np.testing.assert_array_equal(np.asarray(counts.per_reference), want_per_ref)


def test_x32_uint32_ids_above_int32():
    """uint32 ids >= 2**31 wrap to distinct int32 values, and so does a pad id in that
    range: the counts are those of the same sentences with small ids."""
    hyp, ref = _batch(seed=4)
    shift = np.uint32(2**31 + 5)
    big_hyp = np.where(hyp > 0, hyp.astype(np.uint32) + shift, np.uint32(2**32 - 1))
    big_ref = np.where(ref > 0, ref.astype(np.uint32) + shift, np.uint32(2**32 - 1))
    want = bleusuite.bleu_statistics(hyp, ref, pad_id=0)
    with jax.enable_x64(False):
        got = bleusuite.bleu_statistics(jnp.asarray(big_hyp), jnp.asarray(big_ref),
                                        pad_id=2**32 - 1)
        for field in ("hyp_len", "ref_len", "matches"):
            np.testing.assert_array_equal(np.asarray(getattr(got, field)), getattr(want, field))
        with pytest.raises(ValueError, match="pad_id=4294967296 cannot be a JAX token id"):
            bleusuite.sentence_bleu(jnp.asarray(hyp), jnp.asarray(ref), pad_id=2**32)
        with pytest.raises(ValueError, match="eos_id=-2147483649"):
            bleusuite.sentence_bleu(jnp.asarray(hyp), jnp.asarray(ref), eos_id=-(2**31) - 1)


def test_x32_rows_too_wide_for_int32_keys_raise():
    """Traced only (``jax.eval_shape``): nothing of that size is computed."""
    with jax.enable_x64(False):
        hyp = jax.ShapeDtypeStruct((1, 2**16), jnp.int32)
        with pytest.raises(ValueError, match=r"too large for 32-bit integers.*jax_enable_x64"):
            jax.eval_shape(bleusuite.sentence_bleu, hyp, hyp)
    with jax.enable_x64(True):
        hyp = jax.ShapeDtypeStruct((1, 2**16), jnp.int64)
        assert jax.eval_shape(bleusuite.sentence_bleu, hyp, hyp).shape == (1,)


@pytest.mark.parametrize("setting", ["compact", "compiled", "triton"])
def test_a_cpu_setting_still_counts_with_the_fixed_strategy(setting, monkeypatch):
    """JAX arrays are immutable and their shapes fixed at trace time: ``fixed`` counts them
    whatever ``BLEUSUITE_COUNTING`` names (``compiled`` too, built or not; ``triton`` too,
    installed or not)."""
    hyp, ref = _batch(seed=5)
    want = bleusuite.sentence_bleu(hyp, ref, pad_id=0)
    monkeypatch.setenv("BLEUSUITE_COUNTING", setting)
    be = backends.get_backend(jnp.asarray(hyp))
    assert counting_strategy(be, jnp.asarray(hyp)) == "fixed"
    assert_scores_close(bleusuite.sentence_bleu(jnp.asarray(hyp), jnp.asarray(ref), pad_id=0),
                        want)
    monkeypatch.setenv("BLEUSUITE_COUNTING", "hashed")  # a wrong value still raises
    with pytest.raises(ValueError, match="BLEUSUITE_COUNTING"):
        counting_strategy(be, jnp.asarray(hyp))


def test_mixing_jax_and_numpy_is_a_type_error():
    with pytest.raises(TypeError, match="same array library"):
        bleusuite.sentence_bleu(jnp.asarray([[1, 2]]), np.array([[1, 2]]))
    with pytest.raises(TypeError, match="integer token ids"):
        bleusuite.sentence_bleu(jnp.zeros((1, 2)), jnp.zeros((1, 2), dtype=jnp.int32))


@pytest.mark.gpu
def test_on_a_jax_gpu():
    try:
        gpu = jax.devices("gpu")[0]
    except RuntimeError:
        pytest.skip("jax sees no GPU")
    hyp, ref = _batch(seed=6)
    with jax.enable_x64(True):
        jhyp, jref = jax.device_put(hyp, gpu), jax.device_put(ref, gpu)
        for name, fn in FUNCTIONS.items():
            eager = fn(jhyp, jref)
            for leaf in jax.tree_util.tree_leaves(eager):
                assert leaf.devices() == {gpu}, name
            for got, want in zip(_leaves(jax.jit(fn)(jhyp, jref)), _leaves(fn(hyp, ref)),
                                 strict=True):
                assert_scores_close(got, want, name)


def test_the_lookup_does_not_import_jax():
    assert "jax" in sys.modules  # imported by this file; see test_backends for a fresh process
    assert backends.backend_name(np.zeros(1)) == "numpy"
