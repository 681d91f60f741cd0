"""``bleusuite bench``: a quick side-by-side of bleusuite and the BLEU / GLEU libraries
installed here, on one batch of random token ids, with every score checked.

::

    bleusuite bench                                  # 64 x 512 ids, 1 reference, NumPy
    bleusuite bench --batch 256 --length 1024 --backend numpy --backend torch
    bleusuite bench --refs 4 --metric bleu --scope corpus --plot bench.png
    python -m bleusuite.bench --help                 # the same command

Every implementation of a task (per-sentence or corpus BLEU or GLEU) gets the same
sentences, converted beforehand to the form it takes: token-id arrays for bleusuite, lists
of ints for NLTK and pytorch-ignite, space-joined ids for sacrebleu (``tokenize="none"``)
and torchmetrics. Each one is run ``--repeat`` times and the best time is kept (bleusuite
gets one more untimed call first, which loads its backend). Its scores are then compared
with bleusuite's for the same definition of the score: to 1e-12 where the definitions
match exactly (NLTK, sacrebleu, pytorch-ignite), to 1e-6 for torchmetrics (float32
arithmetic, by design). A peer that is not installed is listed as skipped, never an error.

The exit status is 0 when every score agrees, 1 when one does not, 2 for a usage error
(including a ``--backend`` that cannot run here).

The same entries (:func:`entries`) drive the pytest-benchmark suite in ``benchmarks/``, so
the command and ``tox -e bench`` call every library the same way.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, TextIO

import numpy as np

import bleusuite
from bleusuite import backends

__all__ = [
    "BACKENDS",
    "PEERS",
    "TASKS",
    "Entry",
    "Inputs",
    "Measurement",
    "Task",
    "add_arguments",
    "entries",
    "format_table",
    "main",
    "measure",
    "run",
    "save_plot",
    "zipf_batch",
]

#: bleusuite backends the command can time (``--backend``)
BACKENDS: tuple[str, ...] = ("numpy", "torch", "torch-kernels", "torch-cuda", "cupy")
#: peer libraries, in the order they are listed (``--peer``)
PEERS: tuple[str, ...] = ("nltk", "sacrebleu", "ignite", "torchmetrics")
#: tolerance of the score checks where the two definitions are the same
EXACT = 1e-12


# ------------------------------------------------------------------------------ inputs


@dataclass(frozen=True)
class Task:
    """What is computed: ``metric`` ("bleu" or "gleu") per ``scope`` ("sentence" or
    "corpus")."""

    metric: str
    scope: str

    @property
    def label(self) -> str:
        """``"BLEU per-sentence"``, ``"GLEU corpus"``, ..."""
        return f"{self.metric.upper()} {'per-sentence' if self.scope == 'sentence' else 'corpus'}"


#: every task, in the order they are printed
TASKS: tuple[Task, ...] = tuple(
    Task(metric, scope) for metric in ("bleu", "gleu") for scope in ("sentence", "corpus")
)


def zipf_batch(
    batch: int, length: int, vocab: int = 50_000, refs: int = 1, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Token ids drawn from a Zipf law (exponent 1.2) folded into ``vocab``: hypotheses
    (B, L) and references (B, R, L), int64. The same draw as the benchmarks' inputs.

    >>> hyp, refs = zipf_batch(2, 5, refs=3)
    >>> hyp.shape, refs.shape
    ((2, 5), (2, 3, 5))
    """
    rng = np.random.default_rng(seed)
    hyp = (rng.zipf(1.2, size=(batch, length)) % vocab).astype(np.int64)
    ref = (rng.zipf(1.2, size=(batch, refs, length)) % vocab).astype(np.int64)
    return hyp, ref


