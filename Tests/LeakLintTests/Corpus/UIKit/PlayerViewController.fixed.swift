// swift-format-ignore-file
// Corpus file for LeakLint tests: realistic code, linted, never compiled.
import AVFoundation
import UIKit

final class PlayerViewController: UIViewController {
  private let player = AVPlayer()
  private let progressLabel = UILabel()
  private var progressTimer: Timer?
  private var displayLink: CADisplayLink?

  override func viewDidLoad() {
    super.viewDidLoad()
    view.addSubview(progressLabel)
  }

  override func viewDidAppear(_ animated: Bool) {
    super.viewDidAppear(animated)
    progressTimer?.invalidate()
    progressTimer = Timer.scheduledTimer(withTimeInterval: 0.5, repeats: true) { [weak self] _ in
      self?.updateProgress()
    }
    displayLink = CADisplayLink(target: self, selector: #selector(step))
    displayLink?.add(to: .main, forMode: .common)
  }

  override func viewWillDisappear(_ animated: Bool) {
    super.viewWillDisappear(animated)
    progressTimer?.invalidate()
    displayLink?.invalidate()
  }

  @objc private func step() {}

  private func updateProgress() {
    let seconds = player.currentTime().seconds
    progressLabel.text = String(format: "%.0f s", seconds)
  }
}
