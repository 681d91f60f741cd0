"""The directory of the evaluate module ``cer`` (its script: ``cer.py``)."""
