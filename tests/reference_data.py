"""Where the reference sets live: `tests/data/` (what each holds: tests/data/README.md)."""

import json
from pathlib import Path
from typing import Any

__all__ = ["REFERENCE_DATA", "load_jsonl", "reference_file"]

REFERENCE_DATA = Path(__file__).resolve().parent / "data"


def reference_file(name: str) -> Path:
    """Path of a reference file; the tests that need it fail loudly if it is missing."""
    path = REFERENCE_DATA / name
    if not path.exists():
        raise FileNotFoundError(f"reference set {path} is missing (see tests/data/README.md)")
    return path


def load_jsonl(name: str) -> list[dict[str, Any]]:
    """Every record of a JSON-lines reference file in tests/data."""
    lines = reference_file(name).read_text().splitlines()
    return [json.loads(line) for line in lines if line.strip()]