class Inputs:
    """One batch in every form the implementations take, each form built once (so that
    conversions are never timed), and bleusuite's own scores, computed once per setting.

    Args:
        hyp: (B, L) int64 token ids.
        refs: (B, R, L) int64 token ids.
    """

    def __init__(self, hyp: np.ndarray, refs: np.ndarray) -> None:
        if hyp.ndim != 2 or refs.ndim != 3 or refs.shape[0] != hyp.shape[0]:
            raise ValueError(
                f"hyp must be (B, L) and refs (B, R, L); got {hyp.shape} and {refs.shape}"
            )
        self.hyp = hyp
        self.refs = refs
        self._expected: dict[tuple[Any, ...], np.ndarray] = {}

    @property
    def shape(self) -> tuple[int, int, int]:
        """(sentences, hypothesis length, references per sentence)."""
        return self.hyp.shape[0], self.hyp.shape[1], self.refs.shape[1]

    @cached_property
    def hyp_lists(self) -> list[list[int]]:
        """Hypotheses as lists of ints (NLTK, pytorch-ignite)."""
        lists: list[list[int]] = self.hyp.tolist()
        return lists

    @cached_property
    def ref_lists(self) -> list[list[list[int]]]:
        """References as NLTK takes them: one list of reference token lists per sentence."""
        lists: list[list[list[int]]] = self.refs.tolist()
        return lists

    @cached_property
    def hyp_lines(self) -> list[str]:
        """Hypotheses as space-joined ids (sacrebleu, torchmetrics)."""
        return [" ".join(map(str, tokens)) for tokens in self.hyp_lists]

    @cached_property
    def ref_lines(self) -> list[list[str]]:
        """References as space-joined ids, one list of lines per sentence (torchmetrics)."""
        return [[" ".join(map(str, tokens)) for tokens in refs] for refs in self.ref_lists]

    @cached_property
    def ref_streams(self) -> list[list[str]]:
        """References as sacrebleu takes them: R streams of B lines."""
        return [list(stream) for stream in zip(*self.ref_lines, strict=True)]

    def expected(self, task: Task, reduce: str | None = None, **settings: Any) -> np.ndarray:
        """bleusuite's scores (NumPy backend) for ``task`` with ``settings``, as float64;
        ``reduce="mean"`` averages per-sentence scores (pytorch-ignite's macro average)."""
        key = (task, reduce, tuple(sorted(settings.items())))
        if key not in self._expected:
            scores = np.atleast_1d(np.asarray(score(task, self.hyp, self.refs, **settings),
                                              dtype=np.float64))
            self._expected[key] = scores.mean(keepdims=True) if reduce == "mean" else scores
        return self._expected[key]


def score(task: Task, hyp: Any, refs: Any, **settings: Any) -> Any:
    """bleusuite's scores for ``task`` (any backend): ``sentence_bleu``, ``corpus_bleu``,
    ``sentence_gleu`` or ``corpus_gleu`` called with ``settings``."""
    functions: dict[Task, Callable[..., Any]] = {
        Task("bleu", "sentence"): bleusuite.sentence_bleu,
        Task("bleu", "corpus"): bleusuite.corpus_bleu,
        Task("gleu", "sentence"): bleusuite.sentence_gleu,
        Task("gleu", "corpus"): bleusuite.corpus_gleu,
    }
    return functions[task](hyp, refs, **settings)


#: bleusuite's settings that give NLTK's numbers (what every bleusuite entry computes)
NLTK_SETTINGS: dict[Task, dict[str, Any]] = {
    Task("bleu", "sentence"): {"smooth": "method1"},
    Task("bleu", "corpus"): {"smooth": "method0"},
    Task("gleu", "sentence"): {},
    Task("gleu", "corpus"): {},
}


# ----------------------------------------------------------------------------- entries


