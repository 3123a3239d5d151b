import MemoryView

/// Paths from a root to the reachable instances of some types
/// (`leaklab leaks --reachable TYPE`).
struct ReachablePaths {
  let heap: MallocHeap
  let mark: ConservativeMark
  let reflection: RemoteReflection
  let images: ImageList
  let threads: ThreadList
  let map: MemoryMap
  /// Instances listed per pattern, at most.
  var limit = 20

  func instances(matching patterns: [String]) -> [ReachableInstance] {
    var found: [ReachableInstance] = []
    var perPattern = [Int](repeating: 0, count: patterns.count)
    for index in 0..<heap.count where mark.marked[index] {
      let block = heap[index]
      guard let metadata = reflection.memory.word(at: block.address),
        RemoteReflection.isPlausibleAddress(metadata),
        let layout = reflection.layout(metadata: metadata, instance: block.address), layout.kind == .object
      else { continue }
      guard
        let pattern = patterns.indices.first(where: {
          Glob.matches(patterns[$0], layout.typeName) || Glob.matches(patterns[$0], layout.qualifiedName)
        }), perPattern[pattern] < limit
      else { continue }
      perPattern[pattern] += 1
      found.append(
        ReachableInstance(
          typeName: layout.typeName, address: block.address, size: Int(block.size), path: path(to: index)))
    }
    return found
  }

  /// The root, then each block from it to `index`, with the field that holds the next.
  func path(to index: Int) -> [String] {
    var chain = [index]
    while let last = chain.last, mark.parent[last] >= 0, chain.count < 64 {
      chain.append(Int(mark.parent[last]))
    }
    chain.reverse()
    var steps = [describeRoot(of: chain[0])]
    for (position, block) in chain.enumerated() {
      let label = position == 0 ? nil : label(from: chain[position - 1], to: block)
      steps.append((label.map { "\($0): " } ?? "") + describe(block))
    }
    return steps
  }

  private func describe(_ index: Int) -> String {
    let block = heap[index]
    var name = "malloc block"
    if let metadata = reflection.memory.word(at: block.address),
      RemoteReflection.isPlausibleAddress(metadata),
      let layout = reflection.layout(metadata: metadata, instance: block.address)
    {
      name = layout.typeName
    }
    return "<\(name) \(hex(block.address)) \(block.size) B>"
  }

  /// The field of `from` that points into `to`.
  private func label(from: Int, to: Int) -> String? {
    let holder = heap[from]
    let target = heap[to]
    let bytes = reflection.memory.bytes(at: holder.address, count: Int(min(holder.size, 1 << 16)))
    let layout = reflection.memory.word(at: holder.address).flatMap {
      RemoteReflection.isPlausibleAddress($0)
        ? reflection.layout(metadata: $0, instance: holder.address) : nil
    }
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = LeakGraphBuilder.normalised(LeakGraphBuilder.word(bytes, offset))
      if target.range.contains(word) {
        if let slot = layout?.slot(at: offset)?.slot, !slot.label.isEmpty { return slot.label }
        return "word \(offset / 8)"
      }
      offset += 8
    }
    return nil
  }

  private func describeRoot(of index: Int) -> String {
    guard let address = mark.rootWord[index], address != 0 else { return "root: a thread's registers" }
    if let thread = threads.threads.first(where: { $0.stackMapping?.contains(address) == true }) {
      let place = thread.stackPointer.map { address >= $0 ? "sp+\(address - $0)" : "sp-\($0 - address)" }
      return "root: stack of thread \(thread.id) (\(thread.name)) at \(place ?? hex(address))"
    }
    if let image = images.image(containing: address) {
      if let symbol = image.symbol(containing: address, kinds: .object) {
        return "root: global \(symbol.demangled) (\(image.name))"
      }
      return "root: globals of \(image.name)"
    }
    let region = map.region(containing: address)
    return "root: \(region?.path.isEmpty == false ? region!.path : "anonymous mapping") at \(hex(address))"
  }
}
