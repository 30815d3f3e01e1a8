#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/common/view_sizes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::view_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// view_copy.out(Tensor self, SymInt[] size, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& view_copy_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList size,
                          rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  int32_t sizes[rt::Tensor::kMaxDims];
  if (!kernels::view_sizes(in, size, self.numel(), sizes)) return out;
  if (!resize_out(in, out, sizes, static_cast<int>(size.size()))) return out;
  copy_reshape(out, self);
  return out;
}

}  // namespace portable