@dataclass(frozen=True)
class Entry:
    """One implementation of one task.

    Attributes:
        task: what it computes.
        name: how the tables name it.
        library: ``"bleusuite"`` or the peer's name (``PEERS``); chooses ``--peer``.
        build: ``build(inputs)`` imports what it needs, converts the inputs and returns
            the call to time (no argument; returns the implementation's own result).
        scores: the comparable float64 numbers from that result.
        expected: bleusuite's numbers for the same definition of the score.
        unavailable: why it cannot run here (``None`` when it can); a peer that is not
            installed is skipped, not an error.
        atol: how close ``scores`` must be to ``expected``.
        note: what the check compares, or why ``atol`` is looser than 1e-12.
        baseline: NLTK's entry: the speedup column is relative to it.
        warmup: untimed calls before timing (bleusuite's first call loads its backend).
    """

    task: Task
    name: str
    library: str
    build: Callable[[Inputs], Callable[[], Any]]
    scores: Callable[[Any], np.ndarray]
    expected: Callable[[Inputs], np.ndarray]
    unavailable: Callable[[], str | None] = field(default=lambda: None)
    atol: float = EXACT
    note: str = ""
    baseline: bool = False
    warmup: int = 0


def _float64(result: Any) -> np.ndarray:
    return np.atleast_1d(np.asarray(result, dtype=np.float64))


def _expect(task: Task, reduce: str | None = None, **settings: Any) -> Callable[[Inputs], Any]:
    """``expected`` for an entry: bleusuite's scores for ``task`` with ``settings``."""
    return lambda inputs: inputs.expected(task, reduce, **settings)


def _missing(*modules: str) -> Callable[[], str | None]:
    """``unavailable`` for an entry that needs ``modules``."""

    def check() -> str | None:
        for module in modules:
            try:
                importlib.import_module(module)
            except ImportError:
                return f"{module} is not installed"
            except Exception as error:  # a broken install is a skip too, with its reason
                return f"{module} cannot be imported ({type(error).__name__}: {error})"
        return None

    return check


# -- bleusuite on each backend


def _torch_unavailable(cuda: bool) -> Callable[[], str | None]:
    def check() -> str | None:
        reason = _missing("torch")()
        if reason is None and cuda:
            import torch

            if not torch.cuda.is_available():
                return "no CUDA device"
        return reason

    return check


def _cupy_unavailable() -> str | None:
    reason = _missing("cupy")()
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
                saved = backends.TORCH_CPU_VIA_NUMPY
                backends.TORCH_CPU_VIA_NUMPY = False
                try:
                    return score(task, hyp, refs, **settings)
                finally:
                    backends.TORCH_CPU_VIA_NUMPY = saved

            return torch_kernels
        return lambda: score(task, hyp, refs, **settings)

    return build


def _to_host(result: Any) -> np.ndarray:
    if hasattr(result, "get"):  # CuPy
        result = result.get()
    if hasattr(result, "cpu"):  # torch
        result = result.cpu().numpy()
    return _float64(result)


_BACKEND_NAMES = {
    "numpy": "bleusuite (numpy)",
    "torch": "bleusuite (torch CPU)",
    "torch-kernels": "bleusuite (torch CPU, torch kernels)",
    "torch-cuda": "bleusuite (torch CUDA)",
    "cupy": "bleusuite (cupy)",
}
_BACKEND_UNAVAILABLE: dict[str, Callable[[], str | None]] = {
    "numpy": lambda: None,
    "torch": _torch_unavailable(cuda=False),
    "torch-kernels": _torch_unavailable(cuda=False),
    "torch-cuda": _torch_unavailable(cuda=True),
    "cupy": _cupy_unavailable,
}


def bleusuite_entry(task: Task, backend: str) -> Entry:
    """bleusuite on ``backend`` (one of ``BACKENDS``), with NLTK's settings for ``task``.

    ``torch`` is a CPU tensor scored through zero-copy NumPy views (the default);
    ``torch-kernels`` the same tensor with ``TORCH_CPU_VIA_NUMPY = False`` (torch's own CPU
    kernels: the code path CUDA tensors take).
    """
    settings = NLTK_SETTINGS[task]
    return Entry(
        task, _BACKEND_NAMES[backend], "bleusuite", _bleusuite_build(task, backend), _to_host,
        _expect(task, **settings),
        unavailable=_BACKEND_UNAVAILABLE[backend], note="same as bleusuite (numpy)", warmup=1,
    )


# -- peers


