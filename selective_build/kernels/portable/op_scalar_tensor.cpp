#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_convert.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::scalar_tensor.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// scalar_tensor.out(Scalar s, *, Tensor(a!) out) -> Tensor(a!)
// The exporter emits it where a Python number (.item(), float size arithmetic) becomes a
// tensor again: out is resized to 0-dim and holds `s` converted to out's dtype, the way
// full.out converts its fill value (the same converter, so the two agree on every dtype).
rt::Tensor& scalar_tensor_out(rt::KernelContext& context, rt::Scalar s, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  CopyConverter converter;
  if (!Dtypes::run(context, kOp, out.dtype(),
                   [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return out;
  }
  const int32_t no_sizes[1] = {0};  // resize compares 0 bytes, but never through a null pointer
  if (!resize_out(in, out, no_sizes, 0)) return out;
  uint8_t value[8];
  copy_store_scalar(converter, s, value);
  copy_fill(out, value);
  return out;
}

}  // namespace portable
