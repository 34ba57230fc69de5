import Foundation
import Hummingbird
import Synchronization

/// The smallest remote app entry that speaks the protocol over HTTP: one session at a time,
/// one view on its stream, which it keeps open until the session is deleted (the proxy forgets a
/// session whose stream ended), at most ten seconds. A real server on loopback, for the proxy's routes.
enum TestEntry {
    static let answer = #"{"jsonrpc":"2.0","id":1,"result":{"protocol":"1.0","capabilities":{}}}"#
    static let view = #"{"jsonrpc":"2.0","method":"view","params":{"revision":1,"root":{"type":"text","text":"hello"}}}"#

    private final class Ended: Sendable {
        let value = Atomic<Bool>(false)
    }

    static func application() -> some ApplicationProtocol {
        let router = Router()
        let ended = Ended()
        router.get("health") { _, _ in Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"status":"up"}"#))) }
        router.post("sessions") { _, _ in
            Response(status: .created, headers: [.location: "/sessions/s1", .contentType: "application/json"],
                     body: .init(byteBuffer: ByteBuffer(string: answer)))
        }
        router.get("sessions/{session}/events") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ": hello\nid: 99\ndata: \(view)\n\n"))
                // Until the session is closed, at most 30 s: its end ends the session at the server,
                // and the conformance test checks the session's message and close after it (10 s
                // was too short for a loaded machine: CI once got 404 for both).
                let deadline = ContinuousClock.now + .seconds(30)
                while !ended.value.load(ordering: .relaxed), ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(20))
                }
                try await writer.finish(nil)
            })
        }
        router.post("sessions/{session}/messages") { _, _ in Response(status: .accepted) }
        router.delete("sessions/{session}") { _, _ in
            ended.value.store(true, ordering: .relaxed)
            return Response(status: .noContent)
        }
        return Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }
}
