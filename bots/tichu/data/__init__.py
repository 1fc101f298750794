"""Package data of the Tichu bots: `initiative.npz` (`tischrunde tichu build-initiative`)."""

__all__: list[str] = []
