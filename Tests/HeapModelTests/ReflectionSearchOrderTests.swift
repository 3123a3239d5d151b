import MemoryView
import Testing

@testable import HeapModel

#if canImport(Glibc)
  import Glibc
#endif

/// The order in which another process's images are given to Remote Mirror,
/// which searches them in that order for a type's field descriptors,
/// reading every descriptor of each image it passes.
struct ReflectionSearchOrderTests {
  @Test func theExecutableAndTheStandardLibraryComeFirstThenTheSmallestFieldSections() throws {
    let images = ImageList(map: try MemoryMap(pid: getpid()), memory: .current).images
    let found = images.compactMap { image in
      ReflectionSections.read(path: image.path).map { (image: image, sections: $0) }
    }.filter { $0.sections.hasFieldMetadata }
    let executable = try #require(images.first)
    let order = SwiftTypes.searchOrder(found, executable: executable.path)
    #expect(order.count == found.count)
    #expect(order.first?.image.path == executable.path)
    #expect(order.dropFirst().first?.image.name.hasPrefix("libswiftCore.") == true)
    let sizes = order.dropFirst(2).map { $0.sections.sizes[0] }
    #expect(sizes == sizes.sorted(), "\(order.map { "\($0.image.name) \($0.sections.sizes[0])" })")
    // What it is for: a type of the concurrency library is found before
    // Foundation's descriptors, four times as many, are read.
    let names = order.map(\.image.name)
    let concurrency = try #require(names.firstIndex { $0.hasPrefix("libswift_Concurrency.") })
    let foundation = try #require(names.firstIndex { $0.hasPrefix("libFoundationEssentials.") })
    #expect(concurrency < foundation)
  }
}
