"""ISS record replay speed: records per second on one core (issue 2 asks for >= 2,000).

Run: `python -m bench.iss_replay [--repeat 7]`. Replays the 500 XSkat and 32 ISS records of
tests/data several times and prints the median rate of each set.
"""

import argparse
import statistics
import time

from engine.skat.iss import read_records, replay_record
from tests.reference_data import reference_file

SETS = {"xskat (500 records)": "xskat_games_sample.sgf", "iss (32 records)": "iss_games_sample.sgf"}


def rate(lines: list[str], iss_compat: bool) -> float:
    """Records per second for one pass over `lines`."""
    start = time.perf_counter()
    for line in lines:
        replay_record(line, iss_compat=iss_compat)
    return len(lines) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=7, help="passes per set (median taken)")
    args = parser.parse_args()
    print(f"{'set':<22} {'mode':<10} {'median rec/s':>13} {'min':>8} {'max':>8}")
    for label, name in SETS.items():
        lines = list(read_records(reference_file(name).read_text()))
        for iss_compat in (True, False):
            rates = [rate(lines, iss_compat) for _ in range(args.repeat)]
            mode = "iss_compat" if iss_compat else "isko"
            print(
                f"{label:<22} {mode:<10} {statistics.median(rates):>13,.0f} "
                f"{min(rates):>8,.0f} {max(rates):>8,.0f}"
            )


if __name__ == "__main__":
    main()
