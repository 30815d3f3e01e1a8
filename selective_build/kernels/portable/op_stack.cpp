#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_concat.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::stack.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& stack_out(rt::KernelContext& context, rt::TensorList tensor_list, int64_t dim_arg,
                      rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  const rt::BoxedList tensors = tensor_list.boxed();
  if (!shape_check_list_dtypes<Dtypes>(in, tensors, out)) return out;
  const rt::Tensor& first = tensors.items[0]->to_tensor();
  const int dim = first.dim() + 1;
  if (dim > rt::Tensor::kMaxDims) {
    in.fail("tensors have too many dims");
    return out;
  }
  const int64_t at = shape_wrap_dim(in, dim_arg, dim, false);
  if (at < 0) return out;
  for (uint32_t i = 1; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    bool same = t.dim() == first.dim();
    for (int d = 0; same && d < t.dim(); ++d) same = t.size(d) == first.size(d);
    if (!same) {
      in.fail("tensors must all have the same shape");
      return out;
    }
  }
  // Each tensor is a size-1 block at index i of the new dim.
  int32_t sizes[rt::Tensor::kMaxDims];
  int32_t part_sizes[rt::Tensor::kMaxDims];
  for (int d = 0, s = 0; d < dim; ++d) {
    sizes[d] = d == at ? static_cast<int32_t>(tensors.size) : first.size(s);
    part_sizes[d] = d == at ? 1 : first.size(s);
    s += d != at;
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  for (uint32_t i = 0; i < tensors.size; ++i) {
    const rt::Tensor& t = tensors.items[i]->to_tensor();
    int64_t strides[rt::Tensor::kMaxDims];
    for (int d = 0, s = 0; d < dim; ++d) {
      strides[d] = d == at ? 0 : t.stride(s);
      s += d != at;
    }
    if (!shape_place_part<Dtypes>(in, out, i * out.stride(static_cast<int>(at)), t, part_sizes,
                                  strides, dim))
      return out;
  }
  return out;
}

}  // namespace portable
