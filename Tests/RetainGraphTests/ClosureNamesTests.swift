import HeapModel
import Testing

@testable import RetainGraph

@Suite struct ClosureNamesTests {
  @Test func closuresAreNamedAfterTheFunctionThatCreatesThem() {
    #expect(
      ClosureNames.simplify(
        "partial apply forwarder for closure #1 () -> () in App.AlertScreen.showAlert() -> ()")
        == "closure in AlertScreen.showAlert()")
  }

  @Test func nestedClosuresAreNamedAfterTheOutermostFunction() {
    #expect(
      ClosureNames.simplify(
        "closure #1 () -> () in closure #2 (Swift.Int) -> () in App.Screen.load(id: Swift.Int) -> ()")
        == "closure in Screen.load(id:)")
  }

  @Test func methodsUsedAsClosuresKeepTheirLabels() {
    #expect(
      ClosureNames.simplify("App.Screen.handle(response: Swift.String, _: Swift.Int) -> ()")
        == "Screen.handle(response:_:)")
  }

  @Test func privateTypesInSignaturesDoNotConfuseTheName() {
    let foundation =
      "partial apply forwarder for closure #1 @Sendable (FoundationEssentials.(MessageBox in _D7F0)) -> ()"
      + " in closure #2 (sending inout Swift.Dictionary<Swift.String, FoundationEssentials.(AutoDictionary"
      + " in _D7F0)<@Sendable (FoundationEssentials.(MessageBox in _D7F0)) -> ()>>) -> sending Swift.UInt64"
      + " in FoundationEssentials.NotificationCenter._addObserver<A>(_: Swift.Optional<Swift.String>,"
      + " object: Swift.Optional<Any>, using: @Sendable (A) -> ()) -> FoundationEssentials.Token"
    #expect(
      ClosureNames.simplify(foundation) == "closure in NotificationCenter._addObserver<A>(_:object:using:)")
  }

  @Test func privateDiscriminatorsAndExtensionsAreDropped() {
    #expect(
      TypeNames.unqualified("(extension in Foundation):Foundation.(Box in _1A2B3C).Inner<Swift.Int>")
        == "Box.Inner<Int>")
  }
}
