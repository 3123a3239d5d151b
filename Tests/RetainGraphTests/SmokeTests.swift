import Testing

@testable import RetainGraph

@Suite struct SmokeTests {
  @Test func alertCycleReadsAsAPath() {
    let names = InstanceNames()
    let explainer = RetainExplainer(naming: { names.name($0) })
    let alert = AlertScreen().showAlert()
    print(explainer.references(of: alert))
    print(explainer.references(of: alert.actions[0]))
    let explanation = explainer.explain(alert)
    print(explanation)
    #expect(explanation.path != nil)
  }
}