def _nltk_entries() -> list[Entry]:
    def bleu_sentences(inputs: Inputs) -> Callable[[], Any]:
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

        method1 = SmoothingFunction().method1
        pairs = list(zip(inputs.hyp_lists, inputs.ref_lists, strict=True))
        return lambda: [sentence_bleu(r, h, smoothing_function=method1) for h, r in pairs]

    def bleu_corpus(inputs: Inputs) -> Callable[[], Any]:
        from nltk.translate.bleu_score import corpus_bleu

        def call() -> Any:
            with warnings.catch_warnings():  # method0's "zero counts" warning
                warnings.simplefilter("ignore")
                return corpus_bleu(inputs.ref_lists, inputs.hyp_lists)

        return call

    def gleu_sentences(inputs: Inputs) -> Callable[[], Any]:
        from nltk.translate.gleu_score import sentence_gleu

        pairs = list(zip(inputs.hyp_lists, inputs.ref_lists, strict=True))
        return lambda: [sentence_gleu(r, h) for h, r in pairs]

    def gleu_corpus(inputs: Inputs) -> Callable[[], Any]:
        from nltk.translate.gleu_score import corpus_gleu

        return lambda: corpus_gleu(inputs.ref_lists, inputs.hyp_lists)

    made = []
    for task, name, build, note in (
        (Task("bleu", "sentence"), "nltk sentence_bleu loop", bleu_sentences,
         "SmoothingFunction().method1 = bleusuite smooth='method1'"),
        (Task("bleu", "corpus"), "nltk corpus_bleu", bleu_corpus,
         "no smoothing (method0) = bleusuite smooth='method0'"),
        (Task("gleu", "sentence"), "nltk sentence_gleu loop", gleu_sentences,
         "orders 1-4 (its defaults) = bleusuite's defaults"),
        (Task("gleu", "corpus"), "nltk corpus_gleu", gleu_corpus,
         "orders 1-4 (its defaults) = bleusuite's defaults"),
    ):
        made.append(Entry(
            task, name, "nltk", build, _float64, _expect(task, **NLTK_SETTINGS[task]),
            unavailable=_missing("nltk"), note=note, baseline=True,
        ))
    return made


def _sacrebleu_entries() -> list[Entry]:
    def sentences(inputs: Inputs) -> Callable[[], Any]:
        from sacrebleu.metrics import BLEU

        # sacrebleu.sentence_bleu's defaults (exp smoothing, effective order), one object
        metric = BLEU(tokenize="none", effective_order=True)
        pairs = list(zip(inputs.hyp_lines, inputs.ref_lines, strict=True))
        return lambda: [metric.sentence_score(h, r).score for h, r in pairs]

    def corpus(inputs: Inputs) -> Callable[[], Any]:
        from sacrebleu.metrics import BLEU

        metric = BLEU(tokenize="none")
        return lambda: metric.corpus_score(inputs.hyp_lines, inputs.ref_streams).score

    task = Task("bleu", "sentence")
    corpus_task = Task("bleu", "corpus")
    return [
        Entry(task, "sacrebleu sentence_score loop", "sacrebleu", sentences,
              lambda result: _float64(result) / 100,
              _expect(task, smooth="exp", effective_order=True),
              unavailable=_missing("sacrebleu"),
              note="sacrebleu.sentence_bleu's defaults (exp smoothing, effective order) = "
              "bleusuite smooth='exp', effective_order=True; its 0-100 scale / 100"),
        Entry(corpus_task, "sacrebleu corpus_score", "sacrebleu", corpus,
              lambda result: _float64(result) / 100,
              _expect(corpus_task, smooth="exp"),
              unavailable=_missing("sacrebleu"),
              note="exp smoothing (its default) = bleusuite smooth='exp'; its 0-100 scale / 100"),
    ]


