/* The kernel keys of one execution plan, read in C: `codegen.pte._keys`.
 *
 * Why C: a deep exported network holds hundreds of thousands of kernel calls, and every
 * call means a dozen table and vector reads. Python costs microseconds per call, numpy
 * costs its 0.1 s import before reading anything; this walk costs tens of nanoseconds per
 * call. `codegen.pte.batch` (numpy) is the fallback used when this module was not built,
 * and gives the same keys (tests/codegen/test_pte_readers.py holds the two together).
 *
 * The walk and its checks are those of `codegen.pte.batch`: every offset, length and
 * vtable is bounded before it is followed, with the same messages; chains, instruction
 * vectors and kernel-call tables are each read once however many entries point at them;
 * each value is decoded once; the elements read are counted against the caller's work
 * budget (`codegen.pte.work`). Slots and union tags are those of `codegen.pte.slots`.
 *
 *     kernel_keys(buffer, plan, operators, work, budget) -> (metas, keys, work)
 *
 * `metas`: each distinct tensor meta as bytes (dtype number, then the dim order);
 * `keys`: each distinct key as native int32s (operator index, then the meta numbers of its
 * tensor arguments in order); `work`: the count after this plan. A fault raises
 * ValueError (MemoryError when memory runs out).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_slots.h" /* slots and tags of schema/program.fbs, from codegen/pte/slots.py */

/* ---- growable storage ---- */

/* A set of non-negative int64 (table positions), open addressing; 0 marks a free slot. */
typedef struct {
  uint64_t* slots;
  size_t capacity; /* a power of two, or 0 before the first insertion */
  size_t count;
} PositionSet;

static uint64_t mix(uint64_t value) {
  value ^= value >> 33;
  value *= 0xff51afd7ed558ccdULL;
  value ^= value >> 33;
  return value;
}

static int set_grow(PositionSet* set) {
  size_t capacity = set->capacity ? 2 * set->capacity : 1024;
  uint64_t* slots = calloc(capacity, sizeof *slots);
  if (!slots) {
    PyErr_NoMemory();
    return -1;
  }
  for (size_t i = 0; i < set->capacity; i++) {
    uint64_t stored = set->slots[i];
    if (!stored) continue;
    size_t at = mix(stored) & (capacity - 1);
    while (slots[at]) at = (at + 1) & (capacity - 1);
    slots[at] = stored;
  }
  free(set->slots);
  set->slots = slots;
  set->capacity = capacity;
  return 0;
}

/* 1 when `position` is new (and now in the set), 0 when seen before, -1 on no memory. */
static int set_add(PositionSet* set, int64_t position) {
  if (2 * (set->count + 1) > set->capacity && set_grow(set)) return -1;
  uint64_t stored = (uint64_t)position + 1;
  size_t at = mix(stored) & (set->capacity - 1);
  while (set->slots[at]) {
    if (set->slots[at] == stored) return 0;
    at = (at + 1) & (set->capacity - 1);
  }
  set->slots[at] = stored;
  set->count++;
  return 1;
}

/* Distinct byte strings numbered in order of first sight (metas, keys). */
typedef struct {
  uint8_t* bytes; /* every string, one after the other */
  size_t used, reserved;
  size_t* starts; /* string n is bytes[starts[n], starts[n + 1]) */
  size_t count, starts_capacity;
  int32_t* slots; /* string number + 1, or 0 when free */
  size_t capacity;
} Interner;

/* Eight bytes a step: a key is a handful of int32s, and it is hashed once per call. */
static uint64_t hash_bytes(const uint8_t* data, size_t length) {
  uint64_t hash = length;
  for (; length >= 8; data += 8, length -= 8) {
    uint64_t word;
    memcpy(&word, data, 8);
    hash = (hash ^ word) * 0x9e3779b97f4a7c15ULL;
  }
  uint64_t tail = 0;
  memcpy(&tail, data, length);
  return mix((hash ^ tail) * 0x9e3779b97f4a7c15ULL);
}

static const uint8_t* interned(const Interner* in, size_t n, size_t* length) {
  *length = in->starts[n + 1] - in->starts[n];
  return in->bytes + in->starts[n];
}

