#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::t_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// t_copy.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& t_copy_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  const int dim = self.dim();
  if (dim > 2) {
    in.fail("self must have at most 2 dims");
    return out;
  }
  int32_t sizes[2];
  int64_t strides[2];
  for (int d = 0; d < dim; ++d) {
    sizes[d] = self.size(dim - 1 - d);
    strides[d] = self.stride(dim - 1 - d);
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  copy_view(out, self.data(), 0, strides);
  return out;
}

}  // namespace portable
