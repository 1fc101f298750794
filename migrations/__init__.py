"""Alembic migrations of the Tischrunde database (`tischrunde db upgrade`)."""
