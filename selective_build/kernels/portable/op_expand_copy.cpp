#include <cstdint>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::expand_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

}  // namespace

// expand_copy.out(Tensor self, SymInt[] size, *, bool implicit=False, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& expand_copy_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList size,
                            bool /*implicit*/, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  const int dim = static_cast<int>(size.size());
  if (dim > rt::Tensor::kMaxDims) {
    in.fail("size has too many dims");
    return out;
  }
  const int shift = dim - self.dim();
  if (shift < 0) {
    in.fail("size has fewer dims than self");
    return out;
  }
  // New leading dims repeat the whole of self (stride 0); a kept dim of
  // size 1 is repeated too.
  int32_t sizes[rt::Tensor::kMaxDims];
  int64_t strides[rt::Tensor::kMaxDims];
  for (int d = 0; d < dim; ++d) {
    const int64_t want = size[d];
    const int s = d - shift;
    if (s < 0) {
      if (want < 0 || want > INT32_MAX) {
        in.fail("size of a new leading dim must be non-negative");
        return out;
      }
      sizes[d] = static_cast<int32_t>(want);
      strides[d] = 0;
      continue;
    }
    const int32_t have = self.size(s);
    if (want == -1 || want == have) {
      sizes[d] = have;
      strides[d] = self.stride(s);
    } else if (have == 1 && want >= 0 && want <= INT32_MAX) {
      sizes[d] = static_cast<int32_t>(want);
      strides[d] = 0;
    } else {
      in.fail("size does not match self at a dim of self that is not 1");
      return out;
    }
  }
  if (!resize_out(in, out, sizes, dim)) return out;
  copy_view(out, self.data(), 0, strides);
  return out;
}

}  // namespace portable
