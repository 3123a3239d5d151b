// Reads of process memory through `process_vm_readv`: a bad address fails
// instead of faulting, for our own process and for another one alike.
#define _GNU_SOURCE
#include "CMemoryView.h"

#include <string.h>
#include <sys/uio.h>

static _Thread_local size_t mv_systemCalls;

size_t mv_systemCallCount(void) { return mv_systemCalls; }

static bool mv_plausible(uintptr_t address, size_t size) {
  return address >= 4096 && size <= MVMaximumRead && address + size > address
    && address + size <= 0x0000800000000000ULL;
}

size_t mv_read(pid_t pid, uintptr_t address, void *destination, size_t size) {
  if (size == 0 || !mv_plausible(address, size)) return 0;
  struct iovec local = {destination, size};
  struct iovec remote = {(void *)address, size};
  mv_systemCalls++;
  ssize_t copied = process_vm_readv(pid, &local, 1, &remote, 1, 0);
  return copied > 0 ? (size_t)copied : 0;
}

void mv_readWords(pid_t pid, const uintptr_t *addresses, uintptr_t *words, uint8_t *readable, size_t count) {
  enum { Batch = 1024 };
  struct iovec local[Batch], remote[Batch];
  size_t index = 0;
  while (index < count) {
    size_t batch = 0;
    while (batch < Batch && index + batch < count) {
      uintptr_t address = addresses[index + batch];
      words[index + batch] = 0;
      if (readable != NULL) readable[index + batch] = 0;
      if (!mv_plausible(address, sizeof(uintptr_t))) break;
      local[batch].iov_base = &words[index + batch];
      local[batch].iov_len = sizeof(uintptr_t);
      remote[batch].iov_base = (void *)address;
      remote[batch].iov_len = sizeof(uintptr_t);
      batch++;
    }
    if (batch == 0) {
      index++;  // an implausible address: left at 0
      continue;
    }
    mv_systemCalls++;
    ssize_t copied = process_vm_readv(pid, local, batch, remote, batch, 0);
    size_t complete = copied > 0 ? (size_t)copied / sizeof(uintptr_t) : 0;
    if (readable != NULL) memset(readable + index, 1, complete);
    // The kernel stops at the first address it cannot read: skip it, go on after it.
    if (complete < batch) words[index + complete] = 0;
    index += complete < batch ? complete + 1 : batch;
  }
}

void mv_readRegions(pid_t pid, MVReadRegion *regions, size_t count) {
  enum { Batch = 1024 };
  struct iovec local[Batch], remote[Batch];
  size_t index = 0;
  while (index < count) {
    size_t batch = 0, planned[Batch];
    for (; index < count && batch < Batch; index++) {
      MVReadRegion *region = &regions[index];
      region->copied = 0;
      if (region->size == 0 || !mv_plausible(region->address, region->size)) continue;
      local[batch].iov_base = region->destination;
      local[batch].iov_len = region->size;
      remote[batch].iov_base = (void *)region->address;
      remote[batch].iov_len = region->size;
      planned[batch++] = index;
    }
    if (batch == 0) continue;
    mv_systemCalls++;
    ssize_t copied = process_vm_readv(pid, local, batch, remote, batch, 0);
    size_t left = copied > 0 ? (size_t)copied : 0;
    for (size_t item = 0; item < batch; item++) {
      MVReadRegion *region = &regions[planned[item]];
      if (left >= region->size) {
        region->copied = region->size;
        left -= region->size;
        continue;
      }
      // The kernel stopped inside or before this region: read the rest one by one.
      region->copied = left;
      left = 0;
      if (region->copied < region->size) {
        size_t more = mv_read(pid, region->address + region->copied, (char *)region->destination + region->copied,
                              region->size - region->copied);
        region->copied += more;
      }
      for (size_t rest = item + 1; rest < batch; rest++) {
        MVReadRegion *next = &regions[planned[rest]];
        next->copied = mv_read(pid, next->address, next->destination, next->size);
      }
      break;
    }
  }
}
