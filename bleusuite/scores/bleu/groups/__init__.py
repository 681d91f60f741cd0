"""Groups of sentences (the members of a GRPO group, MBR candidates) as the group scores
take them."""

from bleusuite.scores.bleu.groups.sentences import Groups, Sentences, group_sentences

__all__ = ["Groups", "Sentences", "group_sentences"]
