-- wrk script: the most expensive edit a member can send, over and over: a pane's state of 10 000
-- U+0001 (60 KB as JSON, within a request's 64 KiB), each edit from a session of its own so every
-- one is ordered. TOKEN, CANVAS and PANES come from the environment (scripts/bench-hostile-member).
local panes = tonumber(os.getenv("PANES"))
local state = string.rep("\\u0001", 10000)
local threads = 0
local counter = 0

function setup(thread)
    threads = threads + 1
    thread:set("prefix", "atk" .. threads .. "-" .. os.time())
end

function request()
    counter = counter + 1
    local body = '{"session":"' .. prefix .. "-" .. counter .. '","sequence":1,"operation":{"op":"setState","pane":'
        .. (counter % panes + 1) .. ',"state":{"k":"' .. state .. '"}}}'
    return wrk.format("POST", "/api/canvas/" .. os.getenv("CANVAS") .. "/changes",
                      {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. os.getenv("TOKEN")}, body)
end
