import Hummingbird
import ServerAPI
import ServerHTTP
import ServerStore

/// The routes for operators and tools, open without a token: liveness, readiness, metrics and the
/// API's own description.
struct OperationsController {
    let store: BFFStore
    let metrics: RequestMetrics

    func addRoutes(to router: Router<BFFRequestContext>) {
        router.get(RouterPath(APIPath.health)) { _, _ in
            try Response.json(["status": "ok"])
        }
        router.get(RouterPath(APIPath.ready)) { _, context in
            do {
                try await store.checkReadable()
                return try Response.json(["status": "ready"])
            } catch {
                context.logger.error("not ready: database unreachable", metadata: ["error": "\(error)"])
                throw APIFailure(status: .serviceUnavailable, body: APIError(error: "database unreachable"))
            }
        }
        router.get(RouterPath(APIPath.metrics)) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition()))
            )
        }
        router.get(RouterPath(APIPath.openAPI)) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/yaml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.openapi_yaml))
            )
        }
    }
}
