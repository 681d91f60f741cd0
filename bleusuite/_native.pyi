"""Types of bleusuite's compiled part (``bleusuite/csrc/``; see ``bleusuite.native``)."""

from collections.abc import Callable, Sequence
from typing import Any, Literal, SupportsIndex

class Numbering:
    """Numbers the tokens of lines by first appearance; ``tokenize`` (str -> str, split on
    whitespace), or the built-in ``rules="13a"`` (sacrebleu's 13a, applied without the GIL),
    is applied once per distinct word (or whole line holding a newline)."""

    def __init__(
        self, tokenize: Callable[[str], str] | None = None, *,
        rules: Literal["13a", "char", "punctuation"] | None = None,
    ) -> None: ...
    def number(self, lines: list[str], /) -> tuple[bytes, bytes]:
        """(ids, counts) as native int64 bytes: every token's id, line after line, and the
        number of tokens of each line."""
    @property
    def tokens(self) -> list[str]:
        """The token of each id (a new list)."""
    def __len__(self) -> int: ...

def count_matches(
    hyp_ids: Any, hyp_starts: Any, hyp_lengths: Any, ref_ids: Any, ref_starts: Any,
    ref_lengths: Any, clipped: Any, per_reference: Any | None, begin: SupportsIndex,
    end: SupportsIndex, prefix: Any | None = None, /,
) -> None:
    """Clipped n-gram matches of rows begin..end-1 into ``clipped`` (B, N),
    ``per_reference`` (B, R, N) or None, and those of every prefix into ``prefix``
    (B, W, N) or None (int64 buffers; see the C docstring)."""

def gather(
    hypotheses: Any, references: Any, numbering: Numbering | None, text: bool, pad: Any,
    eos: Any, transform: Callable[[str], str] | None, by_row: bool, /,
) -> tuple[bytes, bytearray, bytearray, int, int] | None:
    """The token lists or text of a scoring call as flat int64 ids in rows: ``(ids, layout,
    present, R, missing)`` (see ``bleusuite/csrc/gather.c``), or None where the input is not
    of the forms it takes."""

def libm_map(function: str, values: Any, out: Any, /) -> int:
    """``out[i] = log(values[i])`` or ``exp(values[i])`` (``function`` "log" or "exp"), the C
    library's functions that ``math.log`` and ``math.exp`` call (float64 buffers of as many
    items); the number of values where ``math`` would raise or a value is not finite."""

def lcs_matches(
    hyp_ids: Any, hyp_starts: Any, hyp_lengths: Any, ref_ids: Any, ref_starts: Any,
    ref_lengths: Any, lcs: Any | None, union_hits: Any | None, hyp_marks: Any | None,
    ref_marks: Any | None, begin: SupportsIndex, end: SupportsIndex,
    scratch_words: SupportsIndex = ..., /,
) -> None:
    """ROUGE-L's LCS of rows begin..end-1 into ``lcs`` (B, R) or None, and ROUGE-Lsum's
    union-LCS hits into ``union_hits`` (B, R) or None, sentences starting where
    ``hyp_marks`` / ``ref_marks`` are not 0 (int64 buffers; see the C docstring)."""

def porter_stem(words: list[str], /) -> list[str]:
    """``[nltk.stem.PorterStemmer().stem(word) for word in words]`` (NLTK_EXTENSIONS)."""
def ter_edits(
    hyp_ids: Any, hyp_starts: Any, hyp_lengths: Any, ref_ids: Any, ref_starts: Any,
    ref_lengths: Any, edits: Any, begin: SupportsIndex, end: SupportsIndex, /,
) -> None:
    """TER's edits (sacrebleu's ``translation_edit_rate``) of rows begin..end-1 against each
    reference into ``edits`` (B, R); a reference length of -1 is an absent reference (its
    edits -1). int64 buffers; see the C docstring."""
def edit_counts(
    hyp_ids: Any, hyp_starts: Any, hyp_lengths: Any, ref_ids: Any, ref_starts: Any,
    ref_lengths: Any, counts: Any, chunks: Any, chunk_starts: Any, begin: SupportsIndex,
    end: SupportsIndex, /,
) -> None:
    """The Levenshtein alignment (rapidfuzz's, as jiwer takes it) of rows begin..end-1:
    hits, substitutions, deletions, insertions and opcode count into ``counts`` (B, 5), and
    the opcodes into ``chunks`` (C, 5) from ``chunk_starts`` (or None). int64 buffers; see
    the C docstring."""

