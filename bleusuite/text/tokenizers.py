"""sacrebleu's tokenizers: ``13a``, ``none`` and ``char`` written here, rule for rule as
sacrebleu 2 writes them (so that the default ``13a`` needs neither sacrebleu nor its import
time), ``intl``, ``zh``, ``ja-mecab`` and ``ko-mecab`` loaded from sacrebleu, ``spm``,
``flores101``, ``flores200`` and ``spBLEU-1K`` on sacrebleu's SentencePiece models
(:class:`SentencePieceTokenizer`); and rouge-score's (``rouge``), for ROUGE; each a
:class:`Tokenizer`, which also says whether it acts on each word alone.

>>> tok = load_tokenizer("13a")
>>> tok.tokenize("Hello, world!"), tok.word_local
('Hello , world !', True)
"""

from __future__ import annotations

import functools
import importlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = [
    "CHRF_CHARACTERS",
    "CHRF_CHARACTERS_WHITESPACE",
    "CHRF_WORDS",
    "PUNCTUATION",
    "ROUGE_STEMMED",
    "SACREBLEU_TOKENIZERS",
    "SPM_MODELS",
    "TOKENIZERS",
    "TOKENIZER_OF_LANGUAGE",
    "SentencePieceTokenizer",
    "Tokenizer",
    "Tokenizer13a",
    "TokenizerRouge",
    "check_tokenizer_name",
    "load_tokenizer",
    "split_punctuation",
    "spm_model_path",
]


