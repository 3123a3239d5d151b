import CNcurses
import TextGrid

extension Key {
  /// Decodes what `wget_wch` returned: text (`OK`), a key code (`KEY_CODE_YES`), or nothing (`ERR`).
  ///
  /// Key codes without a ``Key`` (keypad oddities) decode to `nil`; a mouse
  /// event is read with `getmouse` by ``init(mouseCode:x:y:)``.
  init?(cursesResult result: Int32, value: wint_t) {
    switch result {
    case OK:
      guard let scalar = Unicode.Scalar(UInt32(value)) else { return nil }
      self.init(text: scalar)
    case KEY_CODE_YES:
      self.init(keyCode: Int32(bitPattern: value))
    default:
      return nil
    }
  }

  /// Decodes what `cn_read_mouse` returned: 0 press, 1 release, 2 wheel up, 3 wheel down.
  init?(mouseCode code: Int32, x: Int32, y: Int32) {
    let kinds: [MouseEvent.Kind] = [.press, .release, .wheelUp, .wheelDown]
    guard kinds.indices.contains(Int(code)) else { return nil }
    self = .mouse(MouseEvent(kinds[Int(code)], at: Point(x: Int(x), y: Int(y))))
  }

  /// Decodes an ncurses key code (`KEY_UP`, `KEY_F0 + n`, …).
  init?(keyCode: Int32) {
    switch keyCode {
    case KEY_UP: self = .up
    case KEY_DOWN: self = .down
    case KEY_LEFT: self = .left
    case KEY_RIGHT: self = .right
    case KEY_ENTER: self = .enter
    case KEY_BACKSPACE: self = .backspace
    case KEY_BTAB: self = .backTab
    case KEY_PPAGE: self = .pageUp
    case KEY_NPAGE: self = .pageDown
    case KEY_HOME, KEY_A1: self = .home
    case KEY_END, KEY_C1: self = .end
    case KEY_DC: self = .delete
    case KEY_RESIZE: self = .resize
    case (KEY_F0 + 1)...(KEY_F0 + 63): self = .function(Int(keyCode - KEY_F0))
    default: return nil
    }
  }
}
