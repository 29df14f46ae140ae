"""QuantumPoker, one module per job: ``engine`` (qubit cards, Pauli cards, chips and
the pot), ``ai`` (the easy and normal players) and ``search`` (hard: determinized search).

The engine never imports its AI: :mod:`bot.games.qpoker` pairs them in the game's spec.
"""
