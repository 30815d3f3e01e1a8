#include "runtime/loader/values.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "runtime/core/message.h"
#include "runtime/loader/schema.h"
#include "runtime/loader/value_list.h"

namespace rt {
namespace {

namespace ev = schema::evalue;
namespace ts = schema::tensor;

static_assert(static_cast<int>(Tag::Int) == ev::kInt - 1 &&
                  static_cast<int>(Tag::Tensor) == ev::kTensor - 1 &&
                  static_cast<int>(Tag::OptionalTensorList) == ev::kOptionalTensorList - 1,
              "Tag is numbered as the file's value types minus one");

// Note [Bool constants]
// A bool is the byte 0 or 1: a kernel reading any other byte as a bool is undefined
// behaviour (UBSan: "load of value 255, which is not a valid value for type 'bool'").
// Inputs are checked where the runner reads them (runtime/runner/npy.cpp); constants come
// from the program, so their bytes are checked here, once, when the method is loaded. Only
// a kernel reads a constant's elements, and only a kernel that takes Bool reads them as
// bool: so the check is compiled only when a selected operator takes a Bool tensor. A
// dtype-selective build says which with RT_BOOL_CONSTANTS=0 or 1 (from the target's dtype
// selection, codegen/plan/objects.py); any other build checks. A runner that selects no Bool
// kernel, add_mul's, carries not one byte of it.
#ifdef RT_BOOL_CONSTANTS
constexpr bool kBoolConstantsChecked = RT_BOOL_CONSTANTS;
#else
constexpr bool kBoolConstantsChecked = true;  // no dtype selection: every kernel may take Bool
#endif

template <bool kChecked>
struct BoolConstants {
  static void check(fb::Reader&, fb::Table, const Tensor&) {}
};

template <>
struct BoolConstants<true> {
  // A constant's bytes: the program's, not planned memory's (written by kernels later).
  static void check(fb::Reader& reader, fb::Table table, const Tensor& tensor) {
    // Static: the Status points at it until the load's failure is reported.
    static Message message;
    if (tensor.dtype() != ScalarType::Bool || tensor.data() == nullptr ||
        reader.get<uint32_t>(table, ts::kDataBufferIdx) == 0 ||
        reader.table(table, ts::kAllocationInfo).present()) {
      return;
    }
    const uint8_t* bytes = static_cast<const uint8_t*>(tensor.data());
    for (size_t i = 0; i < tensor.capacity(); ++i) {
      if (bytes[i] > 1) {
        snprintf(message.text, sizeof message.text,
                 "constant Bool tensor holds the byte %u at element %zu (a bool is 0 or 1)",
                 bytes[i], i);
        return reader.invalid(message.text);
      }
    }
  }
};

// The state of loading one plan's values.
struct ValueLoader {
  fb::Reader& reader;
  const Program& program;
  const PlannedMemory& memory;
  Arena& arena;
  Span<EValue> values;

