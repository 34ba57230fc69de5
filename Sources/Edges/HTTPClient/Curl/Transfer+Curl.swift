import CCurl

/// What a transfer sets on its easy handle before it runs, and reads from it when it is done.
/// Worker thread only, like the rest of `Transfer`.
extension Transfer {
    /// Sets every option of this attempt on `handle`; returns why one was refused, if one was.
    func configure(_ handle: UnsafeMutableRawPointer) -> HTTPClientError? {
        var refused: (CURLoption, CURLcode)?
        func check(_ option: CURLoption, _ code: CURLcode) {
            if code != CURLE_OK, refused == nil { refused = (option, code) }
        }
        let context = Unmanaged.passUnretained(self).toOpaque()

        check(CURLOPT_URL, tc_curl_set_string(handle, CURLOPT_URL, exchange.url))
        check(CURLOPT_PROTOCOLS_STR, tc_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        // Several threads use libcurl; it must not use signals (SIGALRM) for timeouts.
        check(CURLOPT_NOSIGNAL, tc_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        check(CURLOPT_USERAGENT, tc_curl_set_string(handle, CURLOPT_USERAGENT, "termcanvas"))
        check(CURLOPT_ERRORBUFFER, tc_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        check(CURLOPT_CONNECTTIMEOUT_MS, tc_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT_MS, exchange.connectTimeoutMilliseconds))
        if exchange.totalTimeoutMilliseconds > 0 {
            check(CURLOPT_TIMEOUT_MS, tc_curl_set_long(handle, CURLOPT_TIMEOUT_MS, exchange.totalTimeoutMilliseconds))
        }
        if let socket = exchange.unixSocketPath {
            check(CURLOPT_UNIX_SOCKET_PATH, tc_curl_set_string(handle, CURLOPT_UNIX_SOCKET_PATH, socket))
        }
        if let certificates = exchange.trustedCertificates {
            check(CURLOPT_CAINFO, tc_curl_set_string(handle, CURLOPT_CAINFO, certificates))
        }
        check(CURLOPT_WRITEFUNCTION, tc_curl_set_write_callback(handle, CURLOPT_WRITEFUNCTION, bodyCallback))
        check(CURLOPT_WRITEDATA, tc_curl_set_pointer(handle, CURLOPT_WRITEDATA, context))
        check(CURLOPT_HEADERFUNCTION, tc_curl_set_write_callback(handle, CURLOPT_HEADERFUNCTION, headerCallback))
        check(CURLOPT_HEADERDATA, tc_curl_set_pointer(handle, CURLOPT_HEADERDATA, context))

        for line in exchange.headerLines {
            guard let list = tc_curl_slist_append(headerList, line) else { return .invalidRequest("out of memory for headers") }
            headerList = list
        }
        if let list = headerList {
            check(CURLOPT_HTTPHEADER, tc_curl_set_slist(handle, CURLOPT_HTTPHEADER, list))
        }

        let method = exchange.method
        if var body = exchange.body {
            // libcurl copies the body here, so it need not outlive this call. A POST with a body
            // is libcurl's default; any other method with a body is a custom request with it.
            if body.isEmpty { body = [0] }  // a valid address; the size below says 0
            check(CURLOPT_POSTFIELDSIZE_LARGE, tc_curl_set_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(exchange.body!.count)))
            body.withUnsafeMutableBytes { bytes in
                check(CURLOPT_COPYPOSTFIELDS, tc_curl_set_pointer(handle, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress))
            }
            if method != .post {
                check(CURLOPT_CUSTOMREQUEST, tc_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method.rawValue))
            }
        } else if method == .head {
            check(CURLOPT_NOBODY, tc_curl_set_long(handle, CURLOPT_NOBODY, 1))
        } else if method == .post {
            // A POST without a body: say so, or libcurl would read one from stdin.
            check(CURLOPT_POSTFIELDSIZE_LARGE, tc_curl_set_off_t(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0))
            check(CURLOPT_COPYPOSTFIELDS, tc_curl_set_string(handle, CURLOPT_COPYPOSTFIELDS, ""))
        } else if method != .get {
            check(CURLOPT_CUSTOMREQUEST, tc_curl_set_string(handle, CURLOPT_CUSTOMREQUEST, method.rawValue))
        }

        guard let (option, code) = refused else { return nil }
        return .invalidRequest("libcurl refused option \(option.rawValue): \(String(cString: tc_curl_easy_strerror(code)))")
    }

    /// The response, or the specific error, of this finished transfer, given libcurl's result
    /// code (read before the handle goes).
    func outcome(code: CURLcode) -> Result<HTTPClient.Response, HTTPClientError> {
        if let failure { return .failure(failure) }
        guard code == CURLE_OK else { return .failure(error(for: code)) }
        var connects = 0
        _ = tc_curl_get_long(handle, CURLINFO_NUM_CONNECTS, &connects)
        return .success(HTTPClient.Response(
            status: status, headers: headers, body: body, connectionReused: connects == 0
        ))
    }

    /// A libcurl failure as the caller sees it, the usual ones in our words (a user reads them).
    /// One timeout code covers the connect and the total timeout: both are `.timeout`.
    private func error(for code: CURLcode) -> HTTPClientError {
        let message = errorMessage ?? String(cString: tc_curl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return .timeout
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: return .invalidRequest(message)
        case CURLE_COULDNT_CONNECT: return .unreachable("nothing answers at \(origin)")
        case CURLE_COULDNT_RESOLVE_HOST: return .unreachable("the host name of \(origin) is not known")
        case CURLE_PEER_FAILED_VERIFICATION:
            return .unreachable("its certificate is not trusted here (a team's own CA: --ca-file FILE)")
        case CURLE_SSL_CONNECT_ERROR: return .unreachable("the TLS handshake failed (is it https on that port?)")
        case CURLE_GOT_NOTHING: return .unreachable("it closed the connection without answering")
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR: return .unreachable("the connection broke")
        default: return .unreachable(message)
        }
    }

    /// The scheme, host and port the transfer went to, for messages: the URL up to its path.
    private var origin: String {
        let url = exchange.url
        guard let scheme = url.firstRange(of: "://") else { return url }
        return String(url[..<(url[scheme.upperBound...].firstIndex(of: "/") ?? url.endIndex)])
    }
}

/// libcurl's write callback: hands body bytes to the transfer in `context`.
private let bodyCallback: curl_write_callback = { data, size, count, context in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
}

/// libcurl's header callback: hands each header line to the transfer in `context`.
private let headerCallback: curl_write_callback = { data, size, count, context in
    let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
    return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count))
}
