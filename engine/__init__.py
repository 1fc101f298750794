"""Pure rules and AI for Skat and Tichu: no I/O, no sockets, no databases.

`engine` is the bottom layer: `bots` and `server` import it, never the reverse.
"""

__all__: list[str] = []
