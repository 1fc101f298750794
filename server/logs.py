"""Structured logs: one JSON object per line on stderr (time, level, logger, message, extras)."""

import logging
import sys
import time

import msgspec

__all__ = ["JsonFormatter", "configure"]

_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """Formats a record as JSON; fields passed with `extra=` become keys of their own."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "at": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return msgspec.json.encode(entry, enc_hook=str).decode()


def configure(level: str) -> None:
    """Send every log record to stderr as JSON lines at `level` and above."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    logging.getLogger("websockets").setLevel(logging.WARNING)
