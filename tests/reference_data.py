"""Where the shared reference sets live: `../shared/data/` beside the repository root."""

import json
from pathlib import Path
from typing import Any

__all__ = ["SHARED_DATA", "load_jsonl"]

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def load_jsonl(name: str) -> list[dict[str, Any]]:
    """Every record of a JSON-lines reference file in the shared data folder."""
    path = SHARED_DATA / name
    if not path.exists():
        raise FileNotFoundError(f"reference set {path} is missing (tests expect ../shared/data)")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
