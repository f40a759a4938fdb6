-- Shared by the per-operation scripts: a POST of a JSON body read from load/bodies/, and a
-- summary printed as one JSON line that load/run.py reads.
local M = {}

function M.post(path, body_file, content_type)
  local f = assert(io.open(body_file, "rb"))
  wrk.method = "POST"
  wrk.path = path
  wrk.body = f:read("*a")
  f:close()
  wrk.headers["Content-Type"] = content_type or "application/json"
  -- A client that opens a connection per request says so; with WRK_KEEPALIVE=1, wrk keeps
  -- its connections and sends request after request on them, as a backend's pool does.
  if os.getenv("WRK_KEEPALIVE") ~= "1" then
    wrk.headers["Connection"] = "close"
  end
end

function M.done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "non_2xx": %d, "connect_errors": %d, "read_errors": %d, ' ..
    '"write_errors": %d, "timeouts": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d}\n',
    summary.requests, summary.duration, e.status, e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end

return M
