"""The directory of the evaluate module ``google_bleu`` (its script: ``google_bleu.py``)."""
