// runner MODEL.pte [--method NAME] [--input FILE.npy]... [--output-dir DIR] [--iterations N]
// runner --help: prints that line and exits 0.
//
// Loads one method, feeds it the inputs in argument order, runs it, and
// writes output0.npy, output1.npy, ... to DIR, or prints one line per output
// ("<index>: <dtype> <shape>", e.g. "0: Float (2, 2)"). With --iterations N
// it runs N times, setting the inputs before every run (planned memory may
// reuse an input's bytes for later values), and prints
// "mean time per run: <x> us" then "min time per run: <x> us", execution
// alone; the outputs are those of the last run. Any failure prints one line,
// "runner: <file>: <what failed>", and exits 2 for bad usage or unusable
// files (program, inputs), 1 for everything else.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <new>

#include "runtime/core/evalue.h"
#include "runtime/core/no_plt.h"
#include "runtime/executor/method.h"
#include "runtime/kernel/registry.h"
#include "runtime/loader/program.h"
#include "runtime/runner/file_io.h"
#include "runtime/runner/npy.h"

// What `runner --help` prints, and the usage error without a model.
#define RT_USAGE \
  "runner MODEL.pte [--method NAME] [--input FILE.npy]... [--output-dir DIR] [--iterations N]"

namespace {

using rt::Error;
using rt::Status;

// Enough for any benchmark; a larger count is a typo (or 99999999999999999999,
// which strtol would have saturated into a loop without end).
constexpr long kMaxIterations = 1000000000;

// Writes `text` to stderr with bytes outside printable ASCII as \xNN and a
// backslash as \\ (a hostile name, of a file or from one: an operator, a
// backend, can neither break the line nor send escape sequences to the
// terminal), then `after`.
void print_escaped(const char* text, const char* after) {
  for (const char* c = text; *c != '\0'; ++c) {
    const unsigned char byte = static_cast<unsigned char>(*c);
    fprintf(stderr, byte == '\\' ? "\\\\" : byte - 0x20u < 0x5fu ? "%c" : "\\x%02x", byte);
  }
  fputs(after, stderr);  // by name, through the GOT: Note [No PLT]
}

// Prints the one failure line, "runner: <file>: <message>"; returns the exit code.
int report(const char* file, Status status) {
  fputs("runner: ", stderr);
  print_escaped(file, ": ");
  print_escaped(status.message(), "\n");
  return status.code() == Error::InvalidProgram || status.code() == Error::InvalidInput ? 2 : 1;
}

__attribute__((noinline)) int64_t now_ns() {  // out of line: smaller, and called twice
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

#ifdef RT_PROFILE_CALLS
// Note [Call profile] (runtime/executor/call_profile.h): a line per instruction that ran a
// kernel, its times per call, then the shapes of its tensor arguments in order:
// "call 3 aten::convolution.out calls 200 wall_us 41.250 [1,32,112,112] ...".
// The operator's name is the registry's, never the file's.
void print_call_profile(const rt::Method& method) {
  const rt::Span<const rt::CallTimes> times = method.call_times();
  const rt::Span<const rt::Instruction> instructions = method.instructions();
  for (size_t pc = 0; pc < times.size(); ++pc) {
    const rt::CallTimes& t = times[pc];
    if (t.calls == 0) continue;
    const double calls = static_cast<double>(t.calls);
    printf("call %zu %s calls %lld wall_us %.3f", pc, instructions[pc].op,
           static_cast<long long>(t.calls), static_cast<double>(t.wall_ns) / 1e3 / calls);
    for (const rt::EValue* value : instructions[pc].args) {
      if (!value->is_tensor()) continue;
      const rt::Tensor& tensor = value->to_tensor();
      fputs(" [", stdout);
      for (int d = 0; d < tensor.dim(); ++d) printf(d > 0 ? ",%d" : "%d", tensor.sizes()[d]);
      fputs("]", stdout);
    }
    fputs("\n", stdout);
  }
}
#endif

// "1" to "1000000000", digits only: no sign, space or suffix; 0 otherwise.
long parse_iterations(const char* text) {
  long value = 0;
  for (const char* c = text; *c != '\0'; ++c) {
    if (*c < '0' || *c > '9') return 0;
    value = value * 10 + (*c - '0');
    if (value > kMaxIterations) return 0;  // checked per digit: never overflows
  }
  return value;
}

// Note [Inputs read once]
// With --iterations N every run gets its inputs afresh (the plan may reuse their bytes).
// Runners that link the optimized library's layers (compiled with Note [Fusion at load]
// or Note [Prepared weights]: runners built for speed) map and parse each input file once,
// keep the mappings and set the inputs of the later runs from them: one copy per input and
// run (Method::set_input), no file opened, mapped or parsed again, which the benchmarks'
// CPU time would count. The size-first runners read the files again before each run:
// keeping them (about 200 B of code) costs add_mul's runner and the Llama decoder's
// portable one a page each (docs/runner.md), and speed is not what they are built for.

// One --input file, mapped and parsed: its tensor's data lie in the mapping.
struct Input {
  rt::FileData file;
  rt::Tensor tensor;
};

// Maps and parses an .npy file into `input` and sets it as input `index` (set_input copies
// it). Out of line: inlined, its cleanup was made twice over, and the smallest runner's code
// segment has no bytes to spare (docs/runner.md).
__attribute__((noinline)) Status set_input(rt::Method& method, size_t index, const char* path,
                                           Input& input) {
  Status status = input.file.open(path);
  if (status.ok()) status = rt::parse_npy(input.file.bytes(), input.file.size(), &input.tensor);
  if (status.ok()) status = method.set_input(index, input.tensor);
  return status;
}

// The inputs kept for the runs after the first (Note [Inputs read once]), in malloc'd
// memory: the runtime has no operator new.
class KeptInputs {
 public:
  explicit KeptInputs(size_t count)
      : items_(static_cast<Input*>(malloc((count + 1) * sizeof(Input)))), count_(count) {
    for (size_t k = 0; items_ != nullptr && k < count_; ++k) new (items_ + k) Input();
  }
  KeptInputs(const KeptInputs&) = delete;
  KeptInputs& operator=(const KeptInputs&) = delete;
  ~KeptInputs() {
    for (size_t k = 0; items_ != nullptr && k < count_; ++k) items_[k].~Input();
    free(items_);
  }

  // Input `k`'s room, null when there is none (out of memory: read per run instead).
  Input* room(size_t k) { return items_ != nullptr ? items_ + k : nullptr; }

  // Sets the method's inputs from the files kept, as they were set for the first run (a
  // failure then stopped the runner before any later run).
  Status set(rt::Method& method) const {
    Status status;
    for (size_t k = 0; k < count_ && status.ok(); ++k)
      status = method.set_input(k, items_[k].tensor);
    return status;
  }

 private:
  Input* items_;
  size_t count_;
};

struct Options {
  const char* model = nullptr;
  const char* method = "forward";
  const char* output_dir = nullptr;
  long iterations = 0;  // 0: run once, print no timing
  size_t num_inputs = 0;
};

// Reads the command line into `options`. Given the loaded method, it also
// reads and sets the inputs, in order (a later pass), keeping them in `kept`
// when given. Returns 0 or the exit code.
int parse(int argc, char** argv, Options* options, rt::Method* method, KeptInputs* kept) {
  options->num_inputs = 0;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (arg[0] != '-' && (options->model == nullptr || options->model == arg)) {
      options->model = arg;
      continue;
    }
    const char* value = argv[++i];  // argv[argc] is null
    Status status;
    if (value != nullptr && strcmp(arg, "--input") == 0) {
      if (method != nullptr) {
        Input read;  // unmapped at the end of this block unless kept
        Input* room = kept != nullptr ? kept->room(options->num_inputs) : nullptr;
        status = set_input(*method, options->num_inputs, value, room != nullptr ? *room : read);
      }
      arg = value;
      ++options->num_inputs;
    } else if (value != nullptr && strcmp(arg, "--method") == 0) {
      options->method = value;
    } else if (value != nullptr && strcmp(arg, "--output-dir") == 0) {
      options->output_dir = value;
    } else if (value == nullptr || strcmp(arg, "--iterations") != 0) {
      status = Status(Error::InvalidInput, "unknown argument, or an option without a value");
    } else if ((options->iterations = parse_iterations(value)) == 0) {
      status = Status(Error::InvalidInput, "takes a whole number from 1 to 1000000000");
    }
    if (!status.ok()) return report(arg, status);
  }
  if (options->model != nullptr) return 0;
  return report("usage", Status(Error::InvalidInput, RT_USAGE));
}

int run(int argc, char** argv, Options& options, rt::Program& program) {
  const rt::KernelRegistry registry(rt::selected_kernels());
  rt::Method method;
  // The generated table's order is checked when it is compiled (kernels_sorted in registry.h).
  Status status = method.load(program, options.method, registry);
  if (status.ok() && options.num_inputs != method.num_inputs()) {
    status = Status(Error::InvalidInput, "wrong number of --input files for the method");
  }
  if (!status.ok()) return report(options.model, status);
  const long runs = options.iterations > 0 ? options.iterations : 1;
#if defined(RT_FUSE_CALLS) || defined(RT_PREPARE)
  KeptInputs inputs(options.num_inputs);  // Note [Inputs read once]
  KeptInputs* kept = inputs.room(0) != nullptr ? &inputs : nullptr;
#else
  KeptInputs* kept = nullptr;
#endif
  int64_t total = 0, fastest = INT64_MAX;
  for (long i = 0; i < runs; ++i) {
    // Every run sees its inputs afresh (the plan may reuse their bytes); only
    // execute() is timed.
    if (i > 0 && kept != nullptr) {
      status = kept->set(method);
    } else if (const int code = parse(argc, argv, &options, &method, kept)) {
      return code;
    }
    const int64_t start = now_ns();
    if (status.ok()) status = method.execute();
    const int64_t took = now_ns() - start;
    if (!status.ok()) return report(options.model, status);
    total += took;
    fastest = took < fastest ? took : fastest;
  }
  if (options.iterations > 0) {
    // Other tools parse the first line: keep its format.
    printf("mean time per run: %.3f us\nmin time per run: %.3f us\n",
           total / (1e3 * static_cast<double>(runs)), fastest / 1e3);
#ifdef RT_FOLD_CONSTANTS
    // The memory Note [Constant folding at load] (runtime/executor/fold.h) took.
    printf("constants folded at load: %zu B\n", method.folded_bytes());
    // What the rewrites at load (folded, fused, quantized) left each run to call.
    printf("kernel calls per run: %zu\n", method.kernel_calls());
#endif
#ifdef RT_FUSE_CALLS
    // Note [Fusion at load] (runtime/executor/fuse.h): the calls fused and their memory.
    printf("calls fused at load: %zu, %zu B\n", method.fusion().chains, method.fusion().bytes);
#endif
#ifdef RT_CHANNELS_LAST
    // Note [Channels last] (runtime/executor/channels_last.h).
    printf("tensors channels last: %zu\n", method.channels_last_tensors());
#endif
#ifdef RT_QUANT_CALLS
    // Note [Quantized calls at load] (runtime/executor/quantize_calls.h).
    printf("calls quantized at load: %zu, %zu B\n", method.quantized().calls,
           method.quantized().bytes);
    printf("quantize loops widened at load: %zu\n", method.quantized().wide);
#endif
#ifdef RT_PREPARE
    // The memory Note [Prepared weights] (runtime/kernel/kernel_context.h) took.
    printf("weights prepared at load: %zu B\n", method.prepared_bytes());
#endif
#ifdef RT_PROFILE_CALLS
    print_call_profile(method);
#endif
  }
  char text[rt::kMaxPath];
  for (size_t i = 0; i < method.num_outputs(); ++i) {
    const rt::EValue& output = method.output(i);
    if (!output.is_tensor())
      return report(options.model, Status(Error::NotSupported, "an output is not a tensor"));
    if (options.output_dir == nullptr) {
      rt::format_shape(text, output.to_tensor());
      printf("%zu: %s %s\n", i, rt::scalar_type_name(output.to_tensor().dtype()), text);
      continue;
    }
    snprintf(text, sizeof text, "%s/output%zu.npy", options.output_dir, i);
    status = rt::write_npy(text, output.to_tensor());
    if (!status.ok()) return report(text, status);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "--help") == 0) return puts(RT_USAGE), 0;
  Options options;
  if (const int code = parse(argc, argv, &options, nullptr, nullptr)) return code;
  rt::FileData file;
  Status status = file.open(options.model);
  rt::Program program;
  if (status.ok())
    status = rt::Program::load(rt::Span<const uint8_t>(file.bytes(), file.size()), &program);
  return status.ok() ? run(argc, argv, options, program) : report(options.model, status);
}
