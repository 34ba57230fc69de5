import Foundation
import Hummingbird

extension Response {
    /// A response whose body is `value` as JSON.
    package static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The same for the hot response types, written without `JSONEncoder` (see `JSONWritable`).
    package static func json(_ value: some JSONWritable, status: HTTPResponse.Status = .ok) throws -> Response {
        .json(bytes: .json(value), status: status)
    }

    /// A JSON body already written.
    package static func json(bytes: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: bytes))
    }
}

extension ByteBuffer {
    /// `value` as JSON bytes, written without `JSONEncoder` (see `JSONWritable`).
    package static func json(_ value: some JSONWritable) -> ByteBuffer {
        var output = JSONOutput(capacity: 4096)
        value.write(to: &output)
        return ByteBuffer(bytes: output.bytes)
    }
}
