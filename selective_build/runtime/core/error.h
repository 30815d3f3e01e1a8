#pragma once

#include <cstdint>
#include <type_traits>

namespace rt {

// What kind of thing failed; the runner maps these to exit codes.
enum class Error : uint8_t {
  Ok = 0,
  InvalidProgram,   // the .pte is malformed, truncated or inconsistent
  InvalidInput,     // caller data (an input file, an input value) is unusable
  InvalidArgument,  // a kernel was called with arguments it cannot accept
  OperatorMissing,  // the program needs a kernel this build did not register
  NotSupported,     // well-formed, but this runtime does not implement it
  OutOfMemory,
  Io,
};

// An Error plus a short message naming what failed. The message is static
// text, or text owned by the object that reported the failure (a Method, a
// KernelContext) and valid for that object's lifetime.
class [[nodiscard]] Status {
 public:
  constexpr Status() : code_(Error::Ok), message_("") {}
  constexpr Status(Error code, const char* message) : code_(code), message_(message) {}

  constexpr bool ok() const { return code_ == Error::Ok; }
  constexpr Error code() const { return code_; }
  constexpr const char* message() const { return message_; }

 private:
  Error code_;
  const char* message_;
};

// A T or the Status saying why there is none. T must be trivially
// destructible (views, pointers, small structs): nothing here runs a
// destructor. A failed Result leaves its T as T's default constructor does.
template <typename T>
class [[nodiscard]] Result {
  static_assert(std::is_trivially_destructible<T>::value, "Result holds plain values only");

 public:
  Result(const T& value) : value_(value) {}
  Result(Status failure) : status_(failure) {}

  bool ok() const { return status_.ok(); }
  Status status() const { return status_; }
  const T& value() const { return value_; }
  T& value() { return value_; }
  const T& operator*() const { return value_; }
  const T* operator->() const { return &value_; }

 private:
  T value_;
  Status status_;
};

}  // namespace rt

// Returns the Status of `expr` from the enclosing function if it failed.
#define RT_TRY(expr)                         \
  do {                                       \
    const ::rt::Status rt_status_ = (expr);  \
    if (!rt_status_.ok()) return rt_status_; \
  } while (0)
