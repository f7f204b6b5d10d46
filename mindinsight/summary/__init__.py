"""A framework-free writer of MindSpore-compatible summary logs."""

from mindinsight.summary.writer import SummaryWriter

__all__ = ["SummaryWriter"]
