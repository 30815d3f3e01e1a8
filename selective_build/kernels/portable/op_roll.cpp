#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::roll.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// shift reduced into [0, extent) (extent > 0).
int64_t wrap_shift(int64_t shift, int64_t extent) {
  const int64_t r = shift % extent;
  return r < 0 ? r + extent : r;
}

}  // namespace

// roll.out(Tensor self, SymInt[1] shifts, int[1] dims=[], *, Tensor(a!) out) -> Tensor(a!)
// Every element moves `shifts[k]` places along dims[k], wrapping around. Without dims,
// self is rolled as one flat row-major sequence by the one shift.
rt::Tensor& roll_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList shifts,
                     rt::IntList dims, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  if (!shape_same_dtype<Dtypes>(in, self, out)) return out;
  if (dims.size() == 0 ? shifts.size() != 1 : shifts.size() != dims.size()) {
    in.fail("shifts must have one entry per dim (one without dims)");
    return out;
  }
  int64_t shift[rt::Tensor::kMaxDims] = {};
  for (size_t k = 0; k < dims.size(); ++k) {
    const int64_t d = shape_wrap_dim(in, dims[k], self.dim(), false);
    if (d < 0) return out;
    // Rolls along the same dim add up; an empty dim has nothing to roll.
    const int64_t extent = self.size(static_cast<int>(d));
    if (extent > 0) shift[d] = wrap_shift(shift[d] + wrap_shift(shifts[k], extent), extent);
  }
  if (!resize_out(in, out, self.sizes().data(), self.dim())) return out;
  const int64_t n = self.numel();
  if (n == 0) return out;
  const int64_t flat = dims.size() == 0 ? wrap_shift(shifts[0], n) : 0;
  const int64_t element = static_cast<int64_t>(self.element_size());
  uint8_t* to = static_cast<uint8_t*>(out.data());
  const uint8_t* from = static_cast<const uint8_t*>(self.data());
  for (int64_t i = 0; i < n; ++i) {
    // The row-major position in self of out's element i.
    int64_t source = 0;
    if (dims.size() == 0) {
      source = wrap_shift(i - flat, n);
    } else {
      int64_t rest = i, step = 1;
      for (int d = self.dim() - 1; d >= 0; --d) {
        const int64_t extent = self.size(d);
        const int64_t c = rest % extent;
        rest /= extent;
        source += wrap_shift(c - shift[d], extent) * step;
        step *= extent;
      }
    }
    memcpy(to + out.offset_of(i) * element, from + self.offset_of(source) * element,
           static_cast<size_t>(element));
  }
  return out;
}

}  // namespace portable
