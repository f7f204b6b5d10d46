"""Alembic migrations of the database of edits (``cache/edits_database.py`` runs them at start)."""
