#include <cmath>
#include <cstring>

#include "kernels/common/declared_dtypes.h"
#include "kernels/portable/util/binary_functors.h"
#include "kernels/portable/util/binary_math.h"
#include "kernels/portable/util/binary_op.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

template <const char* const* kName>
using DtypesOf =
    rt::DtypeDispatch<kernels::declared_dtypes(*kName).bits(), rt::selected_dtypes(*kName).bits()>;

constexpr const char* kOp = "aten::div.out";
constexpr const char* kModeOp = "aten::div.out_mode";
constexpr const char* kScalarOp = "aten::div.Scalar_out";
constexpr const char* kScalarModeOp = "aten::div.Scalar_mode_out";

// The rounding modes keep integer dtypes; integer division by zero is an
// error, as in torch.
struct Rounding {
  static constexpr bool kHasScalar = false;
  static constexpr rt::DtypeSet kComputeDtypes = rt::kRealDtypes;
  static constexpr bool kOpmathScalar = true;
  static const char* validate(const BinaryCall& call) {
    return binary_divides_by_zero(call) ? "integer division by zero" : nullptr;
  }
  static const char* check(ScalarType common, const rt::Scalar&) {
    return common == ScalarType::Bool ? "rounding division of bool tensors is not supported"
                                      : nullptr;
  }
};

struct DivTrunc : Rounding {
  static constexpr bool kStoredType = true;
  // A 16-bit float quotient is rounded to its dtype before truncation, as
  // torch's (and numpy's) half division does.
  template <typename T, typename M>
  static M apply(M x, M y, M) {
    if constexpr (rt::is_reduced_float<T>::value) {
      return std::trunc(static_cast<M>(T(x / y)));
    } else {
      return op_div_trunc(x, y);
    }
  }
};

struct DivFloor : Rounding {
  template <typename M>
  static M apply(M x, M y, M) {
    return op_div_floor(x, y);
  }
};

// rounding_mode: 0 none, 1 "trunc", 2 "floor"; -1 anything else.
int rounding_mode(rt::Optional<rt::StringRef> value) {
  if (!value.has_value()) return 0;
  const rt::StringRef mode = value.value();
  if (mode.size != 5) return -1;
  if (memcmp(mode.chars, "trunc", 5) == 0) return 1;
  if (memcmp(mode.chars, "floor", 5) == 0) return 2;
  return -1;
}

template <typename Dtypes>
void div_mode(const rt::OpContext& in, BinaryCall& call, const rt::Scalar* other,
              rt::Optional<rt::StringRef> mode) {
  auto run = [&](auto op) {
    using Op = decltype(op);
    if (other != nullptr) {
      binary_scalar_op<Dtypes, Op>(in, call, *other);
    } else {
      binary_op<Dtypes, Op>(in, call);
    }
  };
  switch (rounding_mode(mode)) {
    case 0:
      return run(Div());
    case 1:
      return run(DivTrunc());
    case 2:
      return run(DivFloor());
    default:
      return in.fail("rounding_mode must be None, 'trunc' or 'floor'");
  }
}

}  // namespace

// div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& div_out(rt::KernelContext& context, const rt::Tensor& self, const rt::Tensor& other,
                    rt::Tensor& out) {
  binary_tensor_kernel<DtypesOf<&kOp>, Div>(context, kOp, self, other, out);
  return out;
}

// div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& div_out_mode(rt::KernelContext& context, const rt::Tensor& self,
                         const rt::Tensor& other, rt::Optional<rt::StringRef> rounding_mode,
                         rt::Tensor& out) {
  const rt::OpContext in(context, kModeOp);
  BinaryCall call;
  call.a = &self;
  call.b = &other;
  call.out = &out;
  div_mode<DtypesOf<&kModeOp>>(in, call, nullptr, rounding_mode);
  return out;
}

// div.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& div_Scalar_out(rt::KernelContext& context, const rt::Tensor& self, rt::Scalar other,
                           rt::Tensor& out) {
  binary_scalar_kernel<DtypesOf<&kScalarOp>, Div>(context, kScalarOp, self, other, out);
  return out;
}

// div.Scalar_mode_out(Tensor self, Scalar other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& div_Scalar_mode_out(rt::KernelContext& context, const rt::Tensor& self,
                                rt::Scalar other, rt::Optional<rt::StringRef> rounding_mode,
                                rt::Tensor& out) {
  const rt::OpContext in(context, kScalarModeOp);
  BinaryCall call;
  call.a = &self;
  call.out = &out;
  div_mode<DtypesOf<&kScalarModeOp>>(in, call, &other, rounding_mode);
  return out;
}

}  // namespace portable
