#include <cmath>

#include "kernels/optimized/elem/dtypes.h"
#include "kernels/optimized/elem/softmax.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace optimized {
namespace {

constexpr const char* kOp = "aten::_log_softmax.out";

// portable's log_softmax for its strided rows: x - max - log(sum(exp(x - max))).
struct LogSoftmax {
  template <typename M>
  static M row(M max, M sum) {
    return max + std::log(sum);
  }
  template <typename M>
  static M element(M x, M, M shift) {
    return x - shift;
  }
};

}  // namespace

// _log_softmax.out(Tensor self, int dim, bool half_to_float, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& _log_softmax_out(rt::KernelContext& context, const rt::Tensor& self, int64_t dim,
                             bool half_to_float, rt::Tensor& out) {
  normalise_kernel<FloatDtypes<&kOp>, LogSoftmax>(context, kOp, self, dim, half_to_float, out,
                                                  log_softmax_row);
  return out;
}

}  // namespace optimized
