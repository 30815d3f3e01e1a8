#include <cstdint>

#include "kernels/portable/util/copy_convert.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::full.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// full.out(SymInt[] size, Scalar fill_value, *, Tensor(a!) out) -> Tensor(a!)
void full_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  const rt::IntListArg size = in.int_list(0, "size");
  const rt::Scalar fill = in.scalar(1, "fill_value");
  rt::Tensor* out = in.tensor(2, "out");
  if (!in.ok()) return;
  CopyConverter converter;
  if (!Dtypes::run(context, kOp, out->dtype(), [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return;
  }
  if (size.size() > static_cast<size_t>(rt::Tensor::kMaxDims)) return in.fail("size has too many dims");
  int32_t sizes[rt::Tensor::kMaxDims];
  for (size_t d = 0; d < size.size(); ++d) {
    if (size[d] < 0 || size[d] > INT32_MAX) return in.fail("size must be non-negative");
    sizes[d] = static_cast<int32_t>(size[d]);
  }
  if (!resize_out(in, *out, sizes, static_cast<int>(size.size()))) return;
  uint8_t value[8];
  copy_store_scalar(converter, fill, value);
  copy_fill(*out, value);
}

}  // namespace portable
