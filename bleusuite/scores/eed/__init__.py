"""Character edit distances as torchmetrics computes them: ``EditDistance``'s beam
Levenshtein distance with a substitution cost (:mod:`.levenshtein`) and
``ExtendedEditDistance``'s EED of Stanchev et al. (2019) with its text preprocessing
(:mod:`.extended`, :mod:`.preprocess`). The compiled kernels (``bleusuite/csrc/edit_distance.c``)
run them with the GIL released; a Python twin gives the same numbers where the compiled
part is not built.

>>> edit_distances(["rain", "lnaguaeg"], ["shine", "language"]).tolist()
[3, 4]
>>> round(float(eed_scores(["here is an other sample"], [["here is another one"]])[0]), 4)
0.2321
"""

from bleusuite.scores.eed.extended import eed_scores, reference_scores
from bleusuite.scores.eed.levenshtein import edit_distances
from bleusuite.scores.eed.preprocess import preprocess

__all__ = ["edit_distances", "eed_scores", "preprocess", "reference_scores"]
