"""BLEU: its statistics, the three smoothing families' arithmetic, its result object."""
