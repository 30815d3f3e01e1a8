#pragma once

#include <cstdint>

namespace rt {
namespace schema {

// Field slots of program.fbs (namespace executorch_flatbuffer): slot n is the
// n-th field in declaration order; a union field takes two slots, its type
// tag first. Only the fields the runtime reads are named.

namespace program {
constexpr int kExecutionPlan = 1;
constexpr int kConstantBuffer = 2;
constexpr int kSegments = 4;
constexpr int kConstantSegment = 5;
}  // namespace program

namespace execution_plan {
constexpr int kName = 0;
constexpr int kValues = 2;
constexpr int kInputs = 3;
constexpr int kOutputs = 4;
constexpr int kChains = 5;
constexpr int kOperators = 6;
constexpr int kDelegates = 7;
constexpr int kNonConstBufferSizes = 8;
}  // namespace execution_plan

namespace chain {
constexpr int kInstructions = 2;
}

namespace instruction {
constexpr int kArgsType = 0;
constexpr int kArgs = 1;
// InstructionArguments union tags.
constexpr uint8_t kKernelCall = 1;
constexpr uint8_t kDelegateCall = 2;
constexpr uint8_t kMoveCall = 3;
constexpr uint8_t kJumpFalseCall = 4;
constexpr uint8_t kFreeCall = 5;
}  // namespace instruction

namespace kernel_call {
constexpr int kOpIndex = 0;
constexpr int kArgs = 1;
}  // namespace kernel_call

namespace delegate_call {
constexpr int kDelegateIndex = 0;
}

namespace move_call {
constexpr int kMoveFrom = 0;
constexpr int kMoveTo = 1;
}  // namespace move_call

namespace jump_false_call {
constexpr int kCondValueIndex = 0;
constexpr int kDestinationInstruction = 1;
}  // namespace jump_false_call

namespace free_call {
constexpr int kValueIndex = 0;
}

namespace op {
constexpr int kName = 0;
constexpr int kOverload = 1;
}  // namespace op

namespace backend_delegate {
constexpr int kId = 0;
}

namespace evalue {
constexpr int kValType = 0;
constexpr int kVal = 1;
// KernelTypes union tags.
constexpr uint8_t kNone = 0;
constexpr uint8_t kNull = 1;
constexpr uint8_t kInt = 2;
constexpr uint8_t kBool = 3;
constexpr uint8_t kDouble = 4;
constexpr uint8_t kTensor = 5;
constexpr uint8_t kString = 6;
constexpr uint8_t kIntList = 7;
constexpr uint8_t kDoubleList = 8;
constexpr uint8_t kBoolList = 9;
constexpr uint8_t kTensorList = 10;
constexpr uint8_t kOptionalTensorList = 11;
}  // namespace evalue

// Int, Bool, Double, String and the list tables all keep their payload in slot 0.
constexpr int kPayload = 0;

namespace tensor {
constexpr int kScalarType = 0;
constexpr int kStorageOffset = 1;
constexpr int kSizes = 2;
constexpr int kDimOrder = 3;
constexpr int kDataBufferIdx = 5;
constexpr int kAllocationInfo = 6;
constexpr int kShapeDynamism = 8;
constexpr int kExtraTensorInfo = 9;
}  // namespace tensor

namespace extra_tensor_info {
constexpr int kLocation = 2;
constexpr uint8_t kLocationExternal = 1;
}  // namespace extra_tensor_info

namespace allocation_details {
constexpr int kMemoryId = 0;
constexpr int kMemoryOffsetLow = 1;
constexpr int kMemoryOffsetHigh = 2;
}  // namespace allocation_details

namespace buffer {
constexpr int kStorage = 0;
}

namespace data_segment {
constexpr int kOffset = 0;
constexpr int kSize = 1;
}  // namespace data_segment

namespace subsegment_offsets {
constexpr int kSegmentIndex = 0;
constexpr int kOffsets = 1;
}  // namespace subsegment_offsets

}  // namespace schema
}  // namespace rt
