import CCurl

/// One attempt in flight: the easy handle, what libcurl reported so far, and where the result goes.
///
/// Confined to the worker thread from the moment the engine picks it up (libcurl calls the
/// callbacks below from `curl_multi_perform`, on that thread); it crosses threads once, inside the
/// engine's lock, hence `@unchecked Sendable`.
final class Transfer: @unchecked Sendable {
    let id: UInt64
    let exchange: Exchange
    let sink: TransferSink

    var handle: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    /// libcurl writes its description of a failure here (CURLOPT_ERRORBUFFER).
    let errorBuffer: UnsafeMutablePointer<CChar>

    /// The status of the latest response head (1xx heads are replaced by the final one).
    var status = 0
    var headers: [(name: String, value: String)] = []
    var body: [UInt8] = []
    /// Set by a callback that stopped the transfer (by returning less than it was given).
    var failure: HTTPClientError?
    /// When the transfer started or last received anything, for the idle timeout of event streams.
    private(set) var lastActivity = ContinuousClock.now

    init(id: UInt64, exchange: Exchange, sink: TransferSink) {
        self.id = id
        self.exchange = exchange
        self.sink = sink
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        errorBuffer.deallocate()
    }

    private var isStreamingBody: Bool {
        if case .streaming = sink { return (200..<300).contains(status) }
        return false
    }

    /// One header line (libcurl passes whole lines, CRLF included).
    func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = .now
        var line = Array(bytes)
        while let last = line.last, last == 0x0A || last == 0x0D { line.removeLast() }
        if line.starts(with: Array("HTTP/".utf8)) {
            // A new head (after a 100 Continue, say): forget the previous one.
            let parts = line.split(separator: 0x20, maxSplits: 2)
            status = parts.count > 1 ? Int(String(decoding: parts[1], as: UTF8.self)) ?? 0 : 0
            headers = []
        } else if line.isEmpty {
            // The end of a head; only the final one (status ≥ 200) opens a stream.
            if case .streaming(let continuation) = sink, isStreamingBody {
                continuation.yield(.head(headers: headers))
            }
        } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self)
            headers.append((name: name, value: value.trimmingSpaces))
        }
        return bytes.count
    }

    /// A piece of the body.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastActivity = .now
        if case .streaming(let continuation) = sink, isStreamingBody {
            guard case .enqueued = continuation.yield(.bytes(Array(bytes))) else {
                failure = .undecodable(status: status, body: [], reason: "the server sends faster than its stream is read")
                return 0
            }
            return bytes.count
        }
        guard body.count + bytes.count <= exchange.maxResponseBytes else {
            failure = .undecodable(status: status, body: body, reason: "response larger than \(exchange.maxResponseBytes) bytes")
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// libcurl's description of the last failure, or nil when it wrote none.
    var errorMessage: String? {
        let message = String(cString: errorBuffer)
        return message.isEmpty ? nil : message
    }
}
