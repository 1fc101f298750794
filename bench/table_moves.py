"""What the table core costs per move, in one process without sockets or a database: the
decision on each `act` (checked and applied by the engine, evolved into the table, each seat's
event and view built) and the encoding of everything it sends and stores.

The moves are those of `bench.load`'s clients: three humans at a Skat table, each choosing a
random legal action on his turn (never resign, Kontra or Re), so the bidding with its long
lists of bids weighs as it does there. Printed: the median over `--repeats` runs of the
microseconds per move.

    python -m bench.table_moves --moves 3000 --repeats 5
"""

import argparse
import random
import statistics
import time

import msgspec

from engine.skat.actions import Kontra, Re, Resign
from server.core.commands import Act, Join, User
from server.core.decide import decide, wake
from server.core.effects import Send
from server.core.state import Live, TableConfig, TableState, new_table
from server.events import Append, encode_event
from server.games import SkatGame
from server.protocol import encode

SEATS = 3
USERS = [User(seat + 1, f"player{seat}") for seat in range(SEATS)]
UNRATED = (Resign, Kontra, Re)  # random play would end deals early with these


def seated_table() -> tuple[TableState, Live]:
    """A Skat table whose three seats were just taken by humans: its first deal runs."""
    config = TableConfig("t1", "skat", {}, False, None, series_length=100_000, created_by=1)
    decision = wake(new_table(config, SkatGame(), 1234, ["random"]), Live())
    table, live = decision.table, decision.live
    for seat, user in enumerate(USERS):
        decision = decide(table, live, Join(seat, user, 2, seat, None))
        table, live = decision.table, decision.live
    return table, live


def per_move(moves: int, seed: int) -> float:
    """Microseconds per move over `moves` moves (the table reused from the first)."""
    rng = random.Random(seed)
    table, live = seated_table()
    start = time.perf_counter()
    for _ in range(moves):
        state = table.state
        assert state is not None and state.to_move is not None
        seat = state.to_move
        legal = state.legal_actions(seat)
        action = rng.choice([a for a in legal if not isinstance(a, UNRATED)] or legal)
        command = Act(seat, USERS[seat], 1, table.seq, msgspec.json.encode(action), True)
        decision = decide(table, live, command)
        table, live = decision.table, decision.live
        encoded = set()
        for effect in decision.effects:
            if isinstance(effect, Send) and id(effect.message) not in encoded:
                encoded.add(id(effect.message))
                encode(effect.message)
            elif isinstance(effect, Append):
                for event in effect.events:
                    encode_event(event)
    return (time.perf_counter() - start) / moves * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    per_move(300, seed=0)  # warm up: imports, caches
    runs = [per_move(args.moves, seed) for seed in range(1, args.repeats + 1)]
    print(f"{args.moves} moves of random play, median of {args.repeats} runs:")
    print(f"  {statistics.median(runs):.1f} us per move (runs {min(runs):.1f}..{max(runs):.1f})")


if __name__ == "__main__":
    main()
