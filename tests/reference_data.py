"""Where the shared reference sets live: `../shared/data/` beside the repository root."""

import json
from pathlib import Path
from typing import Any

__all__ = ["SHARED_DATA", "load_jsonl", "shared_file"]

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def shared_file(name: str) -> Path:
    """Path of a reference file; the tests that need it fail loudly if it is missing."""
    path = SHARED_DATA / name
    if not path.exists():
        raise FileNotFoundError(f"reference set {path} is missing (tests expect ../shared/data)")
    return path


def load_jsonl(name: str) -> list[dict[str, Any]]:
    """Every record of a JSON-lines reference file in the shared data folder."""
    return [json.loads(line) for line in shared_file(name).read_text().splitlines() if line.strip()]
