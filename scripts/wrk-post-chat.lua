-- wrk script: POST a chat message (the token comes from the TOKEN environment variable).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
wrk.body = '{"text": "benchmark message from wrk"}'
