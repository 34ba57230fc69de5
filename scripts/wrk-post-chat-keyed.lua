-- wrk script: POST a chat message with a new Idempotency-Key each time, as the dashboard's outbox
-- sends its writes (the token comes from the TOKEN environment variable).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
wrk.body = '{"text": "benchmark message from wrk"}'

local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("prefix", string.format("wrk-%d-%d-", os.time(), threads))
end

local sent = 0
function request()
  sent = sent + 1
  local headers = { ["Idempotency-Key"] = prefix .. sent }
  for name, value in pairs(wrk.headers) do headers[name] = value end
  return wrk.format(nil, nil, headers)
end
