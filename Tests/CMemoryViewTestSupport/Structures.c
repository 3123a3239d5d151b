#define _GNU_SOURCE
#include "CMemoryViewTestSupport.h"

#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>

void *mvt_listHead;
void *mvt_interiorPointer;
void *mvt_mappedChain;

uintptr_t mvt_makeList(size_t count, size_t size) {
  void *previous = NULL;
  void *last = NULL;
  for (size_t index = 0; index < count; index++) {
    void **node = calloc(1, size < sizeof(void *) ? sizeof(void *) : size);
    if (last == NULL) last = node;
    node[0] = previous;
    previous = node;
  }
  mvt_listHead = previous;
  return (uintptr_t)last ^ MVT_MASK;
}

uintptr_t mvt_listHeadAddress(void) { return (uintptr_t)mvt_listHead; }

void mvt_freeList(void) {
  void **node = mvt_listHead;
  while (node != NULL) {
    void **next = node[0];
    free(node);
    node = next;
  }
  mvt_listHead = NULL;
}

static void *mvt_interiorBlock;

uintptr_t mvt_makeInteriorPointer(size_t size, size_t offset) {
  mvt_interiorBlock = calloc(1, size);
  mvt_interiorPointer = (char *)mvt_interiorBlock + offset;
  uintptr_t masked = (uintptr_t)mvt_interiorBlock ^ MVT_MASK;
  mvt_interiorBlock = (void *)((uintptr_t)mvt_interiorBlock ^ MVT_MASK);
  return masked;
}

void mvt_freeInteriorPointer(void) {
  free((void *)((uintptr_t)mvt_interiorBlock ^ MVT_MASK));
  mvt_interiorBlock = NULL;
  mvt_interiorPointer = NULL;
}

uintptr_t mvt_makeMappedChain(size_t size) {
  void **third = calloc(1, size);
  void **second = calloc(1, size);
  void **first = calloc(1, size);
  first[1] = second;
  second[1] = third;
  mvt_mappedChain = first;
  return (uintptr_t)third ^ MVT_MASK;
}

uintptr_t mvt_mappedChainAddress(void) { return (uintptr_t)mvt_mappedChain; }

void mvt_freeMappedChain(void) {
  void **first = mvt_mappedChain;
  if (first == NULL) return;
  void **second = first[1];
  free(second[1]);
  free(second);
  free(first);
  mvt_mappedChain = NULL;
}

// MARK: A block held only from another thread's stack

static pthread_mutex_t mvt_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t mvt_changed = PTHREAD_COND_INITIALIZER;
static int mvt_state;  // 0 idle, 1 holding, 2 asked to stop
static uintptr_t mvt_held;
static int mvt_holderID;
static pthread_t mvt_holder;
static size_t mvt_holderSize;

static void *mvt_hold(void *argument) {
  (void)argument;
  void *volatile block = calloc(1, mvt_holderSize);
  pthread_mutex_lock(&mvt_lock);
  mvt_held = (uintptr_t)block ^ MVT_MASK;
  mvt_holderID = gettid();
  mvt_state = 1;
  pthread_cond_broadcast(&mvt_changed);
  while (mvt_state != 2) pthread_cond_wait(&mvt_changed, &mvt_lock);
  pthread_mutex_unlock(&mvt_lock);
  free(block);
  return NULL;
}

uintptr_t mvt_startStackHolder(size_t size, int *threadID) {
  mvt_holderSize = size;
  mvt_state = 0;
  pthread_create(&mvt_holder, NULL, mvt_hold, NULL);
  pthread_mutex_lock(&mvt_lock);
  while (mvt_state != 1) pthread_cond_wait(&mvt_changed, &mvt_lock);
  uintptr_t held = mvt_held;
  *threadID = mvt_holderID;
  pthread_mutex_unlock(&mvt_lock);
  return held;
}

