"""Scores from statistics: the shared rules, each metric as one unit (its statistics, its
formulas, its result object: bleu/, gleu/, chrf/), and the registry that finds them."""
