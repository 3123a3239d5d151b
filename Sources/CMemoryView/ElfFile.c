// Symbol tables of ELF image files. The file is mapped read-only and its
// `.symtab` (else `.dynsym`) read; closures and C statics are local symbols,
// which only `.symtab` holds (`dladdr` reads `.dynsym`). A copy sorted by
// address is made the first time an address is looked up: a lookup by name
// (most images a heap model asks about) needs none (sorting libswiftCore's
// and Foundation's 50,000 symbols each was 4 % of `leaklab leaks`).
// Files are loaded once per path and kept for the life of the process.
#define _GNU_SOURCE
#include "CMemoryView.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct MVSymbol {
  uint64_t start;
  uint64_t size;
  const char *name;
  unsigned kind;
} MVSymbol;

struct MVElfFile {
  char *path;
  const uint8_t *base;  // the mapped file (kept: names point into it)
  size_t length;
  MVSymbol *symbols;    // in the file's order
  MVSymbol *sorted;     // by start, made by the first lookup by address (atomic)
  size_t count;
  bool fullTable;
  char buildID[64];
};

enum { MVMaximumFiles = 512 };
static MVElfFile *mv_files[MVMaximumFiles];
static size_t mv_fileCount;
static pthread_mutex_t mv_fileLock = PTHREAD_MUTEX_INITIALIZER;

static int mv_compareSymbols(const void *left, const void *right) {
  const MVSymbol *a = left, *b = right;
  if (a->start != b->start) return a->start < b->start ? -1 : 1;
  // Larger symbols first at one address, so a lookup finds the enclosing one.
  return a->size > b->size ? -1 : a->size < b->size;
}

static bool mv_within(const MVElfFile *file, uint64_t offset, uint64_t size) {
  return offset <= file->length && size <= file->length - offset;
}

static void mv_readBuildID(MVElfFile *file, const Elf64_Shdr *section) {
  if (!mv_within(file, section->sh_offset, section->sh_size)) return;
  const uint8_t *note = file->base + section->sh_offset, *end = note + section->sh_size;
  while (note + sizeof(Elf64_Nhdr) <= end) {
    const Elf64_Nhdr *header = (const Elf64_Nhdr *)note;
    const uint8_t *name = note + sizeof(Elf64_Nhdr);
    const uint8_t *descriptor = name + ((header->n_namesz + 3) & ~3u);
    if (descriptor + header->n_descsz > end) return;
    if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
      size_t bytes = header->n_descsz < 31 ? header->n_descsz : 31;
      for (size_t index = 0; index < bytes; index++) sprintf(file->buildID + 2 * index, "%02x", descriptor[index]);
      return;
    }
    note = descriptor + ((header->n_descsz + 3) & ~3u);
  }
}

static void mv_readSymbols(MVElfFile *file, const Elf64_Shdr *sections, unsigned sectionCount,
                           const Elf64_Shdr *table) {
  if (table->sh_link >= sectionCount) return;
  const Elf64_Shdr *strings = &sections[table->sh_link];
  if (!mv_within(file, table->sh_offset, table->sh_size) || !mv_within(file, strings->sh_offset, strings->sh_size))
    return;
  const Elf64_Sym *symbols = (const Elf64_Sym *)(file->base + table->sh_offset);
  size_t total = table->sh_size / sizeof(Elf64_Sym);
  MVSymbol *found = calloc(total + 1, sizeof(MVSymbol));
  if (found == NULL) return;
  size_t count = 0;
  for (size_t entry = 0; entry < total; entry++) {
    const Elf64_Sym *symbol = &symbols[entry];
    unsigned kind;
    switch (ELF64_ST_TYPE(symbol->st_info)) {
    case STT_FUNC: kind = MVSymbolFunction; break;
    case STT_OBJECT: kind = MVSymbolObject; break;
    case STT_TLS: kind = MVSymbolThreadLocal; break;
    default: continue;
    }
    if (symbol->st_shndx == SHN_UNDEF || symbol->st_name >= strings->sh_size) continue;
    if (kind != MVSymbolThreadLocal && symbol->st_value == 0) continue;
    const char *name = (const char *)(file->base + strings->sh_offset + symbol->st_name);
    if (memchr(name, 0, strings->sh_size - symbol->st_name) == NULL || name[0] == 0) continue;
    found[count].start = symbol->st_value;
    found[count].size = symbol->st_size;
    found[count].name = name;
    found[count].kind = kind;
    count++;
  }
  // Shrunk to what was filled: no stale bytes left for a heap scan to misread.
  MVSymbol *fitted = realloc(found, count * sizeof(MVSymbol) + 1);
  if (fitted != NULL) found = fitted;
  free(file->symbols);
  file->symbols = found;
  file->count = count;
}

