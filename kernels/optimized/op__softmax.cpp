#include <cmath>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/softmax.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::_softmax.out";

// portable's softmax for its strided rows: exp(x - max) / sum(exp(x - max)).
struct Softmax {
  template <typename M>
  static M row(M, M sum) {
    return sum;
  }
  template <typename M>
  static M element(M x, M max, M sum) {
    return std::exp(x - max) / sum;
  }
};

}  // namespace

// _softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& _softmax_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                         bool half_to_float, rt::Tensor& out) {
  normalise_kernel<FloatDtypes<&kOp>, Softmax>(context, kOp, self, dim, half_to_float, out,
                                               softmax_row);
  return out;
}

}  // namespace optimized
