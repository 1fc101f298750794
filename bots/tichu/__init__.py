"""Tichu bots: baselines, the classic one-ply evaluation bot of the 2013 thesis, and more.

Modules hold one concern each: `situation` (an observation as masks), `combination` and
`partition` (hands split into combinations), `initiative` (the self-play statistics model),
`evaluation` (the weighted properties), `play`, `calls`, `exchange`, `wish`, `dragon` (the
decisions), `classic` (the policy), `baseline`, `match`, `duplicate`, `statistics` and
`calibration` (playing, measuring and tuning).
"""

__all__: list[str] = []