static MVElfFile *mv_load(const char *path) {
  int descriptor = open(path, O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return NULL;
  struct stat status;
  if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode) || (size_t)status.st_size < sizeof(Elf64_Ehdr)) {
    close(descriptor);
    return NULL;
  }
  size_t length = (size_t)status.st_size;
  const uint8_t *base = mmap(NULL, length, PROT_READ, MAP_PRIVATE, descriptor, 0);
  close(descriptor);
  if (base == MAP_FAILED) return NULL;
  const Elf64_Ehdr *header = (const Elf64_Ehdr *)base;
  if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64
      || header->e_shentsize != sizeof(Elf64_Shdr) || header->e_shoff > length
      || (uint64_t)header->e_shnum * sizeof(Elf64_Shdr) > length - header->e_shoff) {
    munmap((void *)base, length);
    return NULL;
  }
  MVElfFile *file = calloc(1, sizeof(MVElfFile));
  if (file == NULL) {
    munmap((void *)base, length);
    return NULL;
  }
  file->path = strdup(path);
  file->base = base;
  file->length = length;
  const Elf64_Shdr *sections = (const Elf64_Shdr *)(base + header->e_shoff);
  const Elf64_Shdr *symtab = NULL, *dynsym = NULL;
  for (unsigned index = 0; index < header->e_shnum; index++) {
    if (sections[index].sh_type == SHT_SYMTAB && symtab == NULL) symtab = &sections[index];
    if (sections[index].sh_type == SHT_DYNSYM && dynsym == NULL) dynsym = &sections[index];
    if (sections[index].sh_type == SHT_NOTE && file->buildID[0] == 0) mv_readBuildID(file, &sections[index]);
  }
  if (symtab != NULL) mv_readSymbols(file, sections, header->e_shnum, symtab);
  file->fullTable = file->count > 0;
  if (file->count == 0 && dynsym != NULL) mv_readSymbols(file, sections, header->e_shnum, dynsym);
  return file;
}

const MVElfFile *mv_elfFile(const char *path) {
  if (path == NULL || path[0] == 0) return NULL;
  pthread_mutex_lock(&mv_fileLock);
  MVElfFile *file = NULL;
  for (size_t index = 0; index < mv_fileCount; index++) {
    if (strcmp(mv_files[index]->path, path) == 0) {
      file = mv_files[index];
      break;
    }
  }
  if (file == NULL && mv_fileCount < MVMaximumFiles) {
    file = mv_load(path);
    if (file != NULL) mv_files[mv_fileCount++] = file;
  }
  pthread_mutex_unlock(&mv_fileLock);
  return file;
}

bool mv_elfHasFullSymbolTable(const MVElfFile *file) { return file != NULL && file->fullTable; }

size_t mv_elfSymbolCount(const MVElfFile *file) { return file == NULL ? 0 : file->count; }

// Sorts `count` symbols by start, larger first at one start: a radix sort
// of (start, position) pairs on the start's bytes (the ones that differ),
// then the few runs of equal starts by size. qsort with a comparison per
// step took 10 ms for libswiftCore's and Foundation's tables, most of
// the fixed cost of `leaklab leaks` on a small program.
static MVSymbol *mv_sortByStart(const MVSymbol *symbols, size_t count) {
  MVSymbol *sorted = malloc(count * sizeof(MVSymbol) + 1);
  uint64_t *keys = malloc(count * sizeof(uint64_t) + 1), *spare = malloc(count * sizeof(uint64_t) + 1);
  uint32_t *order = malloc(count * sizeof(uint32_t) + 1), *spareOrder = malloc(count * sizeof(uint32_t) + 1);
  if (sorted == NULL || keys == NULL || spare == NULL || order == NULL || spareOrder == NULL || count > UINT32_MAX) {
    free(sorted), free(keys), free(spare), free(order), free(spareOrder);
    return NULL;
  }
  uint64_t differing = 0;
  for (size_t index = 0; index < count; index++) {
    keys[index] = symbols[index].start;
    order[index] = (uint32_t)index;
    differing |= keys[index] ^ keys[0];
  }
  for (unsigned shift = 0; shift < 64 && (differing >> shift) != 0; shift += 8) {
    if (((differing >> shift) & 0xFF) == 0) continue;
    size_t counts[257] = {0};
    for (size_t index = 0; index < count; index++) counts[((keys[index] >> shift) & 0xFF) + 1]++;
    for (unsigned digit = 0; digit < 256; digit++) counts[digit + 1] += counts[digit];
    for (size_t index = 0; index < count; index++) {
      size_t slot = counts[(keys[index] >> shift) & 0xFF]++;
      spare[slot] = keys[index];
      spareOrder[slot] = order[index];
    }
    uint64_t *swappedKeys = keys;
    keys = spare, spare = swappedKeys;
    uint32_t *swappedOrder = order;
    order = spareOrder, spareOrder = swappedOrder;
  }
  for (size_t index = 0; index < count; index++) sorted[index] = symbols[order[index]];
  // Equal starts: larger first (insertion sort: such runs are short).
  for (size_t index = 1; index < count; index++) {
    MVSymbol symbol = sorted[index];
    size_t slot = index;
    while (slot > 0 && sorted[slot - 1].start == symbol.start && sorted[slot - 1].size < symbol.size) {
      sorted[slot] = sorted[slot - 1];
      slot--;
    }
    sorted[slot] = symbol;
  }
  free(keys), free(spare), free(order), free(spareOrder);
  return sorted;
}