void mvt_stopStackHolder(void) {
  pthread_mutex_lock(&mvt_lock);
  mvt_state = 2;
  pthread_cond_broadcast(&mvt_changed);
  pthread_mutex_unlock(&mvt_lock);
  pthread_join(mvt_holder, NULL);
}

static size_t mvt_freeSize, mvt_freeCount;
static uintptr_t mvt_freed[64];
static pthread_t mvt_freeingThread;
static int mvt_freeState;  // 0 working, 1 done and waiting, 2 asked to stop

static void *mvt_freeing(void *argument) {
  (void)argument;
  void *blocks[64];
  for (size_t index = 0; index < mvt_freeCount; index++) blocks[index] = malloc(mvt_freeSize);
  for (size_t index = 0; index < mvt_freeCount; index++) {
    mvt_freed[index] = (uintptr_t)blocks[index] ^ MVT_MASK;
    free(blocks[index]);
    blocks[index] = NULL;
  }
  pthread_mutex_lock(&mvt_lock);
  mvt_freeState = 1;
  pthread_cond_broadcast(&mvt_changed);
  while (mvt_freeState != 2) pthread_cond_wait(&mvt_changed, &mvt_lock);
  pthread_mutex_unlock(&mvt_lock);
  return NULL;
}

void mvt_allocateAndFreeOnThread(size_t size, size_t count, uintptr_t *addresses) {
  mvt_freeSize = size;
  mvt_freeCount = count > 64 ? 64 : count;
  mvt_freeState = 0;
  pthread_create(&mvt_freeingThread, NULL, mvt_freeing, NULL);
  pthread_mutex_lock(&mvt_lock);
  while (mvt_freeState != 1) pthread_cond_wait(&mvt_changed, &mvt_lock);
  pthread_mutex_unlock(&mvt_lock);
  memcpy(addresses, mvt_freed, mvt_freeCount * sizeof(uintptr_t));
}

void mvt_stopFreeingThread(void) {
  pthread_mutex_lock(&mvt_lock);
  mvt_freeState = 2;
  pthread_cond_broadcast(&mvt_changed);
  pthread_mutex_unlock(&mvt_lock);
  pthread_join(mvt_freeingThread, NULL);
}

// MARK: Churn

static atomic_int mvt_churning;
static pthread_t mvt_churners[4];
static int mvt_churnerCount;

static void *mvt_churn(void *argument) {
  unsigned seed = (unsigned)(uintptr_t)argument;
  void *slots[256] = {0};
  while (atomic_load(&mvt_churning)) {
    unsigned slot = rand_r(&seed) % 256;
    free(slots[slot]);
    size_t size = 16 + rand_r(&seed) % 2048;
    if (rand_r(&seed) % 64 == 0) size = 200000;
    slots[slot] = malloc(size);
    if (slots[slot] != NULL) memset(slots[slot], 0xAB, 16);
  }
  for (int slot = 0; slot < 256; slot++) free(slots[slot]);
  return NULL;
}

void mvt_startChurn(int threads) {
  if (threads > 4) threads = 4;
  atomic_store(&mvt_churning, 1);
  mvt_churnerCount = threads;
  for (int index = 0; index < threads; index++)
    pthread_create(&mvt_churners[index], NULL, mvt_churn, (void *)(uintptr_t)(index + 1));
}

void mvt_stopChurn(void) {
  atomic_store(&mvt_churning, 0);
  for (int index = 0; index < mvt_churnerCount; index++) pthread_join(mvt_churners[index], NULL);
  mvt_churnerCount = 0;
}

uintptr_t mvt_makeUnreferenced(size_t size) { return (uintptr_t)calloc(1, size) ^ MVT_MASK; }

void mvt_freeMasked(uintptr_t masked) { free((void *)(masked ^ MVT_MASK)); }

void mvt_fixMmapThreshold(void) { mallopt(M_MMAP_THRESHOLD, 128 * 1024); }

