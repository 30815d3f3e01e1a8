#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {

// aten::sym_numel(Tensor self) -> SymInt
void sym_numel(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, "aten::sym_numel", args, 2);
  const rt::Tensor* self = in.tensor(0, "self");
  if (!in.ok()) return;
  *args[1] = rt::EValue::from_int(self->numel());
}

}  // namespace prim
