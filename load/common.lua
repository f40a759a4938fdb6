-- Shared by the per-operation scripts: a POST of a JSON body read from load/bodies/, and a
-- summary printed as one JSON line that load/run.py reads.
local M = {}

function M.post(path, body_file)
  local f = assert(io.open(body_file, "rb"))
  wrk.method = "POST"
  wrk.path = path
  wrk.body = f:read("*a")
  f:close()
  -- Sync workers close every connection; say so, as real clients of such a server do.
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Connection"] = "close"
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
