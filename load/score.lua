-- wrk script: POST /v1/deals/score (body: load/bodies/score.json).
package.path = "load/?.lua;" .. package.path
local common = require("common")
common.post("/v1/deals/score", "load/bodies/score.json")
done = common.done
