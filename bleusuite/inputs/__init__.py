"""Every accepted input form (arrays with padding, ragged arrays, token lists, text) becomes
one :class:`Batch`, with the checks that name the caller's arguments."""

from bleusuite.inputs.batch import Batch, mark_unreferenced
from bleusuite.inputs.normalize import normalize_batch, scoring_batch, scoring_inputs
from bleusuite.inputs.ragged import pack_sentences

__all__ = ["Batch", "mark_unreferenced", "normalize_batch", "pack_sentences", "scoring_batch",
           "scoring_inputs"]
