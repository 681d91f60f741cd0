"""How each implementation is called: bleusuite on each backend, and the peer libraries
(NLTK, sacrebleu, pytorch-ignite, torchmetrics, a TensorBLEU-style pipeline) with the
bleusuite settings that give each one's numbers."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable
from typing import Any, Protocol

import numpy as np

from bleusuite import backends
from bleusuite.bench.tasks import (
    EXACT,
    NLTK_SETTINGS,
    PEERS,
    TASKS,
    Entry,
    Inputs,
    Task,
    as_float64,
    expect,
    missing,
    score,
)

__all__ = ["TokenLists", "bleusuite_entry", "entries", "nltk_corpus_bleu", "nltk_corpus_gleu",
           "nltk_sentence_bleu", "nltk_sentence_gleu"]


def torch_unavailable(cuda: bool) -> Callable[[], str | None]:
    def check() -> str | None:
        reason = missing("torch")()
        if reason is None and cuda:
            import torch

            if not torch.cuda.is_available():
                return "no CUDA device"
        return reason

    return check


def _cupy_unavailable() -> str | None:
    reason = missing("cupy")()
    if reason is not None:
        return reason
    import cupy

    try:
        if cupy.cuda.runtime.getDeviceCount() == 0:
            return "no CUDA device"
    except Exception as error:  # CUDA driver missing or broken
        return f"no usable CUDA device ({type(error).__name__})"
    return None


def _bleusuite_build(task: Task, backend: str) -> Callable[[Inputs], Callable[[], Any]]:
    settings = NLTK_SETTINGS[task]

    def build(inputs: Inputs) -> Callable[[], Any]:
        hyp: Any = inputs.hyp
        refs: Any = inputs.refs
        if backend == "numpy":
            return lambda: score(task, hyp, refs, **settings)
        if backend == "jax":
            return _jax_call(task, hyp, refs, settings)
        if backend == "cupy":
            import cupy

            hyp, refs = cupy.asarray(hyp), cupy.asarray(refs)

            def on_cupy() -> Any:
                out = score(task, hyp, refs, **settings)
                cupy.cuda.Device().synchronize()
                return out

            return on_cupy
        import torch

        hyp, refs = torch.from_numpy(hyp), torch.from_numpy(refs)
        if backend == "torch-cuda":
            hyp, refs = hyp.cuda(), refs.cuda()

            def on_cuda() -> Any:
                out = score(task, hyp, refs, **settings)
                torch.cuda.synchronize()
                return out

            return on_cuda
        if backend == "torch-kernels":

            def torch_kernels() -> Any:
                with backends.use_numpy_for_torch_cpu(False):
                    return score(task, hyp, refs, **settings)

            return torch_kernels
        return lambda: score(task, hyp, refs, **settings)

    return build


def _jax_call(task: Task, hyp: np.ndarray, refs: np.ndarray,
              settings: dict[str, Any]) -> Callable[[], Any]:
    """bleusuite under ``jax.jit`` with 64-bit types for the call only (float64 scores, as
    NumPy's); the first call (the untimed warm-up) compiles."""
    import jax

    function = jax.jit(lambda h, r: score(task, h, r, **settings))
    with jax.enable_x64(True):
        hyp_on_device, refs_on_device = jax.device_put(hyp), jax.device_put(refs)

    def call() -> Any:
        with jax.enable_x64(True):
            return function(hyp_on_device, refs_on_device).block_until_ready()

    return call


def to_host(result: Any) -> np.ndarray:
    """A result on any backend as float64 NumPy."""
    if hasattr(result, "get"):  # CuPy
        result = result.get()
    if hasattr(result, "cpu"):  # torch
        result = result.cpu().numpy()
    return as_float64(result)


BACKEND_NAMES = {
    "numpy": "bleusuite (numpy)",
    "torch": "bleusuite (torch CPU)",
    "torch-kernels": "bleusuite (torch CPU, torch kernels)",
    "torch-cuda": "bleusuite (torch CUDA)",
    "cupy": "bleusuite (cupy)",
    "jax": "bleusuite (jax.jit, x64)",
}
BACKEND_UNAVAILABLE: dict[str, Callable[[], str | None]] = {
    "numpy": lambda: None,
    "torch": torch_unavailable(cuda=False),
    "torch-kernels": torch_unavailable(cuda=False),
    "torch-cuda": torch_unavailable(cuda=True),
    "cupy": _cupy_unavailable,
    "jax": missing("jax"),
}


def bleusuite_entry(task: Task, backend: str) -> Entry:
    """bleusuite on ``backend`` (one of ``BACKENDS``), with NLTK's settings for ``task``.

    ``torch`` is a CPU tensor scored through zero-copy NumPy views (the default);
    ``torch-kernels`` the same tensor in ``backends.use_numpy_for_torch_cpu(False)`` (torch's
    own CPU kernels: the code path CUDA tensors take).
    """
    settings = NLTK_SETTINGS[task]
    return Entry(
        task, BACKEND_NAMES[backend], "bleusuite", _bleusuite_build(task, backend), to_host,
        expect(task, **settings),
        unavailable=BACKEND_UNAVAILABLE[backend], note="same as bleusuite (numpy)", warmup=1,
    )


# -- peers


class TokenLists(Protocol):
    """Sentences as NLTK and pytorch-ignite take them: :class:`Inputs`, or any batch with
    the same two attributes (the MT-like workloads of ``benchmarks/bench_mt.py``)."""

    @property
    def hyp_lists(self) -> list[list[int]]: ...

    @property
    def ref_lists(self) -> list[list[list[int]]]: ...


def nltk_sentence_bleu(inputs: TokenLists) -> Callable[[], Any]:
    """NLTK's ``sentence_bleu`` in a loop, with ``SmoothingFunction().method1``."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    method1 = SmoothingFunction().method1
    pairs = list(zip(inputs.hyp_lists, inputs.ref_lists, strict=True))
    return lambda: [sentence_bleu(r, h, smoothing_function=method1) for h, r in pairs]


def nltk_corpus_bleu(inputs: TokenLists) -> Callable[[], Any]:
    """NLTK's ``corpus_bleu``, no smoothing (its "zero counts" warning silenced)."""
    from nltk.translate.bleu_score import corpus_bleu

    def call() -> Any:
        with warnings.catch_warnings():  # method0's "zero counts" warning
            warnings.simplefilter("ignore")
            return corpus_bleu(inputs.ref_lists, inputs.hyp_lists)

    return call


def nltk_sentence_gleu(inputs: TokenLists) -> Callable[[], Any]:
    """NLTK's ``sentence_gleu`` in a loop (orders 1-4)."""
    from nltk.translate.gleu_score import sentence_gleu

    pairs = list(zip(inputs.hyp_lists, inputs.ref_lists, strict=True))
    return lambda: [sentence_gleu(r, h) for h, r in pairs]


def nltk_corpus_gleu(inputs: TokenLists) -> Callable[[], Any]:
    """NLTK's ``corpus_gleu`` (orders 1-4)."""
    from nltk.translate.gleu_score import corpus_gleu

    return lambda: corpus_gleu(inputs.ref_lists, inputs.hyp_lists)


def _sacrebleu_sentences(inputs: Inputs) -> Callable[[], Any]:
    from sacrebleu.metrics import BLEU

    # sacrebleu.sentence_bleu's defaults (exp smoothing, effective order), one object
    metric = BLEU(tokenize="none", effective_order=True)
    pairs = list(zip(inputs.hyp_lines, inputs.ref_lines, strict=True))
    return lambda: [metric.sentence_score(h, r).score for h, r in pairs]


def _sacrebleu_corpus(inputs: Inputs) -> Callable[[], Any]:
    from sacrebleu.metrics import BLEU

    metric = BLEU(tokenize="none")
    return lambda: metric.corpus_score(inputs.hyp_lines, inputs.ref_streams).score


def _ignite(average: str, smooth: str) -> Callable[[Inputs], Callable[[], Any]]:
    def build(inputs: Inputs) -> Callable[[], Any]:
        from ignite.metrics import Bleu

        metric = Bleu(ngram=4, smooth=smooth, average=average)

        def epoch() -> Any:
            metric.reset()
            metric.update((inputs.hyp_lists, inputs.ref_lists))
            return metric.compute()

        return epoch

    return build


def _torchmetrics_sentences(inputs: Inputs) -> Callable[[], Any]:
    from torchmetrics.functional.text import bleu_score

    pairs = list(zip(inputs.hyp_lines, inputs.ref_lines, strict=True))
    return lambda: [float(bleu_score([h], [r], n_gram=4, smooth=False)) for h, r in pairs]


def _torchmetrics_corpus(inputs: Inputs) -> Callable[[], Any]:
    from torchmetrics.text import BLEUScore

    metric = BLEUScore(n_gram=4, smooth=False)

    def epoch() -> Any:
        metric.reset()
        metric.update(inputs.hyp_lines, inputs.ref_lines)
        return float(metric.compute())

    return epoch


def _percent(result: Any) -> np.ndarray:
    return as_float64(result) / 100


_TORCHMETRICS_NOTE = (
    "smooth=False = bleusuite smooth='no_smooth'; float32 arithmetic by design, so checked "
    "to 1e-6 (its smooth=True returns 0 whenever an order has no match: not compared)"
)
_SENTENCE, _CORPUS = Task("bleu", "sentence"), Task("bleu", "corpus")
_GLEU_SENTENCE, _GLEU_CORPUS = Task("gleu", "sentence"), Task("gleu", "corpus")
_GLEU_NOTE = "orders 1-4 (its defaults) = bleusuite's defaults"
#: (library, task, name, build, scores, reduce, settings, needs, atol, note); NLTK's are the
#: baselines
_PEER_ENTRIES: tuple[tuple[Any, ...], ...] = (
    ("nltk", _SENTENCE, "nltk sentence_bleu loop", nltk_sentence_bleu, as_float64, None,
     NLTK_SETTINGS[_SENTENCE], ("nltk",), EXACT,
     "SmoothingFunction().method1 = bleusuite smooth='method1'"),
    ("nltk", _CORPUS, "nltk corpus_bleu", nltk_corpus_bleu, as_float64, None,
     NLTK_SETTINGS[_CORPUS], ("nltk",), EXACT,
     "no smoothing (method0) = bleusuite smooth='method0'"),
    ("nltk", _GLEU_SENTENCE, "nltk sentence_gleu loop", nltk_sentence_gleu, as_float64, None,
     NLTK_SETTINGS[_GLEU_SENTENCE], ("nltk",), EXACT, _GLEU_NOTE),
    ("nltk", _GLEU_CORPUS, "nltk corpus_gleu", nltk_corpus_gleu, as_float64, None,
     NLTK_SETTINGS[_GLEU_CORPUS], ("nltk",), EXACT, _GLEU_NOTE),
    ("sacrebleu", _SENTENCE, "sacrebleu sentence_score loop", _sacrebleu_sentences, _percent,
     None, {"smooth": "exp", "effective_order": True}, ("sacrebleu",), EXACT,
     "sacrebleu.sentence_bleu's defaults (exp smoothing, effective order) = bleusuite "
     "smooth='exp', effective_order=True; its 0-100 scale / 100"),
    ("sacrebleu", _CORPUS, "sacrebleu corpus_score", _sacrebleu_corpus, _percent, None,
     {"smooth": "exp"}, ("sacrebleu",), EXACT,
     "exp smoothing (its default) = bleusuite smooth='exp'; its 0-100 scale / 100"),
    ("ignite", _SENTENCE, "pytorch-ignite Bleu (macro)", _ignite("macro", "smooth1"),
     as_float64, "mean", {"smooth": "smooth1"}, ("torch", "ignite"), EXACT,
     "smooth='smooth1' = bleusuite smooth='smooth1'; ignite returns the mean of the sentence "
     "scores, so the means are compared"),
    ("ignite", _CORPUS, "pytorch-ignite Bleu (micro)", _ignite("micro", "no_smooth"),
     as_float64, None, {"smooth": "no_smooth"}, ("torch", "ignite"), EXACT,
     "smooth='no_smooth' = bleusuite smooth='no_smooth'"),
    ("torchmetrics", _SENTENCE, "torchmetrics bleu_score loop", _torchmetrics_sentences,
     as_float64, None, {"smooth": "no_smooth"}, ("torch", "torchmetrics"), 1e-6,
     _TORCHMETRICS_NOTE),
    ("torchmetrics", _CORPUS, "torchmetrics BLEUScore", _torchmetrics_corpus, as_float64,
     None, {"smooth": "no_smooth"}, ("torch", "torchmetrics"), 1e-6, _TORCHMETRICS_NOTE),
)


def _peer_entries(library: str) -> list[Entry]:
    return [Entry(task, name, library, build, scores, expect(task, reduce, **settings),
                  unavailable=missing(*needs), atol=atol, note=note,
                  baseline=library == "nltk")
            for peer, task, name, build, scores, reduce, settings, needs, atol, note
            in _PEER_ENTRIES if peer == library]


def entries(
    tasks: Iterable[Task] = TASKS,
    backends_: Iterable[str] = ("numpy",),
    peers: Iterable[str] = PEERS,
) -> list[Entry]:
    """Every implementation of ``tasks``: bleusuite on ``backends_``, then the ``peers``.

    >>> [e.name for e in entries([Task("gleu", "corpus")], ["numpy", "torch"])]
    ['bleusuite (numpy)', 'bleusuite (torch CPU)', 'nltk corpus_gleu']
    """
    tasks = list(tasks)
    peers = set(peers)
    unknown = peers.difference(PEERS)
    if unknown:
        raise ValueError(f"peers: unknown {sorted(unknown)}; expected some of {PEERS}")
    made = [bleusuite_entry(task, backend) for task in tasks for backend in backends_]
    for name in PEERS:
        if name in peers:
            made.extend(entry for entry in _peer_entries(name) if entry.task in tasks)
    return made
