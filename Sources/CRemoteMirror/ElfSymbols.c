// Function names from the `.symtab` of loaded ELF images. Closures are local
// symbols, which `dladdr` does not see (it only reads `.dynsym`), so the file
// of the image is mapped read-only and its symbol table searched. Images are
// loaded once and kept for the life of the process.
#define _GNU_SOURCE
#include "CRemoteMirror.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct RMSymbol {
  uint64_t start;
  uint64_t size;
  const char *name;
} RMSymbol;

typedef struct RMImage {
  char path[512];
  RMSymbol *symbols;  // sorted by start; NULL when the image has no .symtab
  size_t count;
} RMImage;

enum { RMMaximumImages = 256 };
static RMImage rm_images[RMMaximumImages];
static size_t rm_imageCount;
static pthread_mutex_t rm_imageLock = PTHREAD_MUTEX_INITIALIZER;

static int rm_compareSymbols(const void *left, const void *right) {
  uint64_t a = ((const RMSymbol *)left)->start, b = ((const RMSymbol *)right)->start;
  return a < b ? -1 : a > b;
}

static void rm_loadSymbols(RMImage *image) {
  int file = open(image->path, O_RDONLY | O_CLOEXEC);
  if (file < 0) return;
  struct stat status;
  if (fstat(file, &status) != 0 || (size_t)status.st_size < sizeof(Elf64_Ehdr)) {
    close(file);
    return;
  }
  size_t length = (size_t)status.st_size;
  const uint8_t *base = mmap(NULL, length, PROT_READ, MAP_PRIVATE, file, 0);
  close(file);
  if (base == MAP_FAILED) return;
  const Elf64_Ehdr *header = (const Elf64_Ehdr *)base;
  if (memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64
      || header->e_shentsize != sizeof(Elf64_Shdr)
      || header->e_shoff + (uint64_t)header->e_shnum * sizeof(Elf64_Shdr) > length) {
    munmap((void *)base, length);
    return;
  }
  const Elf64_Shdr *sections = (const Elf64_Shdr *)(base + header->e_shoff);
  for (unsigned index = 0; index < header->e_shnum; index++) {
    const Elf64_Shdr *table = &sections[index];
    if (table->sh_type != SHT_SYMTAB || table->sh_link >= header->e_shnum) continue;
    const Elf64_Shdr *strings = &sections[table->sh_link];
    if (table->sh_offset + table->sh_size > length || strings->sh_offset + strings->sh_size > length)
      break;
    const Elf64_Sym *symbols = (const Elf64_Sym *)(base + table->sh_offset);
    size_t total = table->sh_size / sizeof(Elf64_Sym);
    RMSymbol *found = malloc(total * sizeof(RMSymbol) + 1);
    if (found == NULL) break;
    size_t count = 0;
    for (size_t entry = 0; entry < total; entry++) {
      const Elf64_Sym *symbol = &symbols[entry];
      if (ELF64_ST_TYPE(symbol->st_info) != STT_FUNC || symbol->st_value == 0) continue;
      if (symbol->st_name >= strings->sh_size) continue;
      found[count].start = symbol->st_value;
      found[count].size = symbol->st_size;
      found[count].name = (const char *)(base + strings->sh_offset + symbol->st_name);
      count++;
    }
    qsort(found, count, sizeof(RMSymbol), rm_compareSymbols);
    image->symbols = found;
    image->count = count;
    return;  // the mapping stays: symbol names point into it
  }
  munmap((void *)base, length);
}

typedef struct RMSearch {
  uintptr_t address;
  const char *path;
  uintptr_t bias;
} RMSearch;

static int rm_findImage(struct dl_phdr_info *info, size_t size, void *context) {
  (void)size;
  RMSearch *search = context;
  for (unsigned index = 0; index < info->dlpi_phnum; index++) {
    const ElfW(Phdr) *segment = &info->dlpi_phdr[index];
    if (segment->p_type != PT_LOAD) continue;
    uintptr_t start = info->dlpi_addr + segment->p_vaddr;
    if (search->address >= start && search->address < start + segment->p_memsz) {
      search->path = info->dlpi_name != NULL && info->dlpi_name[0] != 0 ? info->dlpi_name : "/proc/self/exe";
      search->bias = info->dlpi_addr;
      return 1;
    }
  }
  return 0;
}

static RMImage *rm_image(const char *path) {
  for (size_t index = 0; index < rm_imageCount; index++) {
    if (strcmp(rm_images[index].path, path) == 0) return &rm_images[index];
  }
  if (rm_imageCount == RMMaximumImages || strlen(path) >= sizeof rm_images[0].path) return NULL;
  RMImage *image = &rm_images[rm_imageCount++];
  strcpy(image->path, path);
  rm_loadSymbols(image);
  return image;
}

size_t rm_symbolName(uintptr_t address, char *buffer, size_t capacity) {
  if (capacity == 0) return 0;
  RMSearch search = {address, NULL, 0};
  if (dl_iterate_phdr(rm_findImage, &search) == 0 || search.path == NULL) return 0;
  size_t written = 0;
  pthread_mutex_lock(&rm_imageLock);
  RMImage *image = rm_image(search.path);
  if (image != NULL && image->count > 0) {
    uint64_t target = address - search.bias;
    size_t low = 0, high = image->count;
    while (low < high) {
      size_t middle = (low + high) / 2;
      if (image->symbols[middle].start <= target) low = middle + 1;
      else high = middle;
    }
    if (low > 0) {
      const RMSymbol *symbol = &image->symbols[low - 1];
      if (target < symbol->start + (symbol->size == 0 ? 1 : symbol->size)) {
        size_t length = strlen(symbol->name);
        written = length < capacity - 1 ? length : capacity - 1;
        memcpy(buffer, symbol->name, written);
        buffer[written] = 0;
      }
    }
  }
  pthread_mutex_unlock(&rm_imageLock);
  return written;
}
