import LeakClock
import LeakDetector
import Testing

@MainActor
@Suite struct ReportTests {
  @Test func theEmptyReportIsWhatAFreshDetectorSays() {
    #expect(LeakReport.empty == LeakDetector(scheduler: ManualScheduler()).report)
    #expect(LeakReport.empty.summaryLabel == "No issues detected")
    #expect(LeakReport.empty.isClean)
  }
}
