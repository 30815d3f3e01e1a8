#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/mask_walk.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::masked_select.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// masked_select.out(Tensor self, Tensor mask, *, Tensor(a!) out) -> Tensor(a!)
// out (1-dim) = the elements of self (broadcast with mask) where mask is true, in
// row-major order. Its length depends on the mask's values: the program plans out with
// an upper bound and the kernel resizes it.
rt::Tensor& masked_select_out(rt::KernelContext& context, const rt::Tensor& self,
                              const rt::Tensor& mask, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype())) return out;
  if (out.dtype() != self.dtype()) {
    in.fail("out must have self's dtype");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!mask_broadcast(in, self, mask, sizes, &dim)) return out;
  int64_t count = 0;
  mask_walk(sizes, dim, self, mask, [&](int64_t, bool on) { count += on ? 1 : 0; });
  if (count > INT32_MAX) {
    in.fail("mask selects too many elements");
    return out;
  }
  const int32_t length = static_cast<int32_t>(count);
  if (!resize_out(in, out, &length, 1)) return out;
  const size_t element = self.element_size();
  const uint8_t* from = static_cast<const uint8_t*>(self.data());
  uint8_t* to = static_cast<uint8_t*>(out.data());
  int64_t k = 0;
  mask_walk(sizes, dim, self, mask, [&](int64_t at, bool on) {
    if (on)
      memcpy(to + out.offset_of(k++) * static_cast<int64_t>(element),
             from + at * static_cast<int64_t>(element), element);
  });
  return out;
}

}  // namespace portable
