/// Strongly connected components of a directed graph (Tarjan's algorithm,
/// iterative so that a long chain of leaked blocks cannot overflow the stack).
///
/// ```swift
/// let components = StrongComponents(nodeCount: 3, successors: [[1], [0], []])
/// components.component   // [0, 0, 1]: nodes 0 and 1 form one component
/// ```
struct StrongComponents {
  /// The component of each node. Components are numbered in reverse
  /// topological order: an edge between components goes from a higher
  /// number to a lower one.
  private(set) var component: [Int]
  /// How many components there are.
  private(set) var count = 0

  init(nodeCount: Int, successors: [[Int]]) {
    component = Array(repeating: -1, count: nodeCount)
    var index = Array(repeating: -1, count: nodeCount)
    var lowLink = Array(repeating: 0, count: nodeCount)
    var onStack = Array(repeating: false, count: nodeCount)
    var stack: [Int] = []
    var nextIndex = 0
    // Frames of the depth-first search: the node and its next successor to visit.
    var frames: [(node: Int, next: Int)] = []
    for start in 0..<nodeCount where index[start] < 0 {
      frames.append((start, 0))
      index[start] = nextIndex
      lowLink[start] = nextIndex
      nextIndex += 1
      stack.append(start)
      onStack[start] = true
      while let frame = frames.last {
        let node = frame.node
        if frame.next < successors[node].count {
          frames[frames.count - 1].next += 1
          let successor = successors[node][frame.next]
          if index[successor] < 0 {
            index[successor] = nextIndex
            lowLink[successor] = nextIndex
            nextIndex += 1
            stack.append(successor)
            onStack[successor] = true
            frames.append((successor, 0))
          } else if onStack[successor] {
            lowLink[node] = min(lowLink[node], index[successor])
          }
          continue
        }
        frames.removeLast()
        if let parent = frames.last?.node { lowLink[parent] = min(lowLink[parent], lowLink[node]) }
        guard lowLink[node] == index[node] else { continue }
        while let member = stack.popLast() {
          onStack[member] = false
          component[member] = count
          if member == node { break }
        }
        count += 1
      }
    }
  }
}
