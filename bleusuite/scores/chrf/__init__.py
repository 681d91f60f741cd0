"""chrF and chrF++ (sacrebleu's ``CHRF``): its statistics, its score, its result object."""
