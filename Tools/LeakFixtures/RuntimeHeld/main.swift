// What the Swift runtime holds in ways no word-by-word scan sees, at exit:
//
//   RuntimeHeld waiting    a task waits on a `CheckedContinuation` a global
//                          keeps (the continuation's canary holds the task
//                          in its tail): nothing leaked
//   RuntimeHeld abandoned  the same task, its continuation dropped without a
//                          resume: the task and what its frames hold leaked
//   RuntimeHeld weakened   a live object that once had a weak reference
//                          (its side table hangs off its counts word):
//                          nothing leaked
//   RuntimeHeld resumable  a task waits on an `UnsafeContinuation` kept in
//                          a malloc'd buffer a global points at (its own
//                          frames keep its address too): nothing leaked
//   RuntimeHeld unread     a finished task that a global keeps holds the
//                          value it returned (an Answer) until the task
//                          goes: nothing leaked
//   RuntimeHeld dying      the program exits while another thread runs an
//                          object's deinit (nothing holds the object any
//                          more, and it still holds a Payload): nothing
//                          leaked, the thread was freeing both
#if canImport(Glibc)
  import Glibc
#endif

/// What the waiting task's frames keep.
final class Payload {
  var values = [1, 2, 3]
}

/// An object whose deinit tells the main thread it runs, then never ends.
final class Dying: @unchecked Sendable {
  let payload = Payload()
  let running: UnsafeMutablePointer<sem_t>

  init(running: UnsafeMutablePointer<sem_t>) { self.running = running }

  deinit {
    sem_post(running)
    while true { pause() }
  }
}

/// Releases the last reference to a `Dying` on a thread of its own and
/// returns once its deinit runs.
func startDying() {
  let running = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
  sem_init(running, 0, 0)
  var thread = pthread_t()
  let box = Unmanaged.passRetained(Dying(running: running)).toOpaque()
  pthread_create(
    &thread, nil,
    { box in
      Unmanaged<Dying>.fromOpaque(box!).release()
      return nil
    }, box)
  while sem_wait(running) != 0 {}
}

/// What a finished task returned.
final class Answer: Sendable {
  let values = [1, 2, 3]
}

/// Where the program keeps the continuation a task waits on.
final class Inbox: @unchecked Sendable {
  var continuation: CheckedContinuation<Int, Never>?
}

/// A live object, once referred to weakly.
final class Session {
  var name = "session"
}

let inbox = Inbox()
nonisolated(unsafe) var finished: Task<Answer, Never>?
nonisolated(unsafe) var sessions: [Session] = []

/// Starts a main-actor task that waits on a continuation kept in `inbox`,
/// and returns once it waits (the task and this code share the main actor).
@MainActor func startWaitingTask() async {
  Task { @MainActor in
    let payload = Payload()
    let answer = await withCheckedContinuation { inbox.continuation = $0 }
    print(answer + payload.values.count)
  }
  while inbox.continuation == nil { await Task.yield() }
}

/// Where the program keeps the unsafe continuation a task waits on: a buffer
/// of its own, which a global points at.
nonisolated(unsafe) var resumer: UnsafeMutablePointer<UnsafeContinuation<Int, Never>>?

/// Starts a main-actor task that waits on an unsafe continuation kept in
/// `resumer`'s buffer, and returns once it waits.
@MainActor func startResumableTask() async {
  Task { @MainActor in
    let payload = Payload()
    let answer = await withUnsafeContinuation { continuation in
      let slot = UnsafeMutablePointer<UnsafeContinuation<Int, Never>>.allocate(capacity: 1)
      slot.initialize(to: continuation)
      resumer = slot
    }
    print(answer + payload.values.count)
  }
  while resumer == nil { await Task.yield() }
}

@MainActor func run(_ mode: String) async {
  switch mode {
  case "waiting":
    await startWaitingTask()
  case "abandoned":
    await startWaitingTask()
    inbox.continuation = nil
  case "weakened":
    let session = Session()
    sessions.append(session)
    weak let observed = session
    print(observed?.name ?? "gone")
  case "resumable":
    await startResumableTask()
  case "unread":
    let task = Task { Answer() }
    finished = task
    print(await task.value.values.count)
  case "dying":
    startDying()
  default:
    print("usage: RuntimeHeld waiting|abandoned|weakened|resumable|unread|dying")
    exit(2)
  }
  print("exiting (\(mode))")
}

await run(CommandLine.arguments.dropFirst().first ?? "")