static int interner_rehash(Interner* in) {
  size_t capacity = in->capacity ? 2 * in->capacity : 64;
  int32_t* slots = calloc(capacity, sizeof *slots);
  if (!slots) {
    PyErr_NoMemory();
    return -1;
  }
  for (size_t n = 0; n < in->count; n++) {
    size_t length;
    const uint8_t* data = interned(in, n, &length);
    size_t at = hash_bytes(data, length) & (capacity - 1);
    while (slots[at]) at = (at + 1) & (capacity - 1);
    slots[at] = (int32_t)(n + 1);
  }
  free(in->slots);
  in->slots = slots;
  in->capacity = capacity;
  return 0;
}

static int reserve(void** memory, size_t* capacity, size_t needed, size_t item) {
  if (needed <= *capacity) return 0;
  size_t grown = *capacity ? *capacity : 64;
  while (grown < needed) grown *= 2;
  void* moved = realloc(*memory, grown * item);
  if (!moved) {
    PyErr_NoMemory();
    return -1;
  }
  *memory = moved;
  *capacity = grown;
  return 0;
}

/* The number of `data` (numbered now if new); -1 on no memory or past 2**31 strings. */
static int64_t intern(Interner* in, const uint8_t* data, size_t length) {
  if (2 * (in->count + 1) > in->capacity && interner_rehash(in)) return -1;
  size_t at = hash_bytes(data, length) & (in->capacity - 1);
  for (; in->slots[at]; at = (at + 1) & (in->capacity - 1)) {
    size_t seen_length;
    const uint8_t* seen = interned(in, (size_t)in->slots[at] - 1, &seen_length);
    if (seen_length == length && memcmp(seen, data, length) == 0) return in->slots[at] - 1;
  }
  if (in->count >= INT32_MAX - 1) {
    PyErr_SetString(PyExc_MemoryError, "too many distinct kernel keys");
    return -1;
  }
  if (reserve((void**)&in->bytes, &in->reserved, in->used + length, 1) ||
      reserve((void**)&in->starts, &in->starts_capacity, in->count + 2, sizeof(size_t)))
    return -1;
  if (in->count == 0) in->starts[0] = 0;
  memcpy(in->bytes + in->used, data, length);
  in->used += length;
  in->starts[++in->count] = in->used;
  in->slots[at] = (int32_t)in->count;
  return (int64_t)in->count - 1;
}

static PyObject* interned_list(const Interner* in) {
  PyObject* list = PyList_New((Py_ssize_t)in->count);
  for (size_t n = 0; list && n < in->count; n++) {
    size_t length;
    const uint8_t* data = interned(in, n, &length);
    PyObject* item = PyBytes_FromStringAndSize((const char*)data, (Py_ssize_t)length);
    if (!item) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)n, item);
  }
  return list;
}

/* ---- checked reads (codegen.pte.table and codegen.pte.batch say the same) ---- */

typedef struct {
  const uint8_t* data;
  int64_t size;
  long long work, budget;
  int64_t values_start, values_count;
  /* Per value: its meta number + 2 (1: no tensor), 0 until decoded; `top` as a call
     * argument sees it (a list: its first tensor's meta), `item` as a list item does. */
  int32_t *top, *item;
  PositionSet chains, vectors, calls;
  /* Kernel calls seen, one bit per 4-byte word: tables are 4-byte aligned in a well-formed
     * flatbuffer and a plan's calls lie in order, so this is read in order where a hash set
     * of hundreds of thousands of positions misses the cache on every call (`calls` holds
     * the unaligned positions a hostile file may give). */
  uint8_t* call_bits;
  Interner metas, keys;
  /* The meta and the key being built (a key's values are decoded while it is built). */
  uint8_t *meta, *key;
  size_t meta_capacity, key_capacity;
} Reader;

typedef struct {
  int64_t position, vtable;
  unsigned vtable_size;
  const char* what;
} Table;

static uint32_t load_u32(const uint8_t* at) {
  return (uint32_t)at[0] | (uint32_t)at[1] << 8 | (uint32_t)at[2] << 16 | (uint32_t)at[3] << 24;
}

static unsigned load_u16(const uint8_t* at) { return (unsigned)at[0] | (unsigned)at[1] << 8; }

/* The offset of a `width`-byte read when it lies inside the buffer, else -1 (error set). */
static int64_t inside(const Reader* r, int64_t at, int width, const char* what, const char* part) {
  if (at >= 0 && at <= r->size - width) return at;
  PyErr_Format(PyExc_ValueError, "%s %s at byte %lld lies outside the %lld-byte flatbuffer", what,
               part, (long long)at, (long long)r->size);
  return -1;
}

