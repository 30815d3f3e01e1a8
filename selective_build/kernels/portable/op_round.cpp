#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/unary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::round.out";
constexpr const char* kDecimalsOp = "aten::round.decimals_out";
// Integers are already whole (torch copies them); bool is not supported.
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;
using DecimalsDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kDecimalsOp).bits(),
                                         rt::selected_dtypes(kDecimalsOp).bits()>;

// To the nearest integer, halves to even (under the default rounding mode).
template <typename M>
M round_half_even(M x) {
  if constexpr (std::is_integral<M>::value) {
    return x;
  } else {
    return std::nearbyint(x);
  }
}

struct Round : UnaryStateless<Round> {
  template <typename M>
  static M apply(M x) {
    return round_half_even(x);
  }
};

// Rounds to `decimals` decimal places (negative: to tens, hundreds...) by
// scaling with 10^|decimals|, as torch does.
struct RoundDecimals {
  int64_t decimals;

  template <typename M>
  struct Fn {
    M scale;
    bool negative;
    M operator()(M x) const {
      if constexpr (std::is_integral<M>::value) {
        return x;  // only reached with decimals == 0
      } else {
        return negative ? round_half_even(x / scale) * scale : round_half_even(x * scale) / scale;
      }
    }
  };
  template <typename M>
  Fn<M> bind() const {
    M scale = M(1);
    if constexpr (!std::is_integral<M>::value) {
      scale =
          static_cast<M>(std::pow(10.0, static_cast<double>(decimals < 0 ? -decimals : decimals)));
    }
    return Fn<M>{scale, decimals < 0};
  }
};

}  // namespace

// round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& round_out(rt::KernelContext& context, const rt::Tensor& self, rt::Tensor& out) {
  unary_kernel<Dtypes, Dtypes, Round>(context, kOp, self, out, false);
  return out;
}

// round.decimals_out(Tensor self, *, int decimals, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& round_decimals_out(rt::KernelContext& context, const rt::Tensor& self, int64_t decimals,
                               rt::Tensor& out) {
  const rt::OpContext in(context, kDecimalsOp);
  if (decimals != 0 && !rt::is_floating_type(self.dtype())) {
    in.fail("decimals other than 0 need a floating point tensor");
    return out;
  }
  unary_map<DecimalsDtypes, DecimalsDtypes>(in, self, out, self.dtype(), RoundDecimals{decimals});
  return out;
}

}  // namespace portable
