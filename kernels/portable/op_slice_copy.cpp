#include <cstdint>

#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::slice_copy.Tensor_out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::DtypeSet::all().bits(), kSelected.bits()>;

// An optional SymInt: None gives `fallback`.
bool optional_int(const rt::ArgReader& in, rt::Span<rt::EValue* const> args, size_t index, const char* name,
                  int64_t fallback, int64_t* value) {
  if (!in.ok()) return false;
  if (index < args.size() && args[index]->is_none()) {
    *value = fallback;
    return true;
  }
  *value = in.int_value(index, name);
  return in.ok();
}

// torch's clamping of a slice bound into [0, extent].
int64_t clamp_bound(int64_t bound, int64_t extent) {
  if (bound < 0) bound += extent;
  return bound < 0 ? 0 : bound > extent ? extent : bound;
}

}  // namespace

// slice_copy.Tensor_out(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1, *,
//                       Tensor(a!) out) -> Tensor(a!)
void slice_copy_Tensor_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 7);
  const rt::Tensor* self = in.tensor(0, "self");
  const int64_t dim_arg = in.int_value(1, "dim");
  const int64_t step = in.int_value(4, "step");
  rt::Tensor* out = in.tensor(5, "out");
  int64_t start = 0, end = 0;
  if (!optional_int(in, args, 2, "start", 0, &start) || !optional_int(in, args, 3, "end", INT64_MAX, &end)) return;
  if (!shape_same_dtype<Dtypes>(in, *self, *out)) return;
  if (self->dim() == 0) return in.fail("slice cannot be applied to a 0-dim tensor");
  if (step <= 0) return in.fail("step must be positive");
  const int64_t at = shape_wrap_dim(in, dim_arg, self->dim());
  if (at < 0) return;
  const int64_t extent = self->size(static_cast<int>(at));
  start = clamp_bound(start, extent);
  end = clamp_bound(end, extent);
  const int64_t length = end > start ? (end - start + step - 1) / step : 0;
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < self->dim(); ++d) {
    sizes[d] = d == at ? static_cast<int32_t>(length) : self->size(d);
    strides[d] = self->stride(d) * (d == at ? step : 1);
  }
  if (!resize_out(in, *out, sizes, self->dim())) return;
  copy_view(*out, self->data(), start * self->stride(static_cast<int>(at)), strides);
}

}  // namespace portable
