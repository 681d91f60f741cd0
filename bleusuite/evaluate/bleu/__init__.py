"""The directory of the evaluate module ``bleu`` (its script: ``bleu.py``)."""
