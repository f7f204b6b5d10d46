"""Ingest: discovery of train jobs, incremental loading, per-plugin containers."""
