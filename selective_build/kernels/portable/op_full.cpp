#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/copy_convert.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::full.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& full_out(rt::KernelContext& context, rt::IntList size, rt::Scalar fill_value,
                     rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::Scalar fill = fill_value;
  CopyConverter converter;
  if (!Dtypes::run(context, kOp, out.dtype(),
                   [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return out;
  }
  if (size.size() > static_cast<size_t>(rt::Tensor::kMaxDims)) {
    in.fail("size has too many dims");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] < 0 || size[d] > INT32_MAX) {
      in.fail("size must be non-negative");
      return out;
    }
    sizes[d] = static_cast<int32_t>(size[d]);
  }
  if (!resize_out(in, out, sizes, static_cast<int>(size.size()))) return out;
  uint8_t value[8];
  copy_store_scalar(converter, fill, value);
  copy_fill(out, value);
  return out;
}

}  // namespace portable
