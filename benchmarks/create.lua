-- POST create with a valid body (no microchip number, so repeated creates never conflict), then the JSON report line.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = assert(io.open("benchmarks/create-body.json", "r"))
wrk.body = file:read("*a")
file:close()

function done(summary, latency, requests)
    local seconds = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format(
        '{"requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.3f, "p99_ms": %.3f, "non2xx": %d, "errors": %d}\n',
        summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
