"""Pitboss's game engine and analysis: pure Python, typed, deterministic.

It imports nothing from Django and never reads the database; callers pass it what it needs.
"""
