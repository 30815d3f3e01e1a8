#include <cstdint>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/shape_copy.h"
#include "kernels/portable/util/strided_walk.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::permute_copy.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
// Moves bytes only, so any dtype works; selection still applies.
using Dtypes = rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), kSelected.bits()>;

// Copies the rows of `walk` (operand 0: out, 1: self), W-byte elements.
template <typename W>
void copy_rows(StridedWalk<2>& walk, uint8_t* out, const uint8_t* self) {
  const int64_t n = walk.row_size(), so = walk.row_stride(0), ss = walk.row_stride(1);
  do {
    W* to = reinterpret_cast<W*>(out) + walk.offset(0);
    const W* from = reinterpret_cast<const W*>(self) + walk.offset(1);
    for (int64_t i = 0; i < n; ++i) to[i * so] = from[i * ss];
  } while (walk.next_row());
}

}  // namespace

// permute_copy.out(Tensor self, int[] dims, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& permute_copy_out(rt::KernelContext& context, const rt::Tensor& self, rt::IntList dims,
                             rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  PermuteShape shape;
  if (!check_permute_copy_args<Dtypes>(in, self, dims, out, &shape) ||
      !resize_out(in, out, shape.sizes, self.dim()) || out.numel() == 0) {
    return out;
  }
  StridedWalk<2> walk;
  walk.init(shape.sizes, self.dim());
  walk.set_operand(0, out);
  walk.set_operand_strides(1, shape.strides);
  uint8_t* to = static_cast<uint8_t*>(out.data());
  const uint8_t* from = static_cast<const uint8_t*>(self.data());
  switch (self.element_size()) {
    case 1: {
      copy_rows<uint8_t>(walk, to, from);
      return out;
    }
    case 2: {
      copy_rows<uint16_t>(walk, to, from);
      return out;
    }
    case 4: {
      copy_rows<uint32_t>(walk, to, from);
      return out;
    }
    case 8: {
      copy_rows<uint64_t>(walk, to, from);
      return out;
    }
    default: {
      in.fail("dtype has an unsupported element size");
      return out;
    }
  }
  return out;
}

}  // namespace portable
