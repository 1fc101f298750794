"""Protocol fuzzing (bench/fuzz_protocol.py) at test size: thousands of generated frames of every
kind against a real server leave it running, the victim's table untouched and unseen, and
every frame answered with the code its kind must get."""

from pathlib import Path

from bench.fuzz_protocol import fuzz
from server.app import running
from tests.server.conftest import server_settings


async def test_generated_frames_get_their_codes_and_change_nothing(tmp_path: Path) -> None:
    settings = server_settings(tmp_path, rate_per_second=1e9, rate_burst=1e9)
    async with running(settings) as app:
        report = await fuzz(app.port, frames=2000, seed=7)
    assert report["frames"] >= 2000
    assert set(report["by_kind"]) >= {"garbage", "binary", "shape", "victim", "replay"}
    assert report["wrong_answers"] == 0, report["examples_of_wrong"]
    assert report["undocumented_codes"] == []
    assert report["leaked_messages"] == 0
    assert report["victim_seq_unchanged"] and report["victim_hand_unchanged"]
    assert report["server_alive"]