// The symbols sorted by start (larger first at one start, so that a lookup
// finds the enclosing one), made once.
static const MVSymbol *mv_sortedSymbols(const MVElfFile *constFile) {
  MVElfFile *file = (MVElfFile *)constFile;
  MVSymbol *sorted = __atomic_load_n(&file->sorted, __ATOMIC_ACQUIRE);
  if (sorted != NULL) return sorted;
  pthread_mutex_lock(&mv_fileLock);
  sorted = file->sorted;
  if (sorted == NULL) {
    sorted = mv_sortByStart(file->symbols, file->count);
    if (sorted != NULL) __atomic_store_n(&file->sorted, sorted, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&mv_fileLock);
  return sorted;
}

const char *mv_elfSymbolContaining(
  const MVElfFile *file, uint64_t fileAddress, unsigned kinds, uint64_t *start, uint64_t *size) {
  if (file == NULL || file->count == 0) return NULL;
  const MVSymbol *symbols = mv_sortedSymbols(file);
  if (symbols == NULL) return NULL;
  // The last symbol starting at or before the address, then backwards over
  // the few that could still enclose it (symbols rarely nest deeply).
  size_t low = 0, high = file->count;
  while (low < high) {
    size_t middle = low + (high - low) / 2;
    if (symbols[middle].start <= fileAddress) low = middle + 1;
    else high = middle;
  }
  for (size_t index = low, steps = 0; index > 0 && steps < 64; index--, steps++) {
    const MVSymbol *symbol = &symbols[index - 1];
    if ((symbol->kind & kinds) == 0) continue;
    uint64_t extent = symbol->size == 0 ? 1 : symbol->size;
    if (fileAddress - symbol->start < extent) {
      if (start != NULL) *start = symbol->start;
      if (size != NULL) *size = symbol->size;
      return symbol->name;
    }
  }
  return NULL;
}

uint64_t mv_elfSymbolAddress(const MVElfFile *file, const char *name, unsigned kinds, uint64_t *size) {
  if (file == NULL) return 0;
  // Of several symbols of one name (local ones of different files), the
  // first in address order.
  const MVSymbol *best = NULL;
  for (size_t index = 0; index < file->count; index++) {
    const MVSymbol *symbol = &file->symbols[index];
    if ((symbol->kind & kinds) != 0 && strcmp(symbol->name, name) == 0
        && (best == NULL || mv_compareSymbols(symbol, best) < 0))
      best = symbol;
  }
  if (best == NULL) return 0;
  if (size != NULL) *size = best->size;
  return best->start;
}

size_t mv_elfBuildID(const MVElfFile *file, char *buffer, size_t capacity) {
  if (file == NULL || capacity == 0) return 0;
  size_t length = strlen(file->buildID);
  if (length >= capacity) return 0;
  memcpy(buffer, file->buildID, length + 1);
  return length;
}

static int mv_readLoadCount(struct dl_phdr_info *info, size_t size, void *context) {
  (void)size;
  *(uint64_t *)context = info->dlpi_adds;
  return 1;
}

uint64_t mv_loadCount(void) {
  uint64_t loads = 0;
  dl_iterate_phdr(mv_readLoadCount, &loads);
  return loads;
}
