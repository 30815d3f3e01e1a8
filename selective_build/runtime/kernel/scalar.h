#pragma once

#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/value_cast.h"

namespace rt {

// A Scalar argument: a view of an Int, Double or Bool value of the method
// (the method's load checked the kind: runtime/kernel/unboxing.h).
class Scalar {
 public:
  Scalar() = default;
  explicit Scalar(const EValue* value) : value_(value) {}

  bool is_floating() const { return value_->tag() == Tag::Double; }
  bool is_bool() const { return value_->tag() == Tag::Bool; }

  template <typename T>
  T to() const {
    switch (value_->tag()) {
      case Tag::Int:
        return value_cast<T>(value_->to_int());
      case Tag::Double:
        return value_cast<T>(value_->to_double());
      default:
        return value_cast<T>(value_->to_bool());
    }
  }

 private:
  const EValue* value_ = nullptr;
};

}  // namespace rt
