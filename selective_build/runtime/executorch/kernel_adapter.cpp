#include "runtime/executorch/kernel_adapter.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <executorch/runtime/core/evalue.h>
#include <executorch/runtime/core/exec_aten/util/tensor_util.h>
#include <executorch/runtime/platform/log.h>

#include "runtime/core/evalue.h"
#include "runtime/core/tensor.h"
#include "runtime/executorch/tensor_view.h"
#include "runtime/kernel/kernel_args.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/unboxing.h"

namespace rt_et {
namespace {

namespace et = ::executorch::runtime;
using EtTag = et::Tag;
using EtTensor = ::executorch::aten::Tensor;
using EtImpl = ::executorch::runtime::etensor::TensorImpl;

// A call's values are a schema's arguments and one return slot (a few dozen at most);
// its tensors those and the entries of its lists. Beyond these a call fails with a
// message rather than reaching past an array.
constexpr uint32_t kMaxValues = 32;
constexpr uint32_t kMaxViews = 64;
constexpr uint32_t kMaxItems = 256;

// One call's values mirrored as ours (Note [ExecuTorch kernel adapter]). Standard
// layout with the kernel context first, so `resize_out`, which kernels hand only that
// context, finds the frame it belongs to.
struct CallFrame {
  rt::KernelContext context;
  const char* op;
  uint32_t num_views;
  uint32_t num_items;
  rt::EValue values[kMaxValues];
  rt::EValue* args[kMaxValues];
  rt::Tensor views[kMaxViews];
  EtImpl* sources[kMaxViews];  // the ExecuTorch tensor each view shows
  rt::EValue items[kMaxItems];
  rt::EValue* item_pointers[kMaxItems];

  static CallFrame& of(rt::KernelContext& context) {
    return *reinterpret_cast<CallFrame*>(&context);
  }

  void fail(rt::Error code, const char* what) { context.fail(code, op, what); }

  // Our view of `impl` (one per ExecuTorch tensor, however often the call names it:
  // `out` and the return slot share it, and so do their resizes). Null on failure.
  rt::Tensor* view(EtImpl* impl) {
    for (uint32_t i = 0; i < num_views; ++i) {
      if (sources[i] == impl) return &views[i];
    }
    if (num_views == kMaxViews) {
      fail(rt::Error::NotSupported, "the call has more tensors than the adapter's 64");
      return nullptr;
    }
    rt::Tensor& tensor = views[num_views];
    if (!show(impl, &tensor)) return nullptr;
    sources[num_views++] = impl;
    return &tensor;
  }

  // `tensor` shows `impl` (rt_et::view_tensor), or the call fails.
  bool show(EtImpl* impl, rt::Tensor* tensor) {
    const rt::Status status = view_tensor(impl, tensor);
    if (!status.ok()) fail(rt::Error::NotSupported, status.message());
    return status.ok();
  }

  // `count` list entries; null when the frame has no room left.
  rt::EValue** take_items(size_t count) {
    if (count > kMaxItems - num_items) {
      fail(rt::Error::NotSupported, "the call's lists have more entries than the adapter's 256");
      return nullptr;
    }
    rt::EValue** taken = item_pointers + num_items;
    for (size_t i = 0; i < count; ++i) taken[i] = &items[num_items + i];
    num_items += static_cast<uint32_t>(count);
    return taken;
  }

