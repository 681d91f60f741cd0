"""The directory of the evaluate module ``rouge`` (its script: ``rouge.py``)."""
