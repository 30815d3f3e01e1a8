#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/common/declared_dtypes.h"
#include "runtime/core/value_cast.h"
#include "runtime/kernel/dispatch.h"
#include "runtime/kernel/dtype_selection.h"
#include "runtime/kernel/kernel.h"
#include "runtime/kernel/kernel_args.h"

namespace portable {
namespace {

constexpr const char* kOp = "aten::arange.out";
constexpr const char* kStartOp = "aten::arange.start_out";
using Dtypes =
    rt::DtypeDispatch<kernels::declared_dtypes(kOp).bits(), rt::selected_dtypes(kOp).bits()>;
using StartDtypes = rt::DtypeDispatch<kernels::declared_dtypes(kStartOp).bits(),
                                      rt::selected_dtypes(kStartOp).bits()>;

// start, end and step in the dtype torch computes a range of T in: int64 for
// integers, float for 16-bit floats, double otherwise.
struct Range {
  int64_t start, end, step;    // integer outs
  double fstart, fend, fstep;  // floating point outs
};

template <typename T>
using range_t =
    std::conditional_t<std::is_integral<T>::value, int64_t,
                       std::conditional_t<rt::is_reduced_float<T>::value, float, double>>;

template <typename T>
void fill_range(const Range& range, rt::Tensor& out) {
  using A = range_t<T>;
  T* data = out.data_as<T>();
  if constexpr (std::is_integral<T>::value) {
    for (int64_t i = 0; i < out.numel(); ++i) {
      // Wraps like torch's int64 arithmetic, without signed overflow.
      const uint64_t value = static_cast<uint64_t>(range.start) +
                             static_cast<uint64_t>(range.step) * static_cast<uint64_t>(i);
      data[i] = static_cast<T>(static_cast<int64_t>(value));
    }
  } else {
    const A start = static_cast<A>(range.fstart), step = static_cast<A>(range.fstep);
    for (int64_t i = 0; i < out.numel(); ++i)
      data[i] = rt::value_cast<T>(start + step * static_cast<A>(i));
  }
}

// The checks and the length of a range, then out filled with it.
template <typename Dispatch>
void arange(const rt::OpContext& in, const rt::Scalar* start, rt::Scalar end,
            const rt::Scalar* step, rt::Tensor& out) {
  const rt::ScalarType dtype = out.dtype();
  if (!Dispatch::check(in.context(), in.op(), dtype)) return;
  Range range;
  range.start = start != nullptr ? start->to<int64_t>() : 0;
  range.end = end.to<int64_t>();
  range.step = step != nullptr ? step->to<int64_t>() : 1;
  range.fstart = start != nullptr ? start->to<double>() : 0.0;
  range.fend = end.to<double>();
  range.fstep = step != nullptr ? step->to<double>() : 1.0;
  const bool floating = rt::is_floating_type(dtype);
  if (floating && (!std::isfinite(range.fstart) || !std::isfinite(range.fend))) {
    return in.fail("start and end must be finite");
  }
  // torch checks the values converted to the computation dtype; it sizes an
  // int64 range from them too, every other one from the values as doubles.
  const double lo = floating ? range.fstart : static_cast<double>(range.start);
  const double hi = floating ? range.fend : static_cast<double>(range.end);
  const double by = floating ? range.fstep : static_cast<double>(range.step);
  if (by == 0) return in.fail("step must be nonzero");
  if ((by > 0 && hi < lo) || (by < 0 && hi > lo))
    return in.fail("start and end are inconsistent with step's sign");
  const double length = dtype == rt::ScalarType::Long
                            ? std::ceil(static_cast<double>(range.end - range.start) /
                                        static_cast<double>(range.step))
                            : std::ceil((range.fend - range.fstart) / range.fstep);
  if (!(length >= 0 && length <= INT32_MAX)) return in.fail("the range is too long");
  const int32_t size = static_cast<int32_t>(length);
  if (!resize_out(in, out, &size, 1)) return;
  Dispatch::run(in.context(), in.op(), dtype,
                [&](auto tag) { fill_range<typename decltype(tag)::type>(range, out); });
}

}  // namespace

// arange.out(Scalar end, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& arange_out(rt::KernelContext& context, rt::Scalar end, rt::Tensor& out) {
  const rt::OpContext in(context, kOp);
  arange<Dtypes>(in, nullptr, end, nullptr, out);
  return out;
}

// arange.start_out(Scalar start, Scalar end, Scalar step=1, *, Tensor(a!) out) -> Tensor(a!)
rt::Tensor& arange_start_out(rt::KernelContext& context, rt::Scalar start, rt::Scalar end,
                             rt::Scalar step, rt::Tensor& out) {
  const rt::OpContext in(context, kStartOp);
  arange<StartDtypes>(in, &start, end, &step, out);
  return out;
}

}  // namespace portable