def _ignite_entries() -> list[Entry]:
    def make(average: str, smooth: str) -> Callable[[Inputs], Callable[[], Any]]:
        def build(inputs: Inputs) -> Callable[[], Any]:
            from ignite.metrics import Bleu

            metric = Bleu(ngram=4, smooth=smooth, average=average)

            def epoch() -> Any:
                metric.reset()
                metric.update((inputs.hyp_lists, inputs.ref_lists))
                return metric.compute()

            return epoch

        return build

    task = Task("bleu", "sentence")
    corpus_task = Task("bleu", "corpus")
    return [
        Entry(task, "pytorch-ignite Bleu (macro)", "ignite", make("macro", "smooth1"), _float64,
              _expect(task, "mean", smooth="smooth1"),
              unavailable=_missing("torch", "ignite"),
              note="smooth='smooth1' = bleusuite smooth='smooth1'; ignite returns the mean of "
              "the sentence scores, so the means are compared"),
        Entry(corpus_task, "pytorch-ignite Bleu (micro)", "ignite", make("micro", "no_smooth"),
              _float64, _expect(corpus_task, smooth="no_smooth"),
              unavailable=_missing("torch", "ignite"),
              note="smooth='no_smooth' = bleusuite smooth='no_smooth'"),
    ]


_TORCHMETRICS_NOTE = (
    "smooth=False = bleusuite smooth='no_smooth'; float32 arithmetic by design, so checked "
    "to 1e-6 (its smooth=True returns 0 whenever an order has no match: not compared)"
)


def _torchmetrics_entries() -> list[Entry]:
    def sentences(inputs: Inputs) -> Callable[[], Any]:
        from torchmetrics.functional.text import bleu_score

        pairs = list(zip(inputs.hyp_lines, inputs.ref_lines, strict=True))
        return lambda: [float(bleu_score([h], [r], n_gram=4, smooth=False)) for h, r in pairs]

    def corpus(inputs: Inputs) -> Callable[[], Any]:
        from torchmetrics.text import BLEUScore

        metric = BLEUScore(n_gram=4, smooth=False)

        def epoch() -> Any:
            metric.reset()
            metric.update(inputs.hyp_lines, inputs.ref_lines)
            return float(metric.compute())

        return epoch

    task = Task("bleu", "sentence")
    corpus_task = Task("bleu", "corpus")
    return [
        Entry(task, "torchmetrics bleu_score loop", "torchmetrics", sentences, _float64,
              _expect(task, smooth="no_smooth"),
              unavailable=_missing("torch", "torchmetrics"), atol=1e-6, note=_TORCHMETRICS_NOTE),
        Entry(corpus_task, "torchmetrics BLEUScore", "torchmetrics", corpus, _float64,
              _expect(corpus_task, smooth="no_smooth"),
              unavailable=_missing("torch", "torchmetrics"), atol=1e-6, note=_TORCHMETRICS_NOTE),
    ]


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
    for name, make in (("nltk", _nltk_entries), ("sacrebleu", _sacrebleu_entries),
                       ("ignite", _ignite_entries), ("torchmetrics", _torchmetrics_entries)):
        if name in peers:
            made.extend(entry for entry in make() if entry.task in tasks)
    return made


# --------------------------------------------------------------------------- measuring


@dataclass
class Measurement:
    """What one entry gave: its best time and its score check, or why it was skipped.

    Attributes:
        entry: the implementation.
        seconds: best of the timed calls (``None`` if skipped).
        max_diff: largest ``|score - expected|`` (``None`` if skipped).
        skipped: why it did not run, or ``None``.
    """

    entry: Entry
    seconds: float | None = None
    max_diff: float | None = None
    skipped: str | None = None

    @property
    def agrees(self) -> bool:
        """The scores agree with bleusuite's (a skipped entry does not disagree)."""
        return self.max_diff is None or self.max_diff <= self.entry.atol


