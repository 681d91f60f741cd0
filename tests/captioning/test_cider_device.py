"""CIDEr-D on a device (``bleusuite/scores/cider/fixed_shape.py``): the fixed-shape path
gives the host path's scores (pycocoevalcap's) to 1e-12 on generated batches and edge
cases, reads nothing back to the host, runs on ``meta`` tensors, and keeps SCST rewards on
the device. On the CPU the torch pipeline stands in for CUDA (the same code); the tests
marked ``gpu`` run it on CUDA and CuPy."""

from __future__ import annotations

import contextlib
import random

import numpy as np
import pytest
from backend_fixtures import no_host_reads
from caption_cases import edited, id_batch, padded, sentence

from bleusuite import backends, cider_document_frequency, sentence_cider
from bleusuite.backends.numpy import backend as numpy_backend
from bleusuite.inputs import normalize_batch
from bleusuite.rewards import scst_cider_rewards
from bleusuite.scores.cider.fixed_shape import DeviceTable, fixed_cider_scores, ngram_hashes

torch = pytest.importorskip("torch")

#: aten operations that make the host wait for the device (or size a result by the data)
SYNCING = {"_local_scalar_dense", "nonzero", "unique", "_unique", "_unique2", "unique_dim",
           "unique_consecutive", "masked_select", "bincount", "item", "equal", "is_nonzero",
           "repeat_interleave", "_assert_async"}


@contextlib.contextmanager
def reads_nothing(monkeypatch):
    """torch CPU tensors treated as a device (``no_host_reads``), the table lookup's
    ``searchsorted`` allowed: its output has its input's shape."""
    from bleusuite.backends.torch import TorchBackend

    with no_host_reads(monkeypatch):
        monkeypatch.setattr(TorchBackend, "searchsorted",
                            lambda self, s, v: torch.searchsorted(s, v))
        yield


def on_device(fn, *arrays, **kwargs):
    """``fn`` on torch CPU tensors through the torch pipeline (CUDA's code path)."""
    with backends.use_numpy_for_torch_cpu(False):
        got = fn(*(torch.from_numpy(a) for a in arrays), **kwargs)
    assert isinstance(got, torch.Tensor)
    return got.numpy()


def assert_same(got, want):
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-12)


@pytest.mark.parametrize("seed, images", [(1, 1), (2, 2), (3, 7), (4, 40), (5, 160)])
def test_batch_document_frequencies_equal_the_host_path(seed, images):
    hyp, refs = id_batch(seed, images)
    want = sentence_cider(hyp, refs, pad_id=0)
    assert_same(on_device(sentence_cider, hyp, refs, pad_id=0), want)


