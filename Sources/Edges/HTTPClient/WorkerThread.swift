#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a detached OS thread. The HTTP client needs a real thread, not a task: libcurl's
/// `curl_multi_poll` blocks, and blocking a thread of Swift's cooperative pool would starve
/// every other task in the process.
enum WorkerThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on a new thread. (Not named: glibc's `pthread_setname_np` is a GNU extension
    /// Swift does not import, and the C shim is for libcurl only.)
    static func start(_ body: @escaping @Sendable () -> Void) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { argument in
            let pointer: UnsafeMutableRawPointer? = argument
            Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
            return nil
        }, box)
        // Only resource exhaustion makes this fail; a client without its worker could not do anything.
        precondition(result == 0, "cannot start the HTTP client's worker thread (error \(result))")
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
    }
}
