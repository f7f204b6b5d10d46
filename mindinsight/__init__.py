"""MindInsight: training visualization for MindSpore (and any Python training loop)."""

__version__ = "3.0.0.dev0"
