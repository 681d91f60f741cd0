"""The text preprocessing of EED (torchmetrics' ``ExtendedEditDistance``, after the
authors' ``util.py``), by language:

* ``"en"``: trailing whitespace removed; a space put before each ``.``, ``!``, ``?`` and
  ``,``; runs of whitespace made one space; then ``digit . digit`` and ``digit , digit``
  joined again, ``Mr`` (or Dr, Jr, Prof, Rev, Gen, Mt, Mrs, Ms), a space and any character
  made ``Mr.``, and ``e . g .``, ``i . e .`` and ``U . S .`` joined again; a space added at
  both ends.
* ``"ja"``: trailing whitespace removed; NFKC normalisation (characters that look the same
  are the same).

The rules are the reference's, quirks included (the numbers depend on them): they are
written for tokenised text, so ``3.5`` becomes ``3 .5`` and ``e.g.`` ``e .g .``, and the
pattern's ``.`` is any character, so ``Mr Jones`` becomes ``Mr.ones``.

>>> preprocess("Hello, world.  It is 3 . 5 m.", "en")
' Hello , world . It is 3.5 m . '
>>> preprocess("Mr Jones, e.g. 3.5", "en")
' Mr.ones , e .g . 3 .5 '
>>> preprocess("ｶﾀｶﾅ ", "ja")
'カタカナ'

:func:`preprocess_all` takes many sentences at once, the English rules run over them joined
by a character that no rule's match can hold (the same texts, in half the time).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from typing import Literal

__all__ = ["LANGUAGES", "preprocess", "preprocess_all"]

LANGUAGES = ("en", "ja")

_SPACED_PUNCTUATION = (".", "!", "?", ",")
_REWRITES = (
    (re.compile(r"(\d) ([.,]) (\d)"), r"\1\2\3"),
    (re.compile(r"(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) ."), r"\1."),
)
_ABBREVIATIONS = (("e . g .", "e.g."), ("i . e .", "i.e."), ("U . S .", "U.S."))
#: joins sentences for the English rules: not whitespace, in no rule; the Mr rule's "any
#: character" could be it only after a space that ends a sentence, and none does (rstrip)
_SEPARATOR = "\x00"


def preprocess(sentence: str, language: Literal["en", "ja"]) -> str:
    """``sentence`` as EED scores it in ``language`` (see the module docstring).

    Raises:
        ValueError: ``sentence`` is not a str (torchmetrics' check and type).
    """
    if not isinstance(sentence, str):
        raise ValueError(
            f"Only strings allowed during preprocessing step, found {type(sentence)} instead")
    sentence = sentence.rstrip()
    if language == "ja":
        return unicodedata.normalize("NFKC", sentence)
    return f" {_english_rules(sentence)} "


def preprocess_all(sentences: Sequence[str], language: Literal["en", "ja"]) -> list[str]:
    """``[preprocess(sentence, language) for sentence in sentences]``.

    >>> preprocess_all(["a, b", "Mr", "", "x. "], "en")
    [' a , b ', ' Mr ', '  ', ' x . ']

    Raises:
        ValueError: a sentence that is not a str.
    """
    if language == "en" and all(isinstance(sentence, str) for sentence in sentences):
        joined = _SEPARATOR.join(sentence.rstrip() for sentence in sentences)
        if joined.count(_SEPARATOR) == len(sentences) - 1:  # no sentence holds it
            return [f" {sentence} " for sentence in _english_rules(joined).split(_SEPARATOR)]
    return [preprocess(sentence, language) for sentence in sentences]


def _english_rules(text: str) -> str:
    """The English rules but the stripping and the spaces at both ends."""
    for mark in _SPACED_PUNCTUATION:
        text = text.replace(mark, " " + mark)
    text = _one_space(text)
    for pattern, replacement in _REWRITES:
        text = pattern.sub(replacement, text)
    for spaced, joined in _ABBREVIATIONS:
        text = text.replace(spaced, joined)
    return text


def _one_space(text: str) -> str:
    """``re.sub(r"\\s+", " ", text)`` (``\\s`` is ``str.isspace``, every code point checked),
    by ``str.split``: twice as fast."""
    words = " ".join(text.split())
    if not words:
        return " " if text else ""
    return (" " if text[0].isspace() else "") + words + (" " if text[-1].isspace() else "")
