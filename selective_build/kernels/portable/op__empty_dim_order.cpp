#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/creation.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "dim_order_ops::_empty_dim_order.out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;

// out's dim order is `dim_order`, or the contiguous one when it is absent
// (the exporter plans out with it: the kernel can only check).
bool has_dim_order(const rt::Tensor& out, rt::Optional<rt::IntList> dim_order, size_t rank) {
  if (static_cast<size_t>(out.dim()) != rank) return true;  // resize_to_size_arg reports it
  for (size_t d = 0; d < rank; ++d) {
    const int64_t wanted = dim_order.has_value() ? dim_order.value()[d] : static_cast<int64_t>(d);
    if (out.dim_order()[d] != wanted) return false;
  }
  return true;
}

}  // namespace

// _empty_dim_order.out(int[] size, *, int[]? dim_order=None, Tensor(a!) out) -> Tensor(a!)
// Gives out its shape only, as empty.out.
rt::Tensor& _empty_dim_order_out(rt::KernelContext& context, rt::IntList size,
                                 rt::Optional<rt::IntList> dim_order, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, out.dtype())) return out;
  if (dim_order.has_value() && dim_order.value().size() != size.size()) {
    in.fail("dim_order must have one entry per dim of size");
    return out;
  }
  if (!has_dim_order(out, dim_order, size.size())) {
    in.fail(dim_order.has_value() ? "out's dim order is not dim_order" : "out must be contiguous");
    return out;
  }
  resize_to_size_arg(in, size, out);
  return out;
}

}  // namespace portable
