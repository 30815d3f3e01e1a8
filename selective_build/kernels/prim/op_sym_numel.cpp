#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {

// aten::sym_numel(Tensor self) -> SymInt
int64_t sym_numel(rt::KernelContext& /*context*/, const rt::Tensor& self) { return self.numel(); }

}  // namespace prim
