-- POST create with bench/create-body.json (the pact's "minimal report created" request: no microchip
-- number, so repeated creates never conflict), then the JSON report line.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local file = assert(io.open("bench/create-body.json", "r"))
wrk.body = file:read("*a")
file:close()

-- The report line is the same for every benchmark.
dofile("bench/report.lua")
