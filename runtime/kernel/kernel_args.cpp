#include "runtime/kernel/kernel_args.h"

namespace rt {

ArgReader::ArgReader(KernelContext& context, const char* op, Span<EValue* const> args, size_t count)
    : context_(context), op_(op), args_(args) {
  if (args.size() != count) fail("wrong number of arguments");
}

const EValue* ArgReader::get(size_t index, Tag tag, const char* name, const char* kind) const {
  const EValue* value = index < args_.size() && ok() ? args_[index] : nullptr;
  // Int, Bool and Double are consecutive tags.
  const bool matches = value != nullptr && (tag == Tag::None ? value->tag() >= Tag::Int && value->tag() <= Tag::Double
                                                             : value->tag() == tag);
  if (matches) return value;
  context_.fail_argument(op_, name, kind);
  return nullptr;
}

Tensor* ArgReader::tensor(size_t index, const char* name) const {
  const EValue* value = get(index, Tag::Tensor, name, "a tensor");
  return value != nullptr ? &value->to_tensor() : nullptr;
}

int64_t ArgReader::int_value(size_t index, const char* name) const {
  const EValue* value = get(index, Tag::Int, name, "an int");
  return value != nullptr ? value->to_int() : 0;
}

bool ArgReader::bool_value(size_t index, const char* name) const {
  const EValue* value = get(index, Tag::Bool, name, "a bool");
  return value != nullptr && value->to_bool();
}

Scalar ArgReader::scalar(size_t index, const char* name) const {
  return Scalar(get(index, Tag::None, name, "a scalar"));
}

IntListArg ArgReader::int_list(size_t index, const char* name) const {
  const EValue* value = get(index, Tag::IntList, name, "an int list");
  if (value == nullptr) return IntListArg();
  const BoxedList list = value->to_list();
  for (uint32_t i = 0; i < list.size; ++i) {
    if (list.items[i] == nullptr || list.items[i]->tag() != Tag::Int) {
      context_.fail_argument(op_, name, "a list of ints");
      return IntListArg();
    }
  }
  return IntListArg(list);
}

void ArgReader::fail(const char* what) const { context_.fail(Error::InvalidArgument, op_, what); }

bool resize_out(const ArgReader& in, Tensor& out, const int32_t* sizes, int dim) {
  if (out.resize(sizes, dim).ok()) return true;
  in.fail("out has the wrong shape");
  return false;
}

}  // namespace rt
