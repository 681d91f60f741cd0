"""The directory of the evaluate module ``wer`` (its script: ``wer.py``)."""
