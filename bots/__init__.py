"""Bot policies that turn an observation into an action, and the process pool that runs them."""

__all__: list[str] = []
