// `make bench`: every LeakLab benchmark, one section per library.
print("LeakLab benchmarks")
runRetainGraphBenchmarks()