/* `value` with its digits grouped by commas, as Python's `{:,}` writes it. */
static void grouped(char* out, unsigned long long value) {
  char digits[32];
  int length = snprintf(digits, sizeof digits, "%llu", value);
  int j = 0;
  for (int i = 0; i < length; i++) {
    if (i && (length - i) % 3 == 0) out[j++] = ',';
    out[j++] = digits[i];
  }
  out[j] = 0;
}

/* `count` more elements read: ValueError past the budget (codegen.pte.work says the same). */
static int charge(Reader* r, int64_t count, const char* what) {
  r->work += count;
  if (r->work <= r->budget) return 0;
  char budget[48], size[48];
  grouped(budget, (unsigned long long)r->budget);
  grouped(size, (unsigned long long)r->size);
  PyErr_Format(PyExc_ValueError,
               "reading %s takes more than %s steps for a %s-byte flatbuffer "
               "(tables or vectors shared many times over)",
               what, budget, size);
  return -1;
}

static int table_at(const Reader* r, int64_t position, const char* what, Table* table) {
  if (inside(r, position, 4, what, "vtable offset") < 0) return -1;
  int64_t vtable = position - (int32_t)load_u32(r->data + position);
  if (inside(r, vtable, 2, what, "vtable size") < 0) return -1;
  unsigned size = load_u16(r->data + vtable);
  if (size < 4 || size % 2 || vtable + size > r->size) {
    PyErr_Format(PyExc_ValueError, "%s at byte %lld has a malformed vtable at byte %lld", what,
                 (long long)position, (long long)vtable);
    return -1;
  }
  *table = (Table){position, vtable, size, what};
  return 0;
}

/* Where field `slot` is, or -1 when it is absent (the vtable was checked by table_at). */
static int64_t field(const Reader* r, const Table* table, int slot) {
  unsigned entry = 4 + 2 * (unsigned)slot;
  if (entry >= table->vtable_size) return -1;
  unsigned relative = load_u16(r->data + table->vtable + entry);
  return relative ? table->position + relative : -1;
}

/* Field `slot` as an unsigned byte (0 when absent); -1 when outside the buffer. */
static int scalar_u8(const Reader* r, const Table* table, int slot) {
  int64_t at = field(r, table, slot);
  if (at < 0) return 0;
  if (inside(r, at, 1, table->what, "field") < 0) return -1;
  return r->data[at];
}

/* Where the table or vector in field `slot` starts: -1 when absent, -2 on a fault. */
static int64_t indirect(const Reader* r, const Table* table, int slot) {
  int64_t at = field(r, table, slot);
  if (at < 0) return -1;
  if (inside(r, at, 4, table->what, "offset") < 0) return -2;
  return at + load_u32(r->data + at);
}

/* The vector in field `slot`: its first element and length ((-1, 0) when absent). */
static int vector(const Reader* r, const Table* table, int slot, int element_size, int64_t* start,
                  int64_t* length) {
  int64_t target = indirect(r, table, slot);
  *start = -1;
  *length = 0;
  if (target == -2) return -1;
  if (target < 0) return 0;
  if (inside(r, target, 4, table->what, "length") < 0) return -1;
  int64_t count = load_u32(r->data + target);
  if (target + 4 + count * element_size > r->size) {
    PyErr_Format(PyExc_ValueError,
                 "%s at byte %lld claims %lld elements, past the end of the flatbuffer",
                 table->what, (long long)target, (long long)count);
    return -1;
  }
  *start = target + 4;
  *length = count;
  return 0;
}

/* The table an offset entry of a checked vector points at. */
static int64_t follow(const Reader* r, int64_t entry) { return entry + load_u32(r->data + entry); }

/* 1 when the kernel call at `position` is new (and now seen), 0 when seen, -1 on no memory. */
static int new_call(Reader* r, int64_t position) {
  if (position < 0 || position >= r->size || position % 4) return set_add(&r->calls, position);
  if (!r->call_bits) {
    /* calloc: the pages of the bitmap where no call lies are never touched. */
    r->call_bits = calloc((size_t)r->size / 32 + 1, 1);
    if (!r->call_bits) {
      PyErr_NoMemory();
      return -1;
    }
  }
  uint8_t *byte = r->call_bits + position / 32, bit = (uint8_t)(1u << (position / 4 % 8));
  if (*byte & bit) return 0;
  *byte |= bit;
  return 1;
}

