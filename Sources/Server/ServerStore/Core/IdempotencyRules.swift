/// How a write keeps its request's `Idempotency-Key` in its own transaction (see
/// `IdempotentRequest`): a key kept and not expired returns its result without running the write;
/// else the write runs and, when it changed something, its result is kept with the key
/// (replacing an expired one). Two requests with one key may both find it free (two PostgreSQL
/// instances): the second's insert of the key then waits for the first's transaction and, when
/// that commits, finds the key taken, so its own write is rolled back
/// (`KeyTakenMeanwhile`) and it returns the first's result (`replay`).
enum IdempotencyRules {
    /// Another request with the same key committed while this one ran.
    struct KeyTakenMeanwhile: Error {}

    /// `write` guarded by the request's key.
    static func keyed<T: KeyedResult>(_ write: Plan<T>, _ request: IdempotentRequest) -> Plan<T> {
        (kept(request) as Plan<T?>).then { kept in
            if let kept { return .done(kept) }
            return write.then { result in keep(result, request) }
        }
    }

    /// The result kept for the request's key; `KeyTakenMeanwhile` again if there is none.
    static func replay<T: KeyedResult>(_ request: IdempotentRequest) -> Plan<T> {
        (kept(request) as Plan<T?>).then { kept in
            guard let kept else { throw KeyTakenMeanwhile() }
            return .done(kept)
        }
    }

    /// The result kept for the request's key if it has not expired, after forgetting the expired
    /// keys now and then (`IdempotentRequest.prunes`).
    private static func kept<T: KeyedResult>(_ request: IdempotentRequest) -> Plan<T?> {
        let find: Plan<T?> = .run("""
            SELECT fingerprint, result FROM idempotent_writes
            WHERE owner_id = \(request.owner) AND key = \(request.key) AND created_at >= \(request.expiredBefore)
            """) { rows in
            guard let row = rows.first else { return .done(nil) }
            let result: T = try request.replay(fingerprint: try row.blob(0), result: try row.blob(1))
            return .done(result)
        }
        guard request.prunes else { return find }
        return .run("DELETE FROM idempotent_writes WHERE created_at < \(request.expiredBefore)") { _ in find }
    }

    /// Keeps `result` with the request's key when the write changed something.
    private static func keep<T: KeyedResult>(_ result: T, _ request: IdempotentRequest) -> Plan<T> {
        do {
            guard let kept = try request.kept(result) else { return .done(result) }
            return .run("""
                INSERT INTO idempotent_writes (owner_id, key, fingerprint, result, created_at)
                VALUES (\(request.owner), \(request.key), \(request.fingerprint), \(kept), \(request.now.timeIntervalSince1970))
                ON CONFLICT (owner_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, result = excluded.result,
                    created_at = excluded.created_at
                WHERE idempotent_writes.created_at < \(request.expiredBefore)
                RETURNING 1
                """) { rows in
                guard !rows.isEmpty else { throw KeyTakenMeanwhile() }
                return .done(result)
            }
        } catch {
            return .failed(error)
        }
    }
}
