#include "runtime/kernel/kernel_key.h"

#include <cstdio>

namespace rt {
namespace {

// The tensor an argument contributes to the key, if any.
const Tensor* key_tensor(const EValue& arg) {
  if (arg.is_tensor()) return &arg.to_tensor();
  if (arg.tag() != Tag::TensorList && arg.tag() != Tag::OptionalTensorList) return nullptr;
  const BoxedList list = arg.to_list();
  for (uint32_t i = 0; i < list.size; ++i) {
    const EValue* item = list.items[i];
    if (item != nullptr && item->is_tensor()) return &item->to_tensor();
    if (arg.tag() == Tag::TensorList) break;  // only its first element counts
  }
  return nullptr;
}

}  // namespace

bool make_kernel_key(Span<EValue* const> args, char* buffer, size_t capacity) {
  size_t length = static_cast<size_t>(snprintf(buffer, capacity, "v1"));
  const char* separator = "/";
  for (EValue* arg : args) {
    const Tensor* tensor = key_tensor(*arg);
    if (tensor == nullptr || length >= capacity) continue;
    length += static_cast<size_t>(snprintf(buffer + length, capacity - length, "%s%d;", separator,
                                           static_cast<int>(tensor->dtype())));
    separator = "|";
    for (int d = 0; d < tensor->dim() && length < capacity; ++d) {
      length += static_cast<size_t>(snprintf(buffer + length, capacity - length,
                                             d == 0 ? "%d" : ",%d", tensor->dim_order()[d]));
    }
  }
  return length < capacity;
}

}  // namespace rt