@pytest.mark.parametrize("seed", range(6))
def test_fixed_document_frequencies_equal_the_host_path(seed):
    hyp, refs = id_batch(seed + 10, 30 + 20 * seed)
    train_refs = id_batch(seed + 10, 60 + 20 * seed)[1]   # the same words, more
    frequency = cider_document_frequency(train_refs, pad_id=0)
    want = sentence_cider(hyp, refs, pad_id=0, document_frequency=frequency)
    got = on_device(sentence_cider, hyp, refs, pad_id=0, document_frequency=frequency)
    assert_same(got, want)
    # every split of the batch gives each row's score (fixed frequencies: rows independent)
    for cut in (1, len(hyp) // 3, len(hyp) - 1):
        parts = [on_device(sentence_cider, hyp[a:b], refs[a:b], pad_id=0,
                           document_frequency=frequency) for a, b in ((0, cut), (cut, None))]
        assert_same(np.concatenate(parts), want)


@pytest.mark.parametrize("max_order, sigma", [(1, 6.0), (2, 3.0), (3, 6.0), (5, 1.5),
                                              (7, 10.0)])
def test_orders_and_sigmas(max_order, sigma):
    hyp, refs = id_batch(31, 50)
    frequency = cider_document_frequency(refs, pad_id=0, max_order=max_order)
    for extra in ({}, {"document_frequency": frequency}):
        want = sentence_cider(hyp, refs, pad_id=0, max_order=max_order, sigma=sigma, **extra)
        got = on_device(sentence_cider, hyp, refs, pad_id=0, max_order=max_order,
                        sigma=sigma, **extra)
        assert_same(got, want)


@pytest.mark.parametrize("vocabulary, offset", [
    (3, 1),                       # tiny vocabulary: long repeated n-grams everywhere
    (50_000, 1),
    (1000, 2 ** 62),              # huge ids
    (1000, -(2 ** 63) + 1),       # the most negative ids (pad stays 0)
])
def test_token_values(vocabulary, offset):
    hyp, refs = id_batch(41, 60, vocabulary=vocabulary, offset=offset)
    frequency = cider_document_frequency(refs[::2], pad_id=0)
    for extra in ({}, {"document_frequency": frequency}):
        want = sentence_cider(hyp, refs, pad_id=0, **extra)
        assert_same(on_device(sentence_cider, hyp, refs, pad_id=0, **extra), want)


def test_edge_cases():
    """Empty hypotheses, shorter than the order, no match, a copy, repeated n-grams,
    references of different numbers and lengths, an empty reference beside others."""
    rows = [([], [[1, 2, 3]]), ([5], [[5, 6, 7, 8]]), ([9, 9, 9, 9, 9, 9], [[9, 9, 9], [9]]),
            ([1, 2, 3, 4], [[1, 2, 3, 4]]), ([7, 8], [[1, 2], [3, 4], [5, 6]]),
            ([1, 2, 1, 2, 1, 2], [[2, 1, 2, 1], [1, 2, 1]]), ([3, 4, 5], [[3, 4, 5], [3]])]
    hyps = [h for h, _ in rows]
    refs = [r for _, r in rows]
    hyp = padded(hyps, 8)
    ref = np.zeros((len(rows), 3, 6), dtype=np.int64)
    for b, rs in enumerate(refs):
        ref[b, :len(rs)] = padded(rs, 6)
    want = sentence_cider(hyps, refs)
    assert_same(sentence_cider(hyp, ref, pad_id=0), want)
    assert_same(on_device(sentence_cider, hyp, ref, pad_id=0), want)
    frequency = cider_document_frequency(refs)
    want = sentence_cider(hyps, refs, document_frequency=frequency)
    assert_same(on_device(sentence_cider, hyp, ref, pad_id=0, document_frequency=frequency),
                want)
    # no rows; rows of width 0
    assert on_device(sentence_cider, hyp[:0], ref[:0], pad_id=0).shape == (0,)
    assert on_device(sentence_cider, hyp[:, :0], ref[:, :, :1] * 0 + 3,
                     document_frequency=frequency).tolist() == [0.0] * len(rows)


def test_numpy_backend_directly():
    """The fixed-shape function is backend-generic: on NumPy it gives the host path's
    scores too (the CPU proof of the CuPy route)."""
    hyp, refs = id_batch(51, 80)
    batch = normalize_batch(hyp, refs, pad_id=0).padded()
    frequency = cider_document_frequency(refs[:50], pad_id=0)
    for table, documents, extra in (
            (None, None, {}),
            (frequency.device_table(numpy_backend, batch.hyp), frequency.documents,
             {"document_frequency": frequency})):
        got = fixed_cider_scores(numpy_backend, batch.hyp, batch.hyp_len, batch.refs,
                                 batch.ref_len, batch.ref_present, max_order=4, sigma=6.0,
                                 table=table, documents=documents)
        assert_same(got, sentence_cider(hyp, refs, pad_id=0, **extra))


def test_a_row_without_reference_scores_nan_on_a_device(monkeypatch):
    hyp, refs = id_batch(61, 5)
    refs[2] = 0
    with pytest.raises(ValueError, match="hypothesis 2 has no reference"):
        sentence_cider(hyp, refs, pad_id=0)
    frequency = cider_document_frequency(id_batch(61, 20)[1], pad_id=0)
    with reads_nothing(monkeypatch):     # where checking would wait for the device
        got = sentence_cider(torch.from_numpy(hyp), torch.from_numpy(refs), pad_id=0,
                             document_frequency=frequency).numpy()
    assert np.isnan(got[2]) and not np.isnan(np.delete(got, 2)).any()
    others = np.arange(5) != 2
    assert_same(got[others], sentence_cider(hyp[others], refs[others], pad_id=0,
                                            document_frequency=frequency))


def test_the_table_finds_every_ngram_and_no_other():
    """The hashed table of fixed frequencies: each n-gram's own count, 0 for n-grams it
    does not hold (the hash is checked token by token), the same hashes on host and
    device."""
    rng = np.random.default_rng(3)
    refs = rng.integers(1, 6, (40, 2, 9))
    frequency = cider_document_frequency(refs)
    table = DeviceTable.from_counts(frequency.counts, 4)
    for k, entries in enumerate(table.orders, 1):
        assert entries.hashes.shape[0] == sum(len(n) == k for n in frequency.counts)
        assert np.all(np.diff(entries.hashes) > 0)
        for ngram, count in zip(entries.ngrams.tolist(), entries.counts.tolist(), strict=True):
            assert frequency.counts[tuple(ngram)] == count
    values = rng.integers(-(2 ** 63), 2 ** 63 - 1, 64, dtype=np.int64)
    primes = table.primes

    def host_shift(a, j):
        return np.concatenate([a[j:], np.zeros(j, dtype=a.dtype)])

    def torch_shift(a, j):
        return torch.cat([a[j:], torch.zeros(j, dtype=a.dtype)])

    for k in (1, 2, 4):
        host = ngram_hashes(values, k, primes, host_shift)
        device = ngram_hashes(torch.from_numpy(values), k, primes, torch_shift)
        assert host.tolist() == device.tolist()
        assert host.min() >= 0 and host.max() < 2 ** 62


def test_colliding_primes_take_the_next(monkeypatch):
    from bleusuite.scores.cider import fixed_shape

    frequency = cider_document_frequency([[[1, 2, 3]], [[2, 3, 4]]])
    first = fixed_shape.HASH_PRIMES[0]
    # (1, 0) hashes every value to its own residues, so 1 and 1 + mod1 * mod2 collide
    colliding = ((first[0][0], 7), (first[1][0], 11))
    monkeypatch.setattr(fixed_shape, "HASH_PRIMES", (colliding, *fixed_shape.HASH_PRIMES))
    table = DeviceTable.from_counts({(1,): 1, (1 + 77,): 2}, 1)
    assert table.primes == fixed_shape.HASH_PRIMES[1]
    assert DeviceTable.from_counts(frequency.counts, 4).primes == colliding


def test_no_host_reads_and_meta_tensors(monkeypatch):
    """The device call reads nothing back (every reading primitive raises; no aten
    operation that waits for the device runs) and runs on ``meta`` tensors."""
    from torch.utils._python_dispatch import TorchDispatchMode

    hyp, refs = id_batch(71, 24)
    frequency = cider_document_frequency(refs, pad_id=0)
    want = sentence_cider(hyp, refs, pad_id=0, document_frequency=frequency)
    seen: set[str] = set()

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.add(str(func.overloadpacket.__name__))
            return func(*args, **(kwargs or {}))

    hyp_t, refs_t = torch.from_numpy(hyp), torch.from_numpy(refs)
    with reads_nothing(monkeypatch):
        sentence_cider(hyp_t, refs_t, pad_id=0, document_frequency=frequency)  # table made
        for extra in ({}, {"document_frequency": frequency}):
            with Mode():
                got = sentence_cider(hyp_t, refs_t, pad_id=0, **extra)
            assert isinstance(got, torch.Tensor)
            meta = sentence_cider(hyp_t.to("meta"), refs_t.to("meta"), pad_id=0, **extra)
            assert meta.device.type == "meta" and meta.shape == (len(hyp),)
        with Mode():
            rewards = scst_cider_rewards(hyp_t, refs_t[::2], frequency, baseline="mean",
                                         pad_id=0)
    assert not seen & SYNCING, seen & SYNCING
    assert_same(got.numpy(), want)
    assert isinstance(rewards, torch.Tensor)


def test_compiles_without_graph_breaks():
    """``torch.compile(fullgraph=True)`` traces the whole call (a host read would be a graph
    break, which fullgraph refuses); the compiled call gives eager's scores."""
    torch._dynamo.reset()
    hyp, refs = id_batch(75, 12)
    frequency = cider_document_frequency(refs, pad_id=0)

    def scores(h, r):
        return sentence_cider(h, r, pad_id=0, document_frequency=frequency)

    with backends.use_numpy_for_torch_cpu(False):
        h, r = torch.from_numpy(hyp), torch.from_numpy(refs)
        want = scores(h, r)
        got = torch.compile(scores, fullgraph=True, backend="eager")(h, r)
    torch.testing.assert_close(got, want, rtol=0, atol=0)


def test_scst_rewards_on_the_device_equal_the_host():
    rng = random.Random(81)
    train = [[sentence(rng) for _ in range(3)] for _ in range(30)]
    numbers: dict[str, int] = {}

    def ids(line: str) -> list[int]:
        return [numbers.setdefault(w, 1 + len(numbers)) for w in line.split()]

    train_ids = [[ids(r) for r in rs] for rs in train]
    frequency = cider_document_frequency(train_ids)
    images, per_image = 6, 3
    refs = np.zeros((images, 3, 16), dtype=np.int64)
    for b in range(images):
        refs[b] = padded(train_ids[b], 16)
    samples = padded([ids(edited(rng, train[b][0])) for b in range(images)
                       for _ in range(per_image)], 18)
    greedy = padded([ids(train[b][1]) for b in range(images)], 18)
    for baseline, extra in (("mean", {}), ("greedy", {"greedy": greedy}), (None, {})):
        want = scst_cider_rewards(samples, refs, frequency, baseline=baseline, pad_id=0,
                                  **extra)
        with backends.use_numpy_for_torch_cpu(False):
            got = scst_cider_rewards(torch.from_numpy(samples), torch.from_numpy(refs),
                                     frequency, baseline=baseline, pad_id=0,
                                     **{k: torch.from_numpy(v) for k, v in extra.items()})
        assert isinstance(got, torch.Tensor)
        assert_same(got.numpy(), want)


# ------------------------------------------------------------------------ on a GPU


def _cuda():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device")
    return torch.device("cuda")


@pytest.mark.gpu
@pytest.mark.parametrize("fixed", [False, True])
def test_cuda_equals_the_host_without_a_synchronisation(fixed):
    device = _cuda()
    hyp, refs = id_batch(91, 300)
    frequency = cider_document_frequency(refs[::2], pad_id=0)
    extra = {"document_frequency": frequency} if fixed else {}
    want = sentence_cider(hyp, refs, pad_id=0, **extra)
    hyp_c, refs_c = torch.from_numpy(hyp).to(device), torch.from_numpy(refs).to(device)
    sentence_cider(hyp_c, refs_c, pad_id=0, **extra)          # the table copied once
    torch.cuda.synchronize()
    torch.cuda.set_sync_debug_mode("error")
    try:
        got = sentence_cider(hyp_c, refs_c, pad_id=0, **extra)
        rewards = scst_cider_rewards(hyp_c[:150], refs_c[::2], frequency, baseline="mean",
                                     pad_id=0)
    finally:
        torch.cuda.set_sync_debug_mode(0)
    assert got.device.type == "cuda" and rewards.device.type == "cuda"
    assert_same(got.cpu().numpy(), want)


@pytest.mark.gpu
def test_cupy_equals_the_host():
    cupy = pytest.importorskip("cupy")
    try:
        if cupy.cuda.runtime.getDeviceCount() < 1:
            pytest.skip("no CUDA device")
    except cupy.cuda.runtime.CUDARuntimeError:
        pytest.skip("no CUDA device")
    hyp, refs = id_batch(93, 120)
    frequency = cider_document_frequency(refs[::3], pad_id=0)
    for extra in ({}, {"document_frequency": frequency}):
        want = sentence_cider(hyp, refs, pad_id=0, **extra)
        got = sentence_cider(cupy.asarray(hyp), cupy.asarray(refs), pad_id=0, **extra)
        assert isinstance(got, cupy.ndarray)
        assert_same(cupy.asnumpy(got), want)



@pytest.mark.gpu
def test_metric_classes_keep_device_sums():
    """torchmetrics' CIDErScore and Ignite's CiderD on CUDA batches: the sums stay on the
    device, and compute() gives the host path's mean."""
    device = _cuda()
    from bleusuite.metrics import CiderD
    from bleusuite.torchmetrics import CIDErScore

    hyp, refs = id_batch(95, 40)
    frequency = cider_document_frequency(refs, pad_id=0)
    want = sentence_cider(hyp, refs, pad_id=0, document_frequency=frequency).mean()
    hyp_c, refs_c = torch.from_numpy(hyp).to(device), torch.from_numpy(refs).to(device)
    metric = CIDErScore(frequency, pad_id=0).to(device)
    ignite = CiderD(frequency, pad_id=0, device=device)
    for part in (slice(0, 15), slice(15, None)):
        metric.update(hyp_c[part], refs_c[part])
        ignite.update((hyp_c[part], refs_c[part]))
    assert metric.score_sum.device.type == "cuda"
    assert abs(float(metric.compute()) - want) < 1e-12
    assert abs(ignite.compute() - want) < 1e-12


def test_device_operations_per_call():
    """The eager device call's operations (aten operations that are not views, each a launch
    on a GPU), counted on the CPU: a bound that catches a change adding launches per order
    (docs/captioning.md gives the counts)."""
    from collections import Counter

    from torch.utils._python_dispatch import TorchDispatchMode

    from bleusuite.backends.torch import backend as torch_backend

    hyp, refs = id_batch(3, 64)
    frequency = cider_document_frequency(refs, pad_id=0)
    with backends.use_numpy_for_torch_cpu(False):
        batch = normalize_batch(torch.from_numpy(hyp), torch.from_numpy(refs), pad_id=0,
                                global_ids=True)
    table = frequency.device_table(torch_backend, batch.hyp)
    counts: Counter[str] = Counter()

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if not func.is_view:
                counts[str(func.overloadpacket.__name__)] += 1
            return func(*args, **(kwargs or {}))

    totals = []
    for fixed, documents in ((None, None), (table, frequency.documents)):
        counts.clear()
        with Mode():
            fixed_cider_scores(torch_backend, batch.hyp, batch.hyp_len, batch.refs,
                               batch.ref_len, batch.ref_present, max_order=4, sigma=6.0,
                               table=fixed, documents=documents)
        totals.append(sum(counts.values()))
    assert totals[0] <= 390 and totals[1] <= 455, totals
