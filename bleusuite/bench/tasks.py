"""What ``bleusuite bench`` and the benchmarks time: the tasks, the random batch in every
form the libraries take (:class:`Inputs`), bleusuite's expected scores, and :class:`Entry`,
one implementation of one task."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

import bleusuite

__all__ = ["BACKENDS", "EXACT", "NLTK_SETTINGS", "PEERS", "TASKS", "Entry", "Inputs", "Task",
           "score", "zipf_batch"]

#: bleusuite backends the command can time (``--backend``)
BACKENDS: tuple[str, ...] = ("numpy", "torch", "torch-kernels", "torch-cuda", "cupy", "jax")
#: peer libraries, in the order they are listed (``--peer``)
PEERS: tuple[str, ...] = ("nltk", "sacrebleu", "ignite", "torchmetrics")
#: tolerance of the score checks where the two definitions are the same
EXACT = 1e-12


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
    """Token ids drawn independently from a Zipf law (exponent 1.2) folded into ``vocab``,
    no padding: hypotheses (B, L) and references (B, R, L), int64, the command's batch.

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


def as_float64(result: Any) -> np.ndarray:
    return np.atleast_1d(np.asarray(result, dtype=np.float64))


def expect(task: Task, reduce: str | None = None, **settings: Any) -> Callable[[Inputs], Any]:
    """``expected`` for an entry: bleusuite's scores for ``task`` with ``settings``."""
    return lambda inputs: inputs.expected(task, reduce, **settings)


def missing(*modules: str) -> Callable[[], str | None]:
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