  bool mirror(const et::EValue& from, rt::EValue* to);
  bool mirror_tensors(const et::EValue& from, rt::EValue* to);
};
static_assert(std::is_standard_layout<CallFrame>::value,
              "resize_out finds the frame from its first member");

bool CallFrame::mirror(const et::EValue& from, rt::EValue* to) {
  switch (from.tag) {
    case EtTag::None:
      *to = rt::EValue();
      return true;
    case EtTag::Int:
      *to = rt::EValue::from_int(from.toInt());
      return true;
    case EtTag::Double:
      *to = rt::EValue::from_double(from.toDouble());
      return true;
    case EtTag::Bool:
      *to = rt::EValue::from_bool(from.toBool());
      return true;
    case EtTag::String: {
      const std::string_view text = from.toString();
      *to =
          rt::EValue::from_array(rt::Tag::String, text.data(), static_cast<uint32_t>(text.size()));
      return true;
    }
    case EtTag::Tensor: {
      rt::Tensor* tensor = view(from.toTensor().unsafeGetTensorImpl());
      *to = rt::EValue::from_tensor(tensor);
      return tensor != nullptr;
    }
    case EtTag::ListInt: {
      const auto list = from.tryToIntList();
      rt::EValue** entries = list.ok() ? take_items(list->size()) : nullptr;
      if (entries == nullptr) return false;
      for (size_t i = 0; i < list->size(); ++i) *entries[i] = rt::EValue::from_int((*list)[i]);
      *to = rt::EValue::from_array(rt::Tag::IntList, entries, static_cast<uint32_t>(list->size()));
      return true;
    }
    case EtTag::ListDouble: {
      const auto list = from.tryToDoubleList();
      if (!list.ok()) return false;
      *to = rt::EValue::from_array(rt::Tag::DoubleList, list->data(),
                                   static_cast<uint32_t>(list->size()));
      return true;
    }
    case EtTag::ListBool: {
      // bool is one byte, 0 or 1: the layout of our bool[] (nonzero = true).
      static_assert(sizeof(bool) == 1, "bool[] is read as bytes");
      const auto list = from.tryToBoolList();
      if (!list.ok()) return false;
      *to = rt::EValue::from_array(rt::Tag::BoolList, list->data(),
                                   static_cast<uint32_t>(list->size()));
      return true;
    }
    case EtTag::ListTensor:
    case EtTag::ListOptionalTensor:
      return mirror_tensors(from, to);
    default:  // ListScalar: no schema of ours takes one
      fail(rt::Error::NotSupported, "the call passes a value kind our kernels do not take");
      return false;
  }
}

// Tensor[] and Tensor?[]: one entry per tensor, a null entry where the list has None.
bool CallFrame::mirror_tensors(const et::EValue& from, rt::EValue* to) {
  const bool optional = from.tag == EtTag::ListOptionalTensor;
  size_t size = 0;
  const EtTensor* tensors = nullptr;
  const std::optional<EtTensor>* maybe = nullptr;
  if (optional) {
    const auto list = from.tryToListOptionalTensor();
    if (!list.ok()) return false;
    maybe = list->data();
    size = list->size();
  } else {
    const auto list = from.tryToTensorList();
    if (!list.ok()) return false;
    tensors = list->data();
    size = list->size();
  }
  rt::EValue** entries = take_items(size);
  if (entries == nullptr) return false;
  for (size_t i = 0; i < size; ++i) {
    const EtTensor* tensor = optional ? (maybe[i].has_value() ? &*maybe[i] : nullptr) : &tensors[i];
    if (tensor == nullptr) {
      entries[i] = nullptr;
      continue;
    }
    rt::Tensor* shown = view(tensor->unsafeGetTensorImpl());
    if (shown == nullptr) return false;
    *entries[i] = rt::EValue::from_tensor(shown);
  }
  *to = rt::EValue::from_array(optional ? rt::Tag::OptionalTensorList : rt::Tag::TensorList,
                               entries, static_cast<uint32_t>(size));
  return true;
}

// Our error kinds as ExecuTorch's.
et::Error executorch_error(rt::Error code) {
  switch (code) {
    case rt::Error::InvalidArgument:
      return et::Error::InvalidArgument;
    case rt::Error::NotSupported:
      return et::Error::NotSupported;
    case rt::Error::OutOfMemory:
      return et::Error::MemoryAllocationFailed;
    case rt::Error::OperatorMissing:
      return et::Error::OperatorMissing;
    case rt::Error::InvalidProgram:
      return et::Error::InvalidProgram;
    default:
      return et::Error::Internal;
  }
}

// A number the kernel wrote into its return slot (layout code 'L'), as ExecuTorch's value.
void hand_back_number(const rt::EValue& from, et::EValue* to) {
  switch (from.tag()) {
    case rt::Tag::Int:
      *to = et::EValue(from.to_int());
      break;
    case rt::Tag::Double:
      *to = et::EValue(from.to_double());
      break;
    case rt::Tag::Bool:
      *to = et::EValue(from.to_bool());
      break;
    default:
      break;
  }
}

// The code of the layout's last value (the return slot's, when the schema has one).
char last_code(const char* layout) {
  unsigned count = static_cast<unsigned char>(*layout++);
  char code = 0;
  for (; count > 0; --count) {
    code = *layout;
    layout += strlen(layout) + 1;
  }
  return code;
}

}  // namespace

void run_kernel(const rt::Kernel& kernel, et::KernelRuntimeContext& context,
                et::Span<et::EValue*> stack) {
  CallFrame frame;
  frame.op = kernel.name;
  frame.num_views = 0;
  frame.num_items = 0;
  bool ok = stack.size() <= kMaxValues;
  if (!ok) frame.fail(rt::Error::InvalidArgument, "the call has more values than any schema");
  for (size_t i = 0; ok && i < stack.size(); ++i) {
    frame.args[i] = &frame.values[i];
    ok = frame.mirror(*stack[i], frame.args[i]);
  }
  rt::Message message;
  if (ok && !rt::check_kernel_call(kernel, rt::Span<rt::EValue* const>(frame.args, stack.size()),
                                   message)) {
    ET_LOG(Error, "%s", message.text);
    context.fail(et::Error::InvalidArgument);
    return;
  }
  if (ok) {
    kernel.fn(frame.context, rt::Span<rt::EValue* const>(frame.args, stack.size()));
    // A kernel that makes its output share its input's data (et_view's kind) moved the
    // view's pointer; the tensor it stands for follows.
    for (uint32_t i = 0; i < frame.num_views; ++i) {
      if (frame.views[i].data() != frame.sources[i]->mutable_data()) {
        frame.sources[i]->set_data(frame.views[i].data());
      }
    }
    if (!stack.empty() && last_code(kernel.layout) == 'L') {
      hand_back_number(*frame.args[stack.size() - 1], stack[stack.size() - 1]);
    }
  }
  if (frame.context.failed()) {
    const rt::Status status = frame.context.status();
    ET_LOG(Error, "%s", status.message());
    context.fail(executorch_error(status.code()));
  } else if (!ok) {
    // A list whose entries have another kind than its tag says.
    ET_LOG(Error, "%s: a list of the call has an entry of another kind", kernel.name);
    context.fail(et::Error::InvalidArgument);
  }
}

bool register_selected(et::Span<const et::Kernel> kernels) {
  const et::Error error = et::register_kernels(kernels);
  if (error == et::Error::Ok) return true;
  ET_LOG(Error, "registering the selected kernels failed with ExecuTorch error 0x%x",
         static_cast<unsigned>(error));
  return false;
}

}  // namespace rt_et

namespace rt {

// Note [ExecuTorch kernel adapter]: in these targets every KernelContext a kernel sees is
// the first member of a call frame, and an out tensor is a view the frame made.
void OpContext::fail(const char* what) const { context_.fail(Error::InvalidArgument, op_, what); }

bool resize_out(const OpContext& in, Tensor& out, const int32_t* sizes, int dim) {
  rt_et::CallFrame& frame = rt_et::CallFrame::of(in.context());
  for (uint32_t i = 0; i < frame.num_views; ++i) {
    if (&frame.views[i] != &out) continue;
    rt_et::EtImpl* impl = frame.sources[i];
    const bool ok = dim == out.dim() && executorch::runtime::internal::resize_tensor_impl(
                                            impl, executorch::aten::ArrayRef<int32_t>(
                                                      sizes, static_cast<size_t>(dim))) ==
                                            executorch::runtime::Error::Ok;
    if (ok && frame.show(impl, &out)) return true;
    in.fail("out has the wrong shape");
    return false;
  }
  // A tensor of the kernel's own (scratch space), not one of the call's.
  if (out.resize(sizes, dim).ok()) return true;
  in.fail("out has the wrong shape");
  return false;
}

}  // namespace rt
