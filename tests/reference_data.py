"""Where the shared reference data lives: `../shared/data` beside the repository root."""

from pathlib import Path

SHARED_DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def shared_file(name: str) -> Path:
    """Path of a reference file; the tests that need it fail loudly if it is missing."""
    path = SHARED_DATA / name
    if not path.exists():
        raise FileNotFoundError(f"reference data {path} is missing (expected ../shared/data)")
    return path
