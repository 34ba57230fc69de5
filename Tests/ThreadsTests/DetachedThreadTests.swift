import Testing
@testable import Threads

@Suite("Detached threads")
struct DetachedThreadTests {
    /// A stack larger than the address space: `pthread_create` fails, as it does when the user's
    /// processes are at their limit (which root, as tests run in CI, is exempt from).
    static let impossibleStack = 1 << 50

    @Test(.timeLimit(.minutes(1)))
    func workWhoseThreadCannotStartRunsAnywayWithoutATrap() async {
        #expect(!DetachedThread.startThread(stackSize: Self.impossibleStack) {})
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DetachedThread.start(stackSize: Self.impossibleStack) { done.resume() }
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func workRunsOnAThreadOfItsOwn() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            #expect(DetachedThread.startThread(stackSize: 256 * 1024) { done.resume() })
        }
    }
}
