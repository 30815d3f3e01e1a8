"""The build plan: from a manifest (and a target's resolution) to the steps that build it.

Pure: frozen dataclasses in, frozen dataclasses out, no doit and no file-system effects (the
few facts the plan needs from the disk, such as the runtime's source files, are read by the
task creators and handed in). tasks/ maps each step to a doit task dict and runs it.

  paths.py    where every output goes (the one spelling doit matches by string)
  steps.py    what the compile and link actions run (no other project import: the import
              closure of those actions stays small, Note [Tool step code])
  runtime.py  the seam for runtimes: what every stage asks of a target's runtime (Note
              [Target runtime]); runtimes.py picks the implementation by name; ours.py is
              the runtime under runtime/
  objects.py  which objects a target links, with which flags, shared where possible
  link.py     the link and archive steps
  package.py  the package step
  verify.py   the verify step
  size.py     the files the size step measures and the objects it attributes to
"""
