// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// The handler lets its context go when it is removed.
final class PipelineContext {
  let name: String
  let handler: ChatHandler

  init(name: String, handler: ChatHandler) {
    self.name = name
    self.handler = handler
  }

  func write(_ message: String) {}
}

final class Pipeline {
  private var contexts: [PipelineContext] = []

  func add(_ handler: ChatHandler, name: String) {
    let context = PipelineContext(name: name, handler: handler)
    contexts.append(context)
    handler.handlerAdded(context: context)
  }

  func removeAll() {
    for context in contexts { context.handler.handlerRemoved(context: context) }
    contexts = []
  }
}

final class ChatHandler {
  private var context: PipelineContext?
  private var history: [String] = []

  func handlerAdded(context: PipelineContext) {
    self.context = context
  }

  func handlerRemoved(context: PipelineContext) {
    self.context = nil
  }

  func channelRead(_ message: String) {
    history.append(message)
    context?.write("echo: \(message)")
  }
}
