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
alignas(2) constexpr uint16_t kKindTags[] = {
    // alignas: no padding to 16
    bit(Tag::Tensor),                                     // A Tensor
    bit(Tag::TensorList),                                 // B Tensor[]
    bit(Tag::OptionalTensorList) | bit(Tag::TensorList),  // C Tensor?[]
    kNumbers,                                             // D Scalar
    bit(Tag::Int),                                        // E int
    bit(Tag::IntList),                                    // F int[]
    bit(Tag::Double) |
        bit(Tag::Int),     // G float: the emitter writes a Python int given for a float as an Int
    bit(Tag::DoubleList),  // H float[]
    bit(Tag::Bool),        // I bool
    bit(Tag::BoolList),    // J bool[]
    bit(Tag::String),      // K str
    bit(Tag::None) |
        kNumbers,  // L a number the kernel writes: whatever placeholder the program has
};
// Every name a message uses, packed and NUL-separated (two tables of fixed-width
// rows, each 32-byte aligned, took about 160 B more of the smallest runner's
// read-only segment): the schema spelling of each tag, in Tag order; then the
// two kinds that are no single tag. alignas(1): GCC otherwise aligns an array
// of 32 bytes or more to 32.
alignas(1) constexpr char kNames[] =
    "None\0int\0bool\0float\0Tensor\0str\0int[]\0float[]\0bool[]\0Tensor[]\0Tensor?[]\0Scalar\0a "
    "number";
// Where name `index` of kNames starts, at compile time: byte offsets, no walk
// and no relocation at run time.
constexpr uint8_t name_offset(unsigned index) {
  unsigned at = 0;
  for (; index != 0; --index) {
    while (kNames[at] != '\0') ++at;
    ++at;
  }
  return static_cast<uint8_t>(at);
}
constexpr uint8_t tag_name(Tag tag) { return name_offset(static_cast<unsigned>(tag)); }
static_assert(static_cast<int>(Tag::OptionalTensorList) == 10,
              "kNames has one name per Tag, then Scalar");
// Each tag's name, for "got <kind>".
constexpr uint8_t kTagName[] = {tag_name(Tag::None),
                                tag_name(Tag::Int),
                                tag_name(Tag::Bool),
                                tag_name(Tag::Double),
                                tag_name(Tag::Tensor),
                                tag_name(Tag::String),
                                tag_name(Tag::IntList),
                                tag_name(Tag::DoubleList),
                                tag_name(Tag::BoolList),
                                tag_name(Tag::TensorList),
                                tag_name(Tag::OptionalTensorList)};
// Each kind's schema spelling, by letter from A.
constexpr uint8_t kKindName[] = {
    tag_name(Tag::Tensor),     tag_name(Tag::TensorList), tag_name(Tag::OptionalTensorList),
    name_offset(11),  // Scalar
    tag_name(Tag::Int),        tag_name(Tag::IntList),    tag_name(Tag::Double),
    tag_name(Tag::DoubleList), tag_name(Tag::Bool),       tag_name(Tag::BoolList),
    tag_name(Tag::String),     name_offset(12),  // a number
};
static_assert(sizeof kKindName == sizeof kKindTags / sizeof kKindTags[0], "one name per kind");

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
    snprintf(
        message.text, sizeof message.text,
        "%s: the call has %u values, its schema takes %u (the arguments, then the returned value)",
        kernel.name, static_cast<unsigned>(args.size()), count);
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
             *name != '\0' ? "%s: argument '%s' expects %s%s, got %s%s"
                           : "%s: the returned value%s expects %s%s, got %s%s",
             kernel.name, name, kNames + kKindName[kind], code & 32 ? "?" : "",
             kNames + kTagName[static_cast<int>(tag)],
             tag_ok ? " with an entry of another kind" : "");
    return false;
  }
  return true;
}

}  // namespace rt
