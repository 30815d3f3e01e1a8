#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::as_strided_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// as_strided_copy.out(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None, *,
//     Tensor(a!) out) -> Tensor(a!)
// out[i0, i1, ...] = the element of self's storage at storage_offset + sum(i_d * stride[d]).
// The storage is self's elements in memory order, so self must be laid out contiguously
// (as ExecuTorch's kernel requires); every element the view reaches must lie in it.
rt::Tensor& as_strided_copy_out(rt::KernelContext& context, const rt::Tensor& self,
                                rt::IntList size, rt::IntList stride,
                                rt::Optional<int64_t> storage_offset, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (!self.is_contiguous()) {
    in.fail("self must be contiguous");
    return out;
  }
  const int dim = static_cast<int>(size.size());
  if (stride.size() != size.size()) {
    in.fail("size and stride must have the same length");
    return out;
  }
  if (dim > rt::Tensor::kMaxDims) {
    in.fail("size has too many dims");
    return out;
  }
  const int64_t base = storage_offset.has_value() ? storage_offset.value() : 0;
  if (base < 0) {
    in.fail("storage_offset must not be negative");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  bool empty = false;
  // Whether the furthest element the view reaches lies past self's storage: the sum stops
  // growing once it is (each term is below 2^62, so it never overflows).
  bool past = base >= self.numel();
  int64_t last = past ? 0 : base;
  for (int d = 0; d < dim; ++d) {
    if (size[d] < 0 || size[d] > INT32_MAX || stride[d] < 0) {
      in.fail("size and stride must be non-negative");
      return out;
    }
    sizes[d] = static_cast<int32_t>(size[d]);
    strides[d] = stride[d];
    empty = empty || size[d] == 0;
    if (size[d] > 1 && !past) {
      last += (size[d] - 1) * (stride[d] < self.numel() ? stride[d] : self.numel());
      past = last >= self.numel();
    }
  }
  if (!empty && past) {
    in.fail("the view reaches past the end of self's storage");
    return out;
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  if (empty) return out;
  copy_view(out, self.data(), base, strides);
  return out;
}

}  // namespace portable
