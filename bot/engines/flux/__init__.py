"""Flux, one module per job: ``engine`` (state, actions and per-seat observations),
``rules`` (values, tricks, dice, scoring and variants as pure functions), ``ai`` (the easy
and normal players), ``search`` (hard: determinized search within the budget) and ``sim``
(the fast simulator that search plays its sampled worlds on).

The engine never imports its AI: :mod:`bot.games.flux` pairs them in the game's spec.
"""
