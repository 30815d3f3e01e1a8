#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_convert.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::full_like.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None, Tensor(a!) out)
//     -> Tensor(a!)
rt::Tensor& full_like_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar fill_value,
                          rt::Optional<int64_t> /*memory_format*/, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  rt::Scalar fill = fill_value;
  CopyConverter converter;
  if (!Dtypes::check(context, kOp, self.dtype()) ||
      !Dtypes::run(context, kOp, out.dtype(),
                   [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return out;
  }
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  uint8_t value[8];
  copy_store_scalar(converter, fill, value);
  copy_fill(out, value);
  return out;
}

}  // namespace portable
