import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts detached OS threads, for work that blocks (libcurl's `curl_multi_poll`, `poll` on
/// pipes, waiting for a process): blocking a thread of Swift's cooperative pool would starve every
/// other task in the process. (Foundation's `Thread` is not in FoundationEssentials.)
public enum DetachedThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread with `stackSize` bytes of stack (the system's default when nil).
    /// (Not named: glibc's `pthread_setname_np` is a GNU extension Swift does not import.)
    ///
    /// When no thread can be started (the user's processes are at their limit, say because a
    /// program forks without end), `body` runs on a dispatch queue of its own instead, whose
    /// thread libdispatch keeps trying to start: late, never a trap that ends the canvas.
    public static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
        guard !startThread(stackSize: stackSize, body) else { return }
        DispatchQueue(label: "termcanvas.detached").async(execute: body)
    }

    /// Whether a thread was started to run `body`.
    static func startThread(stackSize: Int?, _ body: @escaping @Sendable () -> Void) -> Bool {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if let stackSize { pthread_attr_setstacksize(&attributes, stackSize) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, &attributes, { argument in
            let pointer: UnsafeMutableRawPointer? = argument
            Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return false
        }
        return true
    }
}
