"""Datavisual processors: train jobs, tags and per-plugin data."""
