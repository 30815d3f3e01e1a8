// Persistent mode of the runner fuzz (tests/fuzz/persistent.py): one sanitized process
// runs many cases, as libFuzzer's persistent mode does, instead of starting a process
// (and the sanitizer runtimes) per case. Each case is the runner's own code, main.cpp's
// main() called with the case's arguments, so a case behaves as `runner ARGS...` would.
//
// Protocol: each line on stdin is one case, tab-separated: "1" or "0", a folder, then the
// runner's arguments. The case's stdout and stderr go to FOLDER/stdout and FOLDER/stderr;
// then one line "<exit code> <leaked 0|1>" is written to stdout. With "1" the driver then
// checks that every allocation of the cases since the last check was freed, and "leaked"
// says whether one was not (the report is in FOLDER/leaks) (a check stops every thread and scans the heap: after every
// case it halved the rate, so the harness asks for one now and then and finds the case). A sanitizer report ends the process (-fno-sanitize-recover=all): the
// harness sees no line, reads the report in FOLDER/stderr and confirms the case in a
// process of its own. Between cases nothing is kept: main() builds its registry, program
// and method on its stack, and unmaps its files before it returns.

#include <fcntl.h>
#include <sanitizer/lsan_interface.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define main runner_main
#include "runtime/runner/main.cpp"
#undef main

namespace {

constexpr int kMaxArguments = 64;

// Points `fd` at FOLDER/NAME (created or emptied); false when it cannot be opened.
bool redirect(int fd, const char* folder, const char* name) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s/%s", folder, name) >= static_cast<int>(sizeof path))
    return false;
  const int file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (file < 0) return false;
  const bool moved = dup2(file, fd) == fd;
  close(file);
  return moved;
}

}  // namespace

int main() {
  // The protocol's own stdout and stderr, kept while each case writes to its files.
  const int protocol_out = dup(STDOUT_FILENO);
  const int protocol_err = dup(STDERR_FILENO);
  if (protocol_out < 0 || protocol_err < 0) return 3;
  char* line = nullptr;
  size_t capacity = 0;
  ssize_t length;
  while ((length = getline(&line, &capacity, stdin)) > 0) {
    if (line[length - 1] == '\n') line[length - 1] = '\0';
    char* arguments[kMaxArguments + 1];
    int count = 0;
    for (char* field = strtok(line, "\t"); field != nullptr && count < kMaxArguments;
         field = strtok(nullptr, "\t")) {
      arguments[count++] = field;
    }
    arguments[count] = nullptr;
    if (count < 2) {
      dprintf(protocol_err, "driver: a case line without a folder\n");
      return 3;
    }
    const bool check = strcmp(arguments[0], "1") == 0;
    // argv[0] is the program name: the folder's place, which main() does not read.
    const char* folder = arguments[1];
    if (!redirect(STDOUT_FILENO, folder, "stdout") || !redirect(STDERR_FILENO, folder, "stderr")) {
      dprintf(protocol_err, "driver: cannot write into %s\n", folder);
      return 3;
    }
    const int code = runner_main(count - 1, arguments + 1);
    fflush(stdout);
    fflush(stderr);
    // The report, if any, to FOLDER/leaks: the case's stderr stays what the runner wrote.
    const int leaked =
        check && redirect(STDERR_FILENO, folder, "leaks") ? __lsan_do_recoverable_leak_check() : 0;
    fflush(stderr);
    dup2(protocol_out, STDOUT_FILENO);
    dup2(protocol_err, STDERR_FILENO);
    dprintf(STDOUT_FILENO, "%d %d\n", code, leaked != 0 ? 1 : 0);
  }
  free(line);
  return 0;
}
