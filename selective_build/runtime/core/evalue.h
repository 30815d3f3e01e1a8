#pragma once

#include <cstdint>
#include <cstring>

#include "runtime/core/span.h"
#include "runtime/core/tensor.h"

namespace rt {

class EValue;

// Numbered as the file's KernelTypes union tags minus one (its Null folds
// into None), so the loader converts by subtraction.
enum class Tag : uint8_t {
  None,
  Int,
  Bool,
  Double,
  Tensor,
  String,
  IntList,
  DoubleList,
  BoolList,
  TensorList,
  OptionalTensorList,
};

// A list whose entries are other values of the same method, so a value
// computed at run time (a symbolic size) is seen by every list naming it.
// Int, Tensor and OptionalTensor lists are boxed this way; for optional
// tensors an entry is null, or a None value, where the program has None.
struct BoxedList {
  EValue* const* items;
  uint32_t size;
};

// Plain values stored in the program file, read unaligned.
template <typename T>
struct FileArray {
  const uint8_t* bytes;
  uint32_t size;

  T operator[](uint32_t index) const {
    T value;
    memcpy(&value, bytes + static_cast<size_t>(index) * sizeof(T), sizeof(T));
    return value;
  }
};

struct StringRef {
  const char* chars;  // not NUL-terminated
  uint32_t size;
};

// One value slot of a method. Accessors do not check the tag: callers test
// it first (kernels through runtime/kernel/kernel_args.h).
class EValue {
 public:
  // Trivial, so zero-filled memory is a table of None values; write EValue()
  // (value-initialized: None) where a fresh value is wanted.
  EValue() = default;

  static EValue from_int(int64_t value) {
    EValue v(Tag::Int);
    v.int_ = value;
    return v;
  }
  static EValue from_double(double value) {
    EValue v(Tag::Double);
    v.double_ = value;
    return v;
  }
  static EValue from_bool(bool value) {
    EValue v(Tag::Bool);
    v.bool_ = value;
    return v;
  }
  static EValue from_tensor(Tensor* value) {
    EValue v(Tag::Tensor);
    v.tensor_ = value;
    return v;
  }
  // String (chars), DoubleList (doubles), BoolList (bytes) or one of the
  // boxed lists (EValue* entries): `size` items at `items`.
  static EValue from_array(Tag tag, const void* items, uint32_t size) {
    EValue v(tag);
    v.array_ = Array{items, size};
    return v;
  }

  Tag tag() const { return tag_; }
  bool is_none() const { return tag_ == Tag::None; }
  bool is_tensor() const { return tag_ == Tag::Tensor; }

  int64_t to_int() const { return int_; }
  double to_double() const { return double_; }
  bool to_bool() const { return bool_; }
  Tensor& to_tensor() const { return *tensor_; }
  StringRef to_string() const {
    return StringRef{static_cast<const char*>(array_.items), array_.size};
  }
  BoxedList to_list() const {
    return BoxedList{static_cast<EValue* const*>(array_.items), array_.size};
  }
  FileArray<double> to_doubles() const {
    return FileArray<double>{static_cast<const uint8_t*>(array_.items), array_.size};
  }
  // Bytes, nonzero = true.
  FileArray<uint8_t> to_bools() const {
    return FileArray<uint8_t>{static_cast<const uint8_t*>(array_.items), array_.size};
  }

 private:
  struct Array {
    const void* items;
    uint32_t size;
  };

  explicit EValue(Tag tag) : tag_(tag), int_(0) {}

  Tag tag_;
  union {
    int64_t int_;
    double double_;
    bool bool_;
    Tensor* tensor_;
    Array array_;
  };
};

}  // namespace rt
