"""Flume, one module per job: ``engine`` (bidding, trumps and tricks), ``rules`` (card
ranks, bowers and jokers as pure functions), ``ai`` (the easy and normal players) and
``search`` (hard: determinized search over the hidden hands).

The engine never imports its AI: :mod:`bot.games.flume` pairs them in the game's spec.
"""
