"""Structural summaries (p*, p*|c, c, tag) built in one streaming pass."""

from .kinds import KINDS, PartitionKind, partition_kind
from .parallel import summarize_collection
from .summary import Summary, SummaryBuilder, build_summary

__all__ = ["KINDS", "PartitionKind", "partition_kind", "Summary", "SummaryBuilder", "build_summary",
           "summarize_collection"]
