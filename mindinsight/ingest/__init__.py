"""Ingest: discovery of train jobs, incremental loading, each data kind's decoding, per-job data."""