class Tokenizer13a:
    """sacrebleu's ``13a`` tokenizer (mteval-v13a, the WMT standard), rule for rule.

    >>> Tokenizer13a()("It costs $3.50, or &quot;less&quot;.")
    'It costs $ 3.50 , or " less " .'
    """

    #: sacrebleu's ``TokenizerRegexp`` rules, in its order
    RULES = (
        # symbols and punctuation (assuming Western languages)
        (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
        # period and comma unless preceded by a digit
        (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
        # period and comma unless followed by a digit
        (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
        # dash when preceded by a digit
        (re.compile(r"([0-9])(-)"), r"\1 \2 "),
    )
    #: a string without any of these comes back unchanged but for its whitespace: the rules
    #: and the entities act only on ASCII punctuation and symbols
    ACTS_ON = re.compile(r"[!-/:-@\[-`{-~]")

    def __call__(self, line: str) -> str:
        if not self.ACTS_ON.search(line):
            return " ".join(line.replace("\n", " ").split())
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&")
            line = line.replace("&lt;", "<").replace("&gt;", ">")
        line = f" {line} "
        for rule, replacement in self.RULES:
            line = rule.sub(replacement, line)
        return " ".join(line.split())


class TokenizerRouge:
    """rouge-score's tokenizer (its ``tokenize.tokenize``): the line lowercased, every run of
    characters other than ``[a-z0-9]`` a separator; with ``stem``, its Porter stemmer too
    (:mod:`bleusuite.text.stemming`).

    >>> TokenizerRouge()("The U.S. economy's 3.5% growth!")
    'the u s economy s 3 5 growth'
    >>> TokenizerRouge(stem=True)("Relational databases")
    'relat databas'
    """

    NON_ALPHANUMERIC = re.compile(r"[^a-z0-9]+")

    def __init__(self, stem: bool = False) -> None:
        self.stem = stem

    def __call__(self, line: str) -> str:
        tokens = self.NON_ALPHANUMERIC.sub(" ", line.lower()).split()
        if self.stem:
            from bleusuite.text.stemming import MIN_STEMMED_LENGTH, porter_stems

            long = [k for k, token in enumerate(tokens) if len(token) >= MIN_STEMMED_LENGTH]
            for k, stem in zip(long, porter_stems([tokens[k] for k in long]), strict=True):
                tokens[k] = stem
        return " ".join(tokens)


def _char(line: str) -> str:
    """sacrebleu's ``char`` tokenizer: every character, separated by spaces."""
    return " ".join(line)


def split_punctuation(line: str) -> list[str]:
    """sacrebleu's ``CHRF._remove_punctuation``: the words of chrF++ (one punctuation
    character split off the end, or else the start, of each word of two or more characters).

    >>> split_punctuation("Hello, (world) a!")
    ['Hello', ',', '(world', ')', 'a', '!']
    """
    words = []
    for word in line.split():
        if len(word) == 1:
            words.append(word)
        elif word[-1] in PUNCTUATION:
            words += [word[:-1], word[-1]]
        elif word[0] in PUNCTUATION:
            words += [word[0], word[1:]]
        else:
            words.append(word)
    return words


#: the characters sacrebleu splits off the words of chrF++ (Python's string.punctuation)
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def _with_whitespace(line: str) -> str:
    """Every character a token, whitespace too (as ``\\x00`` and its code: no character)."""
    return " ".join(f"\x00{ord(c):x}" if c.isspace() else c for c in line)


#: sacrebleu's SentencePiece tokenizers: name -> (the model's file in sacrebleu's model
#: folder, the tokenizer's signature). ``spm`` is sacrebleu's old name of ``flores101``.
SPM_MODELS = {
    "spm": ("sacrebleu_tokenizer_spm.model", "flores101"),
    "flores101": ("sacrebleu_tokenizer_spm.model", "flores101"),
    "flores200": ("flores200sacrebleuspm", "flores200"),
    "spBLEU-1K": ("spbleu-1k_tokenizer_spm.model", "spBLEU-1K"),
}
#: name -> (a factory here, or ``"module:Class"`` of sacrebleu; whether it acts on each
#: word alone, so that each distinct word may be tokenised once; the pip extra it needs)
TOKENIZERS: dict[str, tuple[Callable[[], Callable[[str], str]] | str, bool, str | None]] = {
    "13a": (Tokenizer13a, True, None),
    "none": (lambda: str, True, None),  # str(line) is the line as it is
    "char": (lambda: _char, True, None),
    "intl": ("sacrebleu.tokenizers.tokenizer_intl:TokenizerV14International", False, None),
    "zh": ("sacrebleu.tokenizers.tokenizer_zh:TokenizerZh", False, None),
    "ja-mecab": ("sacrebleu.tokenizers.tokenizer_ja_mecab:TokenizerJaMecab", False, "ja"),
    "ko-mecab": ("sacrebleu.tokenizers.tokenizer_ko_mecab:TokenizerKoMecab", False, "ko"),
    "rouge": (TokenizerRouge, True, None),
    **dict.fromkeys(SPM_MODELS, ("sentencepiece", False, "spm")),
}
#: sacrebleu's own tokenizers (the command's ``--tokenize`` choices)
SACREBLEU_TOKENIZERS = tuple(name for name in TOKENIZERS if name != "rouge")

#: sacrebleu's BLEU tokenizer for a target language (``trg_lang``, the command's ``-l``)
#: where none is named; ``13a`` for the others
TOKENIZER_OF_LANGUAGE = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def spm_model_path(name: str) -> str:
    """Where sacrebleu keeps the model of the SentencePiece tokenizer ``name``
    (``$SACREBLEU/models``, else ``~/.sacrebleu/models``).

    >>> os.path.basename(spm_model_path("flores200"))
    'flores200sacrebleuspm'
    """
    folder = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
    return os.path.join(folder, "models", SPM_MODELS[name][0])


class SentencePieceTokenizer:
    """sacrebleu's ``TokenizerSPM``: the pieces of a line of a SentencePiece model, joined
    by spaces; each distinct line once (the last 2**16 kept, as sacrebleu's cache).

    Raises:
        ImportError: ``sentencepiece`` is not installed.
        FileNotFoundError: no model at ``path``.
    """

    def __init__(self, path: str, name: str = "spm") -> None:
        try:
            import sentencepiece
        except ImportError:
            raise ImportError(
                f"the {name!r} tokenizer needs the sentencepiece package: pip install "
                "'bleusuite[spm]' (or pip install sentencepiece)") from None
        if not os.path.isfile(path):
            folder, file = os.path.split(path)
            raise FileNotFoundError(
                f"the {name!r} tokenizer needs sacrebleu's SentencePiece model {file!r} in "
                f"{folder} (the folder $SACREBLEU/models, else ~/.sacrebleu/models): place the "
                f"file there, or run sacrebleu once with -tok {name} to download it")
        self.path = path
        self.processor: Any = sentencepiece.SentencePieceProcessor()
        self.processor.Load(path)
        self._encoded = functools.lru_cache(maxsize=1 << 16)(
            lambda line: " ".join(self.processor.EncodeAsPieces(line)))

    def __call__(self, line: str) -> str:
        result: str = self._encoded(line)
        return result


@dataclass(frozen=True)
class Tokenizer:
    """A tokenizer: ``tokenize(line) -> str`` whose output is split on whitespace.

    Attributes:
        name: its name (``tokenize=`` / ``--tokenize``): sacrebleu's, or ``rouge``.
        tokenize: the tokenizer.
        signature: the tokenizer's own signature (``tok:`` in the signature line).
        word_local: whether it acts on each whitespace-separated word independently.
        splits_only: whether it leaves the text as it is (``none``: only the split counts).
        rules: the compiled part's own copy of its rules (``"13a"``, ...), if any.
        rstrip: whether a line loses its trailing whitespace before it is tokenised.
        newline_is_space: whether a newline separates words as a space does (rouge-score's;
            13a joins the words around a line end).
        whole_line: the lines a word-local tokenizer must see whole (tercom's possessives).
    """

    name: str
    tokenize: Callable[[str], str]
    signature: str
    word_local: bool
    splits_only: bool = False
    rules: str | None = None
    rstrip: bool = True
    newline_is_space: bool = False
    whole_line: Callable[[str], Any] | None = None


#: rouge-score's tokenizer with its Porter stemmer (``use_stemmer=True``)
ROUGE_STEMMED = Tokenizer("rouge", TokenizerRouge(stem=True), "rouge", word_local=True,
                          rules="rouge-porter", newline_is_space=True)
#: chrF's characters (sacrebleu's ``char`` on each word: the line without its whitespace)
CHRF_CHARACTERS = Tokenizer("chrf-char", _char, "char", word_local=True, rules="char")
#: chrF's characters with whitespace (``whitespace=True``), nothing stripped
CHRF_CHARACTERS_WHITESPACE = Tokenizer("chrf-char-space", _with_whitespace, "char",
                                       word_local=False, rstrip=False)
#: chrF++'s words
CHRF_WORDS = Tokenizer("chrf-word", lambda line: " ".join(split_punctuation(line)), "word",
                       word_local=True, rules="punctuation")


def load_tokenizer(name: str) -> Tokenizer:
    """The tokenizer ``name``, sacrebleu's or ``rouge`` (made once, and kept).

    >>> load_tokenizer("char").tokenize("ab c")
    'a b   c'

    A SentencePiece tokenizer reads the model sacrebleu has downloaded
    (:func:`spm_model_path`); bleusuite downloads nothing.

    Raises:
        ValueError: ``name`` is not one of :data:`TOKENIZERS`.
        ImportError: sacrebleu (or the MeCab packages, or sentencepiece, that a tokenizer
            needs) is not installed; the message says what to install.
        FileNotFoundError: a SentencePiece tokenizer's model is not in sacrebleu's folder;
            the message says which file to place where.
    """
    check_tokenizer_name(name)
    if name in SPM_MODELS:
        return _load_sentencepiece(name, spm_model_path(name))
    return _load_tokenizer(name)


def check_tokenizer_name(name: object) -> None:
    """Refuse a ``name`` that is not one of :data:`TOKENIZERS`.

    >>> check_tokenizer_name("13a")
    >>> check_tokenizer_name("14a")
    Traceback (most recent call last):
    ...
    ValueError: unknown tokenizer '14a'; choose one of 13a, none, char, intl, ...
    """
    if not isinstance(name, str) or name not in TOKENIZERS:
        raise ValueError(f"unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZERS)}")


@functools.cache
def _load_sentencepiece(name: str, path: str) -> Tokenizer:
    """The SentencePiece tokenizer ``name`` on the model at ``path`` (kept per path)."""
    return Tokenizer(name, SentencePieceTokenizer(path, name), SPM_MODELS[name][1],
                     word_local=False)


@functools.cache
def _load_tokenizer(name: str) -> Tokenizer:
    source, word_local, extra = TOKENIZERS[name]
    if not isinstance(source, str):
        return Tokenizer(name, source(), name, word_local, splits_only=name == "none",
                         rules=name if name in ("13a", "char", "rouge") else None,
                         newline_is_space=name == "rouge")
    module_name, class_name = source.split(":")
    try:
        module = importlib.import_module(module_name)
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
    return Tokenizer(name, instance, str(instance.signature()), word_local)
