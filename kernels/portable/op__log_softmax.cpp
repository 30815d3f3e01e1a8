#include <cmath>

#include "kernels/portable/util/nn_softmax.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::_log_softmax.out";
constexpr rt::DtypeSet kSelected = rt::selected_dtypes(kOp);
using Dtypes = rt::DtypeDispatch<rt::kFloatingDtypes.bits(), kSelected.bits()>;

// x - max - log(sum(exp(x - max))): stable for large inputs; an infinite max gives NaNs,
// as torch.
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
void _log_softmax_out(rt::KernelContext& context, rt::Span<rt::EValue* const> args) {
  normalise_along_dim<Dtypes, LogSoftmax>(context, args, kOp);
}

}  // namespace portable
