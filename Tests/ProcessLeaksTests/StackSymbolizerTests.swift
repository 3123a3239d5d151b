import Testing

@testable import ProcessLeaks

/// Reading `llvm-symbolizer`'s answers, whole or as they arrive.
@Suite struct StackSymbolizerTests {
  static let output = """
    $s4Feed4loadyyF
    /src/Sources/Feed/Feed.swift:42:7
    main
    /src/Sources/Feed/main.swift:3:1

    ??
    ??:0:0

    $s4Feed5thunkyyF
    <compiler-generated>:0:0

    weird
    C:/src/a:b.swift:9:2


    """

  @Test func eachAddressGetsItsFramesInlinedFirstAndMadeUpFilesAreNone() throws {
    let answers = StackSymbolizer.answers(in: Self.output)
    #expect(answers.count == 4)
    #expect(answers[0].map(\.function) == ["$s4Feed4loadyyF", "main"])
    #expect(answers[0].map(\.file) == ["/src/Sources/Feed/Feed.swift", "/src/Sources/Feed/main.swift"])
    #expect(answers[0].map(\.line) == [42, 3])
    #expect(answers[1][0].function == "??" && answers[1][0].file == nil && answers[1][0].line == nil)
    #expect(answers[2][0].file == nil)
    // A file whose name holds colons.
    #expect(answers[3][0].file == "C:/src/a:b.swift" && answers[3][0].line == 9)
  }

  @Test func answersReadInPiecesEndAtTheLastEmptyLine() {
    let bytes = Array(Self.output.utf8)
    var pending: [UInt8] = []
    var answers: [[(function: String, file: String?, line: Int?)]] = []
    // Pieces of 7 bytes: most end inside an answer.
    for start in stride(from: 0, to: bytes.count, by: 7) {
      pending += bytes[start..<min(start + 7, bytes.count)]
      let end = StackSymbolizer.lastAnswerEnd(in: pending)
      answers += StackSymbolizer.answers(in: String(decoding: pending[..<end], as: UTF8.self))
      pending.removeSubrange(..<end)
    }
    answers += StackSymbolizer.answers(in: String(decoding: pending, as: UTF8.self))
    #expect(
      answers.map { $0.map(\.function) }
        == StackSymbolizer.answers(in: Self.output).map { $0.map(\.function) })
    #expect(answers.map { $0.map(\.line) } == StackSymbolizer.answers(in: Self.output).map { $0.map(\.line) })
  }
}
