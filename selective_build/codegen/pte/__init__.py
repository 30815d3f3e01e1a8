"""ExecuTorch `.pte` programs: reading what a model needs, and writing programs for tests.

Reading: `read_model_ops` (`codegen.pte.reader`), re-exported here, is the one entry point
`gen_oplist`, `model_ops` and `verify` use. Writing: `codegen.pte.writer` (`save_program`,
`write_program` and the program's data types). Both use the one slot table of
`schema/program.fbs`, `codegen.pte.slots`. The writer is not imported here, so reading a
model never loads (or depends on) the writing code.
"""

from selective_build.codegen.pte.reader import ModelOps, read_model_ops
from selective_build.codegen.pte.region import read_flatbuffer_region

__all__ = ["ModelOps", "read_flatbuffer_region", "read_model_ops"]
