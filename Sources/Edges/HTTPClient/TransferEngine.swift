import Synchronization

/// What a streamed transfer hands its consumer, in order: the head of a 2xx response once, its
/// body bytes as they arrive, then one end (nil for a clean end of the response). A non-2xx
/// response yields no head or bytes, only `refused` with the whole response (its `Retry-After`
/// included), and nothing after it.
public enum StreamPart: Sendable {
    case head(headers: [(name: String, value: String)])
    case bytes([UInt8])
    case refused(HTTPClient.Response)
    case end(HTTPClientError?)
}

/// Where a transfer's result goes.
enum TransferSink {
    /// A whole response (any status) or a failure, to one awaiting call.
    case buffered(CheckedContinuation<Result<HTTPClient.Response, HTTPClientError>, Never>)
    /// Parts as they arrive, to a stream. A non-2xx response is collected and ends the stream
    /// with `.refused` instead.
    case streaming(AsyncStream<StreamPart>.Continuation)
}

/// What runs exchanges: `CurlEngine` (libcurl, for servers reached over the network) or
/// `SocketEngine` (plain HTTP/1.1 over the local server's unix socket, so the dashboard's usual
/// start never loads libcurl and its TLS stacks). Both run their transfers on one worker thread
/// of their own; callers hand them over with `submit` and wait here.
protocol TransferEngine: AnyObject, Sendable {
    /// Queues an exchange; its outcome goes to `sink` (always exactly once for `.buffered`).
    func submit(id: UInt64, exchange: Exchange, sink: TransferSink)
    /// Removes a transfer; its sink gets `.cancelled`. Unknown or finished ids are ignored.
    func cancel(_ id: UInt64)
    /// Ends every transfer with `.cancelled` and stops the worker.
    func shutDown()
}

/// Transfer ids, unique in the process.
private let transferIDs = Atomic<UInt64>(0)

extension TransferEngine {
    /// Runs one exchange and returns its response (whatever the status) or why there is none.
    /// Cancelling the calling task removes the transfer and returns `.cancelled`.
    func perform(_ exchange: Exchange) async -> Result<HTTPClient.Response, HTTPClientError> {
        let id = transferIDs.wrappingAdd(1, ordering: .relaxed).newValue
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                submit(id: id, exchange: exchange, sink: .buffered(continuation))
                // Cancelled before the transfer was queued: the handler below already ran and
                // found nothing to cancel, so cancel now (after the queueing).
                if Task.isCancelled { cancel(id) }
            }
        } onCancel: {
            cancel(id)
        }
    }

    /// Starts an exchange whose body is handed over as it arrives; ending the consumption of the
    /// returned stream (cancelling its task, or dropping it) removes the transfer.
    func stream(_ exchange: Exchange) -> AsyncStream<StreamPart> {
        let id = transferIDs.wrappingAdd(1, ordering: .relaxed).newValue
        let (parts, continuation) = AsyncStream.makeStream(of: StreamPart.self, bufferingPolicy: .bufferingOldest(maxBufferedParts))
        continuation.onTermination = { [weak self] termination in
            if case .cancelled = termination { self?.cancel(id) }
        }
        submit(id: id, exchange: exchange, sink: .streaming(continuation))
        return parts
    }
}

/// The most parts a stream holds that its reader has not taken yet (both engines hand over at
/// most 16 KiB at a time, so at most 8 MiB): a server that sends faster than the reader keeps up
/// is dropped rather than buffered without end.
let maxBufferedParts = 512

extension TransferSink {
    /// Hands the result to whoever waits: the awaiting call, or the stream (which then ends).
    func deliver(_ outcome: Result<HTTPClient.Response, HTTPClientError>) {
        switch self {
        case .buffered(let continuation):
            continuation.resume(returning: outcome)
        case .streaming(let continuation):
            switch outcome {
            case .success(let response) where (200..<300).contains(response.status):
                continuation.yield(.end(nil))
            case .success(let response):
                continuation.yield(.refused(response))
            case .failure(let error):
                continuation.yield(.end(error))
            }
            continuation.finish()
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
