// Note [Instruction sets] (codegen/isa.py): a runner whose optimized kernels are compiled
// for more than x86-64's baseline links this file, compiled with the same -march. Before
// any other code of the program runs (from .preinit_array, ahead of every constructor), it
// asks the processor, with cpuid and xgetbv, for each extension the compiler was told it
// may use (its predefined macros), and when one is missing prints one line naming them and
// exits: never an illegal instruction halfway through a model. Its own code is compiled for
// the baseline (target("arch=x86-64") on every function), so the check itself cannot
// fault; only extensions a compiler may use on its own are checked (those of the x86-64
// levels, AVX-512's and a few vector ones), not those reached only through intrinsics
// nobody here calls.

#if defined(__x86_64__)

#include <unistd.h>

#include <cstdint>

#define RT_BASELINE __attribute__((target("arch=x86-64")))

namespace {

// Where cpuid reports an extension: leaf (and subleaf), register, bit.
enum Register : uint8_t { kEax, kEbx, kEcx, kEdx };
struct Extension {
  const char* name;
  uint32_t leaf;
  uint8_t subleaf, reg, bit;
  uint8_t state;  // XCR0 bits the OS must enable for its registers: 0, AVX or AVX-512's
};
[[maybe_unused]] constexpr uint8_t kAvxState = 0x06, kAvx512State = 0xe6;

constexpr Extension kCompiledFor[] = {
#ifdef __SSE3__
    {"sse3", 1, 0, kEcx, 0, 0},
#endif
#ifdef __SSSE3__
    {"ssse3", 1, 0, kEcx, 9, 0},
#endif
#ifdef __SSE4_1__
    {"sse4.1", 1, 0, kEcx, 19, 0},
#endif
#ifdef __SSE4_2__
    {"sse4.2", 1, 0, kEcx, 20, 0},
#endif
#ifdef __POPCNT__
    {"popcnt", 1, 0, kEcx, 23, 0},
#endif
#ifdef __MOVBE__
    {"movbe", 1, 0, kEcx, 22, 0},
#endif
#ifdef __LZCNT__
    {"lzcnt", 0x80000001, 0, kEcx, 5, 0},
#endif
#ifdef __BMI__
    {"bmi1", 7, 0, kEbx, 3, 0},
#endif
#ifdef __BMI2__
    {"bmi2", 7, 0, kEbx, 8, 0},
#endif
#ifdef __AVX__
    {"avx", 1, 0, kEcx, 28, kAvxState},
#endif
#ifdef __F16C__
    {"f16c", 1, 0, kEcx, 29, kAvxState},
#endif
#ifdef __FMA__
    {"fma", 1, 0, kEcx, 12, kAvxState},
#endif
#ifdef __AVX2__
    {"avx2", 7, 0, kEbx, 5, kAvxState},
#endif
#ifdef __AVXVNNI__
    {"avx_vnni", 7, 1, kEax, 4, kAvxState},
#endif
#ifdef __AVX512F__
    {"avx512f", 7, 0, kEbx, 16, kAvx512State},
#endif
#ifdef __AVX512DQ__
    {"avx512dq", 7, 0, kEbx, 17, kAvx512State},
#endif
#ifdef __AVX512IFMA__
    {"avx512ifma", 7, 0, kEbx, 21, kAvx512State},
#endif
#ifdef __AVX512CD__
    {"avx512cd", 7, 0, kEbx, 28, kAvx512State},
#endif
#ifdef __AVX512BW__
    {"avx512bw", 7, 0, kEbx, 30, kAvx512State},
#endif
#ifdef __AVX512VL__
    {"avx512vl", 7, 0, kEbx, 31, kAvx512State},
#endif
#ifdef __AVX512VBMI__
    {"avx512vbmi", 7, 0, kEcx, 1, kAvx512State},
#endif
#ifdef __AVX512VBMI2__
    {"avx512_vbmi2", 7, 0, kEcx, 6, kAvx512State},
#endif
#ifdef __GFNI__
    {"gfni", 7, 0, kEcx, 8, 0},
#endif
#ifdef __VAES__
    {"vaes", 7, 0, kEcx, 9, kAvxState},
#endif
#ifdef __VPCLMULQDQ__
    {"vpclmulqdq", 7, 0, kEcx, 10, kAvxState},
#endif
#ifdef __AVX512VNNI__
    {"avx512_vnni", 7, 0, kEcx, 11, kAvx512State},
#endif
#ifdef __AVX512BITALG__
    {"avx512_bitalg", 7, 0, kEcx, 12, kAvx512State},
#endif
#ifdef __AVX512VPOPCNTDQ__
    {"avx512_vpopcntdq", 7, 0, kEcx, 14, kAvx512State},
#endif
#ifdef __AVX512FP16__
    {"avx512_fp16", 7, 0, kEdx, 23, kAvx512State},
#endif
#ifdef __AVX512BF16__
    {"avx512_bf16", 7, 1, kEax, 5, kAvx512State},
#endif
    {nullptr, 0, 0, 0, 0, 0},  // keeps the array non-empty
};

RT_BASELINE void cpuid(uint32_t leaf, uint32_t subleaf, uint32_t out[4]) {
  __asm__ volatile("cpuid"
                   : "=a"(out[kEax]), "=b"(out[kEbx]), "=c"(out[kEcx]), "=d"(out[kEdx])
                   : "a"(leaf), "c"(subleaf));
}

RT_BASELINE bool has(const Extension& extension, uint32_t xcr0) {
  uint32_t regs[4];
  const uint32_t base = extension.leaf & 0x80000000u;
  cpuid(base, 0, regs);
  if (regs[kEax] < extension.leaf) return false;  // the processor has no such leaf
  if (extension.subleaf > 0) {
    cpuid(extension.leaf, 0, regs);
    if (regs[kEax] < extension.subleaf) return false;
  }
  cpuid(extension.leaf, extension.subleaf, regs);
  return (regs[extension.reg] >> extension.bit & 1) != 0 &&
         (xcr0 & extension.state) == extension.state;
}

// The register state the OS saves and restores (XCR0): AVX's and AVX-512's registers are
// usable only when it does.
RT_BASELINE uint32_t enabled_state() {
  uint32_t regs[4];
  cpuid(1, 0, regs);
  if ((regs[kEcx] >> 27 & 1) == 0) return 0;  // no OSXSAVE: no xgetbv
  uint32_t low, high;
  __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
  return low;
}

RT_BASELINE void append(char* line, uint32_t* length, uint32_t capacity, const char* text) {
  while (*text != '\0' && *length + 1 < capacity) line[(*length)++] = *text++;
}

RT_BASELINE void check_instruction_set(int, char**, char**) {
  const uint32_t xcr0 = enabled_state();
  char line[512];
  uint32_t length = 0;
  append(line, &length, sizeof line, "runner: this processor lacks ");
  const uint32_t prefix = length;
  for (const Extension& extension : kCompiledFor) {
    if (extension.name == nullptr || has(extension, xcr0)) continue;
    if (length > prefix) append(line, &length, sizeof line, ", ");
    append(line, &length, sizeof line, extension.name);
  }
  if (length == prefix) return;
  append(line, &length, sizeof line,
         ", which this runner was compiled for: build it with a toolchain for this processor"
         " (README, \"Instruction sets\")\n");
  const ssize_t written = write(2, line, length);
  (void)written;
  _exit(1);
}

// Run by the C library before the program's constructors and main.
__attribute__((used,
               section(".preinit_array"))) void (*const kCheck)(int, char**,
                                                                char**) = check_instruction_set;

}  // namespace

#endif  // __x86_64__
