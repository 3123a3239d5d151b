#if canImport(Glibc)
  import Glibc
#endif

/// Where an ELF image keeps its Swift reflection metadata, read from the
/// image's file on disk.
///
/// The Remote Mirror library's own `addImage` finds these sections through
/// the section header table, which is not loaded into memory on ELF: read
/// from a process it finds nothing (or crashes in-process). The table is in
/// the file, so it is read from there; the sections' contents are then read
/// from the process at their loaded addresses.
package struct ReflectionSections: Equatable {
  /// The sections Remote Mirror needs, in the order it takes them.
  static let names = [
    "swift5_fieldmd", "swift5_assocty", "swift5_builtin", "swift5_capture", "swift5_typeref",
    "swift5_reflstr",
  ]

  /// Start address (as linked, before the load bias) and size of each of
  /// ``names``; size 0 when the image lacks that section.
  var starts: [UInt64]
  var sizes: [UInt64]

  /// Whether the image has Swift type metadata at all.
  package var hasFieldMetadata: Bool { sizes[0] > 0 }

  /// The linked address range covering every present section.
  var span: Range<UInt64>? {
    let present = zip(starts, sizes).filter { $0.1 > 0 }
    guard let low = present.map(\.0).min(), let high = present.map({ $0.0 + $0.1 }).max() else { return nil }
    return low..<high
  }

  /// Reads the section headers of the ELF file at `path`; nil when it is not a
  /// 64-bit ELF file or cannot be read.
  package static func read(path: String) -> ReflectionSections? {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var header = Elf64_Ehdr()
    guard pread(file, &header, MemoryLayout<Elf64_Ehdr>.size, 0) == MemoryLayout<Elf64_Ehdr>.size,
      header.e_ident.0 == 0x7F, header.e_ident.1 == UInt8(ascii: "E"), header.e_ident.2 == UInt8(ascii: "L"),
      header.e_ident.3 == UInt8(ascii: "F"), header.e_ident.4 == UInt8(ELFCLASS64),
      Int(header.e_shentsize) == MemoryLayout<Elf64_Shdr>.size, header.e_shnum > 0, header.e_shnum < 0xFF00,
      header.e_shstrndx < header.e_shnum
    else { return nil }
    var sections = [Elf64_Shdr](repeating: Elf64_Shdr(), count: Int(header.e_shnum))
    let tableSize = sections.count * MemoryLayout<Elf64_Shdr>.size
    let got = sections.withUnsafeMutableBytes {
      pread(file, $0.baseAddress, tableSize, off_t(header.e_shoff))
    }
    guard got == tableSize else { return nil }
    let namesHeader = sections[Int(header.e_shstrndx)]
    guard namesHeader.sh_size < 1 << 24 else { return nil }
    var names = [UInt8](repeating: 0, count: Int(namesHeader.sh_size) + 1)
    let namesSize = Int(namesHeader.sh_size)
    guard
      names.withUnsafeMutableBytes({ pread(file, $0.baseAddress, namesSize, off_t(namesHeader.sh_offset)) })
        == namesSize
    else { return nil }
    var result = ReflectionSections(
      starts: Array(repeating: 0, count: Self.names.count),
      sizes: Array(repeating: 0, count: Self.names.count))
    for section in sections where section.sh_addr != 0 && Int(section.sh_name) < namesSize {
      let start = Int(section.sh_name)
      let end = names[start...].firstIndex(of: 0) ?? namesSize
      let name = String(decoding: names[start..<end], as: UTF8.self)
      if let index = Self.names.firstIndex(of: name) {
        result.starts[index] = section.sh_addr
        result.sizes[index] = section.sh_size
      }
    }
    return result
  }
}
