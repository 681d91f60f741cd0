"""Scores from statistics: the rules and each smoothing family's arithmetic."""
