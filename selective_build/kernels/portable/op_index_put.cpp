#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/index_put.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::index_put.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// index_put.out(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False, *, Tensor(a!) out)
//     -> Tensor(a!)
// out = self, with out[indices] = values (broadcast), or += with accumulate.
rt::Tensor& index_put_out(rt::KernelContext& context, const rt::Tensor& self,
                          rt::OptionalTensorList indices, const rt::Tensor& values, bool accumulate,
                          rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  copy_same_shape(out, self);
  index_put_into<Dtypes>(in, out, indices, values, accumulate);
  return out;
}

}  // namespace portable
