import Foundation
import Hummingbird

extension Request {
    /// Decodes the body as JSON of `T`, collecting at most the context's `maxUploadSize` (413 beyond).
    /// - Throws: `APIFailure.badRequest` naming the field at fault for malformed or mistyped JSON.
    package func decodeJSON<T: Decodable>(_ type: T.Type, context: some RequestContext) async throws -> T {
        let buffer = try await body.collect(upTo: context.maxUploadSize)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw Self.failure(for: error)
        }
    }

    private static func failure(for error: DecodingError) -> APIFailure {
        if case .typeMismatch(_, let context) = error, context.codingPath.isEmpty {
            return .badRequest("body must be a JSON object", field: nil)
        }
        return switch error {
        case .keyNotFound(let key, let context):
            .badRequest("is required", field: fieldName(context.codingPath + [key]))
        case .typeMismatch(let type, let context):
            .badRequest("must be \(describe(type))", field: fieldName(context.codingPath))
        case .valueNotFound(let type, let context):
            .badRequest("must be \(describe(type))", field: fieldName(context.codingPath))
        case .dataCorrupted(let context):
            context.codingPath.isEmpty
                ? .badRequest("body must be a JSON object, its numbers within 64-bit integers", field: nil)
                : .badRequest("is not valid", field: fieldName(context.codingPath))
        @unknown default:
            .badRequest("body must be a JSON object", field: nil)
        }
    }

    private static func fieldName(_ path: [any CodingKey]) -> String? {
        path.isEmpty ? nil : path.map(\.stringValue).joined(separator: ".")
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is String?.Type: "a string"
        case is Bool.Type, is Bool?.Type: "true or false"
        case is Int.Type, is Int64.Type: "an integer"
        default: "of type \(type)"
        }
    }
}
