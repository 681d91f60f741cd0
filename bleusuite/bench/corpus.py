"""Generated parallel text for the command's tests and benchmarks: Zipf-distributed words
with punctuation, numbers, entities, mixed case, CJK and odd whitespace, written as files.

>>> hyp, refs = make_corpus(5, 2, seed=1)
>>> len(hyp), len(refs), all(len(stream) == 5 for stream in refs)
(5, 2, True)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

__all__ = ["SPECIAL_WORDS", "make_corpus", "write_corpus"]

# Words the tokenizers treat differently: punctuation next to letters or digits, numbers with
# separators, HTML entities (13a), Unicode punctuation and symbols (intl), CJK (zh), case
# pairs (--lowercase), final sigma, a dotted capital I whose lowercase has two characters.
SPECIAL_WORDS = [
    "Hello,", "world.", "U.S.", "3.14", "1,000", "10-20", "e-mail", "&amp;", "&quot;hi&quot;",
    "&lt;tag&gt;", "<skipped>", "don't", "(paren)", "[x]", "{y}", "x:y", "a/b", "C++", "$5",
    "50%", "end...", ",lead", ".5", "5.", "-", "--", "naïve", "Straße", "ΟΔΟΣ", "İstanbul",
    "東京", "中文。", "我们的", "«quote»", "—", "¿qué?", "＄", "™", "The", "THE", "the", "A", "a",
]


def _vocabulary(rng: np.random.Generator, size: int) -> np.ndarray:
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    words = {"".join(rng.choice(letters, size=int(rng.integers(1, 9)))) for _ in range(size)}
    plain = sorted(words)
    capitalised = [w.capitalize() for w in plain[: len(plain) // 8]]
    return np.array(SPECIAL_WORDS + plain + capitalised, dtype=object)


def _lines(rng: np.random.Generator, words: np.ndarray, lengths: np.ndarray) -> list[str]:
    """Join words into lines; a few lines get a tab, double spaces, trailing space or CR."""
    ends = np.cumsum(lengths)
    lines = [" ".join(words[end - n : end]) for n, end in zip(lengths, ends, strict=True)]
    odd = rng.random(len(lines))
    for i in np.flatnonzero(odd < 0.03):
        lines[i] = lines[i].replace(" ", "\t", 1)
    for i in np.flatnonzero((odd >= 0.03) & (odd < 0.06)):
        lines[i] = lines[i].replace(" ", "  \u00a0", 1) + " "
    for i in np.flatnonzero((odd >= 0.06) & (odd < 0.08)):
        lines[i] += "\r"
    return lines


def make_corpus(
    n_lines: int, n_refs: int, seed: int = 0, vocab_size: int = 3000
) -> tuple[list[str], list[list[str]]]:
    """Generated parallel text: hypothesis lines and ``n_refs`` reference streams.

    Each stream perturbs the same base sentences (Zipf-distributed words): 15% of the words
    dropped, 10% replaced. About 1% of the base sentences are empty.
    """
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng, vocab_size)
    weights = 1.0 / np.arange(1, len(vocab) + 1)
    weights = weights[rng.permutation(len(vocab))]
    weights /= weights.sum()
    lengths = rng.integers(1, 40, size=n_lines)
    lengths[rng.random(n_lines) < 0.01] = 0
    base = rng.choice(len(vocab), size=int(lengths.sum()), p=weights)
    line_of_word = np.repeat(np.arange(n_lines), lengths)

    def perturb() -> list[str]:
        keep = rng.random(base.size) >= 0.15
        ids = np.where(rng.random(base.size) < 0.10, rng.choice(len(vocab), size=base.size), base)
        kept_lengths = np.bincount(line_of_word[keep], minlength=n_lines)
        return _lines(rng, vocab[ids[keep]], kept_lengths)

    hypotheses = perturb()
    return hypotheses, [perturb() for _ in range(n_refs)]


def write_corpus(folder: Path, hyp: list[str], refs: list[list[str]]) -> tuple[str, list[str]]:
    """Write the texts (UTF-8, ``\\n`` line ends) and return the file paths."""
    folder.mkdir(parents=True, exist_ok=True)

    def write(name: str, lines: list[str]) -> str:
        path = folder / name
        path.write_bytes("".join(line + "\n" for line in lines).encode("utf-8"))
        return str(path)

    return write("hyp.txt", hyp), [write(f"ref{i}.txt", r) for i, r in enumerate(refs)]
