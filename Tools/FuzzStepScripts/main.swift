// Fuzz target: arbitrary bytes as a step script. The parser must turn every
// input into a script or one displayable error line; a script that parses is
// run headless on the real app model (manual clock), and the runner must
// finish with a result or a one-line error, its report free of control
// characters. A broken rule is a crash libFuzzer keeps.
//
//   make fuzz                                   (libFuzzer, longer runs)
//   .build-fuzz/debug/FuzzStepScripts -runs=3000 Scenarios/Scripts
//   .build/debug/FuzzStepScripts crash-1234     (replays saved inputs)
import FuzzSupport
import LeakLab
import StepScripts

/// Whether `text` can be shown as one line: no control characters at all.
func isOneDisplayableLine(_ text: String) -> Bool {
  !text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
}

/// At most this many steps and this much simulated time of one input are run.
let maximumSteps = 64
let maximumWait = Duration.seconds(4 * 3600)

@MainActor
func check(_ bytes: UnsafeRawBufferPointer) {
  let text = String(decoding: bytes, as: UTF8.self)
  let script: StepScript
  do {
    script = try StepScriptParser.parse(text, file: "fuzz.leaklab")
  } catch {
    precondition(
      isOneDisplayableLine(error.description), "error shown raw: \(DisplayText.quoted(error.description))")
    return
  }
  precondition(!script.steps.isEmpty, "a script without steps was accepted")
  var steps: [Step] = []
  var waited = Duration.zero
  for step in script.steps.prefix(maximumSteps) {
    if case .wait(let duration) = step.command {
      waited += duration
      if waited > maximumWait { break }
    }
    steps.append(step)
  }
  do {
    let result = try StepRunner.run(StepScript(file: script.file, steps: steps), on: HeadlessStepDriver())
    for line in StepReport.lines(for: result) {
      precondition(isOneDisplayableLine(line), "report line shown raw: \(DisplayText.quoted(line))")
    }
  } catch {
    precondition(
      isOneDisplayableLine(error.description), "error shown raw: \(DisplayText.quoted(error.description))")
  }
}

FuzzDriver.run { bytes in MainActor.assumeIsolated { check(bytes) } }
