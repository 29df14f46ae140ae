"""Quantum Fingers, one module per job: ``engine`` (asks, answers and the consistent
history), ``logic`` (the exact consistency engine: which deals are still possible), ``ai`` (the easy
and normal players) and ``search`` (hard: search over the consistent deals).

The engine never imports its AI: :mod:`bot.games.fingers` pairs them in the game's spec.
"""
