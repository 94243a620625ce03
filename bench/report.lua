-- Prints one JSON line with the figures bench/run.sh reads (wrk gives latency in microseconds).
-- "timeouts" counts requests wrk gave up on after its 2 s timeout (also included in "errors").
function done(summary, latency, requests)
    local seconds = summary.duration / 1e6
    local e = summary.errors
    io.write(string.format(
        '{"requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.3f, "p99_ms": %.3f, "max_ms": %.3f, "non2xx": %d, "errors": %d, "timeouts": %d}\n',
        summary.requests, seconds, summary.requests / seconds, latency:percentile(50) / 1000,
        latency:percentile(99) / 1000, latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout, e.timeout))
end
