"""Quantum dice, one module per job: ``engine`` (the rules and state), ``scoring`` (what a
roll scores), ``ai`` (the easy, normal and hard players), ``winprob`` (the two-player
win-probability table hard plays from, solved by value iteration) and ``duel`` (the exact
chance one policy beats another, by policy evaluation).

The engine never imports its AI: :mod:`bot.games.qdice` pairs them in the game's spec.
"""
