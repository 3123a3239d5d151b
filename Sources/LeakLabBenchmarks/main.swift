// `make bench`: every LeakLab benchmark, one section per library.
// Release build only; medians of repeated runs, measured side by side.
print("LeakLab benchmarks (release build)")
MainActor.assumeIsolated {
  DetectorBenchmarks.run()
}
runRetainGraphBenchmarks()