  void* tensor_memory(fb::Table table, size_t nbytes);
  void load_tensor(fb::Table table, Tensor* tensor);
  EValue load_value(fb::Table entry);
};

// Where the tensor's bytes live, by the rule in values.h; nullptr after a failure.
void* ValueLoader::tensor_memory(fb::Table table, size_t nbytes) {
  const uint32_t buffer_index = reader.get<uint32_t>(table, ts::kDataBufferIdx);
  const fb::Table allocation = reader.table(table, ts::kAllocationInfo);
  const fb::Table extra = reader.table(table, ts::kExtraTensorInfo);
  if (reader.get<uint8_t>(extra, schema::extra_tensor_info::kLocation) ==
      schema::extra_tensor_info::kLocationExternal) {
    reader.fail(Error::NotSupported, "external tensor data is not supported");
    return nullptr;
  }
  if (allocation.present()) {
    // Planned memory with initial state (InitializedMutableBufferPass)
    // would need mutable_data_segments copied in; not done here.
    if (buffer_index > 0)
      reader.fail(Error::NotSupported, "tensors with an initial state are not supported");
    return memory.locate(reader, allocation, nbytes);
  }
  // Kernels never write their inputs; the file buffer itself is writable
  // memory, so even a program that names a constant as an output is safe.
  if (buffer_index > 0)
    return const_cast<uint8_t*>(program.constant_data(reader, buffer_index, nbytes));
  void* data = arena.allocate(nbytes);
  if (data == nullptr) reader.fail(Error::OutOfMemory, "out of memory while loading the method");
  return data;
}

void ValueLoader::load_tensor(fb::Table table, Tensor* tensor) {
  const fb::Vector sizes = reader.vector(table, ts::kSizes, 4);
  const fb::Vector dim_order = reader.vector(table, ts::kDimOrder, 1);
  const uint8_t dynamism = reader.get<uint8_t>(table, ts::kShapeDynamism);
  if (!table.present() || reader.get<int32_t>(table, ts::kStorageOffset) != 0 ||
      dim_order.size != sizes.size ||
      dynamism > static_cast<uint8_t>(ShapeDynamism::DynamicUnbound)) {
    return reader.invalid("tensor is malformed or uses a storage offset");
  }
  // Past kMaxDims only the count matters: init() rejects it.
  int32_t size_values[Tensor::kMaxDims];
  for (uint32_t d = 0; d < sizes.size && d < Tensor::kMaxDims; ++d)
    size_values[d] = reader.at<int32_t>(sizes, d);
  const int dim = sizes.size <= Tensor::kMaxDims ? static_cast<int>(sizes.size) : -1;
  const Status status =
      tensor->init(static_cast<ScalarType>(reader.get<int8_t>(table, ts::kScalarType)), size_values,
                   reader.bytes(dim_order), dim, static_cast<ShapeDynamism>(dynamism));
  if (!status.ok()) return reader.invalid(status.message());  // a shape this file should not have
  void* data = tensor_memory(table, tensor->capacity());
  const size_t alignment =
      tensor->element_size() < 8 ? tensor->element_size() : 8;  // a power of two
  if ((reinterpret_cast<uintptr_t>(data) & (alignment - 1)) != 0) {
    return reader.invalid("tensor data is misaligned");
  }
  tensor->set_data(data);
  BoolConstants<kBoolConstantsChecked>::check(reader, table, *tensor);  // Note [Bool constants]
}

EValue ValueLoader::load_value(fb::Table entry) {
  const uint8_t type = reader.get<uint8_t>(entry, ev::kValType);
  const fb::Table val = reader.table(entry, ev::kVal);
  const int slot = schema::kPayload;
  // The types after Tensor keep a vector in slot 0: String (chars),
  // IntList (int64), DoubleList, BoolList, TensorList and
  // OptionalTensorList (int32), with these element sizes.
  static constexpr uint8_t kStrides[] = {1, 8, 8, 1, 4, 4};
  const fb::Vector items = type > ev::kTensor && type <= ev::kOptionalTensorList
                               ? reader.vector(val, slot, kStrides[type - ev::kString])
                               : fb::Vector{};
  switch (type) {
    case ev::kNone:
    case ev::kNull:
      return EValue();
    case ev::kInt:
      return EValue::from_int(reader.get<int64_t>(val, slot));
    case ev::kBool:
      return EValue::from_bool(reader.get<uint8_t>(val, slot) != 0);
    case ev::kDouble:
      return EValue::from_double(reader.get<double>(val, slot));
    case ev::kTensor: {
      reader.reading("tensor is malformed");
      Tensor* tensor = arena.allocate_array<Tensor>(1);
      if (tensor == nullptr) {
        reader.fail(Error::OutOfMemory, "out of memory while loading the method");
        return EValue();
      }
      load_tensor(val, tensor);
      reader.reading("value is malformed");
      return EValue::from_tensor(tensor);
    }
    case ev::kString:
    case ev::kDoubleList:
    case ev::kBoolList:
      return EValue::from_array(static_cast<Tag>(type - 1), reader.bytes(items), items.size);
    case ev::kIntList:
    case ev::kTensorList:
    case ev::kOptionalTensorList: {
      const BoxedList list = resolve_values(reader, items, type == ev::kIntList,
                                            type == ev::kOptionalTensorList, values, arena);
      return EValue::from_array(static_cast<Tag>(type - 1), list.items, list.size);
    }
    default:
      reader.invalid("value has an unknown type");
      return EValue();
  }
}

}  // namespace

Span<EValue> load_values(fb::Reader& reader, const Program& program, fb::Table plan,
                         const PlannedMemory& memory, Arena& arena) {
  reader.reading("value is malformed");
  const fb::Vector entries = reader.vector(plan, schema::execution_plan::kValues, 4);
  EValue* values = arena.allocate_array<EValue>(entries.size);
  if (values == nullptr) {
    reader.fail(Error::OutOfMemory, "out of memory while loading the method");
    return Span<EValue>();
  }
  ValueLoader loader{reader, program, memory, arena, Span<EValue>(values, entries.size)};
  for (uint32_t i = 0; i < entries.size && reader.ok(); ++i)
    values[i] = loader.load_value(reader.table(entries, i));
  return loader.values;
}

}  // namespace rt
