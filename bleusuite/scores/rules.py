"""The rules BLEU and GLEU share between exact counts and soft (differentiable) counts,
written once against a :class:`~bleusuite.backends.base.Backend`: reference lengths, the
brevity penalty, GLEU's best reference. Callers look them up on this module
(``rules.brevity_penalty(...)``), so a test's monkeypatch here changes every front end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bleusuite.backends.base import Backend

__all__ = ["REF_LENGTHS", "best_reference", "brevity_penalty", "check_ref_length",
           "chosen_ref_len", "closest_ref_len", "log_brevity_penalty"]

#: the reference-length rules of BLEU's brevity penalty, and whose each is
REF_LENGTHS: dict[str, str] = {
    "closest": "the closest reference length, the shorter one on ties (NLTK, pytorch-ignite, "
               "sacrebleu)",
    "closest_first": "the closest reference length, the first reference listed on ties "
                     "(torchmetrics)",
    "shortest": "the shortest reference length (the tensorflow/nmt script, evaluate's bleu)",
}


def closest_ref_len(
    be: Backend, hyp_len: Any, ref_len: Any, present: Any = None, *, far: float,
    first: bool = False,
) -> Any:
    """The reference length closest to each hypothesis length; ties go to the shorter one
    (``first``: to the first one listed).

    Args:
        be: the backend of the arrays.
        hyp_len: ``(B,)`` hypothesis lengths (integer counts, or soft float lengths).
        ref_len: ``(B, R)`` reference lengths, of the same kind.
        present: ``(B, R)`` booleans, False for an absent reference (it is never the
            closest); None when every reference is present.
        far: a value above every distance and every length, of the arrays' kind
            (``1 << 62`` for int64, the longest row + 1 for int32, ``inf`` for floats).

    Returns:
        ``(B,)`` lengths (``far`` for a sentence without a present reference).

    >>> import numpy as np
    >>> from bleusuite import backends
    >>> be = backends.get_backend(np.zeros(1))
    >>> closest_ref_len(be, np.array([4, 4]), np.array([[3, 5], [2, 9]]), far=100).tolist()
    [3, 2]
    """
    distance = be.abs_(ref_len - hyp_len[:, None])
    if present is not None:
        distance = be.where(present, distance, far)
    closest = distance == be.min_(distance, axis=1)[:, None]
    if present is not None:
        closest = present & closest
    if first:  # position of the first closest reference; R (none) without a reference
        position = be.first_true(closest, axis=1)
        closest = be.arange(int(ref_len.shape[1]), like=position)[None, :] == position[:, None]
    return be.min_(be.where(closest, ref_len, far), axis=1)


def check_ref_length(ref_length: Any, argname: str = "ref_length") -> str:
    """``ref_length`` if it names a rule of :data:`REF_LENGTHS`.

    >>> check_ref_length("shortest")
    'shortest'
    >>> check_ref_length("first")
    Traceback (most recent call last):
    ...
    ValueError: ref_length must be one of 'closest', 'closest_first', 'shortest'; got 'first'
    """
    if not isinstance(ref_length, str):
        raise TypeError(f"{argname} must be a str (one of {', '.join(map(repr, REF_LENGTHS))}); "
                        f"got {ref_length!r}")
    if ref_length not in REF_LENGTHS:
        raise ValueError(f"{argname} must be one of {', '.join(map(repr, REF_LENGTHS))}; got "
                         f"{ref_length!r}")
    return ref_length


def chosen_ref_len(be: Backend, hyp_len: Any, ref_len: Any, present: Any = None, *,
                   far: float, ref_length: str = "closest") -> Any:
    """The reference length of each sentence by the rule ``ref_length`` (checked by
    :func:`check_ref_length`); the arguments are those of :func:`closest_ref_len`.

    Element-wise and fixed-shape (no host read: it runs inside a CUDA graph or ``jax.jit``).

    >>> import numpy as np
    >>> from bleusuite import backends
    >>> be = backends.get_backend(np.zeros(1))
    >>> refs = np.array([[5, 3], [9, 2]])
    >>> [chosen_ref_len(be, np.array([4, 4]), refs, far=100, ref_length=rule).tolist()
    ...  for rule in REF_LENGTHS]
    [[3, 2], [5, 2], [3, 2]]
    """
    if ref_length == "closest":  # called so (a test replaces the rule with its signature)
        return closest_ref_len(be, hyp_len, ref_len, present, far=far)
    if ref_length == "shortest":
        if present is not None:
            ref_len = be.where(present, ref_len, far)
        return be.min_(ref_len, axis=1)
    return closest_ref_len(be, hyp_len, ref_len, present, far=far, first=True)


def log_brevity_penalty(be: Backend, hyp_len: Any, ref_len: Any) -> Any:
    """The logarithm of BLEU's brevity penalty for float lengths ``c > 0``: ``min(0, 1 - r/c)``.

    ``c = 0`` is the caller's case (:func:`brevity_penalty`). Written as ``-max(r/c - 1, 0)``,
    whose gradient (a clamp, on torch) is ``1 - r/c``'s wherever ``c <= r``.

    >>> import numpy as np
    >>> from bleusuite import backends
    >>> be = backends.get_backend(np.zeros(1))
    >>> (-log_brevity_penalty(be, np.array([2.0, 4.0, 8.0]), np.array([4.0, 4.0, 4.0]))).tolist()
    [1.0, 0.0, 0.0]
    """
    return -be.maximum(ref_len / hyp_len - 1.0, 0.0)


def brevity_penalty(be: Backend, hyp_len: Any, ref_len: Any,
                    exp: Callable[[Any], Any] | None = None) -> Any:
    """BLEU's brevity penalty, element-wise: 1 if c >= r (so 1 when both are 0, as in
    sacrebleu and NLTK), 0 if c == 0 < r, else exp(1 - r/c).

    ``exp``: the exponential (default the backend's; sacrebleu's exact arithmetic passes
    ``math.exp`` mapped over the array).

    >>> import numpy as np
    >>> from bleusuite import backends
    >>> be = backends.get_backend(np.zeros(1))
    >>> brevity_penalty(be, np.array([0, 0, 2, 4]), np.array([0, 3, 4, 4])).round(4).tolist()
    [1.0, 0.0, 0.3679, 1.0]
    """
    shorter = (hyp_len < ref_len) & (hyp_len > 0)
    c = be.where(shorter, be.to_float64(hyp_len), 1.0)
    penalty = (exp or be.exp)(log_brevity_penalty(be, c, be.to_float64(ref_len)))
    return be.where(hyp_len >= ref_len, 1.0, be.where(shorter, penalty, 0.0))


def best_reference(be: Backend, true_positives: Any, n_all: Any, usable: Any,
                   floor: float = 1.0) -> Any:
    """GLEU's choice of reference: the index ``(B, 1)`` of the reference with the highest
    ``tp / n_all`` among the usable ones, the first one on ties (NLTK: Python's ``max``),
    0 when none is usable (the caller scores such a sentence 0).

    Args:
        be: the backend of the arrays.
        true_positives: ``(B, R)`` n-grams shared with each reference (float).
        n_all: ``(B, R)`` ``max(hypothesis n-grams, reference n-grams)`` (float).
        usable: ``(B, R)`` booleans: the reference is present and ``n_all > 0``.
        floor: ``n_all`` is read as at least ``floor`` in the division (1 for counts; the
            dtype's eps for soft counts), so no division by 0 is ever evaluated.

    >>> import numpy as np
    >>> from bleusuite import backends
    >>> be = backends.get_backend(np.zeros(1))
    >>> tp, n_all = np.array([[1.0, 2.0, 2.0]]), np.array([[4.0, 4.0, 4.0]])
    >>> best_reference(be, tp, n_all, np.array([[True, True, True]])).tolist()
    [[1]]
    """
    ratio = true_positives / be.maximum(n_all, floor)
    return be.argmax(be.where(usable, ratio, -1.0), axis=1)[:, None]
