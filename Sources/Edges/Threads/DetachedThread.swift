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
    public static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) {
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
        // Only resource exhaustion makes this fail, and nothing that needs a thread can go on without it.
        precondition(result == 0, "cannot start a thread (error \(result))")
    }
}
