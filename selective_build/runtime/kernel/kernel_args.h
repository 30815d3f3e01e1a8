#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/scalar.h"

namespace rt {

// The typed arguments of kernels (Note [Kernel call layout] in codegen/unboxing.py): the
// generated unboxing converts a call's values into these after the method's load checked
// every value's kind (runtime/kernel/unboxing.h), so nothing here checks again.

// A value that may be absent (a schema type ending in `?`). Trivially copyable; no
// std::optional, whose engaged-flag handling costs bytes in every kernel.
template <typename T>
class Optional {
 public:
  Optional() : has_value_(false), value_() {}
  Optional(T value) : has_value_(true), value_(value) {}  // NOLINT: implicit, as std::optional
  bool has_value() const { return has_value_; }
  const T& value() const { return value_; }
  T value_or(T fallback) const { return has_value_ ? value_ : fallback; }

 private:
  bool has_value_;
  T value_;
};

// Tensor? : a pointer, null when absent.
template <>
class Optional<Tensor> {
 public:
  Optional() : tensor_(nullptr) {}
  Optional(Tensor& tensor) : tensor_(&tensor) {}  // NOLINT: implicit, as std::optional
  bool has_value() const { return tensor_ != nullptr; }
  Tensor& value() const { return *tensor_; }
  Tensor* get() const { return tensor_; }

 private:
  Tensor* tensor_;
};

// int[] / SymInt[]: entries are Int values of the method, so a size computed at run time
// (sym_size) is read when the kernel runs.
class IntList {
 public:
  IntList() : list_{nullptr, 0} {}
  explicit IntList(BoxedList list) : list_(list) {}
  size_t size() const { return list_.size; }
  int64_t operator[](size_t index) const { return list_.items[index]->to_int(); }

 private:
  BoxedList list_;
};

// Tensor[] and Tensor(a!)[].
class TensorList {
 public:
  TensorList() : list_{nullptr, 0} {}
  explicit TensorList(BoxedList list) : list_(list) {}
  size_t size() const { return list_.size; }
  Tensor& operator[](size_t index) const { return list_.items[index]->to_tensor(); }
  BoxedList boxed() const { return list_; }

 private:
  BoxedList list_;
};

// Tensor?[]: an entry is absent where the program has None (a null item or a None value).
class OptionalTensorList {
 public:
  OptionalTensorList() : list_{nullptr, 0} {}
  explicit OptionalTensorList(BoxedList list) : list_(list) {}
  size_t size() const { return list_.size; }
  Optional<Tensor> operator[](size_t index) const {
    EValue* item = list_.items[index];
    return item != nullptr && item->is_tensor() ? Optional<Tensor>(item->to_tensor())
                                                : Optional<Tensor>();
  }

 private:
  BoxedList list_;
};

using DoubleList = FileArray<double>;  // float[]
using BoolList = FileArray<uint8_t>;   // bool[]: nonzero = true

// Converters the generated unboxing calls, one per value kind.
inline Tensor& tensor_arg(EValue* value) { return value->to_tensor(); }
inline TensorList tensor_list_arg(EValue* value) { return TensorList(value->to_list()); }
inline OptionalTensorList optional_tensor_list_arg(EValue* value) {
  return OptionalTensorList(value->to_list());
}
inline Scalar scalar_arg(EValue* value) { return Scalar(value); }
inline int64_t int_arg(EValue* value) { return value->to_int(); }
inline IntList int_list_arg(EValue* value) { return IntList(value->to_list()); }
// The emitter writes a Python int given for a float argument as an Int.
inline double double_arg(EValue* value) {
  return value->tag() == Tag::Int ? static_cast<double>(value->to_int()) : value->to_double();
}
inline DoubleList double_list_arg(EValue* value) { return value->to_doubles(); }
inline bool bool_arg(EValue* value) { return value->to_bool(); }
inline BoolList bool_list_arg(EValue* value) { return value->to_bools(); }
inline StringRef string_arg(EValue* value) { return value->to_string(); }
inline ScalarType scalar_type_arg(EValue* value) {
  return static_cast<ScalarType>(value->to_int());
}

template <typename T, typename Convert>
Optional<T> optional_arg(EValue* value, Convert convert) {
  return value->is_none() ? Optional<T>() : Optional<T>(convert(value));
}

// The operator a kernel runs, for its error messages: "<op>: <what>".
class OpContext {
 public:
  OpContext(KernelContext& context, const char* op) : context_(context), op_(op) {}

  bool ok() const { return !context_.failed(); }
  const char* op() const { return op_; }
  KernelContext& context() const { return context_; }

  // Fails with "<op>: <what>" (static text naming the problem). Out of line:
  // kernels call it from many places.
  void fail(const char* what) const;

 private:
  KernelContext& context_;
  const char* op_;
};

// Makes `out` take `sizes`: a static out must already have them, a dynamic
// one is resized within its planned capacity.
bool resize_out(const OpContext& in, Tensor& out, const int32_t* sizes, int dim);

}  // namespace rt
