"""Text to token ids: sacrebleu's tokenizers, the numbering of their tokens, and the one
encoder (:class:`TextEncoder`) that decides how every text path turns lines into ids."""

from bleusuite.text.encoder import Encoder, TextEncoder, encode_texts
from bleusuite.text.token_ids import PythonNumbering, TokenIds, lowercased, numbering
from bleusuite.text.tokenizers import TOKENIZERS, Tokenizer, load_tokenizer

__all__ = ["TOKENIZERS", "Encoder", "PythonNumbering", "TextEncoder", "TokenIds", "Tokenizer",
           "encode_texts", "load_tokenizer", "lowercased", "numbering"]
