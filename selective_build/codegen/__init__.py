"""The pure library of the selective build: no doit, no global state."""
