import HeapModel
import Testing

/// The byte search the name shortening uses, against the character search it replaced.
@Suite struct NameSearchTests {
  @Test func itFindsWhatFirstRangeFindsFirstAndLast() {
    let name = "closure #2 in closure #1 (Swift.Int) -> () in Feed.(Cache in _1A2B).load()"
    #expect(name.firstNameRange(of: "closure #") == name.ranges(of: "closure #").first)
    #expect(name.lastNameRange(of: "closure #") == name.ranges(of: "closure #").last)
    #expect(name.firstNameRange(of: " in ") == name.firstRange(of: " in "))
    #expect(name.firstNameRange(of: "thunk") == nil)
    #expect(!name.containsName("@escaping"))
    #expect("x".firstNameRange(of: "longer than x") == nil)
  }

  @Test func itWorksOnSubstringsAndPastNonASCIIText() throws {
    let name = "Café.(Crème in _9F).brûlée(à: Swift.Int) -> ()"
    let tail = name[try #require(name.firstIndex(of: "."))...]
    #expect(tail.firstNameRange(of: " in ") == tail.firstRange(of: " in "))
    #expect(String(name[try #require(name.lastNameRange(of: "Swift"))]) == "Swift")
  }

  @Test func identifierPartsAreLettersDigitsAndUnderscoreInAnyScript() {
    let parts = "aZ09_éßж".filter(\.isIdentifierPart)
    let others = "().:<>[] ,$@`{".filter(\.isIdentifierPart)
    #expect(parts == "aZ09_éßж")
    #expect(others.isEmpty)
  }
}
