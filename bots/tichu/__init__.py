"""Tichu bots."""

__all__: list[str] = []
