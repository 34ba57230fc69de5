import Foundation
import Hummingbird

extension Response {
    /// A response whose body is `value` as JSON.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The same for the hot response types, written without `JSONEncoder` (see `JSONWritable`).
    static func json(_ value: some JSONWritable, status: HTTPResponse.Status = .ok) throws -> Response {
        var output = JSONOutput(capacity: 4096)
        value.write(to: &output)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: output.bytes))
        )
    }
}