def line_edit_counts(hypotheses: tuple[str, ...], references: tuple[str, ...],
                     jiwer_split: bool, counts: Any, begin: SupportsIndex, end: SupportsIndex,
                     /) -> None:
    """``edit_counts`` of lines of text (split as jiwer's ``wer_default`` or as
    ``str.split()``) into ``counts`` (B, 5) for rows begin..end-1, the GIL released."""

def caption_rouge(hypotheses: Sequence[list[str]], references: Sequence[list[str]], best: Any,
                  begin: SupportsIndex, end: SupportsIndex,
                  scratch_words: SupportsIndex = ..., /) -> None:
    """pycocoevalcap's ROUGE-L of images begin..end-1 (``hypotheses[b]`` a list of one str,
    ``references[b]`` a non-empty list of str, split with ``split(" ")``): each image's
    best precision and best recall into ``best`` (B, 2) float64, the GIL released."""

def cider_sums(
    hyp_ids: Any, hyp_starts: Any, hyp_lengths: Any, ref_ids: Any, ref_starts: Any,
    ref_lengths: Any, ref_counts: Any, order: SupportsIndex, log_table: Any,
    log_documents: float, hyp_norm2: Any, ref_norm2: Any, dot: Any,
    workers: SupportsIndex = ..., /,
) -> None:
    """pycocoevalcap's CIDEr-D sums (the batch's document frequencies) of token-id rows:
    squared norms into ``hyp_norm2`` (B, order) and ``ref_norm2`` (R, order), clipped dot
    products into ``dot`` (R, order), the images' sums on up to ``workers`` threads (1);
    see the C docstring."""

def cider_text_sums(
    hypotheses: Sequence[list[str]], references: Sequence[list[str]], order: SupportsIndex,
    log_table: Any, log_documents: float, hyp_lengths: Any, ref_lengths: Any,
    hyp_norm2: Any, ref_norm2: Any, dot: Any, workers: SupportsIndex = ..., /,
) -> None:
    """``cider_sums`` of pycocoevalcap's captions (split with ``str.split()``), the words'
    counts into ``hyp_lengths`` (B) and ``ref_lengths`` (R); see the C docstring."""

class AlignmentChunk:
    """jiwer's ``AlignmentChunk`` (see ``bleusuite/csrc/alignment.c``)."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int
    def __init__(self, type: str, ref_start_idx: int, ref_end_idx: int, hyp_start_idx: int,
                 hyp_end_idx: int) -> None: ...

def alignment_chunks(chunks: Any, chunk_starts: Any, counts: Any,
                     tags: tuple[str, str, str, str], /) -> list[list[AlignmentChunk]]:
    """jiwer's alignments of ``edit_counts``'s opcodes: a list per row of AlignmentChunk."""

def word_lists(ids: Any, counts: Any, tokens: list[str], /) -> list[list[str]]:
    """Each line's words, ``tokens[id]`` of its ids (a Numbering's output), shared str."""

def edit_distances(
    hyp_chars: Any, hyp_starts: Any, hyp_lengths: Any, ref_chars: Any, ref_starts: Any,
    ref_lengths: Any, substitution_cost: SupportsIndex, distances: Any, begin: SupportsIndex,
    end: SupportsIndex, /,
) -> None:
    """torchmetrics' ``EditDistance`` (its beam Levenshtein distance on code points) of
    pairs begin..end-1 into ``distances`` (P,) (int64 buffers; see the C docstring)."""

def eed_grid(
    hyp_chars: Any, hyp_starts: Any, hyp_lengths: Any, ref_chars: Any, ref_starts: Any,
    ref_lengths: Any, costs: Any, last: Any, visited: Any, begin: SupportsIndex,
    end: SupportsIndex, /,
) -> None:
    """torchmetrics' ``ExtendedEditDistance`` grid of pairs begin..end-1: the last cell
    into ``last`` (P,) float64 and the columns' visits into ``visited`` (P,) int64;
    ``costs`` float64 (alpha, deletion, insertion). See the C docstring."""

def stop_calls() -> None:
    """Stop every compiled call running now, in any thread (each raises KeyboardInterrupt
    in its own thread); calls that begin afterwards are not affected."""
