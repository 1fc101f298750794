"""The Skat rules engine (International Skat Order), its scoring and ISS game records."""

__all__: list[str] = []
