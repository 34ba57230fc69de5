#!/bin/sh
# Sends one signed webhook event to a TermCanvas server, as a CI would:
#   DEPLOYS_HOOK_SECRET=… apps/deploys/hook.sh '{"event":"deploys.build.finished","data":{"build":412,"status":"passed"}}' [SERVER-URL]
# Without SERVER-URL it goes to this user's local server (its unix socket). Needs curl and openssl.
set -eu
body=${1:?usage: hook.sh JSON-BODY [SERVER-URL]}
secret=${DEPLOYS_HOOK_SECRET:?set DEPLOYS_HOOK_SECRET to the hook secret termcanvas apps publish printed}
timestamp=$(date +%s)
signature=$(printf '%s.%s' "$timestamp" "$body" | openssl dgst -sha256 -hmac "$secret" | sed 's/^.* //')
if [ $# -ge 2 ]; then
    set -- "$2/api/hooks/deploys"
else
    if [ -n "${XDG_RUNTIME_DIR:-}" ]; then socket=$XDG_RUNTIME_DIR/termcanvas/bff.sock; else socket=/tmp/termcanvas-$(id -u)/bff.sock; fi
    set -- --unix-socket "$socket" http://localhost/api/hooks/deploys
fi
curl --fail-with-body -sS -H "Content-Type: application/json" -H "X-Timestamp: $timestamp" \
    -H "X-Signature: sha256=$signature" --data-binary "$body" "$@"
echo
