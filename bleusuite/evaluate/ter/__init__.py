"""The directory of the evaluate module ``ter`` (its script: ``ter.py``)."""
