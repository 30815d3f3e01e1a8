#pragma once

#include <cstdint>

#include "runtime/core/half.h"
#include "runtime/core/scalar_type.h"
#include "runtime/kernel/dtype_set.h"
#include "runtime/kernel/kernel_context.h"

namespace rt {

template <typename T>
struct TypeTag {
  using type = T;
};

// The single way kernels turn a run-time dtype into a C++ type; see
// Note [Dtype selection]. kSupportedBits is what the kernel implements,
// kSelectedBits what the build selected for its operator.
template <uint32_t kSupportedBits, uint32_t kSelectedBits>
struct DtypeDispatch {
  static constexpr DtypeSet kSupported = DtypeSet(kSupportedBits);
  static constexpr DtypeSet kEnabled = DtypeSet(kSupportedBits & kSelectedBits);

  // Calls fn(TypeTag<T>{}) with T the C++ type of `dtype` and returns true;
  // or fails the context (naming op and dtype) and returns false.
  template <typename Fn>
  static bool run(KernelContext& context, const char* op, ScalarType dtype, Fn&& fn) {
    static_assert((kSupportedBits & ~kRealAndBoolDtypes.bits()) == 0,
                  "run() has no case for a supported dtype: the kernel's functions.yaml entry "
                  "declares one (or, without `dtypes:`, every dtype): Note [Declared dtypes]");
    switch (dtype) {
#define RT_DISPATCH_CASE(NAME, CTYPE)                    \
  case ScalarType::NAME:                                 \
    if constexpr (kEnabled.contains(ScalarType::NAME)) { \
      fn(TypeTag<CTYPE>{});                              \
      return true;                                       \
    }                                                    \
    break;
      RT_DISPATCH_CASE(Byte, uint8_t)
      RT_DISPATCH_CASE(Char, int8_t)
      RT_DISPATCH_CASE(Short, int16_t)
      RT_DISPATCH_CASE(Int, int32_t)
      RT_DISPATCH_CASE(Long, int64_t)
      RT_DISPATCH_CASE(Half, Half)
      RT_DISPATCH_CASE(Float, float)
      RT_DISPATCH_CASE(Double, double)
      RT_DISPATCH_CASE(Bool, bool)
      RT_DISPATCH_CASE(BFloat16, BFloat16)
#undef RT_DISPATCH_CASE
      default:
        break;
    }
    return context.check_dtype(op, dtype, kSupported.bits(), 0);  // always fails
  }

  // The same verdict as run() without instantiating anything per dtype: for
  // arguments a kernel does not compute in, or only moves bytes of.
  static bool check(KernelContext& context, const char* op, ScalarType dtype) {
    return context.check_dtype(op, dtype, kSupported.bits(), kEnabled.bits());
  }
};

}  // namespace rt
