"""The size stage: measuring a linked runner (or what a library adds to an app),
attributing its bytes to buckets, holding it to its budgets and reporting it.

Kept empty of imports: `codegen.size.buckets` (the bucket vocabulary) is imported by the
manifest reader, and importing it must not load the ELF code of the other modules.
"""