/* ---- values ---- */

static int64_t value_meta(Reader* r, int64_t index, int top);

/* The meta number of the tensor at `position`. */
static int64_t tensor_meta(Reader* r, int64_t position) {
  Table tensor;
  int64_t dims, rank;
  if (table_at(r, position, "tensor", &tensor)) return -2;
  int dtype = scalar_u8(r, &tensor, PTE_TENSOR_SCALAR_TYPE);
  if (dtype < 0 || vector(r, &tensor, PTE_TENSOR_DIM_ORDER, 1, &dims, &rank) ||
      charge(r, rank, "dim orders") ||
      reserve((void**)&r->meta, &r->meta_capacity, (size_t)rank + 1, 1))
    return -2;
  r->meta[0] = (uint8_t)dtype;
  if (rank) memcpy(r->meta + 1, r->data + dims, (size_t)rank);
  int64_t number = intern(&r->metas, r->meta, (size_t)rank + 1);
  return number < 0 ? -2 : number;
}

/* The meta number of a tensor list's first item that is a tensor (every item is decoded,
 * as the batch reader does), or -1. */
static int64_t list_meta(Reader* r, int64_t position) {
  Table list;
  int64_t items, count, found = -1;
  if (table_at(r, position, "tensor list", &list) ||
      vector(r, &list, PTE_PAYLOAD, 4, &items, &count) || charge(r, count, "tensor list items"))
    return -2;
  for (int64_t i = 0; i < count; i++) {
    int64_t index = (int32_t)load_u32(r->data + items + 4 * i);
    if (index < 0) continue; /* an absent optional tensor */
    int64_t number = value_meta(r, index, 0);
    if (number == -2) return -2;
    if (found < 0) found = number;
  }
  return found;
}

static int64_t decode(Reader* r, int64_t index, int top) {
  Table value;
  if (table_at(r, follow(r, r->values_start + 4 * index), "value", &value)) return -2;
  int tag = scalar_u8(r, &value, PTE_EVALUE_VAL_TYPE);
  int64_t target = indirect(r, &value, PTE_EVALUE_VAL); /* read whatever the tag, as batch */
  if (tag < 0 || target == -2) return -2;
  if (tag == 0 || target < 0) return -1;
  if (tag == PTE_KERNEL_TYPES_TENSOR) return tensor_meta(r, target);
  if (top && (tag == PTE_KERNEL_TYPES_TENSOR_LIST || tag == PTE_KERNEL_TYPES_OPTIONAL_TENSOR_LIST))
    return list_meta(r, target);
  return -1;
}

/* The meta number of value `index` (-1: no tensor; -2: a fault, error set). */
static int64_t value_meta(Reader* r, int64_t index, int top) {
  if (index < 0 || index >= r->values_count) {
    PyErr_Format(PyExc_ValueError, "value index %lld is outside the %lld values", (long long)index,
                 (long long)r->values_count);
    return -2;
  }
  int32_t** memo = top ? &r->top : &r->item;
  if (!*memo) {
    /* calloc: pages of values never used are never touched. */
    *memo = calloc((size_t)r->values_count, sizeof **memo);
    if (!*memo) {
      PyErr_NoMemory();
      return -2;
    }
  }
  if ((*memo)[index]) return (*memo)[index] - 2;
  int64_t number = decode(r, index, top);
  if (number == -2) return -2;
  (*memo)[index] = (int32_t)(number + 2);
  return number;
}

/* ---- calls ---- */

/* Intern the key of the kernel call at `position`. */
static int kernel_call(Reader* r, int64_t position, long long operators) {
  Table call;
  int64_t args, count;
  if (table_at(r, position, "kernel call", &call)) return -1;
  int64_t at = field(r, &call, PTE_KERNEL_CALL_OP_INDEX), op = 0;
  if (at >= 0) {
    if (inside(r, at, 4, "kernel call", "field") < 0) return -1;
    op = (int32_t)load_u32(r->data + at);
  }
  if (op < 0 || op >= operators) {
    PyErr_Format(PyExc_ValueError, "kernel call names operator %lld, the plan has %lld",
                 (long long)op, operators);
    return -1;
  }
  if (vector(r, &call, PTE_KERNEL_CALL_ARGS, 4, &args, &count) ||
      charge(r, count, "kernel call args") ||
      reserve((void**)&r->key, &r->key_capacity, 4 * ((size_t)count + 1), 1))
    return -1;
  int32_t entry = (int32_t)op;
  size_t length = 4;
  memcpy(r->key, &entry, 4);
  for (int64_t i = 0; i < count; i++) {
    int64_t number = value_meta(r, (int32_t)load_u32(r->data + args + 4 * i), 1);
    if (number == -2) return -1;
    if (number < 0) continue; /* not a tensor: no part of the key */
    entry = (int32_t)number;
    memcpy(r->key + length, &entry, 4);
    length += 4;
  }
  return intern(&r->keys, r->key, length) < 0 ? -1 : 0;
}

