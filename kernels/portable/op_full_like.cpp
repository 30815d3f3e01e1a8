#include <cstdint>

#include "kernels/portable/util/copy_convert.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::full_like.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

}  // namespace

// full_like.out(Tensor self, Scalar fill_value, *, MemoryFormat? memory_format=None, Tensor(a!) out)
//     -> Tensor(a!)
void full_like_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 5);
  const rt::Tensor* self = in.tensor(0, "self");
  const rt::Scalar fill = in.scalar(1, "fill_value");
  rt::Tensor* out = in.tensor(3, "out");
  if (!in.ok()) return;
  if (!args[2]->is_none() && args[2]->tag() != rt::Tag::Int) return in.fail("memory_format must be None or an int");
  CopyConverter converter;
  if (!Dtypes::check(context, kOp, self->dtype()) ||
      !Dtypes::run(context, kOp, out->dtype(), [&](auto t) { copy_set_target<typename decltype(t)::type>(converter); })) {
    return;
  }
  if (!resize_out(in, *out, self->sizes().data(), self->dim())) return;
  uint8_t value[8];
  copy_store_scalar(converter, fill, value);
  copy_fill(*out, value);
}

}  // namespace portable
