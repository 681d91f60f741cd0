"""pycocoevalcap 1.2 (the COCO caption evaluation) without Java: ``Bleu``, ``Rouge``,
``Cider``, ``PTBTokenizer`` and ``COCOEvalCap`` with its call shapes and numbers, and
:func:`evaluate_captions` for plain dictionaries. See docs/captioning.md.

>>> from bleusuite.pycocoevalcap import Cider, PTBTokenizer
>>> tokens = PTBTokenizer().tokenize({1: [{"caption": "A dog runs."}],
...                                   2: [{"caption": "A cat, asleep!"}]})
>>> tokens
{1: ['a dog runs'], 2: ['a cat asleep']}
"""

from bleusuite.pycocoevalcap.evaluation import COCOEvalCap, PTBTokenizer, evaluate_captions
from bleusuite.pycocoevalcap.scorers import Bleu, Cider, Rouge

__all__ = ["Bleu", "COCOEvalCap", "Cider", "PTBTokenizer", "Rouge", "evaluate_captions"]
