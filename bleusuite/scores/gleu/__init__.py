"""GLEU (NLTK's ``gleu_score``): its statistics, its score, its result object."""
