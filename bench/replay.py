"""What a replay costs the server: the JSON size and the time to build one
(`server/games/replay.py`, behind `GET /api/records/{table}/{deal}/replay`) for Skat deals and
whole Tichu matches to 1000 points, played by bots, with the record's size beside it. Skat
deals that all players passed are skipped (nothing to replay).

    python -m bench.replay --deals 20 --seed 1
"""

import argparse
import statistics
import time
from typing import Any

from bots.registry import policy
from server.games import game_kind
from server.games.replay import replay_steps
from server.protocol import encode_public

BOTS = {"skat": "beginner", "tichu": "greedy"}
RULES: dict[str, dict[str, Any]] = {"skat": {"players": 3}, "tichu": {}}


def played(game: str, seed: int) -> tuple[bytes, list[tuple[int, bytes]], int]:
    """A deal (Tichu: a match) played by bots: its first event, its moves, the record's size."""
    kind = game_kind(game)
    rules = kind.parse_rules(RULES[game])
    start, state = kind.deal(rules, seed, 0)
    moves: list[tuple[int, bytes]] = []
    bots = [policy(game, BOTS[game])] * kind.seat_count(rules)
    final = kind.tournament.play_out(
        state, bots, seed, lambda seat, action: moves.append((seat, kind.encode_action(action)))
    )
    record = kind.record(final, [f"p{s}" for s in range(kind.seat_count(rules))]) or ""
    return start, moves, len(record.encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals (Tichu: matches) per game")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"replays of {args.deals} bot-played deals per game (medians)")
    heads = ("moves", 6), ("steps KiB", 10), ("record KiB", 11), ("ratio", 6), ("build ms", 9)
    print(f"{'game':6} " + " ".join(f"{head:>{width}}" for head, width in heads))
    for game in ("skat", "tichu"):
        kind = game_kind(game)
        moves_n, sizes, records, times = [], [], [], []
        seed = args.seed
        while len(times) < args.deals:
            start, moves, record_size = played(game, seed)
            seed += 1
            if len(moves) <= kind.seat_count(kind.parse_rules(RULES[game])):
                continue  # passed in
            began = time.perf_counter()
            body = encode_public({"steps": replay_steps(kind, start, moves)})
            times.append(1000 * (time.perf_counter() - began))
            moves_n.append(len(moves))
            sizes.append(len(body) / 1024)
            records.append(record_size / 1024)
        size, record = statistics.median(sizes), statistics.median(records)
        print(
            f"{game:6} {statistics.median(moves_n):6.0f} {size:10.1f} {record:11.1f} "
            f"{size / record:6.1f} {statistics.median(times):9.1f}"
        )


if __name__ == "__main__":
    main()
