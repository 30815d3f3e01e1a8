#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_concat.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::cat.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// torch skips 1-dim empty tensors whatever the other tensors' shapes.
bool skipped(const rt::Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

}  // namespace

// cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& cat_out(rt::KernelContext& context, rt::TensorList tensor_list, int64_t dim_arg,
                    rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::BoxedList tensors = tensor_list.boxed();
  if (tensors.size == 0) {
    in.fail("tensors must not be empty");
    return out;
  }
  if (!shape_check_list_dtypes<Dtypes>(in, tensors, out)) return out;
  // The shape comes from the first tensor that is not skipped.
  const rt::Tensor* first = nullptr;
  for (uint32_t i = 0; i < tensors.size && first == nullptr; ++i) {
    if (!skipped(tensors.items[i]->to_tensor())) first = &tensors.items[i]->to_tensor();
  }
  if (first == nullptr) first = &tensors.items[0]->to_tensor();
  const int dim = first->dim();
  if (dim == 0) {
    in.fail("zero-dimensional tensors cannot be concatenated");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, dim, false);
  if (at < 0) return out;
  int32_t sizes[rt::Tensor::kMaxDims];
  for (int d = 0; d < dim; ++d) sizes[d] = d == at ? 0 : first->size(d);
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (skipped(t)) continue;
    bool same = t.dim() == dim;
    for (int d = 0; same && d < dim; ++d) same = d == at || t.size(d) == first->size(d);
    if (!same) {
      in.fail("tensors must have the same shape except in dim");
      return out;
    }
    sizes[at] += t.size(static_cast<int>(at));
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  int64_t offset = 0;
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    if (skipped(t)) continue;
    int64_t strides[rt::Tensor::kMaxDims];
    shape_strides(t, strides);
    if (!shape_place_part<Dtypes>(in, out, offset * out.stride(static_cast<int>(at)), t,
                                  t.sizes().data(), strides, dim)) {
      return out;
    }
    offset += t.size(static_cast<int>(at));
  }
  return out;
}

}  // namespace portable