static int instructions(Reader* r, int64_t start, int64_t count, long long operators) {
  if (charge(r, count, "instructions")) return -1;
  for (int64_t i = 0; i < count; i++) {
    Table instruction;
    if (table_at(r, follow(r, start + 4 * i), "instructions", &instruction)) return -1;
    int tag = scalar_u8(r, &instruction, PTE_INSTRUCTION_ARGS_TYPE);
    if (tag < 0) return -1;
    if (tag != PTE_INSTRUCTION_ARGUMENTS_KERNEL_CALL) continue;
    int64_t target = indirect(r, &instruction, PTE_INSTRUCTION_ARGS);
    if (target == -2) return -1;
    if (target < 0) continue;
    int added = new_call(r, target);
    if (added < 0 || (added && kernel_call(r, target, operators))) return -1;
  }
  return 0;
}

static int plan_keys(Reader* r, int64_t position, long long operators) {
  Table plan, chain;
  int64_t chains, count;
  if (table_at(r, position, "execution plan", &plan) ||
      vector(r, &plan, PTE_EXECUTION_PLAN_VALUES, 4, &r->values_start, &r->values_count) ||
      vector(r, &plan, PTE_EXECUTION_PLAN_CHAINS, 4, &chains, &count) || charge(r, count, "chains"))
    return -1;
  for (int64_t i = 0; i < count; i++) {
    int64_t at = follow(r, chains + 4 * i), start, length;
    int added = set_add(&r->chains, at);
    if (added < 0) return -1;
    if (!added) continue;
    if (table_at(r, at, "chains", &chain) ||
        vector(r, &chain, PTE_CHAIN_INSTRUCTIONS, 4, &start, &length))
      return -1;
    /* Chains sharing one instruction vector: read it once (its start fixes its length). */
    if (length == 0) continue;
    added = set_add(&r->vectors, start);
    if (added < 0 || (added && instructions(r, start, length, operators))) return -1;
  }
  return 0;
}

static void release(Reader* r) {
  free(r->top);
  free(r->item);
  free(r->chains.slots);
  free(r->vectors.slots);
  free(r->calls.slots);
  free(r->call_bits);
  free(r->metas.bytes);
  free(r->metas.starts);
  free(r->metas.slots);
  free(r->keys.bytes);
  free(r->keys.starts);
  free(r->keys.slots);
  free(r->meta);
  free(r->key);
}

static PyObject* kernel_keys(PyObject* module, PyObject* args) {
  (void)module;
  Py_buffer view;
  long long plan, operators, work, budget;
  if (!PyArg_ParseTuple(args, "y*LLLL", &view, &plan, &operators, &work, &budget)) return NULL;
  Reader r;
  memset(&r, 0, sizeof r);
  r.data = view.buf;
  r.size = view.len;
  r.work = work;
  r.budget = budget;
  PyObject* result = NULL;
  if (plan_keys(&r, plan, operators) == 0) {
    PyObject* metas = interned_list(&r.metas);
    PyObject* keys = metas ? interned_list(&r.keys) : NULL;
    if (keys)
      result = Py_BuildValue("(NNL)", metas, keys, r.work);
    else
      Py_XDECREF(metas);
  }
  release(&r);
  PyBuffer_Release(&view);
  return result;
}

static PyMethodDef methods[] = {
    {"kernel_keys", kernel_keys, METH_VARARGS,
     "kernel_keys(buffer, plan, operators, work, budget) -> (metas, keys, work)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "codegen.pte._keys",
    .m_doc = "The kernel keys of an execution plan, read in C (see codegen/pte/native.py).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__keys(void) { return PyModule_Create(&module); }
