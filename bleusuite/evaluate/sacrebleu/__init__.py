"""The directory of the evaluate module ``sacrebleu`` (its script: ``sacrebleu.py``)."""
