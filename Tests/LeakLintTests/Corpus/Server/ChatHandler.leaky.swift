// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
// A pipeline context keeps its handler; the handler keeps the context it was added with.
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
}

final class ChatHandler {
  private var context: PipelineContext?  // leak: strong-back-reference
  private var history: [String] = []

  func handlerAdded(context: PipelineContext) {
    self.context = context
  }

  func channelRead(_ message: String) {
    history.append(message)
    context?.write("echo: \(message)")
  }
}
