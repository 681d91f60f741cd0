"""WER, MER, WIL, WIP and CER (jiwer's measures) and torchmetrics' edit distances."""
