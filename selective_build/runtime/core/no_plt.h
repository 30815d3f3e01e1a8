#pragma once

// Note [No PLT]
// Calls from the runtime and the runner to C library functions, made through the GOT
// instead of a PLT stub. Each PLT stub is 16 bytes of code and an indirect call 1 byte
// more than a direct one, and its GOT entry moves into RELRO (8 bytes): the smallest
// runners are budgeted in bytes, and their code segment and RELRO grow the file in whole
// pages (benchmarks/RESULTS.md, "runner --help"). A function belongs here when the
// stub it removes is worth more than its call sites and the RELRO entry: every object
// that calls it must include this header, or its stub stays. GCC turns a literal
// `fprintf(f, "text")` or `printf("%s\n", s)` into a call to fputs or puts that ignores
// these declarations: call those two by name. x86-64 GCC only (the attribute is GCC's;
// elsewhere the declarations are the C library's own). Include after the system headers
// that declare these functions.

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__PIC__)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <sys/mman.h>
#include <sys/stat.h>

#define RT_NO_PLT __attribute__((noplt))
extern "C" {
int fprintf(FILE*, const char*, ...) RT_NO_PLT;
int printf(const char*, ...) RT_NO_PLT;
int puts(const char*) RT_NO_PLT;
int fputs(const char*, FILE*) RT_NO_PLT;
int rename(const char*, const char*) noexcept RT_NO_PLT;
FILE* fopen(const char*, const char*) RT_NO_PLT;
size_t fwrite(const void*, size_t, size_t, FILE*) RT_NO_PLT;
int fclose(FILE*) RT_NO_PLT;
int open(const char*, int, ...) RT_NO_PLT;
int close(int) RT_NO_PLT;
int fstat(int, struct stat*) noexcept RT_NO_PLT;
void* mmap(void*, size_t, int, int, int, off_t) noexcept RT_NO_PLT;
int madvise(void*, size_t, int) noexcept RT_NO_PLT;
int munmap(void*, size_t) noexcept RT_NO_PLT;
int clock_gettime(clockid_t, timespec*) noexcept RT_NO_PLT;
long strtol(const char*, char**, int) noexcept RT_NO_PLT;
void* calloc(size_t, size_t) noexcept RT_NO_PLT;
void free(void*) noexcept RT_NO_PLT;
size_t strlen(const char*) noexcept RT_NO_PLT;
int memcmp(const void*, const void*, size_t) noexcept RT_NO_PLT;
}
#undef RT_NO_PLT
#endif
