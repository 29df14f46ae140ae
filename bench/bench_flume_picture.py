"""Time the Flume table picture per AI move: drawing it, then encoding it as a frame.

Run: ``.venv/bin/python bench/bench_flume_picture.py [games]``. Plays seeded 4- and 5-seat
games with the normal AI, draws the public table after every move as the bot does
(``FlumeUI().table_image``) and encodes it with one :class:`~bot.render.frames.FrameEncoder`
per table; prints the median and mean milliseconds of each. Informational only.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engines.flume import ai as flume_ai
from bot.engines.flume.engine import FlumeConfig, FlumeEngine
from bot.games.flume import FlumeUI
from bot.render.frames import FrameEncoder

NAMES = ["Ada", "Bartholomew the Magnificent", "Zoë", "Dmitri", "Evangeline"]


def main(games: int = 4) -> None:
    engine, ui, encoder = FlumeEngine(), FlumeUI(), FrameEncoder()
    draw_ms: list[float] = []
    encode_ms: list[float] = []
    for game in range(games):
        players = 4 + game % 2
        rng = random.Random(game)
        state = engine.new_game(FlumeConfig(), players, seed=100 + game)
        names, log = NAMES[:players], []
        while not engine.is_over(state):
            seat = sorted(engine.to_act(state))[0]
            events = engine.apply(
                state, seat, flume_ai.decide(engine.observe(state, seat), "normal", rng)
            )
            log = (log + [e.render(names) for e in events])[-6:]
            obs = engine.observe(state, None)
            start = time.perf_counter()
            image = ui.table_image(obs, names, log)
            drawn = time.perf_counter()
            encoder.encode(game, image)
            done = time.perf_counter()
            draw_ms.append((drawn - start) * 1000)
            encode_ms.append((done - drawn) * 1000)
    print(f"{len(draw_ms)} moves over {games} games (4 and 5 seats), ms median / mean")
    print(f"draw   {statistics.median(draw_ms):6.2f} / {statistics.mean(draw_ms):6.2f}")
    print(f"encode {statistics.median(encode_ms):6.2f} / {statistics.mean(encode_ms):6.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 4)
