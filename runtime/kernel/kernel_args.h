#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/evalue.h"
#include "runtime/core/span.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/scalar.h"

namespace rt {

// An IntList argument whose entries were checked to be Int values.
class IntListArg {
 public:
  IntListArg() : list_{nullptr, 0} {}
  explicit IntListArg(BoxedList list) : list_(list) {}
  size_t size() const { return list_.size; }
  int64_t operator[](size_t index) const { return list_.items[index]->to_int(); }

 private:
  BoxedList list_;
};

// Checked unboxing of a kernel's arguments. Every accessor checks the index
// and the value's kind; the first mismatch fails the context with a message
// naming the op and the argument, and accessors then return empty values.
// A kernel reads all its arguments, then returns early unless ok().
class ArgReader {
 public:
  // `count` includes the return value, which follows the out argument.
  ArgReader(KernelContext& context, const char* op, Span<EValue* const> args, size_t count);

  bool ok() const { return !context_.failed(); }
  const char* op() const { return op_; }
  KernelContext& context() const { return context_; }

  Tensor* tensor(size_t index, const char* name) const;
  int64_t int_value(size_t index, const char* name) const;
  bool bool_value(size_t index, const char* name) const;
  Scalar scalar(size_t index, const char* name) const;  // an Int, Double or Bool value; valid if ok()
  IntListArg int_list(size_t index, const char* name) const;

  // Fails with "<op>: <what>" (static text naming the problem).
  void fail(const char* what) const;

 private:
  // The argument if it has `tag` (None: any Scalar kind); else nullptr after failing.
  const EValue* get(size_t index, Tag tag, const char* name, const char* kind) const;

  KernelContext& context_;
  const char* op_;
  Span<EValue* const> args_;
};

// Makes `out` take `sizes`: a static out must already have them, a dynamic
// one is resized within its planned capacity.
bool resize_out(const ArgReader& in, Tensor& out, const int32_t* sizes, int dim);

}  // namespace rt
