#include <cstdint>

#include "kernels/portable/util/shape_concat.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::cat.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kRealAndBoolDtypes.bits(), kSelected.bits()>;

// torch skips 1-dim empty tensors whatever the other tensors' shapes.
bool skipped(const rt::Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

}  // namespace

// cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
void cat_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  const rt::ArgReader in(context, kOp, args, 4);
  rt::BoxedList tensors{};
  const int64_t dim_arg = in.int_value(1, "dim");
  rt::Tensor* out = in.tensor(2, "out");
  if (!shape_tensor_list(in, args, 0, "tensors", &tensors)) return;
  if (tensors.size == 0) return in.fail("tensors must not be empty");
  if (!shape_check_list_dtypes<Dtypes>(in, tensors, *out)) return;
  // The shape comes from the first tensor that is not skipped.
  const rt::Tensor* first = nullptr;
  for (uint32_t i = 0; i < tensors.size && first == nullptr; ++i) {
    if (!skipped(tensors.items[i]->to_tensor())) first = &tensors.items[i]->to_tensor();
  }
  if (first == nullptr) first = &tensors.items[0]->to_tensor();
  const int dim = first->dim();
  if (dim == 0) return in.fail("zero-dimensional tensors cannot be concatenated");
  const int64_t at = shape_wrap_dim(in, dim_arg, dim, false);
  if (at < 0) return;
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < dim; ++d) sizes[d] = d == at ? 0 : first->size(d);
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (skipped(t)) continue;
    bool same = t.dim() == dim;
    for (int d = 0; same && d < dim; ++d) same = d == at || t.size(d) == first->size(d);
    if (!same) return in.fail("tensors must have the same shape except in dim");
    sizes[at] += t.size(static_cast<int>(at));
  }
  if (!resize_out(in, *out, sizes, dim)) return;
  int64_t offset = 0;
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (skipped(t)) continue;
    int64_t strides[rt::Tensor::kMaxDims];
    shape_strides(t, strides);
    if (!shape_place_part<Dtypes>(in, *out, offset * out->stride(static_cast<int>(at)), t, t.sizes().data(), strides,
                                  dim)) {
      return;
    }
    offset += t.size(static_cast<int>(at));
  }
}

}  // namespace portable