int mvt_forkStoppedListChild(size_t count, size_t size, uintptr_t *last) {
  int pipes[2];
  if (pipe(pipes) != 0) return -1;
  pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    // Only C from here on: the child of a multithreaded process.
    close(pipes[0]);
    uintptr_t masked = mvt_makeList(count, size);
    (void)!write(pipes[1], &masked, sizeof masked);
    close(pipes[1]);
    raise(SIGSTOP);
    for (;;) pause();
  }
  close(pipes[1]);
  ssize_t got = read(pipes[0], last, sizeof *last);
  close(pipes[0]);
  int status = 0;
  if (got != sizeof *last || waitpid(child, &status, WUNTRACED) != child || !WIFSTOPPED(status)) {
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    return -1;
  }
  return child;
}

void mvt_killChild(int pid) {
  kill(pid, SIGKILL);
  waitpid(pid, NULL, 0);
}

// MARK: C objects holding a Swift object

const char mvt_structType[16] = "mvt_structType";
void **mvt_typedStruct;
void **mvt_plainBuffer;

void mvt_holdInTypedStruct(void *context) {
  mvt_typedStruct = calloc(4, sizeof(void *));
  mvt_typedStruct[0] = (void *)mvt_structType;
  mvt_typedStruct[1] = context;
}

void *mvt_releaseTypedStruct(void) {
  void *context = mvt_typedStruct[1];
  free(mvt_typedStruct);
  mvt_typedStruct = NULL;
  return context;
}

void mvt_holdInPlainBuffer(void *context) {
  mvt_plainBuffer = calloc(4, sizeof(void *));
  mvt_plainBuffer[1] = context;
}

void *mvt_releasePlainBuffer(void) {
  void *context = mvt_plainBuffer[1];
  free(mvt_plainBuffer);
  mvt_plainBuffer = NULL;
  return context;
}

// MARK: An owned block and a table's stale word

void *mvt_ownerHead;
void **mvt_staleTable;
// Masked: only the structure points at them.
static uintptr_t mvt_owner, mvt_ownedBlock;

uintptr_t mvt_makeOwnedBlockAndStaleTable(void) {
  void *block = calloc(1, 1936);
  void **owner = calloc(4, sizeof(void *));
  owner[0] = (void *)mvt_structType;
  owner[1] = block;
  // Three plain links from the global to the owner.
  void *next = owner;
  for (int link = 0; link < 3; link++) {
    void **node = calloc(1, 1912);
    node[0] = next;
    next = node;
  }
  mvt_ownerHead = next;
  mvt_staleTable = calloc(256, sizeof(void *));
  mvt_staleTable[200] = block;
  mvt_owner = (uintptr_t)owner ^ MVT_MASK;
  mvt_ownedBlock = (uintptr_t)block ^ MVT_MASK;
  return mvt_ownedBlock;
}

void mvt_dropOwnersWord(void) { ((void **)(mvt_owner ^ MVT_MASK))[1] = NULL; }

void mvt_freeOwnedBlock(void) {
  void **node = mvt_ownerHead;
  for (int link = 0; link < 3; link++) {
    void **next = node[0];
    free(node);
    node = next;
  }
  free((void *)(mvt_owner ^ MVT_MASK));
  free((void *)(mvt_ownedBlock ^ MVT_MASK));
  free(mvt_staleTable);
  mvt_ownerHead = NULL;
  mvt_staleTable = NULL;
  mvt_owner = 0;
  mvt_ownedBlock = 0;
}

// MARK: A stale word in a metadata cache

// Named as the Swift runtime names its cache variables (a type's metadata
// instantiation cache `$s…MI`, a conformance's `$s…MK`, a demangling cache
// variable `$s…MD`), so the heap model takes what only they hold for the
// runtime's metadata memory. Not in the header: Swift never names them.
void *$s22CMemoryViewTestSupport9FakeCacheMI = NULL;
void *$s22CMemoryViewTestSupport9FakeCacheMK = NULL;
void *$s22CMemoryViewTestSupport9FakeCacheMD = NULL;
static void **mvt_cacheHolder = NULL;
static void **mvt_cacheVariable = NULL;

