"""TER, the translation edit rate (sacrebleu's ``TER``): its statistics, its edits, its
score, its result object."""
