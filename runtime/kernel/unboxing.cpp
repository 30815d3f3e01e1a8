#include "runtime/kernel/unboxing.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace rt {
namespace {

// The value kinds of codegen/unboxing.py, by letter from A (a lower-case
// letter is the same kind or None): the tags each takes and its schema
// spelling. Plain arrays, not pointer tables: no relocations in a
// position-independent runner.
constexpr uint16_t bit(Tag tag) { return static_cast<uint16_t>(1u << static_cast<int>(tag)); }
constexpr uint16_t kNumbers = bit(Tag::Int) | bit(Tag::Bool) | bit(Tag::Double);
constexpr uint16_t kKindTags[] = {
    bit(Tag::Tensor),                                    // A Tensor
    bit(Tag::TensorList),                                // B Tensor[]
    bit(Tag::OptionalTensorList) | bit(Tag::TensorList),  // C Tensor?[]
    kNumbers,                                            // D Scalar
    bit(Tag::Int),                                       // E int
    bit(Tag::IntList),                                   // F int[]
    bit(Tag::Double) | bit(Tag::Int),  // G float: the emitter writes a Python int given for a float as an Int
    bit(Tag::DoubleList),              // H float[]
    bit(Tag::Bool),                    // I bool
    bit(Tag::BoolList),                // J bool[]
    bit(Tag::String),                  // K str
    bit(Tag::None) | kNumbers,         // L a number the kernel writes: whatever placeholder the program has
};
constexpr char kKindNames[][10] = {"Tensor", "Tensor[]", "Tensor?[]", "Scalar", "int", "int[]",
                                   "float",  "float[]",  "bool",      "bool[]", "str", "a number"};

// What a value is, for "got <kind>": the schema spelling of each tag.
constexpr char kTagNames[][10] = {"None",  "int",     "bool",   "float",    "Tensor",   "str",
                                  "int[]", "float[]", "bool[]", "Tensor[]", "Tensor?[]"};

// Whether every entry of a boxed list has the kind the list promises: Tensors
// (absent ones too, in a Tensor?[]) or Ints.
bool entries_fit(const EValue& value) {
  const Tag tag = value.tag();
  if (tag != Tag::TensorList && tag != Tag::OptionalTensorList && tag != Tag::IntList) return true;
  const Tag want = tag == Tag::IntList ? Tag::Int : Tag::Tensor;
  const BoxedList list = value.to_list();
  for (uint32_t i = 0; i < list.size; ++i) {
    const EValue* item = list.items[i];
    const bool absent = item == nullptr || item->is_none();
    if (absent ? tag != Tag::OptionalTensorList : item->tag() != want) return false;
  }
  return true;
}

}  // namespace

bool check_kernel_call(const Kernel& kernel, Span<EValue* const> args, Message& message) {
  // layout: the number of values (one byte), then per value its kind code and
  // name, NUL-terminated; the return slot's name is empty.
  const char* entry = kernel.layout;
  const unsigned count = static_cast<unsigned char>(*entry++);
  if (args.size() != count) {
    snprintf(message.text, sizeof message.text, "%s: the call has %u values, its schema takes %u (%s)", kernel.name,
             static_cast<unsigned>(args.size()), count, "the arguments, then the returned value");
    return false;
  }
  for (EValue* const* value = args.begin(); value != args.end(); ++value) {
    const int code = *entry;
    const int kind = (code & 31) - 1;  // 'A' and 'a' are 0
    const char* name = ++entry;
    while (*entry++ != '\0') {
    }
    const Tag tag = (*value)->tag();
    // Lower case (bit 5 set): None fits too.
    const bool tag_ok = ((kKindTags[kind] | (code & 32 ? bit(Tag::None) : 0)) & bit(tag)) != 0;
    if (tag_ok && entries_fit(**value)) continue;
    // The return slot has no name.
    snprintf(message.text, sizeof message.text,
             *name != '\0' ? "%s: argument '%s' expects %s%s, got %s%s" : "%s: the returned value%s expects %s%s, got %s%s",
             kernel.name, name, kKindNames[kind], code & 32 ? "?" : "", kTagNames[static_cast<int>(tag)],
             tag_ok ? " with an entry of another kind" : "");
    return false;
  }
  return true;
}

}  // namespace rt
