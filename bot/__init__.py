"""Quantum Table: a Discord bot that hosts five card and dice games in server channels."""

__version__ = "0.1.0"
