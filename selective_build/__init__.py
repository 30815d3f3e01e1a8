"""selective-build: the one package the distribution installs.

Its parts are the repository's top-level folders, each a subpackage here (in a checkout
these are links to them): `codegen` (the pure library), `tasks` (the doit stages and the
`selective-build` command), `runtime` and `kernels` (the C++ sources the builds compile).
"""
