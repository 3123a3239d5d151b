// `make bench`: every LeakLab benchmark, one section per library.
// Release build only; medians of repeated runs, measured side by side.
// `LeakLabBenchmarks detector`, `… retaingraph`, `… graph`, `… memoryview`, `… census`, `… leaks` or `… sites` runs one
// section (`… symbolization`: the last table of `sites` alone); `… lint TREE` lints the Swift files under TREE.
let arguments = Array(CommandLine.arguments.dropFirst())
let sections = Set(arguments.filter { !$0.contains("/") }.map { $0.lowercased() })
func wanted(_ section: String) -> Bool { sections.isEmpty || sections.contains(section) }

print("LeakLab benchmarks (release build)")
if wanted("detector") {
  MainActor.assumeIsolated {
    DetectorBenchmarks.run()
  }
}
if wanted("retaingraph") {
  runRetainGraphBenchmarks()
}
if wanted("graph") {
  runGraphLayoutBenchmarks()
}
if wanted("leaks") {
  LeaksBenchmarks.run()
}
if wanted("memoryview") {
  runMemoryViewBenchmarks()
}
if wanted("sites") {
  SitesBenchmarks.run()
} else if sections.contains("symbolization") {
  SitesBenchmarks.symbolization()
}
if wanted("census") {
  CensusBenchmarks.run()
}
if wanted("lint") {
  LintBenchmarks.run(tree: arguments.first { $0.contains("/") } ?? ".build/lint-bench-tree")
}
