#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/complex_parts.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::_conj_physical.out";
constexpr rt::DtypeSet kComplex = kernels::declared_dtypes(kOp);

}  // namespace

// _conj_physical.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
// out = self with every imaginary part negated; complex dtypes only, as ExecuTorch's kernel.
rt::Tensor& _conj_physical_out(rt::KernelContext& context, const rt::Tensor& self,
                               rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!context.check_dtype(kOp, self.dtype(), kComplex.bits(),
                           (kComplex & rt::selected_dtypes(kOp)).bits())) {
    return out;
  }
  if (out.dtype() != self.dtype()) {
    in.fail("out must have self's dtype");
    return out;
  }
  if (!resize_out(in, out, self.sizes().data(), self.dim()) || out.numel() == 0) return out;
  // out's strides counted in parts, two per complex element.
  int64_t strides[rt::Tensor::kMaxDims] = {};  // one 0 entry serves a 0-dim self
  for (int d = 0; d < out.dim(); ++d) strides[d] = 2 * out.stride(d);
  copy_complex(self, static_cast<uint8_t*>(out.data()), strides, 1, true);
  return out;
}

}  // namespace portable
