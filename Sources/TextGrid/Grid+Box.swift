extension Grid {
  /// Draws a box along the edges of `rect` with an optional title in its top edge.
  ///
  /// The title is cut with `…` to fit. A rectangle smaller than 2×2 draws nothing.
  ///
  /// ```swift
  /// let inner = grid.drawBox(Rect(x: 0, y: 0, width: 20, height: 5), title: "Phone")
  /// grid.put("Load", at: inner.origin)
  /// ```
  ///
  /// - Returns: the area inside the border.
  @discardableResult
  public mutating func drawBox(
    _ rect: Rect, title: String? = nil, style: Style = .plain, titleStyle: Style? = nil,
    border: BorderSet = .unicode
  ) -> Rect {
    guard rect.width >= 2, rect.height >= 2 else { return Rect(origin: rect.origin, size: .zero) }
    let top = rect.minY
    let bottom = rect.maxY - 1
    let left = rect.minX
    let right = rect.maxX - 1
    let horizontal = String(repeating: border.horizontal, count: rect.width - 2)
    put("\(border.topLeft)\(horizontal)\(border.topRight)", at: Point(x: left, y: top), style: style)
    put("\(border.bottomLeft)\(horizontal)\(border.bottomRight)", at: Point(x: left, y: bottom), style: style)
    for y in (top + 1)..<bottom {
      put(String(border.vertical), at: Point(x: left, y: y), style: style)
      put(String(border.vertical), at: Point(x: right, y: y), style: style)
    }
    if let title, !title.isEmpty, rect.width >= 6 {
      let room = rect.width - 4
      put(
        " \(title.truncated(toWidth: room - 2)) ", at: Point(x: left + 2, y: top), style: titleStyle ?? style)
    }
    return rect.inset(by: 1)
  }
}
