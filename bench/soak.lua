-- wrk script for bench/soak.sh: a mixed PetSpot workload with every answer checked by its shape.
--   wrk ... -s bench/soak.lua URL -- mixed|steady SEEDS_FILE PHOTO_FILE
-- mixed:  per 10 requests 2 create, 1 photo upload, 4 get by id, 3 list (every create grows the store);
-- steady: the same without creates (1 upload, 5 get, 4 list), so the store cannot grow.
-- Uploads and reads go to the announcements in SEEDS_FILE (`id base64(id:password)` lines, made by
-- bench/harden.py seed): a second upload replaces the first photo, so the listed set stays the seeds.

local patterns = {
    mixed  = { "create", "get", "list", "get", "upload", "get", "list", "create", "get", "list" },
    steady = { "upload", "get", "list", "get", "list", "get", "upload", "get", "list", "get" },
}

-- The main state keeps every thread, so done() can add up their counters.
local threads = {}
function setup(thread)
    table.insert(threads, thread)
end

local function read_file(path, mode)
    local f = assert(io.open(path, mode or "r"))
    local data = f:read("*a")
    f:close()
    return data
end

function init(args)
    mode = args[1] or "mixed"
    pattern = assert(patterns[mode], "mode must be mixed or steady")
    local photo = read_file(args[3] or "bench/out/soak-photo.png", "rb")
    local boundary = "SoakBoundary7"
    local body = "--" .. boundary .. "\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"pet.png\"\r\n"
        .. "Content-Type: image/png\r\n\r\n" .. photo .. "\r\n--" .. boundary .. "--\r\n"
    requests = { create = {}, get = {}, list = {}, upload = {} }
    for line in io.lines(args[2] or "bench/out/soak-seeds.txt") do
        local id, credentials = line:match("(%S+) (%S+)")
        table.insert(requests.get, wrk.format("GET", "/api/v1/announcements/" .. id))
        table.insert(requests.upload, wrk.format("POST", "/api/v1/announcements/" .. id .. "/photos", {
            ["Content-Type"] = "multipart/form-data; boundary=" .. boundary,
            ["Authorization"] = "Basic " .. credentials,
        }, body))
    end
    table.insert(requests.create, wrk.format("POST", "/api/v1/announcements",
        { ["Content-Type"] = "application/json" }, read_file("bench/create-body.json")))
    table.insert(requests.list, wrk.format("GET", "/api/v1/announcements"))
    step = 0
    sent_create, sent_upload, sent_get, sent_list = 0, 0, 0, 0
    ok_create, ok_upload, ok_get, ok_list, unexpected = 0, 0, 0, 0, 0
    first_unexpected = ""
end

function request()
    step = step + 1
    local kind = pattern[(step - 1) % #pattern + 1]
    local choices = requests[kind]
    if kind == "create" then sent_create = sent_create + 1
    elseif kind == "upload" then sent_upload = sent_upload + 1
    elseif kind == "get" then sent_get = sent_get + 1
    else sent_list = sent_list + 1 end
    return choices[(step % #choices) + 1]
end

-- Classified by what came back: the API's success answers have distinct shapes.
function response(status, headers, body)
    if status == 201 and body:find("\"managementPassword\"", 1, true) then
        ok_create = ok_create + 1
    elseif status == 201 and body == "{}" then
        ok_upload = ok_upload + 1
    elseif status == 200 and body:sub(1, 8) == "{\"data\":" then
        ok_list = ok_list + 1
    elseif status == 200 and body:find("\"id\"", 1, true) and not body:find("managementPassword", 1, true) then
        ok_get = ok_get + 1
    else
        unexpected = unexpected + 1
        if first_unexpected == "" then first_unexpected = status .. " " .. body:sub(1, 160) end
    end
end

function done(summary, latency, requests)
    local totals = { sent_create = 0, sent_upload = 0, sent_get = 0, sent_list = 0,
                     ok_create = 0, ok_upload = 0, ok_get = 0, ok_list = 0, unexpected = 0 }
    local sample = ""
    for _, thread in ipairs(threads) do
        for name, _ in pairs(totals) do totals[name] = totals[name] + (thread:get(name) or 0) end
        local first = thread:get("first_unexpected")
        if sample == "" and first and first ~= "" then sample = first:gsub('"', "'"):gsub("[%c\\]", " ") end
    end
    local e = summary.errors
    local seconds = summary.duration / 1e6
    io.write(string.format(
        '{"mode": "%s", "requests": %d, "seconds": %.3f, "rps": %.1f, "p50_ms": %.3f, "p99_ms": %.3f, '
        .. '"non2xx": %d, "socketErrors": {"connect": %d, "read": %d, "write": %d, "timeout": %d}, '
        .. '"sent": {"create": %d, "upload": %d, "get": %d, "list": %d}, '
        .. '"answered": {"create": %d, "upload": %d, "get": %d, "list": %d}, "unexpected": %d, "firstUnexpected": "%s"}\n',
        threads[1]:get("mode"), summary.requests, seconds, summary.requests / seconds,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, e.status, e.connect, e.read, e.write, e.timeout,
        totals.sent_create, totals.sent_upload, totals.sent_get, totals.sent_list,
        totals.ok_create, totals.ok_upload, totals.ok_get, totals.ok_list, totals.unexpected, sample))
end
