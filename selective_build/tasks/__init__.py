"""Thin doit wiring: one module per stage, each returning task dicts."""