class _Progress:
    """A progress bar on stderr: tqdm's if it is installed, else one plain text line
    rewritten in place."""

    def __init__(self, total: int, enabled: bool, stream: TextIO | None = None) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.stream = sys.stderr if stream is None else stream
        self.bar: Any = None
        self._width = 0
        if enabled:
            try:
                from tqdm import tqdm
            except ImportError:
                return
            self.bar = tqdm(total=total, file=self.stream, leave=False, unit="call",
                            dynamic_ncols=True)

    def step(self, label: str) -> None:
        """Say that one call of ``label`` has finished."""
        self.done += 1
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.set_description_str(label, refresh=False)
            self.bar.update(1)
            return
        line = f"bleusuite bench [{self.done}/{self.total}] {label}"
        self._width = max(self._width, len(line))
        self.stream.write("\r" + line.ljust(self._width))
        self.stream.flush()

    def close(self) -> None:
        """Remove the bar."""
        if self.bar is not None:
            self.bar.close()
        elif self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()


def measure(
    chosen: Sequence[Entry], inputs: Inputs, repeat: int = 3, progress: bool = True,
    stream: TextIO | None = None,
) -> list[Measurement]:
    """Run every available entry ``repeat`` times (after its ``warmup`` calls), keep the
    best time, and compare its scores with bleusuite's. ``progress`` shows a bar on
    ``stream`` (stderr by default)."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1; got {repeat}")
    skipped = {id(entry): entry.unavailable() for entry in chosen}
    runnable = [entry for entry in chosen if skipped[id(entry)] is None]
    bar = _Progress(sum(entry.warmup + repeat for entry in runnable), progress, stream)
    results = []
    try:
        for entry in chosen:
            reason = skipped[id(entry)]
            if reason is not None:
                results.append(Measurement(entry, skipped=reason))
                continue
            call = entry.build(inputs)
            label = f"{entry.task.label}: {entry.name}"
            for _ in range(entry.warmup):
                call()
                bar.step(label)
            best = float("inf")
            result = None
            for _ in range(repeat):
                start = time.perf_counter()
                result = call()
                best = min(best, time.perf_counter() - start)
                bar.step(label)
            got, want = entry.scores(result), entry.expected(inputs)
            if got.shape != want.shape:
                diff = float("inf")
            else:
                diff = float(np.max(np.abs(got - want), initial=0.0))
            results.append(Measurement(entry, seconds=best, max_diff=diff))
    finally:
        bar.close()
    return results


# ---------------------------------------------------------------------------- reporting


#: distribution name of each library (for versions and the skipped list)
_LIBRARY_NAMES = {"nltk": "nltk", "sacrebleu": "sacrebleu", "ignite": "pytorch-ignite",
                  "torchmetrics": "torchmetrics", "bleusuite": "numpy"}


def _versions(measurements: Sequence[Measurement]) -> str:
    found = []
    for library in dict.fromkeys(m.entry.library for m in measurements if m.skipped is None):
        name = _LIBRARY_NAMES.get(library)
        if name is None:
            continue
        try:
            found.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            continue
    return ", ".join(found)


def format_table(measurements: Sequence[Measurement], inputs: Inputs, repeat: int) -> str:
    """The side-by-side table: per task, each implementation's best time in ms, its
    speedup over NLTK, and its score check; then the skipped ones, with their reasons."""
    batch, length, refs = inputs.shape
    lines = [
        f"bleusuite bench: {batch} sentences x {length} token ids, {refs} "
        f"reference{'s' if refs > 1 else ''} each; best of {repeat} "
        f"run{'s' if repeat > 1 else ''}",
        f"bleusuite {bleusuite.__version__}; {_versions(measurements)}",
    ]
    notes: dict[str, int] = {}
    for task in dict.fromkeys(m.entry.task for m in measurements):
        ran = [m for m in measurements if m.entry.task == task and m.seconds is not None]
        if not ran:
            continue
        baseline = next((m.seconds for m in ran if m.entry.baseline), None)
        lines += ["", f"{task.label:44s} {'ms':>10s} {'vs NLTK':>9s}   scores"]
        for m in sorted(ran, key=lambda m: m.seconds or 0.0):
            assert m.seconds is not None and m.max_diff is not None
            speedup = f"{baseline / m.seconds:8.1f}x" if baseline else f"{'n/a':>9s}"
            if m.entry.library == "bleusuite" and m.entry.name == _BACKEND_NAMES["numpy"]:
                check = "(the reference)"
            else:
                verdict = "agree" if m.agrees else "DISAGREE"
                check = f"{verdict}, max |diff| {m.max_diff:.1e}"
                if m.entry.library != "bleusuite":
                    text = f"{m.entry.name}: {m.entry.note}"
                    check += f" [{notes.setdefault(text, len(notes) + 1)}]"
            lines.append(f"  {m.entry.name:42s} {m.seconds * 1e3:10.2f} {speedup}   {check}")
    if notes:
        lines += ["", "Scores are compared with bleusuite (numpy) under the same definition:"]
        lines += [f"  [{number}] {text}" for text, number in notes.items()]
    skipped = [m for m in measurements if m.skipped is not None]
    if skipped:
        lines += ["", "Skipped:"]
        reasons = dict.fromkeys(
            f"{_LIBRARY_NAMES.get(m.entry.library, m.entry.library)}: {m.skipped}"
            for m in skipped
        )
        lines += [f"  {reason}" for reason in reasons]
    return "\n".join(lines)


def save_plot(measurements: Sequence[Measurement], path: str | Path, title: str = "") -> Path:
    """A bar chart of the best times (log scale), one panel per task, each bar labelled
    with its speedup over NLTK; written with matplotlib's Agg canvas (no display needed,
    no global pyplot state). The format follows the suffix of ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    tasks = list(dict.fromkeys(m.entry.task for m in measurements if m.seconds is not None))
    rows = [sum(1 for m in measurements if m.entry.task == t and m.seconds) for t in tasks]
    figure = Figure(figsize=(8, 1.0 + 0.32 * sum(rows) + 0.6 * len(tasks)))
    FigureCanvasAgg(figure)
    axes_list = figure.subplots(len(tasks), 1, squeeze=False,
                                gridspec_kw={"height_ratios": rows or [1]})[:, 0]
    for axes, task in zip(axes_list, tasks, strict=True):
        ran = sorted((m for m in measurements if m.entry.task == task and m.seconds),
                     key=lambda m: m.seconds or 0.0, reverse=True)
        baseline = next((m.seconds for m in ran if m.entry.baseline), None)
        times = [1e3 * (m.seconds or 0.0) for m in ran]
        colours = ["tab:blue" if m.entry.library == "bleusuite" else "tab:gray" for m in ran]
        axes.barh([m.entry.name for m in ran], times, color=colours)
        axes.set_xscale("log")
        axes.set_title(task.label, fontsize=10, loc="left")
        axes.tick_params(labelsize=8)
        for position, m in enumerate(ran):
            if baseline and m.seconds:
                axes.text(1e3 * m.seconds, position, f" {baseline / m.seconds:.1f}x",
                          va="center", fontsize=8)
        axes.set_xlim(min(times) / 2, max(times) * 4)
    axes_list[-1].set_xlabel("best time (ms, log scale); label: speedup over NLTK")
    if title:
        figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=100)
    return path


