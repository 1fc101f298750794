"""Skat bots: baseline policies now; Monte Carlo play, bidding and discarding build on them."""

__all__: list[str] = []
