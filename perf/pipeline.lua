-- wrk script: HTTP/1.1 pipelining. Every write sends DEPTH requests back to back (default 16) and wrk waits
-- for all DEPTH responses before the next write. Usage:
--   wrk -t2 -c100 -d30s --latency -s perf/pipeline.lua http://127.0.0.1:8080/hello -- 16
-- Requests/sec counts individual responses; latencies are measured per response from the start of its batch.

local depth = 16
local req

init = function(args)
   if args[1] ~= nil then
      depth = tonumber(args[1])
   end
   local r = {}
   for i = 1, depth do
      r[i] = wrk.format(nil) -- method, path, headers and body from the command line / URL
   end
   req = table.concat(r)
end

request = function()
   return req
end
