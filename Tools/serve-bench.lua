-- wrk script for Tools/serve-bench.sh: every request posts a Sentry envelope of the sample event under an event ID
-- no other request uses (the thread's number and a counter), with the project key from the environment.
-- With SERVE_BENCH_SESSIONS=1 each envelope also carries the session the crash ended, as Sentry's mobile SDKs send it
-- with the crash event (Tools/health-bench.sh).
local event = nil
local sessions = false
local counter = 0
-- thread_id is a global of each thread's Lua state, set by setup.
thread_id = 0
local threads = {}

function setup(thread)
    thread:set("thread_id", #threads + 1)
    table.insert(threads, thread)
end

function init(args)
    local file = assert(io.open(os.getenv("SERVE_BENCH_EVENT"), "rb"))
    event = file:read("*a")
    file:close()
    sessions = os.getenv("SERVE_BENCH_SESSIONS") == "1"
    wrk.headers["X-Sentry-Auth"] = "Sentry sentry_key=" .. os.getenv("SERVE_BENCH_KEY") .. ", sentry_version=7"
    wrk.headers["Content-Type"] = "application/x-sentry-envelope"
end

function request()
    counter = counter + 1
    local id = string.format("%08x%024x", thread_id, counter)
    local item = string.gsub(event, "74DDB1F8%-B6F2%-1F71%-69C4%-291C85DE8EBC", id)
    local body = '{"event_id":"' .. id .. '"}\n{"type":"event","length":' .. #item .. '}\n' .. item .. '\n'
    if sessions then
        local session = '{"sid":"' .. id .. '","did":"user-' .. (counter % 5000) .. '","init":true,"started":"2026-11-28T10:00:00Z",'
            .. '"status":"crashed","errors":1,"attrs":{"release":"com.example.piratebay@3.1.0+412","environment":"production"}}'
        body = body .. '{"type":"session","length":' .. #session .. '}\n' .. session .. '\n'
    end
    return wrk.format("POST", nil, nil, body)
end
