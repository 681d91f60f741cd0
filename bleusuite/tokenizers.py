"""sacrebleu's tokenizers, loaded without sacrebleu's package.

sacrebleu tokenises each line (``13a``, ``intl``, ``zh``, ``char``, ``none``, and
``ja-mecab`` / ``ko-mecab`` where their MeCab packages are installed) and splits the result
on whitespace. :func:`load_tokenizer` gives its tokenizer object, imported on first use, in a
:class:`Tokenizer` that also says whether it acts on each whitespace-separated word on its
own (then :mod:`bleusuite.text` tokenises each distinct word of a corpus once).

>>> tok = load_tokenizer("13a")
>>> tok.tokenize("Hello, world!"), tok.word_local
('Hello , world !', True)
"""

from __future__ import annotations

import functools
import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "TOKENIZERS",
    "Tokenizer",
    "import_without_package_init",
    "load_tokenizer",
]

#: name -> (module, class, word_local, extra). ``word_local``: the tokenizer acts on each
#: whitespace-separated word independently of its neighbours, so tokenising every distinct
#: word once gives the same tokens as tokenising every line (see :mod:`bleusuite.text`).
#: ``extra``: the pip extra of sacrebleu that the tokenizer needs, if any. sacrebleu's
#: ``spm`` / ``flores*`` tokenizers are left out: they download their model at first use.
TOKENIZERS: dict[str, tuple[str, str, bool, str | None]] = {
    "13a": ("sacrebleu.tokenizers.tokenizer_13a", "Tokenizer13a", True, None),
    "none": ("sacrebleu.tokenizers.tokenizer_none", "NoneTokenizer", True, None),
    "intl": ("sacrebleu.tokenizers.tokenizer_intl", "TokenizerV14International", False, None),
    "char": ("sacrebleu.tokenizers.tokenizer_char", "TokenizerChar", True, None),
    "zh": ("sacrebleu.tokenizers.tokenizer_zh", "TokenizerZh", False, None),
    "ja-mecab": ("sacrebleu.tokenizers.tokenizer_ja_mecab", "TokenizerJaMecab", False, "ja"),
    "ko-mecab": ("sacrebleu.tokenizers.tokenizer_ko_mecab", "TokenizerKoMecab", False, "ko"),
}

@dataclass(frozen=True)
class Tokenizer:
    """A sacrebleu tokenizer: ``tokenize(line) -> str`` whose output is split on whitespace.

    Attributes:
        name: sacrebleu's name (``tokenize=`` / ``--tokenize``).
        tokenize: the sacrebleu tokenizer object.
        signature: the tokenizer's own signature (``tok:`` in the signature line).
        word_local: whether it acts on each whitespace-separated word independently.
    """

    name: str
    tokenize: Callable[[str], str]
    signature: str
    word_local: bool


def load_tokenizer(name: str) -> Tokenizer:
    """sacrebleu's tokenizer ``name``, imported on first use (and kept).

    >>> load_tokenizer("char").tokenize("ab c")
    'a b   c'

    Raises:
        ValueError: ``name`` is not one of :data:`TOKENIZERS`.
        ImportError: sacrebleu (or the MeCab packages a tokenizer needs) is not installed;
            the message says what to install.
    """
    if not isinstance(name, str) or name not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZERS)}")
    return _load_tokenizer(name)


def import_without_package_init(module_name: str) -> Any:
    """Import ``sacrebleu.tokenizers.X`` without running ``sacrebleu/__init__.py``.

    sacrebleu's package imports its metrics, test-set catalogue, tabulate, portalocker and
    colorama: about as long as NumPy's own import, for a few hundred lines of tokenizers that
    import nothing from the package. The package is registered unexecuted while the module
    loads, then every ``sacrebleu`` entry this added to ``sys.modules`` is removed again, so
    a later ``import sacrebleu`` runs its ``__init__`` as usual. Where sacrebleu is already
    imported this is a plain import.
    """
    package = module_name.split(".")[0]
    if package in sys.modules:
        return importlib.import_module(module_name)
    from importlib import util

    spec = util.find_spec(package)
    if spec is None or spec.submodule_search_locations is None:
        raise ImportError(f"No module named {package!r}")
    before = set(sys.modules)
    sys.modules[package] = util.module_from_spec(spec)
    try:
        return importlib.import_module(module_name)
    finally:
        for added in set(sys.modules) - before:
            if added == package or added.startswith(package + "."):
                del sys.modules[added]


class _Plain13a:
    """sacrebleu's 13a tokenizer, skipping the call on text it leaves unchanged.

    13a only acts on ASCII punctuation and symbols (its rules, its entities and
    ``<skipped>``) and normalises whitespace, so a string with neither comes back as it
    is; most words of a corpus are such strings, and the check is one regex search.
    """

    _ACTS_ON = re.compile(r"[\s!-/:-@\[-`{-~]")

    def __init__(self, tokenizer: Callable[[str], str]) -> None:
        self.tokenizer = tokenizer

    def __call__(self, text: str) -> str:
        return self.tokenizer(text) if self._ACTS_ON.search(text) else text


@functools.cache
def _load_tokenizer(name: str) -> Tokenizer:
    module_name, class_name, word_local, extra = TOKENIZERS[name]
    try:
        module = import_without_package_init(module_name)
    except ImportError as error:
        raise ImportError(
            f"the {name!r} tokenizer is sacrebleu's ({error}); install it with "
            "pip install 'bleusuite[cli]'"
        ) from None
    try:
        instance = getattr(module, class_name)()
    except (ImportError, RuntimeError):  # sacrebleu's message for a missing MeCab
        raise ImportError(
            f"sacrebleu's {name!r} tokenizer needs extra packages: pip install "
            f"'sacrebleu[{extra}]'"
        ) from None
    tokenize = _Plain13a(instance) if name == "13a" else instance
    return Tokenizer(name, tokenize, str(instance.signature()), word_local)
