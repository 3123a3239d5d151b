import FixtureSupport
import Hummingbird
import HummingbirdFixture

// A server that keeps nothing of a request: both forms are the same clean
// program, the baseline every leak tool must call clean.

let options = FixtureOptions.parse()
FixtureMain.run {
  let router = Router()
  router.get("/") { _, _ -> String in "hello" }
  try await HummingbirdFixture.serve(router, options: options)
}
