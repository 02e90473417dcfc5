-- POST: every request is POST /api/user with a small JSON body (82 bytes, Content-Length),
-- which the server reads through the body stream before answering the user's JSON: the
-- request-body path (bodies streamed to the handler) under W1's load.
local body = '{"id":1,"name":"Ada Lovelace","email":"ada@example.com","tags":["math","engines"]}'
local request_bytes

function init(args)
  request_bytes = wrk.format("POST", "/api/user", { ["Content-Type"] = "application/json" }, body)
end

function request()
  return request_bytes
end
