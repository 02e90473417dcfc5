-- W4: 16 requests for GET / written at once on each connection; wrk then reads 16 responses
-- before writing the next batch, and counts each response as one request.
local depth = 16
local batch

function init(args)
  local requests = {}
  for i = 1, depth do
    requests[i] = wrk.format("GET", "/")
  end
  batch = table.concat(requests)
end

function request()
  return batch
end
