"""The directory of the evaluate module ``chrf`` (its script: ``chrf.py``)."""
