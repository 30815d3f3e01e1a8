"""selective-build: the one package the distribution installs.

Its parts: `codegen` (the pure library), `tasks` (the doit stages and the `selective-build`
command), `runtime` and `kernels` (the C++ sources the builds compile). A checkout links
each from the repository's root (codegen -> selective_build/codegen), where people working
on it find them.
"""