void mvt_holdBehindCache(int variable, void *context) {
  void **variables[] = {
      &$s22CMemoryViewTestSupport9FakeCacheMI, &$s22CMemoryViewTestSupport9FakeCacheMK,
      &$s22CMemoryViewTestSupport9FakeCacheMD};
  mvt_cacheVariable = variables[variable % 3];
  // Sizes no other block of the test process has, so that no stale copy of
  // a recycled address leads to them some other way.
  void **node = calloc(1, 2904);
  void **buffer = calloc(1, 2856);
  buffer[1] = context;
  node[5] = buffer;
  // A page of its own mapping points at the buffer too, so the buffer is
  // not the cache's alone (the runtime's stale words point into the
  // program's memory). The explainer takes no such mapping for a root, and
  // no heap block leads to it.
  mvt_cacheHolder = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  mvt_cacheHolder[0] = buffer;
  *mvt_cacheVariable = node;
}

void *mvt_releaseBehindCache(void) {
  void **node = *mvt_cacheVariable;
  void **buffer = node[5];
  void *context = buffer[1];
  munmap(mvt_cacheHolder, 4096);
  free(buffer);
  free(node);
  mvt_cacheHolder = NULL;
  *mvt_cacheVariable = NULL;
  return context;
}

void mvt_holdCacheTableWithStaleWordToALink(void) {
  // A size no other block of the test process has; only the cache
  // variable holds it.
  void **table = calloc(1, 3032);
  table[0] = (void *)mvt_structType;
  table[7] = ((void **)mvt_ownerHead)[0];
  $s22CMemoryViewTestSupport9FakeCacheMK = table;
}

void mvt_releaseCacheTable(void) {
  free($s22CMemoryViewTestSupport9FakeCacheMK);
  $s22CMemoryViewTestSupport9FakeCacheMK = NULL;
}

// MARK: A holder replaced without pause

void *mvt_movingHolder;
static uintptr_t mvt_movingTarget;  // masked: only the holder points at it
static atomic_int mvt_moving;
static pthread_t mvt_mover;

static void *mvt_move(void *argument) {
  (void)argument;
  while (atomic_load(&mvt_moving)) {
    void **fresh = malloc(72);
    fresh[0] = (void *)(mvt_movingTarget ^ MVT_MASK);
    fresh[1] = fresh[0];
    void **old = __atomic_exchange_n(&mvt_movingHolder, fresh, __ATOMIC_SEQ_CST);
    // No stale copy of the address in freed memory (whatever reuses the
    // chunk would point at the block too, a path as short as the holder's).
    if (old != NULL) memset(old, 0, 2 * sizeof(void *));
    free(old);
  }
  return NULL;
}

uintptr_t mvt_startMovingHolder(size_t size) {
  void **first = malloc(72);
  first[0] = calloc(1, size);
  first[1] = first[0];
  mvt_movingTarget = (uintptr_t)first[0] ^ MVT_MASK;
  mvt_movingHolder = first;
  atomic_store(&mvt_moving, 1);
  pthread_create(&mvt_mover, NULL, mvt_move, NULL);
  return mvt_movingTarget;
}

void mvt_stopMovingHolder(void) {
  atomic_store(&mvt_moving, 0);
  pthread_join(mvt_mover, NULL);
  free(mvt_movingHolder);
  mvt_movingHolder = NULL;
  free((void *)(mvt_movingTarget ^ MVT_MASK));
  mvt_movingTarget = 0;
}

size_t mvt_usableSize(const void *block) { return malloc_usable_size((void *)block); }

void mvt_leaveStaleWords(size_t size, uintptr_t word) {
  // Volatile: stores into a block about to be freed are otherwise dropped.
  volatile uintptr_t *block = malloc(size);
  for (size_t index = 0; index < size / sizeof(uintptr_t); index++) block[index] = word;
  free((void *)block);
}

void mvt_writeWord(uintptr_t address, uintptr_t word) { *(volatile uintptr_t *)address = word; }
