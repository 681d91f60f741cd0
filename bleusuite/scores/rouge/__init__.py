"""ROUGE (rouge-score's ``RougeScorer``): its settings, its counts, its statistics, its
scores and result object, and pytorch-ignite's and torchmetrics' rules beside them."""
