"""Text to token ids: sacrebleu's tokenizers, and the numbering of their tokens."""

from bleusuite.text.token_ids import (
    Encoder,
    PythonNumbering,
    TokenIds,
    encode_texts,
    lowercased,
    numbering,
)
from bleusuite.text.tokenizers import TOKENIZERS, Tokenizer, load_tokenizer

__all__ = ["TOKENIZERS", "Encoder", "PythonNumbering", "TokenIds", "Tokenizer", "encode_texts",
           "load_tokenizer", "lowercased", "numbering"]
