#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {

// aten::sym_size.int(Tensor self, int dim) -> SymInt
void sym_size_int(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, "aten::sym_size.int", args, 3);
  const rt::Tensor* self = in.tensor(0, "self");
  int64_t dim = in.int_value(1, "dim");
  if (!in.ok()) return;
  if (dim < 0) dim += self->dim();
  if (dim < 0 || dim >= self->dim()) return in.fail("dim is out of range");
  *args[2] = rt::EValue::from_int(self->size(static_cast<int>(dim)));
}

}  // namespace prim
