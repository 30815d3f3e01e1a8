#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace prim {

// aten::sym_size.int(Tensor self, int dim) -> SymInt
int64_t sym_size_int(rt::KernelContext& context, const rt::Tensor& self, int64_t dim) {
  const rt::OpContext in(context, "aten::sym_size.int");
  if (dim < 0) dim += self.dim();
  if (dim < 0 || dim >= self.dim()) {
    in.fail("dim is out of range");
    return 0;
  }
  return self.size(static_cast<int>(dim));
}

}  // namespace prim
