// `make bench`'s program: keeps COUNT objects alive (a global array of
// nodes, each pointing at the next, half of them holding a string) and
// leaks LEAKED two-object retain cycles, then exits.
//
//   LiveObjects COUNT [LEAKED]
#if canImport(Glibc)
  import Glibc
#endif

final class Node {
  var next: Node?
  var label: String?
  let value: Int

  init(value: Int) { self.value = value }
}

final class Peer {
  var other: Peer?
}

/// Everything alive at exit hangs off this global.
nonisolated(unsafe) var nodes: [Node] = []

@inline(never)
func leak(_ cycles: Int) {
  for _ in 0..<cycles {
    let first = Peer()
    let second = Peer()
    first.other = second
    second.other = first
  }
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
guard let count = arguments.first, count >= 0 else {
  print("usage: LiveObjects COUNT [LEAKED]")
  exit(2)
}
nodes.reserveCapacity(count)
for value in 0..<count {
  let node = Node(value: value)
  if value % 2 == 0 { node.label = "node number \(value) of \(count)" }
  nodes.last?.next = node
  nodes.append(node)
}
leak(arguments.dropFirst().first ?? 0)
print("\(nodes.count) live nodes")
