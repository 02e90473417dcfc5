-- W2: the seed's mix. Every 20 requests on a wrk thread are 9 x GET /, 9 x GET /api/user and
-- 2 x GET /api/compute (45/45/10), spread evenly rather than drawn at random, so that every
-- run sends exactly the same mix.
local paths = {
  "/", "/api/user", "/", "/api/user", "/", "/api/user", "/", "/api/user", "/", "/api/compute",
  "/api/user", "/", "/api/user", "/", "/api/user", "/", "/api/user", "/", "/api/user", "/api/compute",
}
local requests = {}
local next_index = 0

function init(args)
  for i, path in ipairs(paths) do
    requests[i] = wrk.format("GET", path)
  end
end

function request()
  next_index = next_index % #requests + 1
  return requests[next_index]
end
