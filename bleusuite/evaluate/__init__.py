"""evaluate modules shipped with bleusuite: ``sacrebleu``, ``bleu``, ``google_bleu``,
``chrf``, ``ter``, ``rouge``, ``wer`` and ``cer`` with the inputs, keys, scales and numbers
of evaluate's own modules of those names, loaded from the package (no hub, no network):
``evaluate.load(bleusuite.evaluate.module_path(name))``. Each module is a directory here
with its script (``bleu/bleu.py``, ...), whose docstring says what it computes; the scripts
need ``evaluate`` (``pip install "bleusuite[evaluate]"``), this package does not.

>>> import os
>>> path = module_path("bleu")
>>> os.path.basename(path), os.path.isfile(os.path.join(path, "bleu.py"))
('bleu', True)
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["MODULES", "as_evaluate_13a", "features", "module_path", "per_prediction",
           "reference_streams", "string_features", "tokenized"]

#: the modules shipped, by evaluate's names
MODULES = ("sacrebleu", "bleu", "google_bleu", "chrf", "ter", "rouge", "wer", "cer")


def module_path(name: str) -> str:
    """The directory of the module ``name`` (one of :data:`MODULES`), for ``evaluate.load``.

    Raises:
        ValueError: ``name`` is not one of :data:`MODULES`.
    """
    if name not in MODULES:
        raise ValueError(f"name must be one of {', '.join(MODULES)}; got {name!r}")
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), name)


def features() -> list[Any]:
    """evaluate's input features of its BLEU and ROUGE modules: a prediction string with a
    list of reference strings, or with one reference string (needs ``datasets``)."""
    import datasets

    return [
        datasets.Features({
            "predictions": datasets.Value("string", id="sequence"),
            "references": datasets.Sequence(datasets.Value("string", id="sequence"),
                                            id="references"),
        }),
        string_features(),
    ]


def string_features() -> Any:
    """evaluate's input features of its ``wer`` and ``cer`` modules: a prediction string
    with one reference string (needs ``datasets``)."""
    import datasets

    return datasets.Features({
        "predictions": datasets.Value("string", id="sequence"),
        "references": datasets.Value("string", id="sequence"),
    })


def per_prediction(references: list[Any]) -> list[list[str]]:
    """evaluate's references as lists (one string per prediction becomes a list of one),
    as its modules read them (``isinstance(references[0], str)``).

    >>> per_prediction(["a", "b"]), per_prediction([["a", "c"], ["b"]])
    ([['a'], ['b']], [['a', 'c'], ['b']])
    """
    if references and isinstance(references[0], str):
        return [[reference] for reference in references]
    return [list(refs) for refs in references]


def reference_streams(references: list[Any], message: str) -> list[list[str | None]]:
    """evaluate's references as sacrebleu's reference streams (the first reference of every
    prediction, then the second, ...), as its ``sacrebleu``, ``chrf`` and ``ter`` modules
    pass them; ``message`` is the error where the predictions have different numbers of
    references.

    >>> reference_streams([["a", "c"], ["b", "d"]], "same number"), reference_streams(["a"], "")
    ([['a', 'b'], ['c', 'd']], [['a']])
    """
    rows = per_prediction(references)
    width = len(rows[0]) if rows else 0
    if any(len(refs) != width for refs in rows):
        raise ValueError(message)
    return [[refs[i] for refs in rows] for i in range(width)]


def tokenized(predictions: Sequence[str], references: list[Any],
              tokenizer: Callable[[str], Any] | None) -> tuple[list[Any], list[list[Any]],
                                                              str | None]:
    """The predictions, the references per prediction and bleusuite's ``tokenize`` as
    evaluate's ``bleu`` and ``google_bleu`` read them: where ``tokenizer`` is None, the
    strings for 13a (:func:`as_evaluate_13a`) and ``"13a"``; else the tokens ``tokenizer``
    gives and None.

    >>> tokenized(["a b-\\n"], ["a b"], None)
    (['a b'], [['a b']], '13a')
    >>> tokenized(["a b"], [["a", "b c"]], str.split)
    ([['a', 'b']], [[['a'], ['b', 'c']]], None)
    """
    rows = per_prediction(references)
    if tokenizer is None:
        return ([as_evaluate_13a(p) for p in predictions],
                [[as_evaluate_13a(r) for r in refs] for refs in rows], "13a")
    return ([tokenizer(p) for p in predictions], [[tokenizer(r) for r in refs] for refs in rows],
            None)


def as_evaluate_13a(line: str) -> str:
    """``line`` written so that bleusuite's 13a (which, as sacrebleu's BLEU, first strips the
    end of each line) gives the tokens that evaluate's ``Tokenizer13a`` gives of the raw
    string, as its ``bleu`` and ``google_bleu`` modules call it.

    The two differ only where the end of the line holds a line break: evaluate's 13a joins
    ``"-\\n"`` away and reads ``"\\n"`` as a space before anything is stripped. So a line
    with a ``"\\n"`` gets those rules here (``"<skipped>"`` removed, ``"-\\n"`` joined,
    ``"\\n"`` a space), and a ``"<skipped>"`` that they leave (``"<skip<skipped>ped>"``) is
    written as 13a splits it (``"< skipped >"``), so that it is not removed a second time.
    Any other line is the same to both.

    >>> as_evaluate_13a("the cat sat on the mat .-\\n"), as_evaluate_13a("a <skipped>b")
    ('the cat sat on the mat .', 'a <skipped>b')
    """
    if "\n" not in line:
        return line
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    return line.replace("<skipped>", "< skipped >")
