import SideEffects
import Testing

@MainActor
@Suite("An app waits for its effects at shutdown: waitForEffects()", .timeLimit(.minutes(5)))
struct WaitForEffectsTests {
  @Test(
    "waitForEffects returns once every effect, queued ones too, has dispatched its last updater")
  func waitsForEveryEffect() async {
    let store = makeStore()
    store.launch(WaitAtGate(name: "upload"))
    store.launch(SaveInOrder(name: "first"))
    store.launch(SaveInOrder(name: "second"))
    store.dependencies.gate.open()
    #expect(await store.waitForEffects())
    #expect(store.state.log.contains("upload end"))
    #expect(
      store.state.log.filter { !$0.hasPrefix("upload") } == [
        "first start", "first end", "second start", "second end",
      ])
  }

  @Test("with nothing running, waitForEffects returns at once")
  func returnsAtOnce() async {
    let store = makeStore()
    #expect(await store.waitForEffects())
  }

  @Test("cancelAllEffects, then waitForEffects: effects that would wait forever are stopped")
  func cancelsThenWaits() async {
    let store = makeStore()
    store.launch(WaitAtGate(name: "upload"))
    store.launch(SaveInOrder(name: "first"))
    store.launch(SaveInOrder(name: "second"))
    // The gate never opens: only the cancellation ends them.
    await store.dependencies.gate.arrivals(1)
    store.cancelAllEffects()
    #expect(await store.waitForEffects())
    #expect(!store.state.log.contains { $0.hasSuffix(" end") })
    #expect(!store.state.log.contains("second start"))
  }

  @Test("cancelling the waiting task ends the wait early and leaves the effects running")
  func cancelledWait() async {
    let store = makeStore()
    store.launch(WaitAtGate(name: "upload"))
    let waiting = Task { await store.waitForEffects() }
    waiting.cancel()
    #expect(await waiting.value == false)
    store.dependencies.gate.open()
    #expect(await store.waitForEffects())
    #expect(store.state.log == ["upload start", "upload end"])
  }
}
