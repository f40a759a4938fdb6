-- wrk script: POST /v1/tricks/winner (body: load/bodies/winner.json).
package.path = "load/?.lua;" .. package.path
local common = require("common")
common.post("/v1/tricks/winner", "load/bodies/winner.json")
done = common.done