# -------------------------------------------------------------------------- the command


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer; got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer; got {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``bleusuite bench`` (their ``dest`` names avoid the top-level
    command's)."""
    size = parser.add_argument_group("the batch")
    size.add_argument("--batch", type=_positive, default=64, metavar="B",
                      help="sentences in the batch (default: 64)")
    size.add_argument("--length", type=_positive, default=512, metavar="L",
                      help="token ids per sentence (default: 512)")
    size.add_argument("--refs", type=_positive, default=1, metavar="R",
                      help="references per sentence (default: 1)")
    size.add_argument("--vocab", type=_positive, default=50_000, metavar="V",
                      help="ids are drawn from a Zipf law folded into V values (default: 50000)")
    size.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")
    what = parser.add_argument_group("what to run")
    what.add_argument(
        "--backend", dest="bench_backends", action="append", choices=BACKENDS, metavar="NAME",
        help="bleusuite backend to time; repeat for several (default: numpy). "
        f"One of: {', '.join(BACKENDS)} ('torch' is a CPU tensor scored through NumPy "
        "views, 'torch-kernels' the same with torch's own CPU kernels)",
    )
    what.add_argument(
        "--peer", dest="bench_peers", action="append", choices=(*PEERS, "none"),
        metavar="NAME",
        help=f"peer library; repeat for several (default: every one installed: "
        f"{', '.join(PEERS)}; 'none' for bleusuite alone)",
    )
    what.add_argument("--metric", dest="bench_metrics", action="append",
                      choices=("bleu", "gleu"), help="bleu or gleu (default: both)")
    what.add_argument("--scope", dest="bench_scopes", action="append",
                      choices=("sentence", "corpus"),
                      help="per-sentence or corpus scores (default: both)")
    what.add_argument("--repeat", type=_positive, default=3, metavar="N",
                      help="timed calls per implementation; the best is kept (default: 3)")
    output = parser.add_argument_group("output")
    output.add_argument("--plot", metavar="PATH", default=None,
                        help="also save a bar chart of the times (PNG, SVG, PDF: by suffix; "
                        "needs matplotlib)")
    output.add_argument("--no-progress", dest="bench_progress", action="store_false",
                        help="no progress bar on stderr")


def run(args: argparse.Namespace, stdout: TextIO | None = None) -> int:
    """Run ``bleusuite bench`` with parsed ``args``; print the table on ``stdout``.

    Returns:
        0 when every score agrees, 1 when one does not, 2 when nothing can be run (a
        ``--backend`` that is not available here, or ``--plot`` without matplotlib).
    """
    out = sys.stdout if stdout is None else stdout
    chosen_backends = list(dict.fromkeys(args.bench_backends or ["numpy"]))
    for backend in chosen_backends:
        reason = _BACKEND_UNAVAILABLE[backend]()
        if reason is not None:
            print(f"bleusuite bench: error: --backend {backend}: {reason}", file=sys.stderr)
            return 2
    if args.plot is not None and _missing("matplotlib")() is not None:
        print("bleusuite bench: error: --plot needs matplotlib (pip install matplotlib)",
              file=sys.stderr)
        return 2
    peers = [] if "none" in (args.bench_peers or []) else (args.bench_peers or list(PEERS))
    metrics = args.bench_metrics or ["bleu", "gleu"]
    scopes = args.bench_scopes or ["sentence", "corpus"]
    tasks = [task for task in TASKS if task.metric in metrics and task.scope in scopes]
    hyp, refs = zipf_batch(args.batch, args.length, vocab=args.vocab, refs=args.refs,
                           seed=args.seed)
    inputs = Inputs(hyp, refs)
    measurements = measure(entries(tasks, chosen_backends, peers), inputs, args.repeat,
                           progress=args.bench_progress)
    print(format_table(measurements, inputs, args.repeat), file=out)
    if args.plot is not None:
        title = (f"{args.batch} x {args.length} token ids, {args.refs} "
                 f"reference{'s' if args.refs > 1 else ''}")
        print(f"\nplot saved to {save_plot(measurements, args.plot, title)}", file=out)
    disagreeing = [m for m in measurements if not m.agrees]
    for m in disagreeing:
        print(f"bleusuite bench: {m.entry.task.label}, {m.entry.name}: scores differ from "
              f"bleusuite's by {m.max_diff:.3g} (allowed {m.entry.atol:g})", file=sys.stderr)
    return 1 if disagreeing else 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bleusuite.bench [options]``: the same as ``bleusuite bench``."""
    parser = argparse.ArgumentParser(
        prog="bleusuite bench",
        description="Time bleusuite against the BLEU/GLEU libraries installed here "
        "(NLTK, sacrebleu, pytorch-ignite, torchmetrics) on one batch of random token ids, "
        "check that the scores agree, and print a table (ms, speedup over NLTK).",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
