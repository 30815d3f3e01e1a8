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

constexpr const char* kOp = "aten::masked_scatter.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// masked_scatter.out(Tensor self, Tensor mask, Tensor source, *, Tensor(a!) out) -> Tensor(a!)
// out has the shape self and mask broadcast to: where mask is true, the next element of
// source (in source's row-major order); elsewhere self's element.
rt::Tensor& masked_scatter_out(rt::KernelContext& context, const rt::Tensor& self,
                               const rt::Tensor& mask, const rt::Tensor& source, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!Dtypes::check(context, kOp, self.dtype())) return out;
  if (source.dtype() != self.dtype() || out.dtype() != self.dtype()) {
    in.fail("source and out must have self's dtype");
    return out;
  }
  int32_t sizes[rt::Tensor::kMaxDims];
  int dim = 0;
  if (!mask_broadcast(in, self, mask, sizes, &dim)) return out;
  int64_t count = 0;
  mask_walk(sizes, dim, self, mask, [&](int64_t, bool on) { count += on ? 1 : 0; });
  if (count > source.numel()) {
    in.fail("source has fewer elements than mask has true entries");
    return out;
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  const size_t element = self.element_size();
  const uint8_t* from = static_cast<const uint8_t*>(self.data());
  const uint8_t* taken = static_cast<const uint8_t*>(source.data());
  uint8_t* to = static_cast<uint8_t*>(out.data());
  int64_t i = 0, k = 0;
  mask_walk(sizes, dim, self, mask, [&](int64_t at, bool on) {
    const uint8_t* value = on ? taken + source.offset_of(k++) * static_cast<int64_t>(element)
                              : from + at * static_cast<int64_t>(element);
    memcpy(to + out.offset_of(i++) * static_cast<int64_t>(element), value, element);
  });
  return out;
}

}  // namespace portable
